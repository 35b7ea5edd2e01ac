//! Per-trajectory rewards of an evaluation run.

use serde::{Deserialize, Serialize};

use super::page::impl_cursor_page;
use super::plain_scan::{scan_cursor_page, PlainItem};

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
/// or [`super::PackedReward`] as the load engine keeps them).
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

impl<R: PlainItem> PlainItem for EvalTrajectoryRewardsPage<R> {
    fn scan_plain(text: &str) -> Option<(Self, usize)> {
        let (items, fields, length) = scan_cursor_page(text, true)?;
        let page = EvalTrajectoryRewardsPage {
            eval_run_id: fields.eval_run_id?.to_owned(),
            items,
            next_cursor: fields.next_cursor.map(str::to_owned),
            has_more: fields.has_more,
        };
        Some((page, length))
    }
}
