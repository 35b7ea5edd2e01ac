//! The scorecard as markdown (the CLI's `--format text`): the rule, the recommendation, the
//! grid, the rule's answer per step, the rows' baselines, and what was passed over. Every
//! sentence comes from `words`; untrusted text is escaped.

use std::fmt::Write;

use crate::text::{markdown_code, markdown_text};

use super::words::{self, cell_words};
use super::Scorecard;

impl Scorecard {
    /// The scorecard as markdown.
    pub fn to_markdown(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "# {}: training run {}\n",
            words::HEADING,
            markdown_code(&self.training_run_id)
        );
        let _ = writeln!(
            out,
            "{}\n",
            markdown_text(&words::rule_text(&self.rule, self.settings.alpha))
        );
        let recommendation = match &self.recommended {
            Some(recommended) => format!(
                "**{}: step {}.** {}",
                words::RECOMMENDED,
                recommended.step,
                recommended.reason
            ),
            None => words::NONE_RECOMMENDED.to_owned(),
        };
        let _ = writeln!(out, "{recommendation}\n");
        grid(&mut out, self);
        rows(&mut out, self);
        notes(&mut out, self);
        out
    }
}

fn grid(out: &mut String, scorecard: &Scorecard) {
    let _ = write!(out, "| Benchmark |");
    for &step in &scorecard.steps {
        let _ = write!(out, " {} |", words::step_heading(step));
    }
    let _ = write!(out, "\n|---|");
    for _ in &scorecard.steps {
        out.push_str("---|");
    }
    out.push('\n');
    let width = scorecard.steps.len();
    for (r, row) in scorecard.rows.iter().enumerate() {
        let _ = write!(out, "| {} |", markdown_code(&row.bench_id));
        for cell in scorecard.cells.iter().skip(r * width).take(width) {
            let shown = cell_words(&cell.state);
            let previous = cell.versus_previous.as_ref().map(words::previous_words);
            let parts: Vec<String> = [shown.delta, shown.verdict, shown.coverage]
                .into_iter()
                .chain(previous)
                .filter(|part| !part.is_empty())
                .map(|part| markdown_text(&part))
                .collect();
            let _ = write!(out, " {} |", parts.join("<br>"));
        }
        out.push('\n');
    }
    let _ = write!(out, "| **Rule** |");
    for column in &scorecard.columns {
        let _ = write!(
            out,
            " {} |",
            markdown_text(&words::outcome_text(&column.outcome))
        );
    }
    let _ = writeln!(out, "\n\n{}\n", words::CELL_LEGEND);
}

fn rows(out: &mut String, scorecard: &Scorecard) {
    let _ = writeln!(out, "## Baselines\n");
    let _ = writeln!(out, "| {} |", words::ROW_COLUMNS.join(" | "));
    let _ = writeln!(out, "|{}", "---|".repeat(words::ROW_COLUMNS.len()));
    for row in &scorecard.rows {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} |",
            markdown_code(&row.bench_id),
            markdown_text(&words::baseline_words(&row.baseline)),
            words::baseline_mean_words(row),
            markdown_text(&words::mde_words(row)),
            words::first_significant_words(row),
        );
    }
    out.push('\n');
}

fn notes(out: &mut String, scorecard: &Scorecard) {
    let lines: Vec<String> = scorecard
        .rows
        .iter()
        .flat_map(|row| words::skipped_words(&row.baseline))
        .chain(scorecard.cells.iter().flat_map(words::others_words))
        .collect();
    if lines.is_empty() {
        return;
    }
    let _ = writeln!(out, "## Passed over\n");
    for line in lines {
        let _ = writeln!(out, "- {}", markdown_text(&line));
    }
    out.push('\n');
}
