//! Every sentence of the scorecard that more than one renderer shows (the page, the markdown,
//! the HTML scorecard, the CLI's gate), written once.

use crate::audit::Lifecycle;
use crate::text::{points, signed_points};

use super::rule::{Correction, Outcome, Rule};

/// The heading of a scorecard.
pub const HEADING: &str = "Scorecard";
/// What a missing cell shows: never 0.
pub const MISSING_CELL: &str = "not evaluated";
/// What a cell of a row without a baseline shows.
pub const NO_BASELINE_CELL: &str = "no baseline";
/// What a cell not computed yet shows.
pub const PENDING_CELL: &str = "…";
/// The label of the recommended checkpoint's line.
pub const RECOMMENDED: &str = "Recommended checkpoint";
/// What the recommendation says when no checkpoint meets the rule.
pub const NONE_RECOMMENDED: &str = "No checkpoint meets the rule, so none is recommended.";
/// What the decision row says when no primary benchmark is chosen.
pub const NO_RULE: &str = "no rule: choose at least one primary benchmark";
/// How the recommendation picks among several checkpoints that meet the rule.
pub const TIE_RULE: &str = "among the checkpoints that meet the rule, the one whose smallest \
     Δ on a primary benchmark is largest (the earlier step on a tie)";
/// A base-model evaluation passed over because it still runs.
pub const SKIP_RUNNING: &str = "still running";
/// A base-model evaluation passed over because it failed.
pub const SKIP_FAILED: &str = "failed";
/// A base-model evaluation passed over because it was cancelled.
pub const SKIP_CANCELLED: &str = "was cancelled";
/// A base-model evaluation passed over because it did not complete.
pub const SKIP_NOT_COMPLETED: &str = "not recorded as completed";
/// The columns of the row summary.
pub const ROW_COLUMNS: [&str; 5] = [
    "Benchmark",
    "Baseline",
    "Baseline mean",
    "MDE",
    "First significant step",
];

/// Why a baseline chosen by hand is the baseline.
pub fn baseline_by_hand() -> String {
    BY_HAND.to_owned()
}

/// What a baseline chosen by hand says.
pub const BY_HAND: &str = "chosen by hand";

/// Why the automatic baseline is the baseline.
pub fn baseline_newest_matching(skipped: usize) -> String {
    let mut text = "the newest completed base-model evaluation of this benchmark version whose \
                    settings match the checkpoints'"
        .to_owned();
    if skipped > 0 {
        text.push_str(&format!(" ({skipped} newer passed over)"));
    }
    text
}

/// Why a row has no baseline.
pub fn no_baseline(bench_id: &str, skipped: usize) -> String {
    if skipped == 0 {
        format!("no base-model evaluation of {bench_id} was found; choose a baseline by hand")
    } else {
        format!(
            "none of the {skipped} base-model evaluations of {bench_id} is completed with the \
             checkpoints' settings; choose a baseline by hand"
        )
    }
}

/// A task split differs.
pub fn split_differs(baseline: &str, checkpoint: &str) -> String {
    format!("task split differs: `{baseline}` against the checkpoints' `{checkpoint}`")
}

/// A setting differs.
pub fn setting_differs(label: &str, baseline: &str, checkpoint: &str) -> String {
    format!("{label} differs: {baseline} against the checkpoints' {checkpoint}")
}

/// Why another evaluation of a cell's checkpoint is not the one shown.
pub fn other_evaluation(lifecycle: Lifecycle) -> String {
    match lifecycle {
        Lifecycle::Finished => "an older finished evaluation of the same checkpoint".to_owned(),
        Lifecycle::NotFinished => "still running; the finished one is shown".to_owned(),
        Lifecycle::Failed => "failed".to_owned(),
        Lifecycle::Cancelled => "was cancelled".to_owned(),
        Lifecycle::Unknown | Lifecycle::NotRecorded => "not recorded as completed".to_owned(),
    }
}

/// Reason: a primary benchmark significantly worse.
pub fn worse_on(bench: &str) -> String {
    format!("worse on {bench}")
}

/// Reason: a primary benchmark not shown better.
pub fn not_shown_better_on(bench: &str) -> String {
    format!("not shown better on {bench}")
}

/// Reason: a guardrail worse by more than its margin (the interval's upper end below it).
pub fn beyond_margin_on(bench: &str, margin: f64) -> String {
    format!(
        "worse on {bench} by more than {} points",
        points(margin / 100.0)
    )
}

/// Reason: a guardrail not shown within its margin.
pub fn not_shown_within_on(bench: &str, margin: f64) -> String {
    format!(
        "not shown within {} points on {bench}",
        points(margin / 100.0)
    )
}

/// Reason: a cell the rule needs is missing.
pub fn missing_on(bench: &str) -> String {
    format!("{bench} not evaluated")
}

/// Reason: a cell the rule needs is still running.
pub fn running_on(bench: &str) -> String {
    format!("{bench} still running")
}

/// Reason: a cell the rule needs is held back.
pub fn held_back_on(bench: &str, why: &str) -> String {
    format!("{bench} held back ({why})")
}

/// A column's outcome in words: "meets the rule", "fails: worse on X", "cannot tell yet: …".
pub fn outcome_text(outcome: &Outcome) -> String {
    match outcome {
        Outcome::Meets => "meets the rule".to_owned(),
        Outcome::Fails { reasons } => format!("fails: {}", reasons.join("; ")),
        Outcome::CannotTell { reasons } => format!("cannot tell yet: {}", reasons.join("; ")),
        Outcome::NoRule => NO_RULE.to_owned(),
    }
}

/// The rule in one sentence, naming its correction.
pub fn rule_text(rule: &Rule, alpha: f64) -> String {
    if !rule.is_set() {
        return format!("Rule: {NO_RULE}.");
    }
    let mut text = format!("Rule: better on {}", rule.primary.join(", "));
    for guardrail in &rule.guardrails {
        text.push_str(&format!(
            "; not worse than −{} points on {}",
            points(guardrail.margin_points / 100.0),
            guardrail.bench_id
        ));
    }
    text.push_str(&format!(
        ". Family-wise correction: {} across the {} cells the rule looks at in a column, at α = {}.",
        rule.correction.label(),
        rule.primary.len() + rule.guardrails.len(),
        alpha
    ));
    if rule.correction == Correction::None {
        text.push_str(" Without a correction, looking at many cells finds chance differences.");
    }
    text
}

/// Why the recommended checkpoint is recommended.
pub fn recommended_text(step: i64, meeting: usize, min_delta_points: Option<f64>) -> String {
    let mut text = format!("Step {step} meets the rule");
    if meeting > 1 {
        text.push_str(&format!(", one of {meeting} that do; picked as {TIE_RULE}"));
    }
    if let Some(delta) = min_delta_points {
        text.push_str(&format!(
            " (smallest primary Δ {} points)",
            signed_points(delta / 100.0)
        ));
    }
    text.push('.');
    text
}

/// A checkpoint step's column heading.
pub fn step_heading(step: i64) -> String {
    format!("Step {step}")
}

/// Why a cell not computed yet holds the rule back.
pub const PENDING_REASON: &str = "still being computed";

/// A cell in words: its Δ in points with the headline interval, its verdict (with its marks),
/// and its coverage (paired of planned tasks); a missing cell says so, never 0.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CellWords {
    /// "+2.3 (+0.5 to +4.1)", or what stands instead of a number.
    pub delta: String,
    /// The verdict's headline ("better", "inconclusive (provisional)"), empty without one.
    pub verdict: String,
    /// "180 of 200 paired", empty without a comparison.
    pub coverage: String,
}

/// The words of a cell's state.
pub fn cell_words(state: &super::cell::CellState) -> CellWords {
    use super::cell::CellState;
    let plain = |text: &str| CellWords {
        delta: text.to_owned(),
        verdict: String::new(),
        coverage: String::new(),
    };
    match state {
        CellState::Missing => plain(MISSING_CELL),
        CellState::NoBaseline => plain(NO_BASELINE_CELL),
        CellState::Pending => plain(PENDING_CELL),
        CellState::Failed { error } => plain(&format!("could not be compared: {error}")),
        CellState::Compared { comparison } => {
            let delta = match (comparison.delta, comparison.interval()) {
                (Some(delta), Some(interval)) => format!(
                    "{} ({})",
                    signed_points(delta),
                    crate::text::interval_points(&interval)
                ),
                (Some(delta), None) => signed_points(delta),
                (None, _) => crate::text::MISSING.to_owned(),
            };
            CellWords {
                delta,
                verdict: comparison.verdict.headline(),
                coverage: format!(
                    "{} of {} paired",
                    crate::text::count(comparison.paired),
                    crate::text::count(comparison.planned)
                ),
            }
        }
    }
}

/// A row's baseline in words: its id and why it was chosen (and how many were passed over).
pub fn baseline_words(choice: &super::baseline::BaselineChoice) -> String {
    match &choice.run_id {
        Some(id) => format!("{id}: {}", choice.why),
        None => choice.why.clone(),
    }
}

/// The passed-over baselines of a row, one phrase each ("er_9: still running").
pub fn skipped_words(choice: &super::baseline::BaselineChoice) -> Vec<String> {
    choice
        .skipped
        .iter()
        .map(|skipped| format!("{} passed over: {}", skipped.run_id, skipped.why))
        .collect()
}

/// The other evaluations of a cell's checkpoint, one phrase each.
pub fn others_words(cell: &super::ScorecardCell) -> Vec<String> {
    cell.others
        .iter()
        .map(|other| {
            format!(
                "{} at step {}: also {} ({})",
                cell.bench_id, cell.step, other.run_id, other.why
            )
        })
        .collect()
}

/// A row's minimum detectable effect in words: "4.1 points at 200 tasks".
pub fn mde_words(row: &super::rows::RowSummary) -> String {
    match (row.mde, row.mde_tasks) {
        (Some(mde), Some(n)) => format!(
            "{} points at {} tasks",
            points(mde),
            crate::text::count(n as u64)
        ),
        _ => crate::text::MISSING.to_owned(),
    }
}

/// A row's first significant step in words.
pub fn first_significant_words(row: &super::rows::RowSummary) -> String {
    row.first_significant_step
        .map_or_else(|| "none".to_owned(), step_heading)
}

/// A row's baseline mean in words.
pub fn baseline_mean_words(row: &super::rows::RowSummary) -> String {
    row.baseline_mean
        .map_or_else(|| crate::text::MISSING.to_owned(), crate::text::mean)
}

/// The sentence under the grid: what a cell holds.
pub const CELL_LEGEND: &str = "Each cell: Δ against the row's baseline in points with its \
     headline interval, the verdict of that pair's comparison report, and its paired of planned \
     tasks. A checkpoint not evaluated on a benchmark is shown as not evaluated, never as 0.";

/// A cell's checkpoint against the previous step, one line: "vs step 300: +1.2 (−0.5 to
/// +2.9), inconclusive".
pub fn previous_words(previous: &super::VersusPrevious) -> String {
    let shown = cell_words(&previous.state);
    let mut text = format!(
        "vs {}: {}",
        step_heading(previous.step).to_lowercase(),
        shown.delta
    );
    if !shown.verdict.is_empty() {
        text.push_str(&format!(", {}", shown.verdict));
    }
    text
}
