//! The table of a benchmark's evaluation runs.

use eval_compare_core::api::EvalRunStatus;
use leptos::prelude::*;

use crate::components::run_progress::RunProgress;
use crate::components::status_badge::StatusBadge;
use crate::format;
use crate::overview::RunRow;

/// One row per run: name and id, what was evaluated, status, reward mean, samples, creation time.
#[component]
pub fn RunTable(
    /// The runs, in the order to show them.
    rows: Vec<RunRow>,
) -> impl IntoView {
    view! {
        <div class="table-scroll">
            <table class="runs-table">
                <colgroup>
                    <col class="col-run"/>
                    <col class="col-evaluated"/>
                    <col class="col-status"/>
                    <col class="col-reward"/>
                    <col class="col-samples"/>
                    <col class="col-created"/>
                </colgroup>
                <thead>
                    <tr>
                        <th scope="col">"Run"</th>
                        <th scope="col">"Model / checkpoint"</th>
                        <th scope="col">"Status"</th>
                        <th scope="col" class="num">"Reward mean"</th>
                        <th scope="col" class="num">"Samples"</th>
                        <th scope="col">"Created"</th>
                    </tr>
                </thead>
                <tbody>{rows.into_iter().map(|row| view! { <RunTableRow row/> }).collect_view()}</tbody>
            </table>
        </div>
    }
}

/// One evaluation run as a table row.
#[component]
fn RunTableRow(row: RunRow) -> impl IntoView {
    let RunRow { run, progress } = row;
    let running = run.status == Some(EvalRunStatus::Running);
    let progress = progress
        .filter(|_| running)
        .map(|progress| view! { <RunProgress terminal=progress.terminal_rollouts total=progress.total_rollouts/> });
    view! {
        <tr data-run-id=run.eval_run_id.clone()>
            <td>
                <span class="run-name">{format::run_name(&run).to_owned()}</span>
                <span class="run-id">{run.eval_run_id.clone()}</span>
            </td>
            <td>
                {format::evaluated_model(&run)}
                {run
                    .training_run_id
                    .clone()
                    .map(|id| view! { <span class="run-detail">"training run "{id}</span> })}
            </td>
            <td>
                <StatusBadge status=run.status.clone()/>
                {progress}
            </td>
            <td class="num">{format::reward_mean(run.reward_mean)}</td>
            <td class="num">
                {format::rollouts(&run)}
                {format::task_count(&run).map(|tasks| view! { <span class="run-detail">{tasks}</span> })}
            </td>
            <td class="muted nowrap">{format::timestamp(&run.created_at)}</td>
        </tr>
    }
}
