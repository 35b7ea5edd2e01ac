//! What stands beside a candidate's Δ on its card: the core's parts ([`beside_delta_parts`]:
//! turns, tokens, a Chronicle trial's steps and duration, cost), each after [`BESIDE_DELTA`]
//! with its "?" and its whole sentence as the title, as the HTML report writes them.

use eval_compare_core::report::{beside_delta_parts, BesideKind, Report, BESIDE_DELTA};
use leptos::prelude::*;

use crate::components::explain::explain_button;

/// The class of a part's element (the end-to-end tests find the parts by it).
pub fn beside_class(kind: BesideKind) -> &'static str {
    match kind {
        BesideKind::Turns => "headline-effort",
        BesideKind::Tokens => "headline-tokens",
        BesideKind::TrialSteps => "headline-trial-steps",
        BesideKind::TrialDuration => "headline-trial-duration",
        BesideKind::Cost => "headline-cost",
    }
}

/// The parts beside candidate `index`'s Δ; nothing when the report has none.
pub fn beside_delta_view(report: &Report, index: usize) -> impl IntoView {
    let parts = report
        .candidates
        .get(index)
        .map(|candidate| beside_delta_parts(report, candidate))
        .unwrap_or_default();
    parts
        .into_iter()
        .map(|part| {
            let explain = explain_button(part.kind.topic(), &report.settings);
            view! {
                <span
                    class=beside_class(part.kind)
                    class:unavailable=part.unavailable
                    title=part.sentence
                >
                    {BESIDE_DELTA}
                    {part.text}
                    {explain}
                </span>
            }
        })
        .collect_view()
}
