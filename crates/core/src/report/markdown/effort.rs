//! The markdown of the effort section: each run's turns and endings, and each candidate's
//! paired turns and endings against the baseline.

use std::fmt::Write;

use crate::text::markdown_text;

use super::super::words::{
    ending_cells, ending_sentence, run_effort_cells, solved_failed_sentence, turns_sentence,
    EFFORT_HEADING, EFFORT_INTRO, ENDING_COLUMNS, RUN_EFFORT_COLUMNS,
};
use super::super::{CandidateResult, Report};
use super::{cell, shown, table_head};

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
    table_head(out, &RUN_EFFORT_COLUMNS);
    for (index, (run, summary)) in effort.runs.iter().zip(&report.runs).enumerate() {
        let cells: Vec<String> = run_effort_cells(index, &summary.name, run)
            .iter()
            .enumerate()
            .map(|(i, text)| if i == 1 { shown(text) } else { cell(text) })
            .collect();
        let _ = writeln!(out, "| {} |", cells.join(" | "));
    }
    out.push('\n');
    for candidate in &effort.candidates {
        let Some(run) = report.runs.get(candidate.run) else {
            continue;
        };
        let _ = writeln!(out, "### {}\n", shown(&run.name));
        let _ = writeln!(
            out,
            "- {}",
            markdown_text(&turns_sentence(&candidate.turns))
        );
        if candidate.turns.n > 0 {
            let _ = writeln!(
                out,
                "- {}",
                markdown_text(&solved_failed_sentence(&candidate.turns))
            );
        }
        let _ = writeln!(
            out,
            "- {}",
            markdown_text(&ending_sentence(&candidate.turn_limit))
        );
        let _ = writeln!(
            out,
            "- {}\n",
            markdown_text(&ending_sentence(&candidate.timeout))
        );
        table_head(out, &ENDING_COLUMNS);
        for ending in &candidate.endings {
            let cells: Vec<String> = ending_cells(ending)
                .iter()
                .enumerate()
                .map(|(i, text)| {
                    if i == 0 {
                        crate::text::markdown_code(text)
                    } else {
                        cell(text)
                    }
                })
                .collect();
            let _ = writeln!(out, "| {} |", cells.join(" | "));
        }
        out.push('\n');
    }
}
