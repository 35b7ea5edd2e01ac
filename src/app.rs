//! The app shell: contexts, header and the page of the current path.
//!
//! Routes ([`crate::route`]): `/` the run picker; `/backtests` the Chronicle job picker;
//! `/compare?…` a report over runs read from the API; `/backtests/compare?…` a report over the
//! agents of Chronicle jobs; `/files` run folders opened from disk; `/files/compare?…` a report
//! over those files. The query of every route is the view state (see [`crate::state::url`]).

use leptos::prelude::*;

use crate::page_title::{route_subject, set_document_title};
use crate::pages::lazy::{prefetch_report_pages, report_page};
use crate::pages::not_found::NotFoundPage;
use crate::picker::page::RunsPage;
use crate::route::{ReportPage, ReportPrefetch, Route};
use crate::source_panel::{SourceButton, SourcePanel};
use crate::state::files::FileRuns;
use crate::state::history::BrowserHistory;
use crate::state::loader::Loader;
use crate::state::source::SourceSettings;
use crate::state::url::UrlState;

/// The whole viewer: the source settings (API address and key), the browser's address as the
/// URL state, a header and the page chosen by the URL path.
#[component]
pub fn App() -> impl IntoView {
    provide_context(SourceSettings::from_storage());
    let history = BrowserHistory::start();
    provide_context(UrlState::from_browser(history));
    provide_context(Loader::new());
    provide_context(FileRuns::new());
    provide_context(ReportPrefetch(Callback::new(|()| prefetch_report_pages())));
    let path = history.path();
    let route = Memo::new(move |_| path.with(|path| Route::parse(path)));
    // Each page's own title; a report names its comparison once computed.
    Effect::new(move |_| set_document_title(route_subject(route.get())));
    view! {
        <header class="app-header">
            <h1 class="app-title">
                <NavLink to=Route::Picker path>"Eval Compare"</NavLink>
            </h1>
            <span class="app-tagline">"Did this checkpoint beat the baseline, where, and how surely?"</span>
            <nav class="app-nav" aria-label="Sources">
                <NavLink to=Route::Picker path>"Runs"</NavLink>
                <NavLink to=Route::Report(ReportPage::Backtests) path>"Backtests"</NavLink>
                <NavLink to=Route::Report(ReportPage::Files) path>"Files"</NavLink>
                <SourceButton/>
            </nav>
        </header>
        <SourcePanel/>
        <main class="app-main">{move || page(route.get())}</main>
    }
}

/// The page of `route`, or "not found" for a path that names no page (only a change of page
/// re-creates it; the query is the page's own state).
fn page(route: Option<Route>) -> AnyView {
    match route {
        Some(Route::Picker) => view! { <RunsPage/> }.into_any(),
        Some(Route::Report(page)) => report_page(page),
        None => view! { <NotFoundPage/> }.into_any(),
    }
}

/// A link to one of the app's pages, marked `aria-current="page"` while that page is shown.
#[component]
fn NavLink(
    /// The page it links to.
    to: Route,
    /// The current path.
    path: Memo<String>,
    /// The link's text.
    children: Children,
) -> impl IntoView {
    let current = move || path.with(|path| to.is_current(path)).then_some("page");
    view! { <a href=to.path() aria-current=current>{children()}</a> }
}
