//! One task as a table row: its name and id, categories, one cell per run and the delta. What
//! the row shows is shaped by plain functions (tested natively); the row only renders it.

use std::sync::Arc;

use eval_compare_core::report::{Report, TaskCell, TaskRow};
use eval_compare_core::text::{shorten, visible, SHOWN_NAME_CHARS};
use leptos::prelude::*;

use super::badges::cell_badges;
use super::cells::{delta_class, delta_text, samples_text, RunCellView};
use super::effort_cells::EffortCellsView;
use super::keys::RowKeys;

/// How a task is named in its row: the label with the id below it, or the id alone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TaskName {
    /// The label, or the id when there is none.
    pub name: String,
    /// The id, shown under the label when there is one.
    pub id_line: Option<String>,
    /// The cell's tooltip: the name, and the id when shown.
    pub title: String,
}

/// The name cell of `row`: the name and id cut to [`SHOWN_NAME_CHARS`] characters, the title
/// holding both whole.
pub fn task_name(row: &TaskRow) -> TaskName {
    let (name, id_line) = match &row.label {
        Some(label) => (label.as_str(), Some(row.task_id.as_str())),
        None => (row.task_id.as_str(), None),
    };
    let title = match id_line {
        Some(id) => format!("{name}\n{id}"),
        None => name.to_owned(),
    };
    TaskName {
        name: shorten(name, SHOWN_NAME_CHARS).into_owned(),
        id_line: id_line.map(|id| shorten(id, SHOWN_NAME_CHARS).into_owned()),
        title,
    }
}

/// The names of the categories of `row` (indices into the report's `categories`),
/// comma-separated.
pub fn category_names(categories: &[String], row: &TaskRow) -> String {
    row.category_labels(categories).join(", ")
}

/// A run cell's tooltip: the sample counts and every badge in full.
pub fn cell_title(cell: &TaskCell) -> String {
    if cell.samples == 0 {
        return "This run has no trajectory on this task".to_owned();
    }
    let (_, samples) = samples_text(cell);
    std::iter::once(samples)
        .chain(cell_badges(cell).into_iter().map(|badge| badge.title))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The reviewer's ledger on a task, as its row marks it: "set aside" when an entry sets it
/// aside (the task shows when it is counted as a failure), else "note"; the title lists every
/// entry on the task. `None` without one.
pub fn ledger_mark(report: &Report, task_id: &str) -> Option<(&'static str, String)> {
    let ledger = report.ledger.as_ref()?;
    let entries: Vec<&eval_compare_core::ledger::Entry> = ledger
        .entries
        .iter()
        .map(|line| &line.entry)
        .filter(|entry| entry.target == eval_compare_core::ledger::Target::Task(task_id.to_owned()))
        .collect();
    if entries.is_empty() {
        return None;
    }
    let aside = entries.iter().any(|entry| entry.action.sets_aside());
    let title = entries
        .iter()
        .map(|entry| crate::report::task_panel::set_aside::entry_words(entry))
        .collect::<Vec<_>>()
        .join("\n");
    Some((if aside { "set aside" } else { "note" }, title))
}

/// One task as a table row.
#[component]
pub fn TaskRowView(
    report: Arc<Report>,
    row: TaskRow,
    /// The row's index in the report's tasks.
    index: usize,
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
    let categories = category_names(&report.categories, &row);
    let TaskName {
        name,
        id_line,
        title: name_title,
    } = task_name(&row);
    let mark = ledger_mark(&report, &task_id).map(|(word, title)| {
        view! { <span class="ledger-mark" class:ledger-mark-note=word == "note" title=title>{word}</span> }
    });
    let delta = row.deltas.get(focus).copied().flatten();
    let effort = view! { <EffortCellsView report=report.clone() index focus/> };
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
        move |_| keys.click(position, &task_id)
    };
    let on_keydown = {
        let task_id = task_id.clone();
        move |event| keys.keydown(&event, position, &task_id)
    };
    view! {
        <tr
            class="task-row"
            class:selected=is_selected.clone()
            aria-current=move || is_selected().then_some("true")
            aria-rowindex=position + 2
            data-pos=position
            data-task-id=task_id.clone()
            tabindex=move || keys.tab_index(position)
            on:click=on_click
            on:keydown=on_keydown
        >
            <th scope="row" class="task-name" title=name_title>
                <span class="task-label">{name}</span>
                {mark}
                {id_line.map(|id| view! { <span class="task-id">{visible(&id).into_owned()}</span> })}
            </th>
            <td class="task-category" title=categories.clone()>{categories.clone()}</td>
            {cells}
            {effort}
            <td class=delta_class(delta)>{delta_text(delta)}</td>
        </tr>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::table::cells::never_run_cell;
    use eval_compare_core::model::ClassCounts;

    fn row(label: Option<&str>, categories: Vec<u32>) -> TaskRow {
        TaskRow {
            task_id: "t_7".to_owned(),
            label: label.map(str::to_owned),
            categories,
            cells: Vec::new(),
            deltas: Vec::new(),
        }
    }

    #[test]
    fn a_task_in_the_ledger_is_marked_set_aside_or_noted() {
        use eval_compare_core::ledger::{Action, Entry, Ledger, Reason, Target};
        use eval_compare_core::model::{
            OutcomeClass, RunIdx, RunInfo, RunSetBuilder, TrajectoryInput,
        };
        use eval_compare_core::report::{build_report_with_ledger, ReportSettings};
        let mut builder = RunSetBuilder::new();
        for run_id in ["base", "cand"] {
            let run = builder
                .add_run(RunInfo {
                    id: run_id.to_owned(),
                    ..RunInfo::default()
                })
                .expect("a run");
            for task in ["a", "b", "c"] {
                builder
                    .add_trajectory(
                        run,
                        TrajectoryInput {
                            id: &format!("{run_id}-{task}"),
                            task: Some(task),
                            class: OutcomeClass::Graded,
                            reward: Some(1.0),
                            ending: None,
                            flags: Default::default(),
                            created: None,
                            components: None,
                        },
                    )
                    .expect("a trajectory");
            }
        }
        let entry = |task: &str, action| Entry {
            target: Target::Task(task.to_owned()),
            action,
            reason: Reason::GraderError,
            note: Some("<b>odd</b>".to_owned()),
            at: None,
        };
        let ledger = Ledger {
            entries: vec![
                entry("a", Action::Note),
                entry("b", Action::Note),
                entry("b", Action::CountAsFailure),
            ],
        };
        let settings = ReportSettings {
            resamples: 0,
            ..ReportSettings::default()
        };
        let report = build_report_with_ledger(
            &builder.build(),
            RunIdx(0),
            &[RunIdx(1)],
            &settings,
            &ledger,
        )
        .expect("a report");
        assert_eq!(
            ledger_mark(&report, "a"),
            Some(("note", "Note only: grader error — <b>odd</b>".to_owned()))
        );
        let (word, title) = ledger_mark(&report, "b").expect("b is in the ledger");
        assert_eq!(word, "set aside");
        assert_eq!(title.lines().count(), 2);
        assert_eq!(ledger_mark(&report, "c"), None);
    }

    #[test]
    fn a_labelled_task_shows_its_id_under_the_label() {
        assert_eq!(
            task_name(&row(Some("Fix the parser"), Vec::new())),
            TaskName {
                name: "Fix the parser".to_owned(),
                id_line: Some("t_7".to_owned()),
                title: "Fix the parser\nt_7".to_owned(),
            }
        );
    }

    #[test]
    fn a_long_label_is_shown_cut_and_kept_whole_in_the_title() {
        let label = "W".repeat(3000);
        let name = task_name(&row(Some(&label), Vec::new()));
        assert_eq!(name.name.chars().count(), SHOWN_NAME_CHARS);
        assert!(name.name.ends_with('…'));
        assert_eq!(name.title, format!("{label}\nt_7"));
    }

    #[test]
    fn a_task_without_label_shows_its_id_alone() {
        assert_eq!(
            task_name(&row(None, Vec::new())),
            TaskName {
                name: "t_7".to_owned(),
                id_line: None,
                title: "t_7".to_owned(),
            }
        );
    }

    #[test]
    fn categories_are_named_in_order_and_unknown_indices_skipped() {
        let names = ["Parsing".to_owned(), "Networking".to_owned()];
        assert_eq!(
            category_names(&names, &row(None, vec![1, 0])),
            "Networking, Parsing"
        );
        assert_eq!(category_names(&names, &row(None, vec![5, 0])), "Parsing");
        assert_eq!(category_names(&names, &row(None, Vec::new())), "");
    }

    #[test]
    fn a_never_run_cell_says_so_and_a_run_one_lists_counts_then_badges() {
        let never = never_run_cell();
        assert_eq!(
            cell_title(&never),
            "This run has no trajectory on this task"
        );
        let graded = TaskCell {
            mean: Some(1.0),
            included: 2,
            samples: 2,
            classes: ClassCounts {
                graded: 2,
                ..ClassCounts::default()
            },
            ..never.clone()
        };
        assert_eq!(
            cell_title(&graded),
            "2 of 2 trajectories included in the mean"
        );
        let failed = TaskCell {
            samples: 3,
            classes: ClassCounts {
                graded: 2,
                failed: 1,
                ..ClassCounts::default()
            },
            ..graded
        };
        let title = cell_title(&failed);
        let lines: Vec<&str> = title.lines().collect();
        assert_eq!(lines[0], "2 of 3 trajectories included in the mean");
        assert_eq!(lines.len(), 1 + cell_badges(&failed).len());
        assert!(lines.len() > 1, "a failed trajectory has a badge");
    }
}
