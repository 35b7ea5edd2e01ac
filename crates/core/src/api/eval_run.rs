//! Evaluation runs: `EvalRun` and the options recorded with it.

use serde::{Deserialize, Serialize};

use super::open_enum::open_enum;
use super::page::Page;

open_enum! {
    /// Lifecycle status of an evaluation run (`EvalRunLifecycleStatus`).
    pub enum EvalRunStatus keeps Other {
        /// Created, not yet registered.
        Pending => "pending",
        /// Registered, waiting to run.
        Registered => "registered",
        /// Executing.
        Running => "running",
        /// Finished successfully.
        Completed => "completed",
        /// Failed; see `failure`.
        Failed => "failed",
        /// Cancelled.
        Cancelled => "cancelled",
    }
}

impl EvalRunStatus {
    /// Whether the run has reached an end (completed, failed or cancelled); unknown is not terminal.
    pub fn is_terminal(&self) -> bool {
        matches!(self, Self::Completed | Self::Failed | Self::Cancelled)
    }
}

open_enum! {
    /// Task scope an evaluation ran on (`EvalTaskSplit`).
    pub enum EvalTaskSplit keeps Other {
        /// The test split.
        Test => "test",
        /// Every task.
        All => "all",
    }
}

open_enum! {
    /// Reasoning effort setting.
    pub enum ReasoningEffort keeps Other {
        /// Reasoning off.
        Off => "off",
        /// Reasoning on (model default effort).
        On => "on",
        /// Minimal effort.
        Minimal => "minimal",
        /// Low effort.
        Low => "low",
        /// Medium effort.
        Medium => "medium",
        /// High effort.
        High => "high",
        /// Extra-high effort.
        XHigh => "xhigh",
        /// Maximum effort.
        Max => "max",
    }
}

open_enum! {
    /// Training algorithm (`TrainingAlgorithm`).
    pub enum TrainingAlgorithm keeps Other {
        /// GSPO.
        Gspo => "gspo",
        /// GRPO.
        Grpo => "grpo",
        /// REINFORCE++.
        ReinforcePlusPlus => "reinforce_plus_plus",
    }
}

/// Task coverage fixed at launch (`EvalTaskSelection`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EvalTaskSelection {
    /// Scope the tasks were drawn from.
    pub split: EvalTaskSplit,
    /// Tasks in the selected scope at launch.
    pub available_task_count: u64,
    /// Distinct tasks selected for execution.
    pub selected_task_count: u64,
    /// Explicit sample cap, or null to run every task in scope.
    #[serde(default)]
    pub max_samples: Option<i64>,
}

/// A structured failure of an asynchronous operation (`AsyncFailure`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AsyncFailure {
    /// Stable category.
    #[serde(rename = "type")]
    pub failure_type: String,
    /// Stable programmatic reason.
    pub code: String,
    /// Human-readable explanation.
    pub message: String,
    /// Machine-readable values specific to this code.
    #[serde(default)]
    pub context: serde_json::Map<String, serde_json::Value>,
}

/// Settings recorded with a run (`RecordedRunOptions`); every field is nullable.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct RecordedRunOptions {
    /// Intelligent density training switch.
    #[serde(default)]
    pub intelligent_density_training: Option<bool>,
    /// Training algorithm.
    #[serde(default)]
    pub algorithm: Option<TrainingAlgorithm>,
    /// Whether training admits `TRUNCATION` endings.
    #[serde(default)]
    pub train_on_truncation: Option<bool>,
    /// Whether training admits `ERROR` endings.
    #[serde(default)]
    pub train_on_error: Option<bool>,
    /// Whether training admits `TIMEOUT` and `SANDBOX_TIMEOUT` endings.
    #[serde(default)]
    pub train_on_timeout: Option<bool>,
    /// Whether checkpoint evaluation is enabled.
    #[serde(default)]
    pub evaluation_enabled: Option<bool>,
    /// Evaluate every this many steps.
    #[serde(default)]
    pub evaluation_frequency: Option<i64>,
    /// Cap on evaluated tasks.
    #[serde(default)]
    pub evaluation_max_samples: Option<i64>,
    /// Samples per task in evaluation.
    #[serde(default)]
    pub evaluation_samples_per_task: Option<i64>,
    /// Concurrent evaluation rollouts.
    #[serde(default)]
    pub evaluation_max_active_rollouts: Option<i64>,
    /// Evaluation collection timeout, seconds.
    #[serde(default)]
    pub evaluation_collection_timeout_seconds: Option<f64>,
    /// Learning rate.
    #[serde(default)]
    pub learning_rate: Option<f64>,
    /// Warm-up steps of the learning rate.
    #[serde(default)]
    pub lr_warmup_steps: Option<i64>,
    /// Hold steps of the learning rate.
    #[serde(default)]
    pub lr_hold_steps: Option<i64>,
    /// Minimum learning-rate ratio.
    #[serde(default)]
    pub min_lr_ratio: Option<f64>,
    /// Reasoning effort of sampling.
    #[serde(default)]
    pub reasoning_effort: Option<ReasoningEffort>,
    /// Sampling temperature.
    #[serde(default)]
    pub temperature: Option<f64>,
    /// Nucleus sampling mass.
    #[serde(default)]
    pub top_p: Option<f64>,
    /// Top-k sampling.
    #[serde(default)]
    pub top_k: Option<i64>,
    /// Reasoning effort in evaluation.
    #[serde(default)]
    pub evaluation_reasoning_effort: Option<ReasoningEffort>,
    /// Temperature in evaluation.
    #[serde(default)]
    pub evaluation_temperature: Option<f64>,
    /// Nucleus sampling mass in evaluation.
    #[serde(default)]
    pub evaluation_top_p: Option<f64>,
    /// Top-k in evaluation.
    #[serde(default)]
    pub evaluation_top_k: Option<i64>,
    /// Training steps.
    #[serde(default)]
    pub num_steps: Option<i64>,
    /// Training batch size.
    #[serde(default)]
    pub train_batch_size: Option<i64>,
    /// Samples per task instance in training.
    #[serde(default)]
    pub samples_per_instance: Option<i64>,
    /// Concurrent training rollouts.
    #[serde(default)]
    pub max_active_rollouts: Option<i64>,
    /// Off-policy step allowance.
    #[serde(default)]
    pub max_steps_off_policy: Option<i64>,
    /// Execution timeout, seconds.
    #[serde(default)]
    pub execution_timeout_seconds: Option<i64>,
    /// Idle timeout of batch collection, seconds.
    #[serde(default)]
    pub batch_collection_idle_timeout_seconds: Option<i64>,
    /// Output-token limit per step.
    #[serde(default)]
    pub max_output_tokens_per_step: Option<i64>,
    /// Total-token limit per trajectory.
    #[serde(default)]
    pub max_total_tokens_per_trajectory: Option<i64>,
    /// Turn limit per trajectory.
    #[serde(default)]
    pub max_turns_per_trajectory: Option<i64>,
}

/// One evaluation run (`EvalRun`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EvalRun {
    /// Unique evaluation run identifier.
    pub eval_run_id: String,
    /// Benchmark version evaluated.
    pub bench_id: String,
    /// Owning agent; null for unassigned legacy runs.
    pub agent_id: Option<String>,
    /// User-facing name; null for legacy rows.
    pub display_name: Option<String>,
    /// Base model evaluated.
    #[serde(default)]
    pub base_model_slug: Option<String>,
    /// Settings recorded at launch.
    pub options: RecordedRunOptions,
    /// Lifecycle status; null for legacy rows.
    pub status: Option<EvalRunStatus>,
    /// Hosted deployment snapshotted at launch.
    #[serde(default)]
    pub deployment_id: Option<String>,
    /// Checkpoint evaluated, when applicable.
    #[serde(default)]
    pub parent_checkpoint_id: Option<String>,
    /// Training run that produced the evaluated checkpoint.
    #[serde(default)]
    pub training_run_id: Option<String>,
    /// Training step of the evaluated checkpoint.
    #[serde(default)]
    pub step: Option<i64>,
    /// Completed mean of effective rewards; cut-off trajectories can contribute zero ungraded.
    #[serde(default)]
    pub reward_mean: Option<f64>,
    /// Rollout total fixed at launch; null for legacy or diagnostic runs.
    #[serde(default)]
    pub total_rollouts: Option<i64>,
    /// Task coverage fixed at launch; null for legacy or diagnostic runs.
    #[serde(default)]
    pub task_selection: Option<EvalTaskSelection>,
    /// Creation time (RFC 3339).
    pub created_at: String,
    /// Last update time (RFC 3339).
    pub updated_at: String,
    /// Time the run reached a terminal status.
    #[serde(default)]
    pub completed_at: Option<String>,
    /// Structured failure when the status is failed.
    #[serde(default)]
    pub failure: Option<AsyncFailure>,
}

/// A page of evaluation runs (`/eval/{bench_id}/runs`, `/agents/{id}/evaluation-runs`).
pub type EvalRunPage = Page<EvalRun>;
