//! The ledger's table of counts per run: tasks selected, attempted, scored and absent,
//! trajectories and what was left out of them (failed, unfinished and cancelled ones, with the
//! tasks they touch), and whether the load completed.

use std::sync::Arc;

use eval_compare_core::coverage::RunCoverage;
use eval_compare_core::report::Report;
use eval_compare_core::text::visible;
use leptos::prelude::*;

use super::words::{left_out_cell, run_name};
use crate::components::stat_text::count;

/// The table, one row per run of the report, baseline first.
#[component]
pub fn RunCountsTable(
    /// The report.
    report: Signal<Arc<Report>>,
) -> impl IntoView {
    let rows = move || {
        report.with(|report| {
            report
                .coverage
                .runs
                .iter()
                .map(|run| {
                    let name = run_name(report, run.run);
                    view! { <CoverageRow run=run.clone() name/> }
                })
                .collect_view()
        })
    };
    view! {
        <div class="table-scroll">
            <table class="data-table coverage-table">
                <caption class="visually-hidden">"Tasks and trajectories per run"</caption>
                <thead>
                    <tr>
                        <th scope="col">"Run"</th>
                        <th scope="col" class="num">"Tasks selected"</th>
                        <th scope="col" class="num">"Attempted"</th>
                        <th scope="col" class="num">"Scored"</th>
                        <th scope="col" class="num">"Absent"</th>
                        <th scope="col" class="num">"Trajectories"</th>
                        <th scope="col" class="num">"Included"</th>
                        <th scope="col" class="num">"Failed"</th>
                        <th scope="col" class="num">"Unfinished"</th>
                        <th scope="col" class="num">"Cancelled"</th>
                        <th scope="col" class="num">"Scored 0 (no reward)"</th>
                        <th scope="col" class="num">"Invalid rewards"</th>
                        <th scope="col" class="num">"Without task"</th>
                        <th scope="col">"Load"</th>
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
    }
}

/// One run's counts.
#[component]
fn CoverageRow(run: RunCoverage, name: String) -> impl IntoView {
    let expected = run
        .samples_expected
        .map(|expected| format!(" of {}", count(expected)))
        .unwrap_or_default();
    let load = match &run.incomplete_load {
        None => view! { <span>"complete"</span> }.into_any(),
        Some(why) => view! {
            <span class="incomplete">"incomplete"</span>
            <span class="run-detail">{why.clone()}</span>
        }
        .into_any(),
    };
    view! {
        <tr data-run-id=run.run_id.clone()>
            <th scope="row">
                <span class="run-name">{name}</span>
                <span class="run-id">{visible(&run.run_id).into_owned()}</span>
            </th>
            <td class="num">{run.tasks_selected.map_or_else(|| "—".to_owned(), count)}</td>
            <td class="num">{count(run.tasks_attempted)}</td>
            <td class="num">{count(run.tasks_scored)}</td>
            <td class="num">{count(run.tasks_absent)}</td>
            <td class="num">{format!("{}{expected}", count(run.samples_total))}</td>
            <td class="num">{count(run.samples_valid)}</td>
            <td class="num">{left_out_cell(run.samples.failed.into(), run.tasks_by_class.failed.into())}</td>
            <td class="num">
                {left_out_cell(run.samples.unfinished.into(), run.tasks_by_class.unfinished.into())}
            </td>
            <td class="num">
                {left_out_cell(run.samples.cancelled.into(), run.tasks_by_class.cancelled.into())}
            </td>
            <td class="num">{count(run.zero_by_platform_rule + run.zero_without_grade)}</td>
            <td class="num">{count(run.invalid_rewards)}</td>
            <td class="num">{count(run.without_task)}</td>
            <td>{load}</td>
        </tr>
    }
}
