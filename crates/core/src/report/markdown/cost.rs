//! The markdown of the cost section: each run's cost per attempted and per solved task, each
//! candidate's Δ against the baseline, and the quality–cost table.

use std::fmt::Write;

use crate::text::markdown_text;

use super::super::words::{
    cost_line_of, cost_sentence, kind_sentence, quality_cost_cells, run_cost_cells,
    unbeaten_sentence, COST_HEADING, COST_INTRO, QUALITY_COST_COLUMNS, QUALITY_COST_HEADING,
    QUALITY_COST_INTRO, RUN_COST_COLUMNS,
};
use super::super::{CandidateResult, Report};
use super::{cell, shown, table_head};

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
    table_head(out, &RUN_COST_COLUMNS);
    for (index, run) in cost.runs.iter().enumerate() {
        let cells: Vec<String> = run_cost_cells(report, index, run)
            .iter()
            .enumerate()
            .map(|(i, text)| if i == 1 { shown(text) } else { cell(text) })
            .collect();
        let _ = writeln!(out, "| {} |", cells.join(" | "));
    }
    out.push('\n');
    for candidate in &cost.candidates {
        let Some(run) = report.runs.get(candidate.run) else {
            continue;
        };
        let _ = writeln!(out, "### {}\n", shown(&run.name));
        let _ = writeln!(
            out,
            "- {}",
            markdown_text(&cost_sentence(report, candidate))
        );
        if let Some(kinds) = kind_sentence(candidate) {
            let _ = writeln!(out, "- {}", markdown_text(&kinds));
        }
        out.push('\n');
    }
    let _ = writeln!(out, "### {QUALITY_COST_HEADING}\n\n{QUALITY_COST_INTRO}\n");
    table_head(out, &QUALITY_COST_COLUMNS);
    for point in &cost.quality_cost {
        let cells: Vec<String> = quality_cost_cells(report, point)
            .iter()
            .enumerate()
            .map(|(i, text)| if i == 0 { shown(text) } else { cell(text) })
            .collect();
        let _ = writeln!(out, "| {} |", cells.join(" | "));
    }
    out.push('\n');
    if let Some(line) = unbeaten_sentence(report) {
        let _ = writeln!(out, "{}\n", markdown_text(&line));
    }
}
