//! The platform's own numbers beside ours: each Chronicle job's results against its trials
//! (the summary line, the table of the tasks they disagree on) and the headings of the
//! platform's sections.

use crate::audit::{PlatformCheck, TaskDisagreement};
use crate::text::{count, optional_value};

/// The heading of the platform's results of each Chronicle job beside its trials.
pub const PLATFORM_RESULTS_HEADING: &str = "Platform results beside the trials";

/// What the platform's results are set beside.
pub const PLATFORM_RESULTS_INTRO: &str = "Chronicle's own pass/fail per task (its results \
    endpoint, all of a job's agents together) next to what the trials give by the same rule: a \
    task passes when every scorer with a threshold met it in every trial.";

/// The heading of the platform's own progression of the checkpoints' training run.
pub const PLATFORM_PROGRESSION_HEADING: &str = "The platform's own progression";

/// The tasks of disagreement listed per job; [`and_more`] counts the others.
pub const LISTED_DISAGREEMENTS: usize = 20;

/// One job's check in a line: "The platform lists 1,200 tasks, pass rate 0.373; the trials
/// decide 1,198 tasks, pass rate 0.371. 1,190 agree, 8 differ; the pass rates agree."
pub fn platform_check_line(check: &PlatformCheck) -> String {
    format!(
        "The platform lists {} tasks, pass rate {}; the trials decide {} tasks, pass rate {}. {} agree, {} differ; the pass rates {}.",
        count(check.platform_tasks as u64),
        optional_value(check.platform_pass_rate),
        count(check.computed_tasks as u64),
        optional_value(check.computed_pass_rate),
        count(check.agreeing_tasks as u64),
        count(check.disagreements.len() as u64),
        if check.pass_rate_agrees { "agree" } else { "differ" }
    )
}

/// The column headings of [`disagreement_cells`].
pub const DISAGREEMENT_COLUMNS: [&str; 5] = [
    "Task",
    "Platform",
    "Trials",
    "Platform's failed scorers",
    "Scorers failed in trials",
];

/// The cells of a task the platform and the trials disagree on: its id, what each says, and
/// the scorers each saw fail (the first cell and the scorers are data, for the renderer to
/// escape).
pub fn disagreement_cells(disagreement: &TaskDisagreement) -> [String; 5] {
    [
        disagreement.task_id.clone(),
        disagreement.platform.label().to_owned(),
        disagreement.computed.label().to_owned(),
        disagreement.platform_failed_scorers.join(", "),
        disagreement.computed_failed_scorers.join(", "),
    ]
}

/// After a list cut at its first rows: "and 1,234 more."
pub fn and_more(more: usize) -> String {
    format!("and {} more.", count(more as u64))
}
