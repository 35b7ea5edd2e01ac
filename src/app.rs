//! The app shell: contexts, header and the page of the current path.
//!
//! Routes: `/` the run picker; `/compare?…` a report over runs read from the API; `/files` run
//! folders opened from disk; `/files/compare?…` a report over those files. The query of every
//! route is the view state (see [`crate::state::url`]).

use leptos::prelude::*;

use crate::components::source_panel::{SourceButton, SourcePanel};
use crate::pages::lazy::{report_page, ReportPage};
use crate::pages::not_found::NotFoundPage;
use crate::pages::runs::RunsPage;
use crate::state::files::FileRuns;
use crate::state::history::{is_current, BrowserHistory};
use crate::state::loader::Loader;
use crate::state::source::SourceSettings;
use crate::state::url::{UrlState, COMPARE_PATH, FILES_COMPARE_PATH, FILES_PATH, PICKER_PATH};

/// The whole viewer: the source settings (API address and key), the browser's address as the
/// URL state, a header and the page chosen by the URL path.
#[component]
pub fn App() -> impl IntoView {
    provide_context(SourceSettings::from_storage());
    let history = BrowserHistory::start();
    provide_context(UrlState::from_browser(history));
    provide_context(Loader::new());
    provide_context(FileRuns::new());
    let path = history.path();
    view! {
        <header class="app-header">
            <h1 class="app-title">
                <NavLink href=PICKER_PATH path>"Eval Compare"</NavLink>
            </h1>
            <span class="app-tagline">"Did this checkpoint beat the baseline, where, and how surely?"</span>
            <nav class="app-nav" aria-label="Sources">
                <NavLink href=PICKER_PATH path>"Runs"</NavLink>
                <NavLink href=FILES_PATH path>"Files"</NavLink>
                <SourceButton/>
            </nav>
        </header>
        <SourcePanel/>
        <main class="app-main">{move || page(&path.get())}</main>
    }
}

/// The page at `path` (only a change of path re-creates it; the query is the page's own state).
fn page(path: &str) -> AnyView {
    match path {
        PICKER_PATH => view! { <RunsPage/> }.into_any(),
        COMPARE_PATH => report_page(ReportPage::Compare),
        FILES_PATH => report_page(ReportPage::Files),
        FILES_COMPARE_PATH => report_page(ReportPage::FilesCompare),
        _ => view! { <NotFoundPage/> }.into_any(),
    }
}

/// A link to one of the app's pages, marked `aria-current="page"` while that page is shown.
#[component]
fn NavLink(
    /// The page's path.
    href: &'static str,
    /// The current path.
    path: Memo<String>,
    /// The link's text.
    children: Children,
) -> impl IntoView {
    let current = move || path.with(|path| is_current(href, path)).then_some("page");
    view! { <a href=href aria-current=current>{children()}</a> }
}
