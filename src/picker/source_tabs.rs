//! The start page's choice of source: Trajectory evaluations (`/`) or Chronicle backtests
//! (`/backtests`, behind the split point: pointing at its tab starts fetching that code), as two
//! tabs that are links.

use leptos::prelude::*;

use crate::route::{ReportPage, ReportPrefetch, Route};

/// The two sources as tabs, the one of `current` marked as the current page.
#[component]
pub fn SourceTabs(
    /// The picker shown: [`Route::Picker`] or `/backtests`.
    current: Route,
) -> impl IntoView {
    let prefetch = ReportPrefetch::from_context();
    let tab = move |route: Route, label: &'static str, detail: &'static str| {
        let here = (route == current).then_some("page");
        let intent = move || {
            if let Some(prefetch) = prefetch.filter(|_| route.is_report() && route != current) {
                prefetch.run(());
            }
        };
        view! {
            <a
                class="source-tab"
                href=route.path()
                aria-current=here
                on:pointerenter=move |_| intent()
                on:focus=move |_| intent()
            >
                <span class="source-tab-label">{label}</span>
                <span class="source-tab-detail">{detail}</span>
            </a>
        }
    };
    view! {
        <nav class="source-tabs" aria-label="Source of the runs">
            {tab(Route::Picker, "Trajectory evaluations", "evaluation runs of an agent's benchmarks")}
            {tab(Route::Report(ReportPage::Backtests), "Chronicle backtests", "backtest jobs on a task suite")}
        </nav>
    }
}
