//! The markdown of the checkpoints against each other and of the tasks' paths across them.

use std::fmt::Write;

use crate::text::markdown_text;

use super::super::words::{
    path_cells, path_columns, paths_line, step_cells, versus_chosen_line, PATHS_HEADING,
    PATHS_INTRO, STEPS_HEADING, STEPS_INTRO, STEP_COLUMNS,
};
use super::super::{Report, StepComparison};
use super::{cell, shown, table_head};

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
    table_head(out, &columns);
    for path in &checkpoints.paths {
        let cells = path_cells(report, path);
        let cells: Vec<String> = cells
            .iter()
            .enumerate()
            .map(|(i, text)| if i == 0 { shown(text) } else { cell(text) })
            .collect();
        let _ = writeln!(out, "| {} |", cells.join(" | "));
    }
    out.push('\n');
}

fn comparisons(out: &mut String, comparisons: &[StepComparison]) {
    table_head(out, &STEP_COLUMNS);
    for comparison in comparisons {
        let cells: Vec<String> = step_cells(comparison)
            .iter()
            .map(|text| cell(text))
            .collect();
        let _ = writeln!(out, "| {} |", cells.join(" | "));
    }
    out.push('\n');
    for comparison in comparisons {
        for reason in &comparison.verdict.reasons {
            let _ = writeln!(out, "- {}: {}", comparison.title(), markdown_text(reason));
        }
    }
    if comparisons.iter().any(|c| !c.verdict.reasons.is_empty()) {
        out.push('\n');
    }
}
