//! The chart of Δ by step per benchmark, bands for the intervals, on one axis: the HTML
//! scorecard's own figure (the core's SVG writer, every label escaped), so the page and the
//! download draw the same one.

use std::sync::Arc;

use eval_compare_core::scorecard::{delta_by_step, Scorecard, CHART_TITLE};
use leptos::prelude::*;

/// The figure, or why there is none (fewer than two steps with a Δ on every benchmark).
#[component]
pub fn DeltaChart(
    /// The scorecard.
    #[prop(into)]
    scorecard: Signal<Arc<Scorecard>>,
) -> impl IntoView {
    let svg = Memo::new(move |_| scorecard.with(|card| delta_by_step(card)));
    let container = NodeRef::<leptos::html::Div>::new();
    Effect::new(move |_| {
        if let Some(element) = container.get() {
            // The core's SVG: written by the scorecard's renderer, every label escaped.
            element.set_inner_html(&svg.get().unwrap_or_default());
        }
    });
    view! {
        <figure class="chart scorecard-chart">
            <figcaption class="chart-title">{CHART_TITLE}</figcaption>
            <div class="chart-svg scorecard-svg" node_ref=container></div>
            {move || {
                svg.with(Option::is_none).then(|| {
                    view! {
                        <p class="field-help">
                            "No benchmark has a Δ at two steps yet, so there is no line to draw."
                        </p>
                    }
                })
            }}
        </figure>
    }
}
