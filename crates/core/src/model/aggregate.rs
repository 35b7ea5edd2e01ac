//! Per-task and per-run aggregates of a run's trajectories.

use serde::{Deserialize, Serialize};

use super::outcome::{OutcomeClass, PrimaryValue, RewardState};

/// Counts of trajectories (or tasks) by outcome class.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct ClassCounts {
    /// `ENV_DONE` with a reward.
    pub graded: u32,
    /// `ENV_DONE` without a reward.
    pub ungraded: u32,
    /// Token, context or turn limit.
    pub cut_off: u32,
    /// Timeout or no submission.
    pub model_ending: u32,
    /// Execution failure.
    pub failed: u32,
    /// Cancelled.
    pub cancelled: u32,
    /// Not ended yet.
    pub unfinished: u32,
    /// Any other ending (kept by name on each trajectory).
    pub other: u32,
}

impl ClassCounts {
    /// The count of one class.
    pub fn get(&self, class: OutcomeClass) -> u32 {
        match class {
            OutcomeClass::Graded => self.graded,
            OutcomeClass::Ungraded => self.ungraded,
            OutcomeClass::CutOff => self.cut_off,
            OutcomeClass::ModelEnding => self.model_ending,
            OutcomeClass::Failed => self.failed,
            OutcomeClass::Cancelled => self.cancelled,
            OutcomeClass::Unfinished => self.unfinished,
            OutcomeClass::Other => self.other,
        }
    }

    /// Adds `count` to one class (saturating).
    pub fn add(&mut self, class: OutcomeClass, count: u32) {
        let slot = match class {
            OutcomeClass::Graded => &mut self.graded,
            OutcomeClass::Ungraded => &mut self.ungraded,
            OutcomeClass::CutOff => &mut self.cut_off,
            OutcomeClass::ModelEnding => &mut self.model_ending,
            OutcomeClass::Failed => &mut self.failed,
            OutcomeClass::Cancelled => &mut self.cancelled,
            OutcomeClass::Unfinished => &mut self.unfinished,
            OutcomeClass::Other => &mut self.other,
        };
        *slot = slot.saturating_add(count);
    }

    /// Sum over all classes.
    pub fn total(&self) -> u64 {
        OutcomeClass::ALL
            .iter()
            .map(|&class| u64::from(self.get(class)))
            .sum()
    }
}

/// Count, mean and spread of the values of one task's samples (Welford's running update).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct SampleStats {
    count: u32,
    mean: f64,
    sum_squared_deviations: f64,
}

impl SampleStats {
    /// Adds one value.
    pub fn push(&mut self, value: f64) {
        self.count += 1;
        let delta = value - self.mean;
        self.mean += delta / f64::from(self.count);
        self.sum_squared_deviations += delta * (value - self.mean);
    }

    /// One value alone.
    pub fn single(value: f64) -> SampleStats {
        let mut stats = SampleStats::default();
        stats.push(value);
        stats
    }

    /// Number of values.
    pub fn count(&self) -> u32 {
        self.count
    }

    /// Mean of the values; `None` when there are none.
    pub fn mean(&self) -> Option<f64> {
        (self.count > 0).then_some(self.mean)
    }

    /// Sample variance (ddof = 1); `None` with fewer than two values.
    pub fn variance(&self) -> Option<f64> {
        (self.count > 1).then(|| (self.sum_squared_deviations / f64::from(self.count - 1)).max(0.0))
    }
}

/// What one run did on one task.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct TaskStats {
    /// Trajectories by outcome class.
    pub by_class: ClassCounts,
    /// Values included in the primary analysis: one per included trajectory, or the task's one
    /// outcome under [`TaskScoring::AllSamplesPass`](super::TaskScoring::AllSamplesPass).
    pub primary: SampleStats,
    /// Trajectories with a value in the primary analysis (however the task's score is made).
    pub included_samples: u32,
    /// Values in the sensitivity analysis (failed/ungraded/cancelled/unfinished = 0).
    pub sensitivity: SampleStats,
    /// Primary values equal to 1 (passes, for pass@k on binary rewards).
    pub primary_passes: u32,
    /// Sensitivity values equal to 1.
    pub sensitivity_passes: u32,
    /// Whether every primary value is 0 or 1 (vacuously true when there is none).
    pub primary_binary: bool,
    /// Whether every sensitivity value is 0 or 1 (vacuously true when there is none).
    pub sensitivity_binary: bool,
    /// Rewards that were NaN, infinite or out of bounds.
    pub invalid_rewards: u32,
    /// Cut-off trajectories without a reward, scored 0 by the platform rule.
    pub zero_by_platform_rule: u32,
    /// Model endings without a reward, scored 0.
    pub zero_without_grade: u32,
}

impl TaskStats {
    /// An empty aggregate (no trajectory yet).
    pub fn new() -> Self {
        TaskStats {
            primary_binary: true,
            sensitivity_binary: true,
            ..TaskStats::default()
        }
    }

    /// Trajectories of this task in this run.
    pub fn samples(&self) -> u32 {
        u32::try_from(self.by_class.total()).unwrap_or(u32::MAX)
    }

    /// Adds one trajectory.
    pub fn push(&mut self, class: OutcomeClass, reward: Option<f64>) {
        self.by_class.add(class, 1);
        let state = RewardState::from_reward(reward);
        if matches!(state, RewardState::Invalid) {
            self.invalid_rewards += 1;
        }
        let scoring = class.score(state);
        match scoring.primary {
            PrimaryValue::ZeroByPlatformRule => self.zero_by_platform_rule += 1,
            PrimaryValue::ZeroWithoutGrade => self.zero_without_grade += 1,
            _ => {}
        }
        if let Some(value) = scoring.primary.value() {
            self.included_samples += 1;
            self.primary.push(value);
            if value == 1.0 {
                self.primary_passes += 1;
            } else if value != 0.0 {
                self.primary_binary = false;
            }
        }
        if let Some(value) = scoring.sensitivity {
            self.sensitivity.push(value);
            if value == 1.0 {
                self.sensitivity_passes += 1;
            } else if value != 0.0 {
                self.sensitivity_binary = false;
            }
        }
    }
}

impl TaskStats {
    /// Applies [`TaskScoring::AllSamplesPass`](super::TaskScoring::AllSamplesPass) once every
    /// trajectory was pushed: in each analysis whose values are all 0 or 1, the values become
    /// one outcome, 1 when every value is 1, else 0. Values that are not all binary are kept.
    pub(crate) fn collapse_to_all_passed(&mut self) {
        fn collapse(values: &mut SampleStats, passes: &mut u32, binary: bool) {
            if !binary || values.count() == 0 {
                return;
            }
            let all = *passes == values.count();
            *values = SampleStats::single(if all { 1.0 } else { 0.0 });
            *passes = u32::from(all);
        }
        collapse(
            &mut self.primary,
            &mut self.primary_passes,
            self.primary_binary,
        );
        collapse(
            &mut self.sensitivity,
            &mut self.sensitivity_passes,
            self.sensitivity_binary,
        );
    }
}

/// Totals of one run over all its trajectories.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct RunTotals {
    /// Trajectories loaded.
    pub trajectories: u64,
    /// Trajectories by outcome class.
    pub by_class: ClassCounts,
    /// Trajectories with a primary value (a valid reward, or 0 by rule); those without a task
    /// are still never paired.
    pub included: u64,
    /// Rewards that were NaN, infinite or out of bounds (excluded).
    pub invalid_rewards: u64,
    /// Cut-off trajectories without a reward, scored 0 by the platform rule.
    pub zero_by_platform_rule: u64,
    /// Model endings without a reward, scored 0.
    pub zero_without_grade: u64,
    /// Trajectories without a task: counted, never paired.
    pub without_task: u64,
    /// Distinct tasks with at least one trajectory.
    pub tasks_attempted: u64,
    /// Distinct tasks with at least one sample in the primary analysis.
    pub tasks_scored: u64,
    /// Whether every included value is 0 or 1 and at least one is included.
    pub binary: bool,
    /// Mean over tasks of the per-task primary means (equal weight per task), if any task scored.
    pub task_mean: Option<f64>,
}
