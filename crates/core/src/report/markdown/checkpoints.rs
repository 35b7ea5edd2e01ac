//! The markdown of the checkpoints against each other and of the tasks' paths across them.

use std::fmt::Write;

use crate::text::markdown_text;

use super::super::words::{
    path_cells, path_columns, paths_line, step_cells, versus_chosen_line, PATHS_HEADING,
    PATHS_INTRO, STEPS_HEADING, STEPS_INTRO, STEP_COLUMNS,
};
use super::super::{Report, StepComparison};
use super::{shown, table};

/// The comparisons of the checkpoints and the tasks' paths; nothing without a progression.
pub fn render(out: &mut String, report: &Report) {
    let Some(checkpoints) = &report.checkpoints else {
        return;
    };
    let _ = writeln!(out, "## {STEPS_HEADING}\n\n{STEPS_INTRO}\n");
    comparisons(out, &checkpoints.versus_previous);
    if let Some(step) = checkpoints.versus_step {
        let _ = writeln!(out, "{}\n", versus_chosen_line(step));
        comparisons(out, &checkpoints.versus_chosen);
    }
    let _ = writeln!(
        out,
        "### {PATHS_HEADING}\n\n{PATHS_INTRO} {}\n",
        paths_line(checkpoints)
    );
    if checkpoints.paths.is_empty() {
        return;
    }
    let columns = path_columns(report);
    let columns: Vec<&str> = columns.iter().map(String::as_str).collect();
    let rows = checkpoints
        .paths
        .iter()
        .map(|path| path_cells(report, path));
    table(out, &columns, rows, Some((0, shown)));
}

fn comparisons(out: &mut String, comparisons: &[StepComparison]) {
    table(out, &STEP_COLUMNS, comparisons.iter().map(step_cells), None);
    for comparison in comparisons {
        for reason in &comparison.verdict.reasons {
            let _ = writeln!(out, "- {}: {}", comparison.title(), markdown_text(reason));
        }
    }
    if comparisons.iter().any(|c| !c.verdict.reasons.is_empty()) {
        out.push('\n');
    }
}
