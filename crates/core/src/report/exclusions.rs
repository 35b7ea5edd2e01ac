//! Why tasks were left out of a primary paired analysis, counted by reason.

use serde::{Deserialize, Serialize};

use crate::audit::{Lifecycle, StillToCome};
use crate::model::{LeftOutTask, Run, SideCoverage, TaskStats};
use crate::text::{count, noun};

/// Why one task is not paired.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ExclusionReason {
    /// A side's trajectories all failed (ERROR, STALE, SANDBOX_*).
    Failed,
    /// A side has not finished yet.
    Unfinished,
    /// A side was cancelled.
    Cancelled,
    /// A side finished without a grade.
    Ungraded,
    /// A side's rewards were NaN, infinite or out of bounds.
    InvalidReward,
    /// A side ended in a way this project does not know, without a reward.
    Other,
    /// A run still running has no trajectory on the task yet: it may still attempt it.
    NotYetAttempted,
    /// A run whose load stopped early has no trajectory read on the task: it may have one.
    NotRead,
    /// A run has no trajectory on the task at all.
    Absent,
}

impl ExclusionReason {
    /// Plain words, e.g. "failed".
    pub fn label(self) -> &'static str {
        match self {
            ExclusionReason::Failed => "failed",
            ExclusionReason::Unfinished => "unfinished",
            ExclusionReason::Cancelled => "cancelled",
            ExclusionReason::Ungraded => "ungraded",
            ExclusionReason::InvalidReward => "invalid reward",
            ExclusionReason::Other => "other ending",
            ExclusionReason::NotYetAttempted => "not yet attempted",
            ExclusionReason::NotRead => "not read yet",
            ExclusionReason::Absent => "absent from one run",
        }
    }

    /// The reason of one unscored side, from its aggregate (the most serious class present).
    fn of_unscored(stats: &TaskStats) -> ExclusionReason {
        let classes = &stats.by_class;
        if classes.failed > 0 {
            ExclusionReason::Failed
        } else if classes.unfinished > 0 {
            ExclusionReason::Unfinished
        } else if classes.cancelled > 0 {
            ExclusionReason::Cancelled
        } else if stats.invalid_rewards > 0 {
            ExclusionReason::InvalidReward
        } else if classes.ungraded > 0 {
            ExclusionReason::Ungraded
        } else {
            ExclusionReason::Other
        }
    }
}

/// Count of excluded tasks for one reason.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExclusionCount {
    /// The reason.
    pub reason: ExclusionReason,
    /// Tasks excluded for it.
    pub tasks: u64,
}

/// Tasks attempted by either run but left out of the primary paired analysis.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Exclusions {
    /// All excluded tasks.
    pub total: u64,
    /// By reason, most frequent first (ties in reason order).
    pub by_reason: Vec<ExclusionCount>,
}

impl Exclusions {
    /// Counts the reasons of `left_out` tasks of a baseline–candidate pair.
    pub fn count(left_out: &[LeftOutTask], base: &Run, cand: &Run) -> Exclusions {
        let mut counts: Vec<(ExclusionReason, u64)> = Vec::new();
        for task in left_out {
            let reason = side_reason(task.base, base, task.task)
                .into_iter()
                .chain(side_reason(task.cand, cand, task.task))
                .min()
                .unwrap_or(ExclusionReason::Other);
            match counts.iter_mut().find(|(r, _)| *r == reason) {
                Some((_, n)) => *n += 1,
                None => counts.push((reason, 1)),
            }
        }
        counts.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        Exclusions {
            total: left_out.len() as u64,
            by_reason: counts
                .into_iter()
                .map(|(reason, tasks)| ExclusionCount { reason, tasks })
                .collect(),
        }
    }

    /// "12 tasks excluded (9 failed, 3 unfinished)", or `None` when nothing was excluded.
    pub fn phrase(&self) -> Option<String> {
        if self.total == 0 {
            return None;
        }
        let parts: Vec<String> = self
            .by_reason
            .iter()
            .map(|c| format!("{} {}", count(c.tasks), c.reason.label()))
            .collect();
        Some(format!(
            "{} {} excluded ({})",
            count(self.total),
            noun(self.total, "task", "tasks"),
            parts.join(", ")
        ))
    }
}

fn side_reason(
    side: SideCoverage,
    run: &Run,
    task: crate::model::TaskIdx,
) -> Option<ExclusionReason> {
    match side {
        SideCoverage::Scored { .. } => None,
        SideCoverage::Absent => Some(missing_reason(run)),
        SideCoverage::NotScored { .. } => Some(
            run.stats_of(task)
                .map_or_else(|| missing_reason(run), ExclusionReason::of_unscored),
        ),
    }
}

fn missing_reason(run: &Run) -> ExclusionReason {
    let info = run.info();
    ExclusionReason::missing(info.status.as_deref(), info.incomplete_load.is_some())
}

impl ExclusionReason {
    /// Why a run of lifecycle `status`, whose load was `incomplete` or not, has no trajectory
    /// on a task: not attempted yet while it runs, not read while its load is incomplete, else
    /// absent.
    pub fn missing(status: Option<&str>, incomplete: bool) -> ExclusionReason {
        match Lifecycle::of(status).still_to_come(incomplete) {
            Some(StillToCome::NotYetAttempted) => ExclusionReason::NotYetAttempted,
            Some(StillToCome::NotRead) => ExclusionReason::NotRead,
            None => ExclusionReason::Absent,
        }
    }

    /// One run's state on a task it has no trajectory on: "not yet attempted", "not read yet"
    /// or "absent".
    pub fn missing_side_word(status: Option<&str>, incomplete: bool) -> &'static str {
        match ExclusionReason::missing(status, incomplete) {
            ExclusionReason::Absent => "absent",
            reason => reason.label(),
        }
    }
}
