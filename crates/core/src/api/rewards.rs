//! Per-trajectory rewards of an evaluation run.

use serde::{Deserialize, Serialize};

use super::page::impl_cursor_page;

/// The effective reward of one trajectory (`EvalTrajectoryReward`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EvalTrajectoryReward {
    /// Trajectory identifier.
    pub trajectory_id: String,
    /// Reward assigned to the trajectory.
    pub reward: f64,
    /// Benchmark task identifier, when one was recorded.
    #[serde(default)]
    pub task_id: Option<String>,
}

/// A page of trajectory rewards (`EvalTrajectoryRewardsPage`): ascending task id,
/// trajectories without a task first. `R` is the form its items are decoded in (the full one,
/// or the packed one the load engine keeps).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EvalTrajectoryRewardsPage<R = EvalTrajectoryReward> {
    /// Evaluation run whose rewards these are.
    pub eval_run_id: String,
    /// Rewards of this page.
    pub items: Vec<R>,
    /// Cursor of the next page; null on the last page.
    #[serde(default)]
    pub next_cursor: Option<String>,
    /// Whether another page follows.
    pub has_more: bool,
}

impl_cursor_page!([R] EvalTrajectoryRewardsPage<R>, R);
