//! The markdown of the effort section: each run's turns and endings, and each candidate's
//! paired turns and endings against the baseline.

use std::fmt::Write;

use crate::text::{markdown_code, markdown_text};

use super::super::words::{
    effort_lines, ending_cells, run_effort_cells, turns_sentence, EFFORT_HEADING, EFFORT_INTRO,
    ENDING_COLUMNS, RUN_EFFORT_COLUMNS,
};
use super::super::{CandidateResult, Report};
use super::{run_list, shown, table};

/// The line under a candidate's headline: its turns sentence; nothing without effort.
pub fn headline(out: &mut String, report: &Report, candidate: &CandidateResult) {
    let effort = report
        .effort
        .as_ref()
        .and_then(|effort| effort.candidates.iter().find(|e| e.run == candidate.run));
    if let Some(effort) = effort.filter(|effort| effort.turns.n > 0) {
        let _ = writeln!(out, "  - {}", markdown_text(&turns_sentence(&effort.turns)));
    }
}

/// The effort section; nothing when the report has none.
pub fn render(out: &mut String, report: &Report) {
    let Some(effort) = &report.effort else {
        return;
    };
    let _ = writeln!(out, "## {EFFORT_HEADING}\n\n{EFFORT_INTRO}\n");
    let rows = effort.runs.iter().zip(&report.runs).enumerate();
    let rows = rows.map(|(index, (run, summary))| run_effort_cells(index, &summary.name, run));
    table(out, &RUN_EFFORT_COLUMNS, rows, Some((1, shown)));
    for candidate in &effort.candidates {
        if !run_list(out, report, candidate.run, &effort_lines(candidate)) {
            continue;
        }
        let rows = candidate.endings.iter().map(ending_cells);
        table(out, &ENDING_COLUMNS, rows, Some((0, markdown_code)));
    }
}
