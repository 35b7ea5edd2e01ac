//! The markdown of the Chronicle trials' steps and durations: each run's means, each
//! candidate's paired steps and duration against the baseline.

use std::fmt::Write;

use crate::text::markdown_text;

use super::super::words::{
    measure_sentence, measure_solved_failed, run_trial_effort_cells, trial_effort_beside_verdict,
    DURATION, RUN_TRIAL_EFFORT_COLUMNS, STEPS, TRIAL_EFFORT_HEADING, TRIAL_EFFORT_INTRO,
};
use super::super::{CandidateResult, Report};
use super::{shown, table};

/// The line under a candidate's headline: "+12.0% steps · +30.1% duration" per trial; nothing
/// without trial details.
pub fn headline(out: &mut String, report: &Report, candidate: &CandidateResult) {
    let section = report.trial_effort.as_ref();
    let found = section.and_then(|s| s.candidates.iter().find(|e| e.run == candidate.run));
    if let Some(line) = found.and_then(|e| trial_effort_beside_verdict(&e.steps, &e.duration)) {
        let _ = writeln!(out, "  - Trials: {} per trial.", markdown_text(&line));
    }
}

/// The trials' steps and durations; nothing when no trial detail was read.
pub fn render(out: &mut String, report: &Report) {
    let Some(section) = &report.trial_effort else {
        return;
    };
    let _ = writeln!(out, "## {TRIAL_EFFORT_HEADING}\n\n{TRIAL_EFFORT_INTRO}\n");
    let rows = section.runs.iter().zip(&report.runs).enumerate();
    let rows =
        rows.map(|(index, (run, summary))| run_trial_effort_cells(index, &summary.name, run));
    table(out, &RUN_TRIAL_EFFORT_COLUMNS, rows, Some((1, shown)));
    for candidate in &section.candidates {
        let Some(run) = report.runs.get(candidate.run) else {
            continue;
        };
        let _ = writeln!(out, "### {}\n", shown(&run.name));
        for (delta, measure) in [(&candidate.steps, STEPS), (&candidate.duration, DURATION)] {
            let _ = writeln!(
                out,
                "- {}",
                markdown_text(&measure_sentence(delta, measure))
            );
            if delta.n > 0 {
                let line = measure_solved_failed(delta, measure);
                let _ = writeln!(out, "- {}", markdown_text(&line));
            }
        }
        out.push('\n');
    }
}
