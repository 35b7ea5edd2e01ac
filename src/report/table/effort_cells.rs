//! The table's effort cells of a task: the focused candidate's mean turns with the baseline's
//! below, and its most frequent ending with the attempts cut short below it (the turns and
//! the tooltip are the core's words, `task_turns_cell` and `task_ending_cell`, shared with the
//! reports; the short second line fits the column).

use eval_compare_core::report::{task_ending_cell, task_turns_cell, Report, TaskEffortCell};
use eval_compare_core::text::{visible, MISSING};
use leptos::prelude::*;

/// What a task's two effort cells show.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EffortCells {
    /// The candidate's mean turns ("45.0", or "—").
    pub turns: String,
    /// The baseline's, under it ("base 10.0").
    pub baseline_turns: String,
    /// The candidate's most frequent ending.
    pub ending: String,
    /// Under it, the attempts cut short: "turn limit 1/4", "timeout 2/4"; empty without.
    pub cut_short_line: String,
    /// The ending cell's tooltip: the report's ending cell, then attempts, turn-limit hits
    /// and timeouts in full.
    pub ending_title: String,
}

/// The effort cells of task row `row` for the candidate at `focus`; `None` when the report
/// has no effort (then the cells say "—").
pub fn effort_cells(report: &Report, row: usize, focus: usize) -> Option<EffortCells> {
    let task = report.effort.as_ref()?.tasks.get(row)?;
    let candidate = task.cells.get(focus + 1)?;
    let baseline = task.cells.first();
    Some(EffortCells {
        turns: task_turns_cell(candidate),
        baseline_turns: format!(
            "base {}",
            baseline.map_or_else(|| MISSING.to_owned(), task_turns_cell)
        ),
        ending: visible(candidate.ending.as_deref().unwrap_or(MISSING)).into_owned(),
        cut_short_line: cut_short_line(candidate),
        ending_title: format!(
            "{}\n{}",
            visible(&task_ending_cell(candidate)),
            ending_title(candidate)
        ),
    })
}

/// The attempts cut short, short enough for the column: "turn limit 1/4 · timeout 1/4".
fn cut_short_line(cell: &TaskEffortCell) -> String {
    let mut parts = Vec::new();
    if cell.turn_limit > 0 {
        parts.push(format!("turn limit {}/{}", cell.turn_limit, cell.attempts));
    }
    if cell.timeout > 0 {
        parts.push(format!("timeout {}/{}", cell.timeout, cell.attempts));
    }
    parts.join(" · ")
}

/// "3 attempts: 1 hit the turn limit, 0 timed out; most often ENV_DONE".
fn ending_title(cell: &TaskEffortCell) -> String {
    let most = cell.ending.as_deref().map_or_else(String::new, |ending| {
        format!("; most often {}", visible(ending))
    });
    format!(
        "{} {}: {} hit the turn limit, {} timed out{most}",
        cell.attempts,
        if cell.attempts == 1 {
            "attempt"
        } else {
            "attempts"
        },
        cell.turn_limit,
        cell.timeout
    )
}

/// The turns and ending cells of a task row.
#[component]
pub fn EffortCellsView(
    /// The comparison report.
    report: std::sync::Arc<Report>,
    /// The task row's index in the report's tasks.
    index: usize,
    /// The focused candidate.
    focus: usize,
) -> impl IntoView {
    let Some(cells) = effort_cells(&report, index, focus) else {
        return view! {
            <td class="task-turns num">{MISSING}</td>
            <td class="task-ending">{MISSING}</td>
        }
        .into_any();
    };
    let title = format!(
        "Mean turns of the candidate's counted trajectories on this task; {}",
        cells.baseline_turns
    );
    view! {
        <td class="task-turns num" title=title>
            <span class="task-turns-candidate">{cells.turns}</span>
            <span class="task-turns-baseline">{cells.baseline_turns}</span>
        </td>
        <td class="task-ending" title=cells.ending_title>
            <span class="task-ending-name">{cells.ending}</span>
            <span class="task-cut-short">{cells.cut_short_line}</span>
        </td>
    }
    .into_any()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ending_title_counts_the_attempts_cut_short() {
        let cell = TaskEffortCell {
            turns: Some(40.0),
            attempts: 3,
            turn_limit: 1,
            timeout: 0,
            ending: Some("ENV_DONE".to_owned()),
        };
        assert_eq!(
            ending_title(&cell),
            "3 attempts: 1 hit the turn limit, 0 timed out; most often ENV_DONE"
        );
        let none = TaskEffortCell {
            turns: None,
            attempts: 1,
            turn_limit: 0,
            timeout: 0,
            ending: None,
        };
        assert_eq!(cut_short_line(&cell), "turn limit 1/3");
        let both = TaskEffortCell {
            timeout: 2,
            ..cell.clone()
        };
        assert_eq!(cut_short_line(&both), "turn limit 1/3 · timeout 2/3");
        assert_eq!(cut_short_line(&none), "");
        assert_eq!(
            ending_title(&none),
            "1 attempt: 0 hit the turn limit, 0 timed out"
        );
    }
}
