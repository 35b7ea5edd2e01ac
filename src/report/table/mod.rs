//! The per-task table: one row per task of the compared runs, each run's mean with its sample
//! counts and outcome badges, and the focused candidate's delta.
//!
//! The rows, their order and every number come from the core [`Report`] through
//! [`visible_rows`]; the viewer never filters, sorts or recomputes them. Filters, sort and the
//! selected task are parts of the [`ViewState`] and change only through `on_change`, so they live
//! in the URL. Only the rows in the scroll viewport (plus some overscan) are in the DOM: rows
//! have a fixed height and spacer rows stand in for the others, so 100,000 tasks scroll smoothly.

pub mod badges;
pub mod cells;
pub mod filters;
pub mod window;

use std::sync::Arc;

use eval_compare_core::report::{visible_rows, Report, TaskCell, TaskRow};
use eval_compare_core::view_state::{Sort, SortKey, ViewState};
use leptos::ev;
use leptos::html;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use badges::cell_badges;
use cells::{delta_class, delta_text, samples_text, RunCellView};
use filters::FilterBar;
use window::{page_rows, row_window, scroll_to_show, ROW_HEIGHT_PX};

/// Before the table is measured: a guess of the scroll viewport and header heights.
const INITIAL_VIEWPORT_PX: f64 = 640.0;
const INITIAL_HEADER_PX: f64 = 52.0;

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
    let rows: Memo<Arc<Vec<usize>>> = Memo::new(move |_| {
        let report = report.get();
        query.with(|query| Arc::new(visible_rows(&report, query)))
    });
    let focus = Memo::new(move |_| {
        let candidates = report.with(|r| r.candidates.len());
        view.with(|v| v.focus.min(candidates.saturating_sub(1)))
    });
    let selected = Memo::new(move |_| view.with(|v| v.task.clone()));
    let shown = Signal::derive(move || rows.with(|rows| rows.len()));

    let scroller = NodeRef::<html::Div>::new();
    let header = NodeRef::<html::Thead>::new();
    let scroll_top = RwSignal::new(0.0_f64);
    let viewport_px = RwSignal::new(INITIAL_VIEWPORT_PX);
    let header_px = RwSignal::new(INITIAL_HEADER_PX);
    let active = RwSignal::new(0_usize);
    let body_viewport = move || (viewport_px.get() - header_px.get()).max(ROW_HEIGHT_PX);
    let window = Memo::new(move |_| {
        row_window(
            scroll_top.get(),
            body_viewport(),
            rows.with(|rows| rows.len()),
        )
    });

    let measure = move || {
        if let Some(element) = scroller.get_untracked() {
            viewport_px.set(f64::from(element.client_height()));
            scroll_top.set(f64::from(element.scroll_top()));
        }
        if let Some(element) = header.get_untracked() {
            header_px.set(f64::from(element.offset_height()));
        }
    };
    Effect::new(move |_| {
        if scroller.get().is_some() {
            measure();
        }
    });
    let resize = window_event_listener(ev::resize, move |_| measure());
    on_cleanup(move || resize.remove());

    // New rows (filter, search, sort, report): back to the top, or to the selected task.
    Effect::new(move |_| {
        let Some(element) = scroller.get() else {
            return;
        };
        let task = selected.get_untracked();
        let position = rows.with(|rows| {
            report.with_untracked(|report| {
                task.as_deref()
                    .and_then(|task| position_of(report, rows, task))
            })
        });
        let top = match position {
            Some(position) => {
                active.set(position);
                let viewport = (viewport_px.get_untracked() - header_px.get_untracked()).max(0.0);
                (position as f64 * ROW_HEIGHT_PX - viewport / 2.0).max(0.0)
            }
            None => {
                active.set(0);
                0.0
            }
        };
        element.set_scroll_top(top as i32);
        scroll_top.set(f64::from(element.scroll_top()));
    });

    let select = Callback::new(move |task: String| {
        let current = view.get_untracked();
        if current.task.as_deref() != Some(task.as_str()) {
            on_change.run(ViewState {
                task: Some(task),
                ..current
            });
        }
    });
    let move_to = Callback::new(move |target: usize| {
        let total = rows.with_untracked(|rows| rows.len());
        if total == 0 {
            return;
        }
        let target = target.min(total - 1);
        active.set(target);
        if let Some(element) = scroller.get_untracked() {
            let viewport = (viewport_px.get_untracked() - header_px.get_untracked()).max(0.0);
            let top = scroll_to_show(target, f64::from(element.scroll_top()), viewport);
            element.set_scroll_top(top as i32);
            scroll_top.set(f64::from(element.scroll_top()));
        }
        // The row may only be rendered once the new window is: focus it on the next frame.
        request_animation_frame(move || focus_row(scroller, target));
    });
    let keys = RowKeys {
        active,
        move_to,
        select,
        page: Signal::derive(move || page_rows(body_viewport())),
        total: shown,
    };

    let header_row = move || {
        let report = report.get();
        let focus = focus.get();
        header_cells(&report, focus, view, on_change)
    };
    let colgroup = move || {
        let runs = report.with(|r| r.runs.len());
        view! {
            <col class="col-task"/>
            <col class="col-category"/>
            {(0..runs).map(|_| view! { <col class="col-run"/> }).collect_view()}
            <col class="col-delta"/>
        }
    };
    let columns = move || report.with(|r| r.runs.len()) + 3;
    let min_width = move || format!("min-width: {}rem", 32 + 11 * report.with(|r| r.runs.len()));

    let body = move || {
        let report = report.get();
        let focus = focus.get();
        if report.tasks.is_empty() || shown.get() == 0 {
            let message = if report.tasks.is_empty() {
                "The compared runs have no task yet."
            } else {
                "No task matches these filters."
            };
            return view! {
                <tr class="task-empty">
                    <td colspan=columns()>{message}</td>
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
            <Spacer height=Signal::derive(move || window.get().top_spacer_px()) columns=columns()/>
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
                                position
                                focus
                                selected
                                keys
                            />
                        }
                    })
                }
            />
            <Spacer
                height=Signal::derive(move || window.get().bottom_spacer_px())
                columns=columns()
            />
        }
        .into_any()
    };

    view! {
        <section class="task-table" aria-label="Tasks">
            <FilterBar report view on_change shown/>
            <div
                class="task-scroll"
                node_ref=scroller
                on:scroll=move |_| {
                    if let Some(element) = scroller.get_untracked() {
                        scroll_top.set(f64::from(element.scroll_top()));
                    }
                }
            >
                <table
                    class="tasks"
                    style=min_width
                    aria-rowcount=move || shown.get() + 1
                    aria-label="Per-task results"
                >
                    <colgroup>{colgroup}</colgroup>
                    <thead node_ref=header>
                        <tr aria-rowindex="1">{header_row}</tr>
                    </thead>
                    <tbody>{body}</tbody>
                </table>
            </div>
        </section>
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

/// Focuses the rendered row at `position`, if it is in the DOM.
fn focus_row(scroller: NodeRef<html::Div>, position: usize) {
    let Some(container) = scroller.get_untracked() else {
        return;
    };
    let selector = format!("tr[data-pos=\"{position}\"]");
    if let Ok(Some(row)) = container.query_selector(&selector) {
        if let Ok(row) = row.dyn_into::<web_sys::HtmlElement>() {
            let _ = row.focus();
        }
    }
}

/// The sort a click on the column of `key` asks for: the other direction when the table is
/// already sorted by it, else ascending.
pub fn next_sort(current: Sort, key: SortKey) -> Sort {
    if current.key == key {
        Sort {
            key,
            descending: !current.descending,
        }
    } else {
        Sort {
            key,
            descending: false,
        }
    }
}

/// The header cells: task, category, one per run, and the focused candidate's delta.
fn header_cells(
    report: &Report,
    focus: usize,
    view: Signal<ViewState>,
    on_change: Callback<ViewState>,
) -> impl IntoView + use<> {
    let baseline_name = report
        .baseline()
        .map_or_else(|| "baseline".to_owned(), |run| run.name.clone());
    let focus_name = report
        .candidates
        .get(focus)
        .and_then(|candidate| report.run_of(candidate))
        .map_or_else(|| "candidate".to_owned(), |run| run.name.clone());
    let runs = report
        .runs
        .iter()
        .enumerate()
        .map(|(index, run)| {
            let key = if index == 0 {
                Some(SortKey::Baseline)
            } else if index == focus + 1 {
                Some(SortKey::Candidate)
            } else {
                None
            };
            let role = if index == 0 { "baseline" } else { "candidate" };
            let name = run.name.clone();
            view! {
                <HeaderCell
                    key
                    view
                    on_change
                    class="col-head-run"
                    title=format!("{} ({role}): mean reward, included/total samples", run.id)
                >
                    <span class="head-name">{name}</span>
                    <span class="head-role">{role}</span>
                </HeaderCell>
            }
        })
        .collect_view();
    view! {
        <HeaderCell key=Some(SortKey::Task) view on_change class="col-head-task" title="Task label, or its id".to_owned()>
            "Task"
        </HeaderCell>
        <HeaderCell key=Some(SortKey::Category) view on_change class="col-head-category" title="Task categories".to_owned()>
            "Category"
        </HeaderCell>
        {runs}
        <HeaderCell
            key=Some(SortKey::Delta)
            view
            on_change
            class="col-head-delta num"
            title=format!("{focus_name} mean − {baseline_name} mean on the task")
        >
            <span class="head-name">"Δ "{focus_name}</span>
            <span class="head-role">"vs baseline"</span>
        </HeaderCell>
    }
}

/// A column header; when `key` is set it sorts by that column on click (or Enter/Space, it is
/// a button) and carries `aria-sort` while the table is sorted by it.
#[component]
fn HeaderCell(
    /// The sort key of the column, if it is sortable.
    key: Option<SortKey>,
    /// The view state, for the current sort.
    view: Signal<ViewState>,
    /// Receives the view with the new sort.
    on_change: Callback<ViewState>,
    /// CSS class of the cell.
    class: &'static str,
    /// What the column shows.
    title: String,
    /// The header text.
    children: Children,
) -> impl IntoView {
    let Some(key) = key else {
        return view! {
            <th scope="col" class=class title=title>
                <span class="head-static">{children()}</span>
            </th>
        }
        .into_any();
    };
    let aria_sort = move || {
        view.with(|v| {
            (v.sort.key == key).then_some(if v.sort.descending {
                "descending"
            } else {
                "ascending"
            })
        })
    };
    let arrow = move || match aria_sort() {
        Some("ascending") => "▲",
        Some(_) => "▼",
        None => "",
    };
    view! {
        <th scope="col" class=class aria-sort=aria_sort data-sort-key=key.as_str()>
            <button
                type="button"
                class="sort-button"
                title=title
                on:click=move |_| {
                    let current = view.get_untracked();
                    let sort = next_sort(current.sort, key);
                    on_change.run(ViewState { sort, ..current });
                }
            >
                <span class="head-text">{children()}</span>
                <span class="sort-arrow" aria-hidden="true">{arrow}</span>
            </button>
        </th>
    }
    .into_any()
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

/// A run cell's tooltip: the sample counts and every badge in full.
fn cell_title(cell: &TaskCell) -> String {
    if cell.samples == 0 {
        return "This run has no trajectory on this task".to_owned();
    }
    let (_, samples) = samples_text(cell);
    std::iter::once(samples)
        .chain(cell_badges(cell).into_iter().map(|badge| badge.title))
        .collect::<Vec<_>>()
        .join("\n")
}

/// What a row needs for keyboard navigation and selection.
#[derive(Clone, Copy)]
struct RowKeys {
    /// Position of the row that takes the Tab stop.
    active: RwSignal<usize>,
    /// Moves the Tab stop (and focus) to a position, scrolling it into view.
    move_to: Callback<usize>,
    /// Selects a task.
    select: Callback<String>,
    /// Rows per Page Up/Down.
    page: Signal<usize>,
    /// Rows shown.
    total: Signal<usize>,
}

/// One task as a table row.
#[component]
fn TaskRowView(
    report: Arc<Report>,
    row: TaskRow,
    position: usize,
    focus: usize,
    selected: Memo<Option<String>>,
    keys: RowKeys,
) -> impl IntoView {
    let task_id = row.task_id.clone();
    let is_selected = {
        let task_id = task_id.clone();
        move || selected.with(|s| s.as_deref() == Some(task_id.as_str()))
    };
    let categories: Vec<&str> = row
        .categories
        .iter()
        .filter_map(|&c| report.categories.get(c as usize))
        .map(String::as_str)
        .collect();
    let categories = categories.join(", ");
    let (name, id_line) = match &row.label {
        Some(label) => (label.clone(), Some(row.task_id.clone())),
        None => (row.task_id.clone(), None),
    };
    let name_title = match &id_line {
        Some(id) => format!("{name}\n{id}"),
        None => name.clone(),
    };
    let delta = row.deltas.get(focus).copied().flatten();
    let cells = row
        .cells
        .into_iter()
        .map(|cell| {
            let title = cell_title(&cell);
            view! { <td class="run-cell" title=title><RunCellView cell/></td> }
        })
        .collect_view();
    let on_click = {
        let task_id = task_id.clone();
        move |_| {
            keys.active.set(position);
            keys.select.run(task_id.clone());
        }
    };
    let on_keydown = {
        let task_id = task_id.clone();
        move |event: ev::KeyboardEvent| {
            let last = keys.total.get_untracked().saturating_sub(1);
            let page = keys.page.get_untracked();
            let target = match event.key().as_str() {
                "Enter" | " " => {
                    event.prevent_default();
                    keys.select.run(task_id.clone());
                    return;
                }
                "ArrowDown" => position.saturating_add(1).min(last),
                "ArrowUp" => position.saturating_sub(1),
                "PageDown" => position.saturating_add(page).min(last),
                "PageUp" => position.saturating_sub(page),
                "Home" => 0,
                "End" => last,
                _ => return,
            };
            event.prevent_default();
            keys.move_to.run(target);
        }
    };
    view! {
        <tr
            class="task-row"
            class:selected=is_selected.clone()
            aria-current=move || is_selected().then_some("true")
            aria-rowindex=position + 2
            data-pos=position
            data-task-id=task_id.clone()
            tabindex=move || if keys.active.get() == position { "0" } else { "-1" }
            on:click=on_click
            on:keydown=on_keydown
        >
            <th scope="row" class="task-name" title=name_title>
                <span class="task-label">{name}</span>
                {id_line.map(|id| view! { <span class="task-id">{id}</span> })}
            </th>
            <td class="task-category" title=categories.clone()>{categories.clone()}</td>
            {cells}
            <td class=delta_class(delta)>{delta_text(delta)}</td>
        </tr>
    }
}
