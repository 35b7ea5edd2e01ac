//! The state of runs and attempts at a point of their schedule. Only the running run's
//! schedule moves (with wall-clock time since the server started); the caller passes the
//! point in, so everything here stays a pure function.

use std::time::Duration;

use super::outcome::Ending;
use super::runs::{start_seconds, Attempt, EvalRun, Lifecycle};
use super::time::Timestamp;

/// How far a run's schedule has advanced, as a fraction of the run.
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd)]
pub struct Progress(f64);

impl Progress {
    /// Past the end of every schedule: every attempt has finished.
    pub const DONE: Progress = Progress(f64::INFINITY);

    /// The point `fraction` of a schedule.
    pub fn at(fraction: f64) -> Self {
        Self(fraction)
    }

    /// The fraction of the schedule (infinite for [`Progress::DONE`]).
    pub fn fraction(self) -> f64 {
        self.0
    }
}

/// Where the running run's schedule starts when the server starts.
pub const RUNNING_START: f64 = 0.35;

/// Where the running run stands `elapsed` after the server started, if its remaining
/// attempts take `duration` of wall-clock time.
pub fn running_progress(elapsed: Duration, duration: Duration) -> Progress {
    let share = if duration.is_zero() {
        1.0
    } else {
        elapsed.as_secs_f64() / duration.as_secs_f64()
    };
    Progress(RUNNING_START + (1.0 - RUNNING_START) * share.min(1.0))
}

/// An attempt's state at a point of its run's schedule.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum AttemptState {
    /// Not started: no trajectory yet.
    Waiting,
    /// Executing; `done` is the share of its steps taken.
    Running {
        /// Share of its steps taken, in [0, 1).
        done: f64,
    },
    /// Finished executing, result not reconciled yet (ending known, reward not published).
    AwaitingResult,
    /// Finished: ending and reward recorded.
    Finished,
}

/// Share of an attempt's window spent awaiting its result.
const AWAITING_SHARE: f64 = 0.15;

impl Attempt {
    /// The attempt's state at `progress`.
    pub fn state(&self, progress: Progress) -> AttemptState {
        let Progress(p) = progress;
        let (start, end) = (self.window.start, self.window.end);
        if p < start {
            AttemptState::Waiting
        } else if p >= end {
            AttemptState::Finished
        } else if p >= end - AWAITING_SHARE * (end - start) {
            AttemptState::AwaitingResult
        } else {
            AttemptState::Running {
                done: (p - start) / ((1.0 - AWAITING_SHARE) * (end - start)),
            }
        }
    }

    /// Whether the attempt has a trajectory at `progress`.
    pub fn is_visible(&self, progress: Progress) -> bool {
        self.state(progress) != AttemptState::Waiting
    }

    /// The reward published at `progress`, if any.
    pub fn reward_at(&self, progress: Progress) -> Option<f64> {
        match self.state(progress) {
            AttemptState::Finished => self.outcome.reward,
            _ => None,
        }
    }
}

/// A run's lifecycle status at a point of its schedule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunStatus {
    /// Attempts outstanding.
    Running,
    /// Every attempt finished.
    Completed,
    /// Stopped by a failure.
    Failed,
}

impl RunStatus {
    /// The `EvalRunLifecycleStatus` wire value.
    pub fn as_str(self) -> &'static str {
        match self {
            RunStatus::Running => "running",
            RunStatus::Completed => "completed",
            RunStatus::Failed => "failed",
        }
    }
}

/// Counts of a run's rollouts at a point of its schedule.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RunSnapshot {
    /// Lifecycle status.
    pub status: RunStatus,
    /// Not started.
    pub waiting: u32,
    /// Executing.
    pub running: u32,
    /// Awaiting result reconciliation.
    pub awaiting: u32,
    /// Finished with a reward.
    pub scored: u32,
    /// Failed execution or scoring (including ungraded endings).
    pub failed: u32,
    /// Cancelled, including attempts a failed run never started.
    pub cancelled: u32,
    /// Sum of the published rewards.
    pub reward_sum: f64,
}

impl RunSnapshot {
    /// Rollouts in a terminal state.
    pub fn terminal(&self) -> u32 {
        self.scored + self.failed + self.cancelled
    }

    /// Mean of the published rewards, if any.
    pub fn provisional_mean(&self) -> Option<f64> {
        (self.scored > 0).then(|| self.reward_sum / f64::from(self.scored))
    }
}

impl EvalRun {
    /// The point of this run's schedule, given where the running run stands.
    pub fn progress(&self, running: Progress) -> Progress {
        match self.plan.lifecycle {
            Lifecycle::Running => running,
            Lifecycle::Completed | Lifecycle::Failed { .. } => Progress::DONE,
        }
    }

    /// The simulated time at a point of this run's schedule.
    pub fn timestamp_at(&self, fraction: f64) -> Timestamp {
        self.plan.created_at.plus(start_seconds(fraction))
    }

    /// The lifecycle status at `progress`, without counting (the status of
    /// [`EvalRun::snapshot`]): failed, or running while an attempt has not finished.
    pub fn status(&self, progress: Progress) -> RunStatus {
        match self.plan.lifecycle {
            Lifecycle::Failed { .. } => RunStatus::Failed,
            _ if progress.0 < self.end_fraction() => RunStatus::Running,
            _ => RunStatus::Completed,
        }
    }

    /// Status and counts at `progress`.
    pub fn snapshot(&self, progress: Progress) -> RunSnapshot {
        let mut s = RunSnapshot {
            status: RunStatus::Completed,
            waiting: 0,
            running: 0,
            awaiting: 0,
            scored: 0,
            failed: 0,
            cancelled: 0,
            reward_sum: 0.0,
        };
        for attempt in &self.attempts {
            match attempt.state(progress) {
                AttemptState::Waiting => s.waiting += 1,
                AttemptState::Running { .. } => s.running += 1,
                AttemptState::AwaitingResult => s.awaiting += 1,
                AttemptState::Finished => match (attempt.outcome.ending, attempt.outcome.reward) {
                    (Ending::Cancelled, _) => s.cancelled += 1,
                    (_, Some(reward)) => {
                        s.scored += 1;
                        s.reward_sum += reward;
                    }
                    (_, None) => s.failed += 1,
                },
            }
        }
        s.status = match self.plan.lifecycle {
            Lifecycle::Failed { .. } => {
                // Attempts the failure stopped before they started.
                s.cancelled += self
                    .total_rollouts
                    .saturating_sub(self.attempts.len() as u32);
                RunStatus::Failed
            }
            _ if s.waiting + s.running + s.awaiting > 0 => RunStatus::Running,
            _ => RunStatus::Completed,
        };
        s
    }

    /// When the run reached its terminal status, if it has.
    pub fn finished_at(&self, progress: Progress) -> Option<Timestamp> {
        match self.plan.lifecycle {
            Lifecycle::Failed { at, .. } => Some(self.timestamp_at(at)),
            _ if self.snapshot(progress).status == RunStatus::Completed => {
                Some(self.timestamp_at(self.end_fraction()))
            }
            _ => None,
        }
    }

    /// The run's last update: its end, or the latest point reached while running.
    pub fn updated_at(&self, progress: Progress) -> Timestamp {
        let Progress(p) = progress;
        self.finished_at(progress)
            .unwrap_or_else(|| self.timestamp_at(p.min(self.end_fraction())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn running_progress_starts_part_way_and_ends_at_one() {
        let d = Duration::from_secs(100);
        assert_eq!(running_progress(Duration::ZERO, d), Progress(RUNNING_START));
        assert_eq!(running_progress(Duration::from_secs(100), d), Progress(1.0));
        assert_eq!(running_progress(Duration::from_secs(900), d), Progress(1.0));
        assert!(
            running_progress(Duration::from_secs(50), d)
                > running_progress(Duration::from_secs(10), d)
        );
    }
}
