//! The markdown of the cost section: each run's cost per attempted and per solved task, each
//! candidate's Δ against the baseline, and the quality–cost table.

use std::fmt::Write;

use crate::text::markdown_text;

use super::super::words::{
    cost_line_of, cost_lines, quality_cost_cells, run_cost_cells, unbeaten_sentence, COST_HEADING,
    COST_INTRO, QUALITY_COST_COLUMNS, QUALITY_COST_HEADING, QUALITY_COST_INTRO, RUN_COST_COLUMNS,
};
use super::super::{CandidateResult, Report};
use super::{run_list, shown, table};

/// The line under a candidate's headline: its cost beside the verdict; nothing without a cost
/// section.
pub fn headline(out: &mut String, report: &Report, candidate: &CandidateResult) {
    if let Some(line) = cost_line_of(report, candidate) {
        let _ = writeln!(out, "  - {}", markdown_text(&line));
    }
}

/// The cost section; nothing when the report has none.
pub fn render(out: &mut String, report: &Report) {
    let Some(cost) = &report.cost else {
        return;
    };
    let _ = writeln!(out, "## {COST_HEADING}\n\n{COST_INTRO}\n");
    let rows = cost.runs.iter().enumerate();
    let rows = rows.map(|(index, run)| run_cost_cells(report, index, run));
    table(out, &RUN_COST_COLUMNS, rows, Some((1, shown)));
    for candidate in &cost.candidates {
        run_list(out, report, candidate.run, &cost_lines(report, candidate));
    }
    let _ = writeln!(out, "### {QUALITY_COST_HEADING}\n\n{QUALITY_COST_INTRO}\n");
    let rows = cost.quality_cost.iter();
    let rows = rows.map(|point| quality_cost_cells(report, point));
    table(out, &QUALITY_COST_COLUMNS, rows, Some((0, shown)));
    if let Some(line) = unbeaten_sentence(report) {
        let _ = writeln!(out, "{}\n", markdown_text(&line));
    }
}
