//! One row of the grid: the benchmark, its baseline (why it was chosen, a select of the
//! eligible ones), the baseline's mean, the MDE, the first significant step, and its cells.

use std::sync::Arc;

use eval_compare_core::scorecard::words::{
    baseline_mean_words, baseline_words, cell_words, first_significant_words, mde_words,
    others_words, previous_words, skipped_words,
};
use eval_compare_core::scorecard::{ListedRun, Scorecard, ScorecardCell};
use eval_compare_core::view_state::ScorecardLink;
use leptos::prelude::*;

use super::words::{cell_report_href, cell_tone, eligible_baselines, with_baseline};

/// The option of the select that leaves the choice to the rule (newest matching).
const AUTOMATIC: &str = "";

/// The select's first option: the baseline the rule chose (newest matching), or none.
fn automatic_label(summary: &eval_compare_core::scorecard::RowSummary) -> String {
    match (&summary.baseline.run_id, summary.baseline.by_hand) {
        (Some(id), false) => format!("{id} (newest matching)"),
        _ => "newest matching (automatic)".to_owned(),
    }
}

/// Row `row` of `scorecard`.
#[component]
pub fn GridRow(
    /// The scorecard.
    scorecard: Arc<Scorecard>,
    /// The row's index.
    row: usize,
    /// The page's link.
    link: Memo<ScorecardLink>,
    /// The listed runs.
    #[prop(into)]
    listed: Signal<Vec<ListedRun>>,
    /// Called with a changed link.
    on_link: Callback<ScorecardLink>,
) -> impl IntoView {
    let summary = scorecard.rows[row].clone();
    let width = scorecard.steps.len();
    let cells: Vec<ScorecardCell> = scorecard.cells[row * width..(row + 1) * width].to_vec();
    let bench = summary.bench_id.clone();
    let options = {
        let bench = bench.clone();
        listed.with(|listed| eligible_baselines(listed, &bench))
    };
    let chosen = summary
        .baseline
        .run_id
        .clone()
        .filter(|_| summary.baseline.by_hand);
    let on_pick = {
        let bench = bench.clone();
        move |event| {
            let value = event_target_value(&event);
            let run = (value != AUTOMATIC).then_some(value.as_str());
            on_link.run(link.with_untracked(|link| with_baseline(link, &bench, run)));
        }
    };
    let skipped = skipped_words(&summary.baseline).join("; ");
    let automatic = automatic_label(&summary);
    view! {
        <tr data-bench-id=bench.clone()>
            <th scope="row">{bench.clone()}</th>
            <td class="scorecard-baseline">
                <select aria-label=format!("Baseline of {bench}") on:change=on_pick>
                    <option value=AUTOMATIC selected=chosen.is_none()>{automatic}</option>
                    {options
                        .into_iter()
                        .map(|id| {
                            let selected = chosen.as_deref() == Some(id.as_str());
                            view! { <option value=id.clone() selected=selected>{id.clone()}</option> }
                        })
                        .collect_view()}
                </select>
                <details class="scorecard-why">
                    <summary>"Why this baseline"</summary>
                    <span>{baseline_words(&summary.baseline)}</span>
                    {(!skipped.is_empty()).then(|| view! { <span class="run-detail">{skipped}</span> })}
                </details>
            </td>
            <td class="num">{baseline_mean_words(&summary)}</td>
            <td class="scorecard-mde">{mde_words(&summary)}</td>
            <td>{first_significant_words(&summary)}</td>
            {cells.into_iter().map(|cell| view! { <Cell cell link/> }).collect_view()}
        </tr>
    }
}

/// One cell: Δ with its interval, the verdict, the coverage; a link to its pair's report.
#[component]
fn Cell(cell: ScorecardCell, link: Memo<ScorecardLink>) -> impl IntoView {
    let words = cell_words(&cell.state);
    let class = match cell_tone(&cell.state) {
        Some(tone) => format!("scorecard-cell {tone}"),
        None => "scorecard-cell".to_owned(),
    };
    let report = super::pages::ScorecardPages::in_context().report;
    let href = link.with_untracked(|link| cell_report_href(&cell, link, report));
    let compared = matches!(
        cell.state,
        eval_compare_core::scorecard::CellState::Compared { .. }
    );
    let delta = match href.filter(|_| compared) {
        Some(href) => view! { <a href=href class="scorecard-delta">{words.delta}</a> }.into_any(),
        None => view! { <span class="scorecard-delta muted">{words.delta}</span> }.into_any(),
    };
    let others = others_words(&cell).join("; ");
    let previous = cell.versus_previous.as_ref().map(previous_words);
    view! {
        <td class=class data-step=cell.step>
            {delta}
            {(!words.verdict.is_empty()).then(|| view! { <span class="scorecard-verdict">{words.verdict}</span> })}
            {(!words.coverage.is_empty()).then(|| view! { <span class="run-detail">{words.coverage}</span> })}
            {previous.map(|text| view! { <span class="run-detail">{text}</span> })}
            {(!others.is_empty()).then(|| view! { <span class="run-detail">{others}</span> })}
        </td>
    }
}
