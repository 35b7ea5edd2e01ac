//! The details expander's table of a headline card: every statistic of both analyses.

use std::sync::Arc;

use eval_compare_core::report::{detail_rows, DetailCells, Report, Topic};
use leptos::prelude::*;

use crate::components::explain::explain_button;

/// The table: the core's [`detail_rows`] of candidate `index`, the same rows the CLI's markdown
/// prints; its bootstrap rows say "computing…" while it is pending.
#[component]
pub fn DetailsTable(
    /// The report.
    report: Arc<Report>,
    /// Position of the candidate in [`Report::candidates`].
    index: usize,
    /// True while the bootstrap is still being computed.
    bootstrap_pending: Signal<bool>,
) -> impl IntoView {
    let settings = report.settings.clone();
    let body = move || {
        let pending = bootstrap_pending.get();
        let Some(candidate) = report.candidates.get(index) else {
            return Vec::new();
        };
        detail_rows(&report, candidate, pending)
            .into_iter()
            .map(|row| {
                let cells = match row.cells {
                    DetailCells::PerAnalysis {
                        primary,
                        sensitivity,
                    } => view! { <td>{primary}</td><td>{sensitivity}</td> }.into_any(),
                    DetailCells::Whole(text) => view! { <td colspan="2">{text}</td> }.into_any(),
                };
                view! {
                    <tr>
                        <th scope="row">
                            <span class="detail-label">{row.label}</span>
                            {explain_button(row.topic, &report.settings)}
                        </th>
                        {cells}
                    </tr>
                }
            })
            .collect::<Vec<_>>()
    };
    view! {
        <div class="table-scroll">
            <table class="data-table compact details-table">
                <thead>
                    <tr>
                        <th scope="col">"Statistic"</th>
                        <th scope="col">
                            "Primary (paired tasks)"
                            {explain_button(Topic::PrimaryAnalysis, &settings)}
                        </th>
                        <th scope="col">
                            "Sensitivity (failed and absent as 0)"
                            {explain_button(Topic::SensitivityAnalysis, &settings)}
                        </th>
                    </tr>
                </thead>
                <tbody>{body}</tbody>
            </table>
        </div>
    }
}
