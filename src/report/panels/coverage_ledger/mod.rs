//! The coverage ledger: what each run attempted, scored and lost, how many tasks each candidate
//! pairs with the baseline, which tasks are unpaired, and the warnings. Read it before believing
//! a mean.
//!
//! [`CoverageLedger`] lays out the sections: [`run_counts`] (the table per run),
//! [`outcome_bars`] (trajectories by outcome), [`pairing`] (each candidate against the
//! baseline) and the warnings; [`words`] makes their sentences from the core's figures.

pub mod outcome_bars;
pub mod pairing;
pub mod run_counts;
pub mod words;

use std::sync::Arc;

use eval_compare_core::coverage::group_warnings;
use eval_compare_core::report::Report;
use eval_compare_core::text::noun;
use leptos::prelude::*;

use outcome_bars::{OutcomeBar, OutcomeLegend};
use pairing::Pairings;
pub use pairing::UNPAIRED_SHOWN;
use run_counts::RunCountsTable;
use words::{named_runs, union_summary};
pub use words::{unpaired_tasks, UnpairedTask};

/// The ledger: counts per run (a table and a stacked bar of trajectories by outcome class),
/// each candidate's paired tasks and unpaired ones, and the coverage warnings.
#[component]
pub fn CoverageLedger(
    /// The report.
    #[prop(into)]
    report: Signal<Arc<Report>>,
) -> impl IntoView {
    let summary = move || report.with(|report| union_summary(&report.coverage));
    let bars = move || {
        report
            .with(|report| named_runs(report))
            .into_iter()
            .map(|(run, name)| view! { <OutcomeBar run name/> })
            .collect_view()
    };
    view! {
        <section class="panel coverage" aria-labelledby="coverage-title">
            <h3 id="coverage-title" class="panel-title">"Coverage"</h3>
            <p class="muted">{summary}</p>
            <RunCountsTable report/>
            <h4 class="subheading">"Trajectories by outcome"</h4>
            <OutcomeLegend/>
            <div class="outcome-bars">{bars}</div>
            <h4 class="subheading">"Pairing with the baseline"</h4>
            <div class="pairs">
                <Pairings report/>
            </div>
            <CoverageWarnings report/>
        </section>
    }
}

/// The coverage warnings, when there are any: grouped by code, most important first; a group
/// that can change the answer is open, the others are one line until opened.
#[component]
fn CoverageWarnings(report: Signal<Arc<Report>>) -> impl IntoView {
    move || {
        report.with(|report| {
            let warnings = &report.coverage.warnings;
            (!warnings.is_empty()).then(|| {
                let items = group_warnings(warnings)
                    .into_iter()
                    .map(|group| {
                        let messages = group
                            .warnings
                            .iter()
                            .map(|warning| view! { <li>{warning.message.clone()}</li> })
                            .collect_view();
                        let count = group.warnings.len();
                        let heading = format!(
                            "{} ({count} {})",
                            group.summary,
                            noun(count as u64, "line", "lines")
                        );
                        view! {
                            <li class="finding warning-group" data-code=group.code.to_owned()>
                                <details open=group.is_important()>
                                    <summary>
                                        <span class="severity severity-caution">"warning"</span>
                                        <code class="finding-code">{group.code.to_owned()}</code>
                                        <span class="finding-message">{heading}</span>
                                    </summary>
                                    <ul class="warning-lines">{messages}</ul>
                                </details>
                            </li>
                        }
                    })
                    .collect_view();
                view! {
                    <h4 class="subheading">"Coverage warnings"</h4>
                    <ul class="findings">{items}</ul>
                }
            })
        })
    }
}
