//! The markdown of the tokens read from the transcripts: each run's mean tokens per task and
//! each candidate's paired Δ against the baseline; nothing until some were read.

use std::fmt::Write;

use crate::text::markdown_text;

use super::super::words::{
    run_token_cells, tokens_sentence, RUN_TOKEN_COLUMNS, TOKENS_HEADING, TOKENS_INTRO,
};
use super::super::{CandidateResult, CandidateTokens, Report};
use super::{cell, shown, table_head};

/// The tokens of the candidate `candidate`, once some were read.
pub(super) fn tokens_of<'r>(
    report: &'r Report,
    candidate: &CandidateResult,
) -> Option<&'r CandidateTokens> {
    report
        .effort
        .as_ref()?
        .tokens
        .as_ref()?
        .candidates
        .iter()
        .find(|tokens| tokens.run == candidate.run)
}

/// The line under a candidate's headline: its tokens sentence, once tokens were read.
pub fn headline(out: &mut String, report: &Report, candidate: &CandidateResult) {
    if let Some(tokens) = tokens_of(report, candidate).filter(|tokens| tokens.n > 0) {
        let _ = writeln!(out, "  - {}", markdown_text(&tokens_sentence(tokens)));
    }
}

/// The tokens section; nothing until tokens were read.
pub fn render(out: &mut String, report: &Report) {
    let Some(tokens) = report.effort.as_ref().and_then(|e| e.tokens.as_ref()) else {
        return;
    };
    let _ = writeln!(
        out,
        "## {TOKENS_HEADING}\n\n{}\n",
        markdown_text(TOKENS_INTRO)
    );
    table_head(out, &RUN_TOKEN_COLUMNS);
    for (index, (run, summary)) in tokens.runs.iter().zip(&report.runs).enumerate() {
        let cells: Vec<String> = run_token_cells(index, &summary.name, run)
            .iter()
            .enumerate()
            .map(|(i, text)| if i == 1 { shown(text) } else { cell(text) })
            .collect();
        let _ = writeln!(out, "| {} |", cells.join(" | "));
    }
    out.push('\n');
    for candidate in &tokens.candidates {
        let Some(run) = report.runs.get(candidate.run) else {
            continue;
        };
        let _ = writeln!(
            out,
            "- {}: {}",
            shown(&run.name),
            markdown_text(&tokens_sentence(candidate))
        );
    }
    out.push('\n');
}
