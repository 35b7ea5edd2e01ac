//! Serde types of the Chronicle (Worldsmith) evaluations API: backtest jobs, their trials and
//! scores, a trial's detail, a task suite's pass/fail results and the progress stream's events
//! (`shared/chronicle-api/README.md`).
//!
//! No machine-readable contract exists; the shapes follow the guide's SDK examples. Every field
//! beyond the identifiers is optional, so an unexpected shape degrades instead of failing, and
//! status, mode and event names unknown to this build are kept by name.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::open_enum::open_enum;
use super::page::{page_fingerprint, CursorPage};

open_enum! {
    /// Status of a backtest job.
    pub enum JobStatus keeps Other {
        /// Waiting for a runtime.
        Queued => "queued",
        /// Trials are running.
        Running => "running",
        /// Every trial ran (tasks may still have failed: succeeded means the trials ran).
        Succeeded => "succeeded",
        /// The job failed.
        Failed => "failed",
        /// The job was cancelled; finished trials keep their results.
        Cancelled => "cancelled",
    }
}

impl JobStatus {
    /// Whether the job has ended (succeeded, failed or cancelled); an unknown status is not
    /// taken as ended.
    pub fn is_terminal(&self) -> bool {
        matches!(
            self,
            JobStatus::Succeeded | JobStatus::Failed | JobStatus::Cancelled
        )
    }
}

open_enum! {
    /// How a job runs its agents.
    pub enum JobMode keeps Other {
        /// Each agent on the suite (the default).
        Suite => "suite",
        /// The first agent is the baseline of the others.
        Compare => "compare",
        /// A regression run.
        Regression => "regression",
        /// A replay of recorded trials.
        Replay => "replay",
    }
}

/// A backtest job (an evaluation run), `GET /v1/backtests/jobs/{jobId}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChronicleJob {
    /// Job id.
    pub id: String,
    /// Display name (defaults to the suite's name on the platform).
    #[serde(default)]
    pub name: Option<String>,
    /// Where the job stands.
    #[serde(default)]
    pub status: Option<JobStatus>,
    /// How it runs its agents.
    #[serde(default)]
    pub mode: Option<JobMode>,
    /// Agent versions (`name@version`); in `compare` mode the first is the baseline.
    #[serde(default)]
    pub agents: Vec<String>,
    /// Trials finished.
    #[serde(default)]
    pub completed_trials: Option<u64>,
    /// Trials scheduled.
    #[serde(default)]
    pub total_trials: Option<u64>,
    /// The task suite run.
    #[serde(default)]
    pub task_suite_id: Option<String>,
    /// The suite's version frozen at launch (its tasks and scorers).
    #[serde(default)]
    pub task_suite_version: Option<String>,
    /// The task ids run, when the job ran a subset; `None`: the whole suite.
    #[serde(default)]
    pub tasks: Option<Vec<String>>,
    /// Extra scorer ids applied to every trial, on top of each task's own.
    #[serde(default)]
    pub scorers: Vec<String>,
    /// Fallback world for tasks that name none.
    #[serde(default)]
    pub environment_version_id: Option<String>,
    /// Trials running at once.
    #[serde(default)]
    pub concurrency: Option<u32>,
    /// When the job was created (RFC 3339).
    #[serde(default)]
    pub created_at: Option<String>,
    /// What went wrong, when the job failed (a message, or any JSON).
    #[serde(default)]
    pub error: Option<Value>,
}

/// One agent × task trial, as listed by `GET /v1/backtests/jobs/{jobId}/trials`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChronicleTrial {
    /// Trial id.
    pub id: String,
    /// Agent version (`name@version`).
    pub agent: String,
    /// Task id.
    #[serde(default)]
    pub task_id: Option<String>,
    /// Trial status, kept by name (`queued`, `running`, `succeeded`, `failed`, `cancelled`, …).
    #[serde(default)]
    pub status: Option<String>,
    /// What went wrong (a message, or any JSON), when the trial errored.
    #[serde(default)]
    pub error: Option<Value>,
    /// One result per scorer.
    #[serde(default)]
    pub scores: Vec<ChronicleScore>,
}

/// One scorer's result in a trial.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChronicleScore {
    /// Scorer name.
    pub name: String,
    /// The score; null when the scorer produced none (null is not zero).
    #[serde(default)]
    pub score: Option<f64>,
    /// Pass threshold; null for a scorer that only measures.
    #[serde(default)]
    pub threshold: Option<f64>,
    /// Whether the threshold was met.
    #[serde(default)]
    pub passed: Option<bool>,
}

/// A page of a Chronicle list: `items`, `has_next_page`, the `limit` used and the cursor of the
/// next page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChroniclePage<T> {
    /// Items of this page.
    pub items: Vec<T>,
    /// Whether another page follows.
    #[serde(default)]
    pub has_next_page: bool,
    /// The page size used.
    #[serde(default)]
    pub limit: Option<u32>,
    /// Cursor of the next page (sent back as `cursor`), when one follows.
    #[serde(default)]
    pub next_cursor: Option<String>,
}

impl<T: Serialize> CursorPage for ChroniclePage<T> {
    type Item = T;
    fn items(&self) -> &[T] {
        &self.items
    }
    fn into_items(self) -> Vec<T> {
        self.items
    }
    fn next_cursor(&self) -> Option<&str> {
        self.next_cursor.as_deref()
    }
    fn has_more(&self) -> bool {
        self.has_next_page
    }
    fn fingerprint(&self) -> Option<u64> {
        page_fingerprint(&self.items)
    }
}

/// A page of jobs.
pub type ChronicleJobPage = ChroniclePage<ChronicleJob>;
/// A page of trials.
pub type ChronicleTrialPage = ChroniclePage<ChronicleTrial>;
/// A page of a suite's evaluation results.
pub type SuiteEvalRunPage = ChroniclePage<SuiteEvalRun>;

/// A step of a trial.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TrialStep {
    /// `setup`, `agent`, `tool_call` or `scoring`, kept by name.
    pub kind: String,
    /// What the step did.
    #[serde(default)]
    pub name: Option<String>,
    /// Step status, kept by name.
    #[serde(default)]
    pub status: Option<String>,
    /// Duration in milliseconds.
    #[serde(default)]
    pub duration_ms: Option<u64>,
}

/// A file a trial produced.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TrialArtifact {
    /// File name.
    pub name: String,
    /// Media type.
    #[serde(default)]
    pub media_type: Option<String>,
    /// Size in bytes.
    #[serde(default)]
    pub size_bytes: Option<u64>,
    /// Where to download it, when the API gives an address.
    #[serde(default)]
    pub url: Option<String>,
}

/// A trial with the instruction it received, its steps and its artifacts,
/// `GET /v1/backtests/jobs/{jobId}/trials/{trialId}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChronicleTrialDetail {
    /// The trial.
    #[serde(flatten)]
    pub trial: ChronicleTrial,
    /// The instruction the agent received.
    #[serde(default)]
    pub instruction: Option<String>,
    /// Its steps: setup, agent turns, tool calls, scoring.
    #[serde(default)]
    pub steps: Vec<TrialStep>,
    /// Files it produced.
    #[serde(default)]
    pub artifacts: Vec<TrialArtifact>,
}

/// Pass/fail of one task in a job, as the platform reports it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TaskResult {
    /// Task id.
    pub task_id: String,
    /// Task title.
    #[serde(default)]
    pub title: Option<String>,
    /// Whether every thresholded scorer met its threshold in every trial of the task (every
    /// agent's, in a comparison).
    #[serde(default)]
    pub passed: Option<bool>,
    /// Thresholded scorers that missed in some trial.
    #[serde(default)]
    pub failed_scorers: Vec<String>,
}

/// The results of one job on a task suite, an item of
/// `GET /v1/task-suites/{suiteId}/eval-runs`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SuiteEvalRun {
    /// The job.
    pub job_id: String,
    /// Its name.
    #[serde(default)]
    pub name: Option<String>,
    /// Its status.
    #[serde(default)]
    pub status: Option<JobStatus>,
    /// Share of reported tasks that passed; null before any task has finished.
    #[serde(default)]
    pub pass_rate: Option<f64>,
    /// Pass/fail per task (tasks whose trials have all finished).
    #[serde(default)]
    pub task_results: Vec<TaskResult>,
}

open_enum! {
    /// The kind of a progress event (the server-sent event's `event` field).
    pub enum JobEventKind keeps Other {
        /// A trial started.
        TrialStarted => "trial_started",
        /// A trial finished.
        TrialFinished => "trial_finished",
        /// The job ended.
        RunFinished => "run_finished",
    }
}

/// The data of a progress event (the server-sent event's `data`, JSON); every field optional.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct JobEventData {
    /// The job.
    #[serde(default)]
    pub job_id: Option<String>,
    /// The trial, for trial events.
    #[serde(default)]
    pub trial_id: Option<String>,
    /// The trial's agent version.
    #[serde(default)]
    pub agent: Option<String>,
    /// The trial's task.
    #[serde(default)]
    pub task_id: Option<String>,
    /// The trial's status (trial events) or the job's (`run_finished`), kept by name.
    #[serde(default)]
    pub status: Option<String>,
    /// Trials finished so far.
    #[serde(default)]
    pub completed_trials: Option<u64>,
    /// Trials scheduled.
    #[serde(default)]
    pub total_trials: Option<u64>,
}

/// One progress event of `GET /v1/backtests/jobs/{jobId}/stream`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JobEvent {
    /// What happened.
    pub kind: JobEventKind,
    /// The event's id, when the server sent one.
    #[serde(default)]
    pub id: Option<String>,
    /// Its data.
    pub data: JobEventData,
}
