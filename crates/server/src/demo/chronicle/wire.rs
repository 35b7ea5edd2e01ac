//! The Chronicle (Worldsmith) evaluation shapes, as the SDK examples in
//! `shared/chronicle-api/README.md` show them. Jobs, trials and scores are core's
//! `model::chronicle` types (shared with the viewer); the shapes core does not read (pages
//! with their limit, trial details, suite results) are defined here.

use eval_compare_core::model::ChronicleTrial;
use serde::{Deserialize, Serialize};

/// A page of a Chronicle list.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChroniclePage<T> {
    /// Items of this page.
    pub items: Vec<T>,
    /// Whether another page follows.
    pub has_next_page: bool,
    /// The page size used.
    pub limit: usize,
    /// Cursor of the next page (pass it as `cursor`), when one follows.
    pub next_cursor: Option<String>,
}

/// A step of a trial.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TrialStep {
    /// `setup`, `agent`, `tool_call` or `scoring`.
    pub kind: String,
    /// What the step did.
    pub name: String,
    /// `succeeded`, `failed` or `running`.
    pub status: String,
    /// Duration in milliseconds.
    pub duration_ms: u64,
}

/// A file a trial produced.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Artifact {
    /// File name.
    pub name: String,
    /// Media type.
    pub media_type: String,
    /// Size in bytes.
    pub size_bytes: u64,
}

/// A trial with its instruction, steps and artifacts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TrialDetail {
    /// The trial.
    #[serde(flatten)]
    pub trial: ChronicleTrial,
    /// The instruction the agent received.
    pub instruction: String,
    /// Its steps.
    pub steps: Vec<TrialStep>,
    /// Files it produced.
    pub artifacts: Vec<Artifact>,
}

/// Pass/fail of one task in a job.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TaskResult {
    /// Task id.
    pub task_id: String,
    /// Task title.
    pub title: String,
    /// Whether every thresholded scorer met its threshold in every trial of the task.
    pub passed: bool,
    /// Thresholded scorers that missed in some trial.
    pub failed_scorers: Vec<String>,
}

/// The results of one job on a task suite.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SuiteEvalRun {
    /// The job.
    pub job_id: String,
    /// Its name.
    pub name: String,
    /// Its status.
    pub status: String,
    /// Share of reported tasks that passed; null before any task has finished.
    pub pass_rate: Option<f64>,
    /// Tasks whose trials have all finished.
    pub task_results: Vec<TaskResult>,
}
