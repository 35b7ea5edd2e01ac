//! `--fail-unless-deployable STEP`: the scorecard's gate. It passes only when the checkpoint at
//! STEP meets the rule; it refuses to judge (exit 11, as the report's gate) when a cell the
//! rule needs there is still running or its numbers are partial (a run failed, was cancelled
//! or was not read completely).

use eval_compare_core::scorecard::{words, CellState, Outcome, Scorecard};

use crate::exit_code::Exit;

/// The gate's exit and what it says on stderr.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeployGate {
    /// How the process ends.
    pub exit: Exit,
    /// One line.
    pub message: String,
}

/// Judges the checkpoint at `step`.
pub fn deployable(scorecard: &Scorecard, step: i64) -> DeployGate {
    let gate = |exit, message: String| DeployGate { exit, message };
    let Some(column) = scorecard.column(step) else {
        let steps: Vec<String> = scorecard.steps.iter().map(i64::to_string).collect();
        return gate(
            Exit::Usage,
            format!(
                "step {step} is not a checkpoint of this scorecard (its steps: {})",
                steps.join(", ")
            ),
        );
    };
    if column.outcome == Outcome::NoRule {
        return gate(
            Exit::Usage,
            format!("--fail-unless-deployable needs a rule: {}", words::NO_RULE),
        );
    }
    let unfinished: Vec<&str> = column
        .family
        .iter()
        .filter(|member| {
            matches!(
                scorecard.cell(&member.bench_id, step).map(|cell| &cell.state),
                Some(CellState::Compared { comparison })
                    if comparison.verdict.provisional || comparison.verdict.partial
            )
        })
        .map(|member| member.bench_id.as_str())
        .collect();
    if !unfinished.is_empty() {
        return gate(
            Exit::Unfinished,
            format!(
                "step {step}: the gate does not judge partial numbers: {} still running, failed or not read completely",
                unfinished.join(", ")
            ),
        );
    }
    let text = words::outcome_text(&column.outcome);
    match column.outcome {
        Outcome::Meets => gate(Exit::Ok, format!("step {step}: {text}")),
        _ => gate(
            Exit::NotDeployable,
            format!("step {step} is not deployable: {text}"),
        ),
    }
}
