//! The app shell: header and routes.

use leptos::prelude::*;
use leptos_router::components::{Route, Router, Routes, A};
use leptos_router::path;

use crate::pages::not_found::NotFoundPage;
use crate::pages::runs::RunsPage;
use crate::source::ApiSource;

/// The whole viewer: a header and the page chosen by the URL path, reading the API on the
/// page's own origin.
#[component]
pub fn App() -> impl IntoView {
    provide_context(ApiSource::page_origin());
    view! {
        <Router>
            <header class="app-header">
                <h1 class="app-title">
                    <A href="/">"Eval Compare"</A>
                </h1>
                <span class="app-tagline">"Did this checkpoint beat the baseline, where, and how surely?"</span>
            </header>
            <main class="app-main">
                <Routes fallback=NotFoundPage>
                    <Route path=path!("/") view=RunsPage/>
                </Routes>
            </main>
        </Router>
    }
}
