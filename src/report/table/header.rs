//! The table's head: its columns (the `<colgroup>` and the table's minimum width) and the
//! header cells, which sort the table through the view state.

use eval_compare_core::report::Report;
use eval_compare_core::view_state::{Sort, SortKey, ViewState};
use leptos::prelude::*;

/// The columns: task, category, one per run, the candidate's turns and ending, and the delta.
pub fn column_count(runs: usize) -> usize {
    runs + 5
}

/// The width in rem of the effort columns (style/main.css: turns 5rem, ending 8.5rem).
const EFFORT_COLUMNS_REM: f64 = 13.5;

/// What the effort columns add to the table's minimum width: less than their width, the task
/// column giving up 2.5rem of its minimum, so three runs still fit a 1280-pixel window.
const EFFORT_MIN_WIDTH_REM: usize = 10;

/// The table's minimum width for `runs` run columns, as an inline style.
pub fn min_width_style(runs: usize) -> String {
    format!("min-width: {}rem", 32 + 11 * runs + EFFORT_MIN_WIDTH_REM)
}

/// The width in rem of every column but the task's (style/table.css: category 8rem, each run
/// 10.5rem, Δ 7rem; and the effort columns).
fn fixed_columns_rem(runs: usize) -> f64 {
    8.0 + 10.5 * runs as f64 + 7.0 + EFFORT_COLUMNS_REM
}

/// How wide the task column would like to be: about 50 characters of a label.
const TASK_COLUMN_WANT_REM: f64 = 28.0;

/// The width the table would like for `runs` run columns, as an inline style (`--table-want`):
/// on a window wider than the page's main column the table takes up to this much
/// (style/table.css), the task column getting what the others leave.
pub fn wanted_width_style(runs: usize) -> String {
    format!(
        "--table-want: {}rem",
        TASK_COLUMN_WANT_REM + fixed_columns_rem(runs)
    )
}

/// The `<col>` elements: task, category, one per run, and the delta.
#[component]
pub fn ColumnGroup(
    /// The comparison report, for its runs.
    report: Signal<std::sync::Arc<Report>>,
) -> impl IntoView {
    move || {
        let runs = report.with(|r| r.runs.len());
        view! {
            <col class="col-task"/>
            <col class="col-category"/>
            {(0..runs).map(|_| view! { <col class="col-run"/> }).collect_view()}
            <col class="col-turns"/>
            <col class="col-ending"/>
            <col class="col-delta"/>
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
pub fn header_cells(
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
            key=Some(SortKey::Turns)
            view
            on_change
            class="col-head-turns num"
            title=format!("{focus_name}: mean turns (num_steps) on the task; the baseline's below")
        >
            <span class="head-name">"Turns"</span>
            <span class="head-role">"candidate"</span>
        </HeaderCell>
        <HeaderCell
            key=Some(SortKey::Ending)
            view
            on_change
            class="col-head-ending"
            title=format!("{focus_name}: most frequent ending on the task, with its turn-limit hits")
        >
            <span class="head-name">"Ending"</span>
            <span class="head-role">"candidate"</span>
        </HeaderCell>
        <HeaderCell
            key=Some(SortKey::Delta)
            view
            on_change
            class="col-head-delta num"
            title=format!("{focus_name} mean − {baseline_name} mean on the task, in points (× 100)")
        >
            <span class="head-name">"Δ "{focus_name}</span>
            <span class="head-role">"points vs baseline"</span>
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_click_on_the_sorted_column_flips_its_direction() {
        let ascending = Sort {
            key: SortKey::Delta,
            descending: false,
        };
        let flipped = next_sort(ascending, SortKey::Delta);
        assert_eq!((flipped.key, flipped.descending), (SortKey::Delta, true));
        let back = next_sort(flipped, SortKey::Delta);
        assert_eq!((back.key, back.descending), (SortKey::Delta, false));
    }

    #[test]
    fn a_click_on_another_column_sorts_it_ascending() {
        let descending = Sort {
            key: SortKey::Delta,
            descending: true,
        };
        let sort = next_sort(descending, SortKey::Task);
        assert_eq!((sort.key, sort.descending), (SortKey::Task, false));
    }

    #[test]
    fn the_columns_and_width_grow_with_the_runs() {
        assert_eq!(column_count(3), 8);
        assert_eq!(min_width_style(3), "min-width: 75rem");
    }

    #[test]
    fn the_wanted_width_leaves_the_task_column_room_for_its_labels() {
        // Five candidates: their columns and the task column at 28rem.
        assert_eq!(wanted_width_style(6), "--table-want: 119.5rem");
        assert_eq!(wanted_width_style(3), "--table-want: 88rem");
        // Wider than the minimum, with more room for the task column than the minimum leaves.
        for runs in 2..12 {
            let minimum = (32 + 11 * runs + EFFORT_MIN_WIDTH_REM) as f64;
            assert!(
                TASK_COLUMN_WANT_REM + fixed_columns_rem(runs) >= minimum,
                "{runs}"
            );
            assert!(
                minimum - fixed_columns_rem(runs) < TASK_COLUMN_WANT_REM,
                "{runs}"
            );
        }
    }
}
