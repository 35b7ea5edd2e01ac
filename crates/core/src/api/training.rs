//! Training runs, checkpoints, and evaluation over training steps.

use serde::{Deserialize, Serialize};

use super::eval_run::{AsyncFailure, RecordedRunOptions};
use super::open_enum::open_enum;
use super::page::{impl_cursor_page, Page};

open_enum! {
    /// Lifecycle status of a training run (`TrainingRunLifecycleStatus`).
    pub enum TrainingRunStatus keeps Other {
        /// Created, not started.
        Pending => "pending",
        /// Training.
        Running => "running",
        /// Cancellation requested.
        CancelSignaled => "cancel_signaled",
        /// Being cancelled.
        Cancelling => "cancelling",
        /// Finished successfully.
        Succeeded => "succeeded",
        /// Failed; see `failure`.
        Failed => "failed",
        /// Cancelled.
        Cancelled => "cancelled",
    }
}

/// One training run (`TrainingRunResponse`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TrainingRun {
    /// Training run identifier.
    pub training_run_id: String,
    /// Owning agent; null for unassigned legacy runs.
    pub agent_id: Option<String>,
    /// Checkpoint training started from.
    #[serde(default)]
    pub parent_checkpoint_id: Option<String>,
    /// Pipeline run.
    pub pipeline_run_id: Option<String>,
    /// User-facing name; null for legacy rows.
    pub display_name: Option<String>,
    /// Lifecycle status.
    pub status: TrainingRunStatus,
    /// Benchmark version trained on.
    pub bench_id: Option<String>,
    /// Base model trained.
    pub base_model_slug: String,
    /// Settings recorded at launch.
    pub options: RecordedRunOptions,
    /// Who launched it.
    pub created_by: String,
    /// Creation time (RFC 3339).
    pub created_at: String,
    /// Structured failure when the status is failed.
    #[serde(default)]
    pub failure: Option<AsyncFailure>,
    /// Whether a training execution has been assigned.
    pub has_training_execution: bool,
}

/// A page of training runs (`/train/{bench_id}/runs`).
pub type TrainingRunPage = Page<TrainingRun>;

/// One committed checkpoint of a training run (`TrainingCheckpointResponse`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TrainingCheckpoint {
    /// Training run.
    pub training_run_id: String,
    /// Training step of the checkpoint; step 0 precedes optimizer updates.
    pub step_index: i64,
    /// Committed checkpoint id.
    pub checkpoint_id: String,
    /// Base model the checkpoint was trained from.
    pub base_model_slug: String,
    /// Whether the checkpoint has weights saved for serving.
    #[serde(default)]
    pub is_deployable: bool,
    /// When the checkpoint was created (UTC); the official client requires it, the contract
    /// does not list it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created_at: Option<String>,
}

/// A page of checkpoints (`/train/{run_id}/checkpoints`).
pub type TrainingCheckpointPage = Page<TrainingCheckpoint>;

/// One point of an agent's evaluation series (`AgentTrainingEvaluationPoint`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AgentTrainingEvaluationPoint {
    /// Training step.
    pub step: i64,
    /// Evaluation reward mean at that step.
    pub reward_mean: f64,
}

/// A page of the evaluation series over a training run (`AgentTrainingEvaluationSeriesPage`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AgentTrainingEvaluationSeriesPage {
    /// Points of this page.
    pub items: Vec<AgentTrainingEvaluationPoint>,
    /// Cursor of the next page; null on the last page.
    #[serde(default)]
    pub next_cursor: Option<String>,
    /// Whether another page follows.
    pub has_more: bool,
    /// Whether the run or one of its checkpoint evaluations is still running (as of this page).
    pub has_active_work: bool,
}

impl_cursor_page!(
    AgentTrainingEvaluationSeriesPage,
    AgentTrainingEvaluationPoint
);

/// Held-out reward of one training step (`HeldOutReward`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HeldOutReward {
    /// Training step.
    pub step: i64,
    /// Held-out reward recorded for the step.
    pub held_out_reward: f64,
    /// False when any sample failed, was cancelled, or did not finish.
    #[serde(default)]
    pub round_completed: Option<bool>,
    /// Configured eval tasks times samples per task.
    #[serde(default)]
    pub expected_samples: Option<i64>,
    /// Samples marked completed.
    #[serde(default)]
    pub completed_samples: Option<i64>,
    /// Samples marked failed (excluded from the mean).
    #[serde(default)]
    pub failed_samples: Option<i64>,
    /// Samples marked cancelled (excluded from the mean).
    #[serde(default)]
    pub cancelled_samples: Option<i64>,
    /// Actual denominator of `held_out_reward`.
    #[serde(default)]
    pub loaded_trajectories: Option<i64>,
}

/// A page of held-out rewards by step (`HeldOutRewardsByStepPage`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HeldOutRewardsByStepPage {
    /// Training run whose held-out rewards these are.
    pub training_run_id: String,
    /// Rewards of this page.
    pub items: Vec<HeldOutReward>,
    /// Cursor of the next page; null on the last page.
    #[serde(default)]
    pub next_cursor: Option<String>,
    /// Whether another page follows.
    pub has_more: bool,
}

impl_cursor_page!(HeldOutRewardsByStepPage, HeldOutReward);
