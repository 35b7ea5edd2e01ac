//! A run's identity and recorded settings, independent of where it was loaded from.

use serde::{Deserialize, Serialize};

use crate::api::{JobMode, JobStatus, SuiteEvalRun};

use super::run_options::RunOptions;
use super::setting_inputs::SettingInputs;
use super::source::SourceKind;

/// Index of a run in its [`RunSet`](super::RunSet), in the order runs were added.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct RunIdx(pub usize);

/// Who and what a run evaluated, and how it was configured.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct RunInfo {
    /// Unique run identifier (Trajectory `eval_run_id`; Chronicle `job/agent@version`).
    pub id: String,
    /// User-facing name, when recorded.
    pub display_name: Option<String>,
    /// Base model evaluated (Trajectory `base_model_slug`).
    pub base_model: Option<String>,
    /// The training checkpoint evaluated, when the run scored one.
    pub checkpoint: CheckpointInfo,
    /// Exact benchmark version (Trajectory `bench_id`; Chronicle task suite id).
    pub bench_id: Option<String>,
    /// Recorded sampling, limit and evaluation settings.
    pub options: RunOptions,
    /// What was read besides the run to resolve its settings (its training run's options, the
    /// evaluation defaults); see [`RunInfo::effective_settings`].
    #[serde(default)]
    pub settings_inputs: SettingInputs,
    /// Task coverage fixed at launch, when recorded.
    pub task_selection: Option<TaskSelection>,
    /// Lifecycle status kept by name (e.g. `completed`, `running`, `failed`), when recorded.
    pub status: Option<String>,
    /// Failure message recorded for a failed run.
    pub failure: Option<String>,
    /// The platform's own reward mean (shown beside, never instead of, the per-task analysis).
    pub platform_reward_mean: Option<f64>,
    /// Rollouts planned at launch, when recorded.
    pub total_rollouts: Option<u64>,
    /// Where the run was loaded from.
    pub source: SourceKind,
    /// Set when loading stopped early (a page failed): what is missing. `None` = complete.
    pub incomplete_load: Option<String>,
    /// How the run's samples on one task make the task's score.
    #[serde(default)]
    pub task_scoring: TaskScoring,
    /// The Chronicle job the run is an agent version of, for Chronicle runs.
    #[serde(default)]
    pub chronicle: Option<ChronicleRunInfo>,
    /// Its shown texts cut when the run was added to a set, for being over
    /// [`MAX_SHOWN_FIELD_BYTES`](crate::text::MAX_SHOWN_FIELD_BYTES).
    #[serde(default)]
    pub cut_texts: Vec<super::CutText>,
    /// What the run cost, from the platform's billing, or why that is not known (never 0).
    #[serde(default)]
    pub cost: super::RunCost,
    /// The platform's runtime distributions of the run's rollouts (turns, tokens, seconds):
    /// read, not read, or why the read failed.
    #[serde(default)]
    pub rollout_statistics: super::Lookup<crate::api::EvalRolloutStatistics>,
}

/// How a run's samples (trajectories, trials) on one task make that task's score.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TaskScoring {
    /// The mean of the included samples (Trajectory runs; statistics.md).
    #[default]
    MeanOfSamples,
    /// The Chronicle guide's rule: a task passes when every scorer with a threshold met it in
    /// every trial. A task whose included values are all 0 or 1 scores 1 when all of them are 1,
    /// else 0: one binary outcome per task and run (so McNemar applies). This holds in each
    /// analysis over the samples it includes: the primary analysis leaves failed, cancelled,
    /// unfinished and ungraded trials out (null is never 0), the sensitivity analysis counts
    /// them as 0 (so there a task passes only when every trial ran and passed). A task with a
    /// value that is not 0 or 1 (trials without any thresholded scorer score the mean of their
    /// scores) keeps the mean of its values.
    AllSamplesPass,
}

/// What the comparability audit and the report need to know about the Chronicle job a run
/// belongs to (one run per agent version of the job).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ChronicleRunInfo {
    /// Job id.
    pub job_id: String,
    /// Job name.
    pub job_name: Option<String>,
    /// The agent version this run is (`name@version`).
    pub agent: String,
    /// Position of the agent in the job (0 = the first: the baseline in `compare` mode).
    pub agent_position: usize,
    /// How the job runs its agents, kept by name.
    pub mode: Option<JobMode>,
    /// The task suite run.
    pub task_suite_id: Option<String>,
    /// The suite's version frozen at launch.
    pub task_suite_version: Option<String>,
    /// The task subset run; `None`: the whole suite.
    pub tasks: Option<Vec<String>>,
    /// Extra scorer ids applied to every trial.
    pub scorers: Vec<String>,
    /// Fallback world for tasks that name none.
    pub environment_version_id: Option<String>,
    /// The job's status, kept by name.
    pub status: Option<JobStatus>,
    /// The job's error as text, when it has one.
    pub error: Option<String>,
    /// Trials finished (the whole job's).
    pub completed_trials: Option<u64>,
    /// Trials scheduled (the whole job's).
    pub total_trials: Option<u64>,
    /// Trials listed more than once (same id): the first listing was used.
    pub duplicate_trials: u64,
    /// The platform's own pass/fail per task and pass rate for the job
    /// (`GET /v1/task-suites/{suiteId}/eval-runs`), when loaded. Job-level: in `compare` mode
    /// it covers every agent together.
    pub results: Option<SuiteEvalRun>,
    /// Each trial's steps and duration by trial id, once read from its detail on request
    /// ([`super::TrialEffort`]); empty until then.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub trial_efforts: std::collections::BTreeMap<String, super::TrialEffort>,
}

impl RunInfo {
    /// The name to show: the display name, else the id.
    pub fn name(&self) -> &str {
        self.display_name.as_deref().unwrap_or(&self.id)
    }

    /// [`Self::name`] as messages quote it: cut to
    /// [`SHOWN_NAME_CHARS`](crate::text::SHOWN_NAME_CHARS) characters.
    pub fn shown_name(&self) -> std::borrow::Cow<'_, str> {
        crate::text::shorten(self.name(), crate::text::SHOWN_NAME_CHARS)
    }
}

/// The checkpoint a run evaluated.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct CheckpointInfo {
    /// Training step of the evaluated checkpoint.
    pub step: Option<i64>,
    /// Training run that produced the checkpoint.
    pub training_run_id: Option<String>,
    /// Checkpoint evaluated.
    pub parent_checkpoint_id: Option<String>,
}

impl CheckpointInfo {
    /// Whether the run evaluated a checkpoint rather than a base model.
    pub fn is_checkpoint(&self) -> bool {
        self.step.is_some() || self.training_run_id.is_some() || self.parent_checkpoint_id.is_some()
    }
}

/// Task coverage fixed at launch (Trajectory `EvalTaskSelection`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TaskSelection {
    /// Split of the benchmark the tasks came from, kept by name (`test`, `all`, …).
    pub split: String,
    /// Tasks in the selected scope at launch.
    pub available: u64,
    /// Distinct tasks selected for execution.
    pub selected: u64,
    /// Explicit cap on distinct tasks, or `None` to run every task in scope.
    pub max_samples: Option<u64>,
}
