//! One row per task of the union: what each run did there and the candidate deltas.

use serde::{Deserialize, Serialize};

use crate::model::{ClassCounts, Run, RunSet, TaskIdx, TaskStats};
use crate::stats::round_delta;

/// What one run did on one task.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TaskCell {
    /// The task's score in the primary analysis: the mean of the included samples, or its one
    /// outcome under the all-trials-pass rule (Chronicle runs); `None` when none is included.
    pub mean: Option<f64>,
    /// Included samples behind the mean.
    pub included: u32,
    /// All trajectories on the task.
    pub samples: u32,
    /// Trajectories by outcome class.
    pub classes: ClassCounts,
    /// Cut-off trajectories without a reward, scored 0 by the platform rule.
    pub zero_by_platform_rule: u32,
    /// Rewards that were NaN, infinite or out of bounds (excluded).
    pub invalid_rewards: u32,
    /// Whether the included samples disagree (not all equal; [`super::samples_disagree`]).
    pub flaky: bool,
}

impl TaskCell {
    fn of(stats: &TaskStats) -> TaskCell {
        TaskCell {
            mean: stats.primary.mean(),
            included: stats.included_samples,
            samples: stats.samples(),
            classes: stats.by_class,
            zero_by_platform_rule: stats.zero_by_platform_rule,
            invalid_rewards: stats.invalid_rewards,
            flaky: super::samples_disagree(&stats.primary),
        }
    }
}

/// One task of the union of the compared runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TaskRow {
    /// Task id.
    pub task_id: String,
    /// Human label, when the benchmark gives one.
    pub label: Option<String>,
    /// Categories, as indices into [`Report::categories`](super::Report::categories).
    pub categories: Vec<u32>,
    /// One cell per run, in [`Report::runs`](super::Report::runs) order (baseline first).
    pub cells: Vec<TaskCell>,
    /// Per candidate (in order): candidate mean − baseline mean, rounded to 1e-9; `None` when
    /// either side has no included sample (the task is unpaired for that candidate).
    pub deltas: Vec<Option<f64>>,
}

impl TaskRow {
    /// Whether any run has a failed trajectory on this task.
    pub fn has_failure(&self) -> bool {
        self.cells.iter().any(|cell| cell.classes.failed > 0)
    }

    /// The labels of the task's categories, from the report's list (`categories`, as this row's
    /// indices refer to it); an index outside the list is skipped.
    pub fn category_labels<'a>(&self, categories: &'a [String]) -> Vec<&'a str> {
        self.categories
            .iter()
            .filter_map(|&c| categories.get(c as usize))
            .map(String::as_str)
            .collect()
    }
}

/// Rows for every task that at least one of `runs` attempted, in task order.
pub fn task_rows(set: &RunSet, runs: &[&Run]) -> Vec<TaskRow> {
    let empty = TaskStats::new();
    let mut rows = Vec::with_capacity(set.tasks().len());
    let mut stats: Vec<&TaskStats> = Vec::with_capacity(runs.len());
    for (index, task) in set.tasks().iter().enumerate() {
        let idx = index as TaskIdx;
        stats.clear();
        stats.extend(runs.iter().map(|run| run.stats_of(idx).unwrap_or(&empty)));
        if stats.iter().all(|stats| stats.samples() == 0) {
            continue;
        }
        let cells: Vec<TaskCell> = stats.iter().map(|stats| TaskCell::of(stats)).collect();
        let base_mean = cells.first().and_then(|c| c.mean);
        let deltas = cells
            .iter()
            .skip(1)
            .map(|cell| Some(round_delta(cell.mean? - base_mean?)))
            .collect();
        rows.push(TaskRow {
            task_id: task.id.clone(),
            label: task.label.clone(),
            categories: task.categories.clone(),
            cells,
            deltas,
        });
    }
    rows
}
