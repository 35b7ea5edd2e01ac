//! Money beside quality: each run's cost as billing splits it, per attempted and per solved
//! task; each candidate's Δ against the baseline; the quality–cost table and chart (the cost
//! beside each verdict, "· +0.40 ¢ per task" or "cost unavailable: …", never 0, is the card's:
//! `headline/beside.rs`). The numbers, cells and sentences are the core's (`report.cost`,
//! `core::report::words`), as in the markdown and HTML reports; this folder only lays them out.

mod quality_cost;

use std::sync::Arc;

use eval_compare_core::report::{
    cost_sentence, kind_sentence, run_cost_cells, CandidateCost, Report, Topic, COST_HEADING,
    COST_INTRO, RUN_COST_COLUMNS,
};
use leptos::prelude::*;

use crate::components::explain::explain_button;

use quality_cost::QualityCostView;

/// The panel; nothing when the report has no cost section.
#[component]
pub fn CostPanel(
    /// The report.
    #[prop(into)]
    report: Signal<Arc<Report>>,
) -> impl IntoView {
    move || {
        report.with(|report| {
            let cost = report.cost.as_ref()?;
            let rows = cost
                .runs
                .iter()
                .enumerate()
                .map(|(index, run)| cells_row(run_cost_cells(report, index, run)))
                .collect_view();
            let candidates = cost
                .candidates
                .iter()
                .filter_map(|candidate| candidate_lines(report, candidate))
                .collect_view();
            let explain = explain_button(Topic::Cost, &report.settings);
            Some(view! {
                <section class="panel cost-panel" aria-labelledby="cost-title">
                    <h3 id="cost-title" class="panel-title">{COST_HEADING}{explain}</h3>
                    <p class="muted">{COST_INTRO}</p>
                    <div class="table-scroll">
                        <table class="cost-runs">
                            <thead>
                                <tr>{head(&RUN_COST_COLUMNS)}</tr>
                            </thead>
                            <tbody>{rows}</tbody>
                        </table>
                    </div>
                    {candidates}
                    <QualityCostView report=Arc::clone(report)/>
                </section>
            })
        })
    }
}

/// One candidate's cost sentences.
fn candidate_lines(report: &Report, candidate: &CandidateCost) -> Option<impl IntoView> {
    let name = report.runs.get(candidate.run)?.name.clone();
    let (shown, full) = crate::format::shown_name(&name);
    let sentence = cost_sentence(report, candidate);
    let kinds = kind_sentence(candidate).map(|line| view! { <li class="cost-kinds">{line}</li> });
    Some(view! {
        <h4 class="cost-candidate" title=full data-run=candidate.run.to_string()>
            {shown}
        </h4>
        <ul class="cost-lines">
            <li class="cost-sentence">{sentence}</li>
            {kinds}
        </ul>
    })
}

pub(super) fn head(columns: &[&'static str]) -> impl IntoView {
    columns
        .iter()
        .map(|heading| view! { <th scope="col">{*heading}</th> })
        .collect_view()
}

fn cells_row(cells: Vec<String>) -> impl IntoView {
    let cells = cells
        .into_iter()
        .map(|text| view! { <td>{text}</td> })
        .collect_view();
    view! { <tr>{cells}</tr> }
}
