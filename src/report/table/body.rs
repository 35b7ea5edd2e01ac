//! The table's body: the rows of the scroll window between two spacer rows that stand in for
//! the rows above and below it, or one row saying why there is none.

use std::sync::Arc;

use eval_compare_core::report::Report;
use leptos::prelude::*;

use super::header::column_count;
use super::keys::RowKeys;
use super::row::TaskRowView;
use super::window::RowWindow;

/// The body rows of the table.
#[component]
pub fn TableBody(
    /// The comparison report, whose tasks the rows show.
    report: Signal<Arc<Report>>,
    /// The shown rows: indices into the report's tasks, in order.
    rows: Memo<Arc<Vec<usize>>>,
    /// The candidate whose delta is shown.
    focus: Memo<usize>,
    /// The selected task's id.
    selected: Memo<Option<String>>,
    /// The positions of the rows to render.
    window: Memo<RowWindow>,
    /// Keyboard navigation and selection of the rows.
    keys: RowKeys,
) -> impl IntoView {
    move || {
        let report = report.get();
        let focus = focus.get();
        let columns = column_count(report.runs.len());
        if report.tasks.is_empty() || rows.with(|rows| rows.is_empty()) {
            let message = if report.tasks.is_empty() {
                "The compared runs have no task yet."
            } else {
                "No task matches these filters."
            };
            return view! {
                <tr class="task-empty">
                    <td colspan=columns>{message}</td>
                </tr>
            }
            .into_any();
        }
        let each = move || {
            let window = window.get();
            rows.with(|rows| {
                (window.start..window.end)
                    .filter_map(|position| rows.get(position).map(|&task| (position, task)))
                    .collect::<Vec<_>>()
            })
        };
        view! {
            <Spacer height=Signal::derive(move || window.get().top_spacer_px()) columns/>
            <For
                each=each
                key=|item| *item
                children=move |(position, task)| {
                    let row = report.tasks.get(task).cloned();
                    let report = report.clone();
                    row.map(|row| {
                        view! {
                            <TaskRowView
                                report
                                row
                                index=task
                                position
                                focus
                                selected
                                keys
                            />
                        }
                    })
                }
            />
            <Spacer height=Signal::derive(move || window.get().bottom_spacer_px()) columns/>
        }
        .into_any()
    }
}

/// An empty row standing in for rows that are not rendered.
#[component]
fn Spacer(height: Signal<f64>, columns: usize) -> impl IntoView {
    view! {
        <tr class="task-spacer" aria-hidden="true">
            <td colspan=columns style:height=move || format!("{}px", height.get())></td>
        </tr>
    }
}
