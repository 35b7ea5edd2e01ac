//! The ledger's table of counts per run: tasks selected, attempted, scored and absent,
//! trajectories and what was left out of them (failed, unfinished and cancelled ones, with the
//! tasks they touch), and whether the load completed; with a reviewer's ledger, the tasks it
//! set aside in each run, with the reasons counted (core's `set_aside_cell`).

use std::sync::Arc;

use eval_compare_core::coverage::RunCoverage;
use eval_compare_core::report::{set_aside_cell, Report, SET_ASIDE_COLUMN};
use eval_compare_core::text::visible;
use leptos::prelude::*;

use super::words::{left_out_cell, named_runs};
use crate::components::stat_text::count;
use crate::report::table::fixed::{Column, ScrollTable};

/// The columns: the run, then its counts.
const COLUMNS: [Column; 14] = [
    Column::text("Run"),
    Column::num("Tasks selected"),
    Column::num("Attempted"),
    Column::num("Scored"),
    Column::num("Absent"),
    Column::num("Trajectories"),
    Column::num("Included"),
    Column::num("Failed"),
    Column::num("Unfinished"),
    Column::num("Cancelled"),
    Column::num("Scored 0 (no reward)"),
    Column::num("Invalid rewards"),
    Column::num("Without task"),
    Column::text("Load"),
];

/// The table, one row per run of the report, baseline first.
#[component]
pub fn RunCountsTable(
    /// The report.
    report: Signal<Arc<Report>>,
) -> impl IntoView {
    let ledger = Memo::new(move |_| report.with(|report| report.ledger.is_some()));
    let rows = move || {
        report
            .with(|report| named_runs(report))
            .into_iter()
            .map(|(run, name)| view! { <CoverageRow run name/> })
            .collect_view()
    };
    move || {
        let after = if ledger.get() {
            vec![SET_ASIDE_COLUMN.to_owned()]
        } else {
            Vec::new()
        };
        view! {
            <ScrollTable
                class="coverage-table"
                caption="Tasks and trajectories per run"
                columns=&COLUMNS
                after
            >
                <tbody>{rows}</tbody>
            </ScrollTable>
        }
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
            {run
                .set_aside
                .as_ref()
                .map(|set_aside| {
                    view! { <td class="num set-aside">{set_aside_cell(Some(set_aside))}</td> }
                })}
        </tr>
    }
}
