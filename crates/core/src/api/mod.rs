//! Serde types of the Trajectory API responses the viewer reads (contract 2026-10-14).
//!
//! Modelled on `openapi.json`: field names and nullability follow it, nullable fields are
//! `Option`, unknown fields are ignored, and enum values unknown to this build are kept by name.
//! Timestamps stay strings. Every type serializes back to the same shape (the demo server uses it).

mod agent;
mod benchmark;
mod billing;
mod chronicle;
mod decode;
mod error_body;
mod eval_run;
mod open_enum;
mod organization;
mod page;
mod progress;
mod rewards;
mod run_options;
mod shared_fields;
mod step;
mod termination;
mod training;
mod trajectory;

pub use agent::{Agent, AgentListItem, AgentListPage};
pub use benchmark::{
    BenchmarkListItem, BenchmarkPage, BenchmarkSpecTask, BenchmarkTaskCategory, BenchmarkTaskPage,
    EnvVarValue, SecretRef, TaskSplit, TaskSplitFilter,
};
pub use billing::{
    BillingRunCost, BillingRunCostsResponse, EvalRolloutStatistic, EvalRolloutStatistics,
};
pub use chronicle::{
    ChronicleJob, ChronicleJobPage, ChroniclePage, ChronicleScore, ChronicleTrial,
    ChronicleTrialDetail, ChronicleTrialPage, JobEvent, JobEventData, JobEventKind, JobMode,
    JobStatus, SuiteEvalRun, SuiteEvalRunPage, TaskResult, TrialArtifact, TrialStep,
};
pub use decode::{decode, decode_seed, DecodeError, DecodeErrorKind};
pub(crate) use decode::{decode_str, decode_text};
pub use error_body::{ApiErrorBody, ApiErrorEnvelope, ErrorType};
pub use eval_run::{
    AsyncFailure, EvalRun, EvalRunPage, EvalRunStatus, EvalTaskSelection, EvalTaskSplit,
    ReasoningEffort, RecordedRunOptions, TrainingAlgorithm,
};
pub use organization::Organization;
pub use page::{page_fingerprint, CursorPage, Page};
pub use progress::{
    EvalAttemptStatus, EvalLiveSummary, EvalProgress, EvalRemainingAttempt, EvalRemainingWorkPage,
};
pub use rewards::{EvalTrajectoryReward, EvalTrajectoryRewardsPage};
pub use run_options::{
    DefaultKind, ModelRunOptions, OptionDefault, OptionType, RunOptionMetadata, RunOptionsResponse,
};
pub use step::{ContentPart, Message, MessageContent, Step, StepPage};
pub use termination::TerminationReason;
pub use training::{
    AgentTrainingEvaluationPoint, AgentTrainingEvaluationSeriesPage, HeldOutReward,
    HeldOutRewardsByStepPage, TrainingCheckpoint, TrainingCheckpointPage, TrainingRun,
    TrainingRunPage, TrainingRunStatus,
};
pub use trajectory::{
    HarnessCategory, HarnessDiagnostic, RolloutStatus, TracebackDiagnostic, Trajectory,
    TrajectoryMetadata, TrajectoryPage, TrajectoryRewardComponent, TrajectoryRolloutStatus,
    TrajectoryStatus,
};
