//! Trajectories: list metadata, the detail with reward components, and rollout state.

use serde::{Deserialize, Serialize};

use super::open_enum::open_enum;
use super::page::Page;
use super::shared_fields::structs_sharing_fields;
use super::step::Step;
use super::termination::TerminationReason;

open_enum! {
    /// Recorded state of a trajectory (`TrajectoryStatus`; a plain string on trajectory records).
    pub enum TrajectoryStatus keeps Other {
        /// Still running.
        InProgress => "in_progress",
        /// Being cancelled.
        Cancelling => "cancelling",
        /// Being finalized.
        Finalizing => "finalizing",
        /// Completed.
        Completed => "completed",
        /// Aborted.
        Aborted => "aborted",
    }
}

open_enum! {
    /// Rollout Service state of a rollout (a plain string in the contract, e.g. `IN_PROGRESS`,
    /// `FAILED`).
    pub enum RolloutStatus keeps Other {
        /// Still executing.
        InProgress => "IN_PROGRESS",
        /// Finished.
        Completed => "COMPLETED",
        /// Failed.
        Failed => "FAILED",
        /// Cancelled.
        Cancelled => "CANCELLED",
    }
}

open_enum! {
    /// Category of a harness failure (`HarnessDiagnostic.category`).
    pub enum HarnessCategory keeps Unrecognized {
        /// A timeout.
        Timeout => "timeout",
        /// A connection failure.
        Connection => "connection",
        /// Rate limiting.
        RateLimit => "rate_limit",
        /// An authentication failure.
        Authentication => "authentication",
        /// A server failure.
        Server => "server",
        /// The contract's own `other` category.
        Other => "other",
    }
}

/// One earlier traceback of a harness failure (`TracebackDiagnostic`).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct TracebackDiagnostic {
    /// Exception types, outermost first.
    #[serde(default)]
    pub exception_chain: Vec<String>,
    /// Code locations of the traceback.
    #[serde(default)]
    pub locations: Vec<String>,
}

/// What the harness reported when a rollout failed (`HarnessDiagnostic`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HarnessDiagnostic {
    /// Failure category.
    pub category: HarnessCategory,
    /// Exception types, outermost first.
    #[serde(default)]
    pub exception_chain: Vec<String>,
    /// Code locations of the failure.
    #[serde(default)]
    pub locations: Vec<String>,
    /// Tracebacks that preceded the final one.
    #[serde(default)]
    pub preceding_tracebacks: Vec<TracebackDiagnostic>,
    /// Process exit code, when known.
    #[serde(default)]
    pub exit_code: Option<i64>,
    /// Exception messages.
    #[serde(default)]
    pub exception_messages: Vec<String>,
}

/// Rollout state of a trajectory (`TrajectoryRolloutStatus`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TrajectoryRolloutStatus {
    /// Rollout identifier.
    pub rollout_id: String,
    /// Rollout Service state.
    pub status: RolloutStatus,
    /// Recorded rollout termination reason.
    #[serde(default)]
    pub termination_reason: Option<TerminationReason>,
    /// Harness diagnostic of a failed rollout.
    #[serde(default)]
    pub harness_diagnostic: Option<HarnessDiagnostic>,
}

structs_sharing_fields! {
    /// One trajectory as listed (`TrajectoryMetadata`), including unfinished and failed ones.
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    pub struct TrajectoryMetadata {
        /// Trajectory id.
        pub trajectory_id: String,
        /// Owning organization.
        pub organization_id: String,
        /// Dataset id.
        #[serde(default)]
        pub dataset_id: Option<String>,
        /// Dataset name.
        #[serde(default)]
        pub dataset_name: Option<String>,
        /// Dataset source.
        #[serde(default)]
        pub dataset_source: Option<String>,
        /// Dataset storage prefix.
        #[serde(default)]
        pub dataset_gcs_prefix: Option<String>,
        /// Trace id.
        #[serde(default)]
        pub trace_id: Option<String>,
        /// Model id.
        #[serde(default)]
        pub model_id: Option<String>,
        /// How the model was associated.
        #[serde(default)]
        pub model_association_source: Option<String>,
        /// Details of the model association.
        #[serde(default)]
        pub model_association_metadata: Option<serde_json::Map<String, serde_json::Value>>,
        /// Where the trajectory comes from, e.g. `eval`.
        pub source: String,
        /// Recorded trajectory state.
        #[serde(default)]
        pub status: Option<TrajectoryStatus>,
        /// Recorded reason it ended, independent of rollout state; null when not recorded.
        #[serde(default)]
        pub termination_reason: Option<TerminationReason>,
        /// Reward; null when none was recorded (not zero).
        #[serde(default)]
        pub reward: Option<f64>,
        /// Number of steps.
        #[serde(default)]
        pub num_steps: Option<i64>,
        /// Creation time.
        pub created_at: String,
        /// Training run, for training rollouts.
        #[serde(default)]
        pub training_run_id: Option<String>,
        /// Benchmark task.
        #[serde(default)]
        pub task_id: Option<String>,
        /// Sampled policy step (not optimizer step).
        #[serde(default)]
        pub policy_step: Option<i64>,
        /// Rollout state.
        #[serde(default)]
        pub rollout: Option<TrajectoryRolloutStatus>,
    }

    // `Trajectory` has every field of `TrajectoryMetadata` first, then these.
    /// One trajectory in detail (`Trajectory`): the metadata plus error, steps and reward components.
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    pub struct Trajectory {
        /// Storage location of the full record.
        #[serde(default)]
        pub gcs_blob_uri: Option<String>,
        /// Error recorded with the trajectory.
        #[serde(default)]
        pub error: Option<String>,
        /// Steps, only when asked for (`include_steps`).
        #[serde(default)]
        pub steps: Vec<Step>,
        /// Reward components in logged order, only when asked for (`include_reward_components`).
        #[serde(default)]
        pub reward_components: Vec<TrajectoryRewardComponent>,
    }
}

impl Trajectory {
    /// The list-level view of this trajectory.
    pub fn metadata(&self) -> TrajectoryMetadata {
        TrajectoryMetadata::from(self)
    }
}

/// A page of trajectories (`/trajectories?eval_run_id=`).
pub type TrajectoryPage = Page<TrajectoryMetadata>;

/// One logged reward component (`TrajectoryRewardComponent`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TrajectoryRewardComponent {
    /// Component name.
    pub name: String,
    /// Raw value as logged.
    pub value: f64,
    /// Value scaled to [0, 1] by the declared range.
    pub scaled_value: f64,
    /// Weight in the effective reward; 0 means informative only.
    pub weight: f64,
    /// Lower bound of the declared range.
    pub score_range_min: f64,
    /// Upper bound of the declared range.
    pub score_range_max: f64,
    /// Grader's explanation.
    #[serde(default)]
    pub explanation: Option<String>,
}
