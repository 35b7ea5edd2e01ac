//! The table of a benchmark's evaluation runs, optionally with the picker's selection controls.

use std::collections::HashMap;

use eval_compare_core::api::{EvalProgress, EvalRun, EvalRunStatus};
use eval_compare_core::text::visible;
use eval_compare_core::view_state::check_id;
use leptos::prelude::*;

use crate::components::status_badge::StatusBadge;
use crate::format;
use crate::picker::overview::RunRow;
use crate::picker::pick_cells::PickCells;
use crate::picker::run_progress::RunProgress;

/// The picker's choice among the table's runs: one baseline and any number of candidates.
#[derive(Debug, Clone, Copy)]
pub struct RunSelection {
    /// The baseline's run id.
    pub baseline: Signal<Option<String>>,
    /// The candidates' run ids.
    pub candidates: Signal<Vec<String>>,
    /// Called with a run id when the user makes it the baseline.
    pub on_baseline: Callback<String>,
    /// Called with a run id and whether it is now a candidate.
    pub on_candidate: Callback<(String, bool)>,
}

/// One row per run: name and id, what was evaluated, status, reward mean, samples, creation time.
///
/// With `selection`, two leading columns let the user mark the baseline (radio) and the
/// candidates (checkboxes). With `live`, a running run's progress follows the latest answer of
/// the progress endpoint instead of the one in its row.
#[component]
pub fn RunTable(
    /// The runs, in the order to show them.
    rows: Vec<RunRow>,
    /// The picker's selection controls, when the table is used to choose runs.
    #[prop(optional)]
    selection: Option<RunSelection>,
    /// Latest progress of running runs, by run id.
    #[prop(optional, into)]
    live: Option<Signal<HashMap<String, EvalProgress>>>,
) -> impl IntoView {
    let selectable = selection.is_some();
    view! {
        <div class="table-scroll">
            <table class="runs-table" class:selectable=selectable>
                <colgroup>
                    {selectable.then(|| view! { <col class="col-pick"/><col class="col-pick"/> })}
                    <col class="col-run"/>
                    <col class="col-evaluated"/>
                    <col class="col-status"/>
                    <col class="col-reward"/>
                    <col class="col-samples"/>
                    <col class="col-created"/>
                </colgroup>
                <thead>
                    <tr>
                        {selectable
                            .then(|| {
                                view! {
                                    <th scope="col" class="pick">"Baseline"</th>
                                    <th scope="col" class="pick">"Compare"</th>
                                }
                            })}
                        <th scope="col">"Run"</th>
                        <th scope="col">"Model / checkpoint"</th>
                        <th scope="col">"Status"</th>
                        <th scope="col" class="num">"Reward mean"</th>
                        <th scope="col" class="num">"Samples"</th>
                        <th scope="col">"Created"</th>
                    </tr>
                </thead>
                <tbody>
                    {rows
                        .into_iter()
                        .map(|row| view! { <RunTableRow row selection live/> })
                        .collect_view()}
                </tbody>
            </table>
        </div>
    }
}

/// One evaluation run as a table row.
#[component]
fn RunTableRow(
    row: RunRow,
    selection: Option<RunSelection>,
    live: Option<Signal<HashMap<String, EvalProgress>>>,
) -> impl IntoView {
    let RunRow { run, progress } = row;
    let run_id = run.eval_run_id.clone();
    let (name, full_name) = format::shown_name(format::run_name(&run));
    let pick_cells = selection.map(|selection| pick_cells(selection, &run_id, &name));
    let status = {
        let live_id = run_id.clone();
        let recorded = run.status.clone();
        move || {
            let latest = live.and_then(|live| live.with(|latest| latest.get(&live_id).cloned()));
            let progress = latest.or_else(|| progress.clone());
            let status = progress
                .as_ref()
                .and_then(|progress| progress.status.clone())
                .or_else(|| recorded.clone());
            let bar = progress
                .filter(|_| status == Some(EvalRunStatus::Running))
                .map(|progress| {
                    view! {
                        <RunProgress
                            terminal=progress.terminal_rollouts
                            total=progress.total_rollouts
                        />
                    }
                });
            view! {
                <StatusBadge status/>
                {bar}
            }
        }
    };
    let row_id = run_id.clone();
    view! {
        <tr data-run-id=row_id>
            {pick_cells}
            <td>
                <span class="run-name" title=full_name>{name}</span>
                <span class="run-id">{visible(&run_id).into_owned()}</span>
            </td>
            <td>
                {format::evaluated_model(&run)}
                {run
                    .training_run_id
                    .clone()
                    .map(|id| view! { <span class="run-detail">"training run "{id}</span> })}
            </td>
            <td>{status}</td>
            <td class="num">{format::reward_mean(run.reward_mean)}</td>
            <td class="num">
                {format::rollouts(&run)}
                {samples_detail(&run).map(|detail| view! { <span class="run-detail">{detail}</span> })}
            </td>
            <td class="muted nowrap">{format::timestamp(&run.created_at)}</td>
        </tr>
    }
}

/// The task count and samples per task under the planned rollouts, e.g. `403 tasks · 4 per task`.
fn samples_detail(run: &EvalRun) -> Option<String> {
    let per_task = run
        .options
        .evaluation_samples_per_task
        .map(|samples| format!("{samples} per task"));
    match (format::task_count(run), per_task) {
        (Some(tasks), Some(per_task)) => Some(format!("{tasks} · {per_task}")),
        (tasks, per_task) => tasks.or(per_task),
    }
}

/// The baseline radio and the candidate checkbox of one run; disabled, saying why, for a run
/// whose id no link can carry ([`check_id`]).
fn pick_cells(selection: RunSelection, run_id: &str, name: &str) -> impl IntoView {
    let refused = check_id(run_id)
        .err()
        .map(|why| format!("This run cannot be compared: its id is {why}"));
    let disabled = refused.is_some();
    let is_baseline = {
        let run_id = run_id.to_owned();
        Signal::derive(move || {
            selection
                .baseline
                .with(|base| base.as_deref() == Some(run_id.as_str()))
        })
    };
    let is_compared = {
        let run_id = run_id.to_owned();
        Signal::derive(move || {
            selection
                .candidates
                .with(|cands| cands.iter().any(|id| id == &run_id))
        })
    };
    let on_baseline = {
        let run_id = run_id.to_owned();
        Callback::new(move |()| selection.on_baseline.run(run_id.clone()))
    };
    let on_compare = {
        let run_id = run_id.to_owned();
        Callback::new(move |checked| selection.on_candidate.run((run_id.clone(), checked)))
    };
    PickCells {
        group: "baseline",
        baseline_label: format!("Use {name} as the baseline"),
        compare_label: format!("Compare {name} with the baseline"),
        baseline_refusal: Signal::stored(refused.clone()),
        compare_disabled: Signal::stored(disabled),
        compare_title: Signal::stored(refused),
        is_baseline,
        is_compared,
        on_baseline,
        on_compare,
    }
    .render()
}
