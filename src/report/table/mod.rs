//! The per-task table: one row per task of the compared runs, each run's mean with its sample
//! counts and outcome badges, and the focused candidate's delta.
//!
//! The rows, their order and every number come from the core [`Report`] through
//! [`visible_rows_ranked`]; the viewer never filters, sorts or recomputes them. The text sorts'
//! ranks are kept per report ([`TextRanks`], those by task computed while the page is idle), so
//! a filter, search or focus switch under a sort by task does not sort the texts again.
//! Filters, sort and the selected task are parts of the [`ViewState`] and change only through
//! `on_change`, so they live in the URL. Only the rows in the scroll viewport (plus some overscan) are in the DOM: rows
//! have a fixed height and spacer rows stand in for the others, so 100,000 tasks scroll smoothly.
//!
//! [`TaskTable`] puts the parts together: [`filters`] (the bar above), [`header`] (columns and
//! sortable header cells), [`body`] and [`row`] (the rendered rows), [`scroll`] (the measured
//! viewport) with [`window`] (which rows it shows), [`keys`] (keyboard navigation) and
//! [`set_aside_shown`] (the shown tasks into the reviewer's ledger).
//! [`effort_cells`] are the focused candidate's turns and ending cells.
//! [`fixed`] writes the head of the report's small fixed tables (task panel, coverage, settings).

pub mod badges;
pub mod body;
pub mod cells;
pub mod effort_cells;
pub mod filters;
pub mod fixed;
pub mod header;
pub mod keys;
pub mod row;
pub mod scroll;
pub mod set_aside_shown;
pub mod window;

use std::sync::Arc;

use eval_compare_core::report::{visible_rows_ranked, Report, TextRanks};
use eval_compare_core::view_state::ViewState;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use body::TableBody;
use filters::FilterBar;
pub use header::next_sort;
use header::{header_cells, min_width_style, wanted_width_style, ColumnGroup};
use keys::RowKeys;
use scroll::TableScroll;
use set_aside_shown::SetAsideShown;
use window::page_rows;

/// How long after a report is shown its ranks by task are computed: past the first paints of
/// the report's cards, charts and table.
const IDLE_RANKS_DELAY_MS: u64 = 500;

/// The per-task table with its filter bar.
///
/// Clicking a row, or Enter or Space on it, selects its task (`view.task`); the arrow keys,
/// Page Up/Down, Home and End move between rows, scrolling as needed.
#[component]
pub fn TaskTable(
    /// The comparison report; its task rows are shown.
    report: Signal<Arc<Report>>,
    /// The view state: filter, category, search, sort, focused candidate and selected task.
    view: Signal<ViewState>,
    /// Receives every change of the view state (filter, sort, search, selection, …).
    on_change: Callback<ViewState>,
) -> impl IntoView {
    // Only what decides the rows, so selecting a task does not recompute them.
    let query = Memo::new(move |_| view.with(row_query));
    // New ranks for each report (never equal: a new report's rows must be ranked again).
    let ranks: Memo<Arc<TextRanks>> = Memo::new_with_compare(
        move |_| report.with(|report| Arc::new(TextRanks::for_report(report))),
        |_, _| true,
    );
    let rows: Memo<Arc<Vec<usize>>> = Memo::new(move |_| {
        let report = report.get();
        let ranks = ranks.get();
        query.with(|query| Arc::new(visible_rows_ranked(&report, query, &ranks)))
    });
    // The ranks by task once the page is idle: the first sort by task then only sorts numbers.
    Effect::new(move |_| {
        let (report, ranks) = (report.get(), ranks.get());
        set_timeout(
            move || ranks.prepare_task(&report),
            std::time::Duration::from_millis(IDLE_RANKS_DELAY_MS),
        );
    });
    let focus = Memo::new(move |_| {
        let candidates = report.with(|r| r.candidates.len());
        view.with(|v| v.focus.min(candidates.saturating_sub(1)))
    });
    let selected = Memo::new(move |_| view.with(|v| v.task.clone()));
    let shown = Signal::derive(move || rows.with(|rows| rows.len()));

    let scroll = TableScroll::measured();
    let window = scroll.window(shown);
    let select = Callback::new(move |task: String| {
        let current = view.get_untracked();
        if current.task.as_deref() != Some(task.as_str()) {
            on_change.run(ViewState {
                task: Some(task),
                ..current
            });
        }
    });
    let page = Signal::derive(move || page_rows(scroll.body_viewport()));
    let keys = RowKeys::new(scroll, shown, page, select);

    // New rows (filter, search, sort, report): back to the top, or to the selected task.
    Effect::new(move |_| {
        if !scroll.is_mounted() {
            return;
        }
        let task = selected.get_untracked();
        let position = rows.with(|rows| {
            report.with_untracked(|report| {
                task.as_deref()
                    .and_then(|task| position_of(report, rows, task))
            })
        });
        keys.active.set(position.unwrap_or(0));
        scroll.center_on(position);
    });

    let header_row = move || {
        let report = report.get();
        let focus = focus.get();
        header_cells(&report, focus, view, on_change)
    };
    let min_width = move || min_width_style(report.with(|r| r.runs.len()));
    let wanted_width = move || wanted_width_style(report.with(|r| r.runs.len()));

    view! {
        <section class="task-table" aria-label="Tasks" style=wanted_width>
            <FilterBar report view on_change shown/>
            <SetAsideShown report rows/>
            <div class="task-scroll" node_ref=scroll.scroller on:scroll=move |_| scroll.on_scroll()>
                <table
                    class="tasks"
                    style=min_width
                    aria-rowcount=move || shown.get() + 1
                    aria-label="Per-task results"
                >
                    <colgroup>
                        <ColumnGroup report/>
                    </colgroup>
                    <thead node_ref=scroll.header>
                        <tr aria-rowindex="1">{header_row}</tr>
                    </thead>
                    <tbody>
                        <TableBody report rows focus selected window keys/>
                    </tbody>
                </table>
            </div>
        </section>
    }
}

/// Moves the keyboard focus to the drawn row of `task_id` (where the task panel was opened
/// from, once it closes), else to the table's own tab stop.
pub fn focus_task_row(task_id: &str) {
    let Some(document) = web_sys::window().and_then(|window| window.document()) else {
        return;
    };
    if let Ok(rows) = document.query_selector_all(".task-table tr[data-task-id]") {
        for index in 0..rows.length() {
            let Some(row) = rows
                .item(index)
                .and_then(|node| node.dyn_into::<web_sys::HtmlElement>().ok())
            else {
                continue;
            };
            // Compared as text: a task id is never put into a selector.
            if row.get_attribute("data-task-id").as_deref() == Some(task_id) {
                let _ = row.focus();
                return;
            }
        }
    }
    focus_table();
}

/// Moves the keyboard focus to the table's tab stop (the active row), for the skip link.
pub fn focus_table() {
    let row = web_sys::window()
        .and_then(|window| window.document())
        .and_then(|document| {
            document
                .query_selector(".task-table tbody tr[tabindex=\"0\"]")
                .ok()
                .flatten()
        })
        .and_then(|row| row.dyn_into::<web_sys::HtmlElement>().ok());
    if let Some(row) = row {
        let _ = row.focus();
    }
}

/// The parts of the view state that decide which rows show and in what order.
fn row_query(view: &ViewState) -> ViewState {
    ViewState {
        focus: view.focus,
        filter: view.filter,
        category: view.category.clone(),
        search: view.search.clone(),
        sort: view.sort,
        ..ViewState::default()
    }
}

/// Where the task `task_id` is among `rows`, if shown.
fn position_of(report: &Report, rows: &[usize], task_id: &str) -> Option<usize> {
    rows.iter().position(|&index| {
        report
            .tasks
            .get(index)
            .is_some_and(|row| row.task_id == task_id)
    })
}
