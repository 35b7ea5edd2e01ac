//! The start page's choice of source: Trajectory evaluations (`/`) or Chronicle backtests
//! (`/backtests`), as two tabs that are links.

use leptos::prelude::*;

use crate::route::Route;

/// The two sources as tabs, the one of `current` marked as the current page.
#[component]
pub fn SourceTabs(
    /// The picker shown: [`Route::Picker`] or [`Route::Backtests`].
    current: Route,
) -> impl IntoView {
    let tab = move |route: Route, label: &'static str, detail: &'static str| {
        let here = (route == current).then_some("page");
        view! {
            <a class="source-tab" href=route.path() aria-current=here>
                <span class="source-tab-label">{label}</span>
                <span class="source-tab-detail">{detail}</span>
            </a>
        }
    };
    view! {
        <nav class="source-tabs" aria-label="Source of the runs">
            {tab(Route::Picker, "Trajectory evaluations", "evaluation runs of an agent's benchmarks")}
            {tab(Route::Backtests, "Chronicle backtests", "backtest jobs on a task suite")}
        </nav>
    }
}
