//! Live progress and outstanding attempts of an evaluation run.

use serde::{Deserialize, Serialize};

use super::eval_run::{AsyncFailure, EvalRunStatus, EvalTaskSelection};
use super::open_enum::open_enum;
use super::page::impl_cursor_page;

/// Consistent execution and scoring snapshot of a native evaluation (`EvalLiveSummary`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EvalLiveSummary {
    /// Attempts waiting to execute, including startup work.
    pub waiting_rollouts: u64,
    /// Attempts executing or being stopped.
    pub running_rollouts: u64,
    /// Attempts finished and awaiting result reconciliation.
    pub awaiting_result_rollouts: u64,
    /// Completed attempts assigned a score (including zero for some ungraded endings).
    pub scored_rollouts: u64,
    /// Attempts that failed execution or scoring.
    pub failed_rollouts: u64,
    /// Attempts whose cancellation is complete.
    pub cancelled_rollouts: u64,
    /// Mean of the scored attempts; null before the first score.
    pub provisional_reward_mean: Option<f64>,
    /// Authoritative mean once the evaluation completed successfully.
    pub final_reward_mean: Option<f64>,
}

/// `GET /api/v1/eval/{run_id}/progress` (`EvalProgressResponse`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EvalProgress {
    /// Evaluation run whose progress this is.
    pub eval_run_id: String,
    /// Recorded status of the run.
    #[serde(default)]
    pub status: Option<EvalRunStatus>,
    /// Structured failure when the evaluation failed.
    #[serde(default)]
    pub failure: Option<AsyncFailure>,
    /// Rollouts that reached a terminal status.
    pub terminal_rollouts: i64,
    /// Rollouts the run schedules: sampled tasks times the group size.
    pub total_rollouts: i64,
    /// Task coverage fixed at launch.
    #[serde(default)]
    pub task_selection: Option<EvalTaskSelection>,
    /// Live snapshot; absent for historical runs.
    #[serde(default)]
    pub live: Option<EvalLiveSummary>,
}

open_enum! {
    /// Recorded progress of an outstanding attempt (`EvalAttemptStatus`).
    pub enum EvalAttemptStatus keeps Other {
        /// Waiting to execute.
        Waiting => "waiting",
        /// Executing.
        Running => "running",
        /// Finished, awaiting its result.
        AwaitingResult => "awaiting_result",
        /// Scored.
        Scored => "scored",
        /// Failed.
        Failed => "failed",
        /// Cancelled.
        Cancelled => "cancelled",
    }
}

/// One outstanding attempt of an evaluation (`EvalRemainingAttempt`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EvalRemainingAttempt {
    /// Stable attempt identifier.
    pub sample_id: String,
    /// Benchmark task identifier.
    pub task_id: String,
    /// Task label, when the task still exists.
    pub task_label: Option<String>,
    /// Trajectory group used to open this attempt in the run viewer.
    pub trajectory_group_id: String,
    /// Evaluation policy step, when recorded.
    pub policy_step: Option<i64>,
    /// Recorded progress of the attempt.
    pub status: EvalAttemptStatus,
    /// Time the attempt was admitted to execution.
    pub admitted_at: Option<String>,
    /// Recorded trajectory, once created.
    pub trajectory_id: Option<String>,
}

/// A page of outstanding attempts (`EvalRemainingWorkResponse`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EvalRemainingWorkPage {
    /// Evaluation run.
    pub eval_run_id: String,
    /// Recorded status of the run.
    pub status: Option<EvalRunStatus>,
    /// Whether the run has durable native attempt records.
    pub supported: bool,
    /// Attempts of this page.
    pub items: Vec<EvalRemainingAttempt>,
    /// Cursor of the next page; null on the last page.
    pub next_cursor: Option<String>,
    /// Whether another page follows.
    pub has_more: bool,
    /// The page restarted because newly planned attempts changed the cursor ordering.
    #[serde(default)]
    pub page_reset: bool,
}

impl_cursor_page!(EvalRemainingWorkPage, EvalRemainingAttempt);
