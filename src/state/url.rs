//! The URL query is the single source of truth of what the viewer shows.
//!
//! Every location change is read with [`ViewState::from_query`]; every change the user makes is
//! written with [`ViewState::to_query`]. A new comparison pushes a history entry (Back returns to
//! the previous one); a view tweak (filter, sort, focus, task, settings) replaces the current
//! entry. What the query could not use is kept as [`QueryIssue`]s for a notice, never a crash.
//! The query never holds the API key: the codec refuses key-like parameters.

use eval_compare_core::ledger::settle_link_ledger;
use eval_compare_core::view_state::{ParsedViewState, QueryIssue, ViewState};
use leptos::prelude::*;

use super::history::BrowserHistory;
use crate::route::Route;

/// One navigation the app asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Navigation {
    /// Path and query, e.g. `/compare?base=a&cand=b`.
    pub href: String,
    /// True to replace the current history entry, false to push a new one.
    pub replace: bool,
}

/// The address of `route` showing `view`: `path?query`, or the path alone when the query is
/// empty.
pub fn href(route: Route, view: &ViewState) -> String {
    with_query(route.path(), view)
}

/// `path?query` of `view`, or `path` alone when the query is empty.
fn with_query(path: &str, view: &ViewState) -> String {
    let query = view.to_query();
    if query.is_empty() {
        path.to_owned()
    } else {
        format!("{path}?{query}")
    }
}

/// The parameter of a comparison link opened from a scorecard's cell: the scorecard's own query
/// (percent-encoded), so the report links back to it. Kept apart from the [`ViewState`] (which
/// would call it unknown) and carried through the view's tweaks.
pub const FROM_SCORECARD: &str = "scorecard";

/// `query` without its [`FROM_SCORECARD`] parameter, and that parameter's value (still
/// percent-encoded) when present.
pub fn split_scorecard_origin(query: &str) -> (String, Option<String>) {
    let query = query.strip_prefix('?').unwrap_or(query);
    let mut origin = None;
    let rest: Vec<&str> = query
        .split('&')
        .filter(|pair| match pair.split_once('=') {
            Some((key, value)) if key == FROM_SCORECARD => {
                origin.get_or_insert_with(|| value.to_owned());
                false
            }
            _ => true,
        })
        .collect();
    (rest.join("&"), origin)
}

/// The view state read from the URL, and the way to change it.
#[derive(Debug, Clone, Copy)]
pub struct UrlState {
    path: Signal<String>,
    search: Signal<String>,
    parsed: Memo<ParsedViewState>,
    view: Memo<ViewState>,
    navigate: Callback<Navigation>,
}

impl UrlState {
    /// The state of the browser's address, following `history` (see [`BrowserHistory`]).
    pub fn from_browser(history: BrowserHistory) -> Self {
        let navigate = Callback::new(move |navigation: Navigation| {
            // A tweak keeps the reader where they are; a new page starts at the top.
            history.navigate(&navigation.href, navigation.replace);
        });
        Self::over(history.path().into(), history.search().into(), navigate)
    }

    /// A state kept in memory, starting at `path?query`, that records every navigation in the
    /// returned log: for views mounted outside the router, and for tests.
    pub fn in_memory(path: &str, query: &str) -> (Self, ReadSignal<Vec<Navigation>>) {
        let (log, set_log) = signal(Vec::<Navigation>::new());
        let location = RwSignal::new((path.to_owned(), query.to_owned()));
        let navigate = Callback::new(move |navigation: Navigation| {
            let (path, query) = match navigation.href.split_once('?') {
                Some((path, query)) => (path.to_owned(), query.to_owned()),
                None => (navigation.href.clone(), String::new()),
            };
            location.set((path, query));
            set_log.update(|log| log.push(navigation));
        });
        let path = Signal::derive(move || location.with(|(path, _)| path.clone()));
        let search = Signal::derive(move || location.with(|(_, query)| query.clone()));
        (Self::over(path, search, navigate), log)
    }

    fn over(path: Signal<String>, search: Signal<String>, navigate: Callback<Navigation>) -> Self {
        // A ledger that does not read is dropped with a notice, as any malformed value.
        let parsed = Memo::new(move |_| {
            let mut parsed =
                search.with(|query| ViewState::from_query(&split_scorecard_origin(query).0));
            settle_link_ledger(&mut parsed);
            parsed
        });
        let view = Memo::new(move |_| parsed.with(|parsed| parsed.state.clone()));
        Self {
            path,
            search,
            parsed,
            view,
            navigate,
        }
    }

    /// The view state (tracked).
    pub fn view(&self) -> ViewState {
        self.view.get()
    }

    /// The view state, untracked (in event handlers).
    pub fn view_untracked(&self) -> ViewState {
        self.view.get_untracked()
    }

    /// The view state as a signal, for component props.
    pub fn view_signal(&self) -> Signal<ViewState> {
        self.view.into()
    }

    /// What the query could not use (tracked).
    pub fn issues(&self) -> Vec<QueryIssue> {
        self.parsed.with(|parsed| parsed.issues.clone())
    }

    /// The current path (tracked).
    pub fn path(&self) -> String {
        self.path.get()
    }

    /// The current path, untracked (in event handlers).
    pub fn path_untracked(&self) -> String {
        self.path.get_untracked()
    }

    /// Opens `route` with `view`: a new history entry (a new comparison, another page).
    pub fn push(&self, route: Route, view: &ViewState) {
        self.navigate.run(Navigation {
            href: href(route, view),
            replace: false,
        });
    }

    /// Shows `view` on the current page, replacing the history entry (a view tweak); the
    /// scorecard the page was opened from, if any, stays in the link.
    pub fn replace(&self, view: &ViewState) {
        let path = self.path.get_untracked();
        let mut href = with_query(&path, view);
        if let Some(origin) = self.scorecard_origin_untracked() {
            href.push(if href.contains('?') { '&' } else { '?' });
            href.push_str(&format!("{FROM_SCORECARD}={origin}"));
        }
        self.navigate.run(Navigation {
            href,
            replace: true,
        });
    }

    /// The query string as in the address, without `?` (tracked): for pages whose state is not
    /// a [`ViewState`] (the scorecard's `ScorecardLink`).
    pub fn search(&self) -> String {
        self.search.get()
    }

    /// The scorecard this comparison was opened from: its [`FROM_SCORECARD`] parameter, still
    /// percent-encoded (tracked).
    pub fn scorecard_origin(&self) -> Option<String> {
        self.search.with(|query| split_scorecard_origin(query).1)
    }

    fn scorecard_origin_untracked(&self) -> Option<String> {
        self.search
            .with_untracked(|query| split_scorecard_origin(query).1)
    }

    /// Shows `path?query` (or `path` alone), replacing the history entry: a tweak of a page
    /// whose state is not a [`ViewState`].
    pub fn replace_href(&self, href: String) {
        self.navigate.run(Navigation {
            href,
            replace: true,
        });
    }

    /// A callback that replaces the view: what components that tweak the view are given.
    pub fn replace_callback(&self) -> Callback<ViewState> {
        let this = *self;
        Callback::new(move |view: ViewState| this.replace(&view))
    }
}

/// The URL state in context, or one kept in memory (at `/`) when the view is mounted alone.
pub fn use_url_state() -> UrlState {
    use_context::<UrlState>().unwrap_or_else(|| UrlState::in_memory(Route::Picker.path(), "").0)
}

#[cfg(test)]
mod tests {
    use super::split_scorecard_origin;

    #[test]
    fn the_scorecard_origin_is_taken_out_of_the_query() {
        assert_eq!(
            split_scorecard_origin("?base=a&scorecard=training%3Dt&cand=b"),
            ("base=a&cand=b".to_owned(), Some("training%3Dt".to_owned()))
        );
        assert_eq!(
            split_scorecard_origin("base=a&cand=b"),
            ("base=a&cand=b".to_owned(), None)
        );
        assert_eq!(split_scorecard_origin("").1, None);
    }
}
