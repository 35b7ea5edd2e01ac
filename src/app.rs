//! The app shell: contexts, header and routes.
//!
//! Routes: `/` the run picker; `/compare?…` a report over runs read from the API; `/files` run
//! folders opened from disk; `/files/compare?…` a report over those files. The query of every
//! route is the view state (see [`crate::state::url`]).

use leptos::prelude::*;
use leptos_router::components::{Route, Router, Routes, A};
use leptos_router::path;

use crate::components::source_panel::{SourceButton, SourcePanel};
use crate::pages::files::{FilesComparePage, FilesPage};
use crate::pages::not_found::NotFoundPage;
use crate::pages::report::ComparePage;
use crate::pages::runs::RunsPage;
use crate::state::files::FileRuns;
use crate::state::loader::Loader;
use crate::state::source::SourceSettings;
use crate::state::url::UrlState;

/// The whole viewer: the source settings (API address and key), the router, a header and the
/// page chosen by the URL path.
#[component]
pub fn App() -> impl IntoView {
    provide_context(SourceSettings::from_storage());
    view! {
        <Router>
            <Shell/>
        </Router>
    }
}

/// Everything inside the router: the URL state in context, the header, the settings panel and
/// the routes.
#[component]
fn Shell() -> impl IntoView {
    provide_context(UrlState::from_router());
    provide_context(Loader::new());
    provide_context(FileRuns::new());
    view! {
        <header class="app-header">
            <h1 class="app-title">
                <A href="/">"Eval Compare"</A>
            </h1>
            <span class="app-tagline">"Did this checkpoint beat the baseline, where, and how surely?"</span>
            <nav class="app-nav" aria-label="Sources">
                <A href="/">"Runs"</A>
                <A href="/files">"Files"</A>
                <SourceButton/>
            </nav>
        </header>
        <SourcePanel/>
        <main class="app-main">
            <Routes fallback=NotFoundPage>
                <Route path=path!("/") view=RunsPage/>
                <Route path=path!("/compare") view=ComparePage/>
                <Route path=path!("/files") view=FilesPage/>
                <Route path=path!("/files/compare") view=FilesComparePage/>
            </Routes>
        </main>
    }
}
