//! The checkpoints against each other, the tasks' paths across them and the pass threshold: the
//! words the page, the markdown and the HTML report share.

use crate::text::{count, interval_points, mean, optional_value, p_value, signed_points, StatText};

use super::super::{CheckpointSteps, Report, StepComparison, TaskPath};

/// Heading of the checkpoints against each other.
pub const STEPS_HEADING: &str = "Checkpoints against each other";

/// What the comparisons of checkpoints are.
pub const STEPS_INTRO: &str = "Each checkpoint against the previous step, paired on the tasks \
    both scored, the earlier step as the baseline: the same analysis and verdict rule as against \
    the baseline, Holm across the steps.";

/// Column headings of [`step_cells`].
pub const STEP_COLUMNS: [&str; 6] = [
    "comparison",
    "paired tasks",
    "Δ (points)",
    "interval (points)",
    "Holm p",
    "verdict",
];

/// One comparison's cells under [`STEP_COLUMNS`].
pub fn step_cells(comparison: &StepComparison) -> [String; 6] {
    [
        comparison.title(),
        count(comparison.n as u64),
        StatText::of(&comparison.delta, |d| signed_points(*d)).text(),
        StatText::of(&comparison.verdict.interval, interval_points).text(),
        StatText::of(&comparison.p_holm, |p| p_value(*p)).text(),
        comparison.verdict.headline(),
    ]
}

/// "Against step 300, the step chosen (…)."
pub fn versus_chosen_line(step: i64) -> String {
    format!(
        "Against step {step}, the step chosen (Holm across these comparisons; the earlier step \
         of each pair is its baseline)."
    )
}

/// Heading of the tasks' paths.
pub const PATHS_HEADING: &str = "Tasks whose outcome changes across checkpoints";

/// What a task's path is.
pub const PATHS_INTRO: &str = "A task's state at a step is its paired Δ against the baseline \
    there: better, the same or worse. Listed: the tasks whose state changes from step to step, \
    with each step's task mean.";

/// "3 tasks change across the checkpoints."
pub fn paths_line(checkpoints: &CheckpointSteps) -> String {
    crate::text::plural(
        checkpoints.paths.len() as u64,
        "task changes",
        "tasks change",
    ) + " across the checkpoints."
}

/// Column headings of [`path_cells`]: task, baseline, one per step, path.
pub fn path_columns(report: &Report) -> Vec<String> {
    let mut columns = vec!["task".to_owned(), "baseline".to_owned()];
    if let Some(progression) = &report.progression {
        columns.extend(
            progression
                .points
                .iter()
                .map(|p| format!("step {}", p.step)),
        );
    }
    columns.push("path".to_owned());
    columns
}

/// One path's cells under [`path_columns`]: the task's name (the JSON holds it whole), the
/// baseline's task mean, each step's, and the path in words.
pub fn path_cells(report: &Report, path: &TaskPath) -> Vec<String> {
    let Some(row) = report.tasks.get(path.task) else {
        return Vec::new();
    };
    let cell_mean = |run: usize| optional_value(row.cells.get(run).and_then(|c| c.mean));
    let mut cells = vec![
        row.label.clone().unwrap_or_else(|| row.task_id.clone()),
        cell_mean(0),
    ];
    if let Some(progression) = &report.progression {
        cells.extend(progression.points.iter().map(|p| cell_mean(p.run)));
    }
    cells.push(path.kind.words());
    cells
}

/// "Rewards scored pass/fail: a valid reward of at least 0.700 passes (1), below it fails (0)."
pub fn pass_threshold_line(report: &Report) -> Option<String> {
    let threshold = report.settings.pass_threshold?;
    Some(format!(
        "Rewards scored pass/fail: a valid reward of at least {} passes (1), below it fails (0); \
         every figure below is about passes, so pass@k, pass^k and flips apply.",
        mean(threshold)
    ))
}
