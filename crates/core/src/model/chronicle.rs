//! Chronicle (Worldsmith) evaluations onto the model: agent version = run, trial = trajectory,
//! scorer = reward component (chronicle-api/README.md).
//!
//! - A trial's reward is its binary outcome under the guide's rule (every scorer with a
//!   threshold met it); a null score is "produced none", never 0.
//! - A Chronicle run scores each task by [`TaskScoring::AllSamplesPass`]: the task passes when
//!   every trial passed, one binary outcome per task and run, so McNemar applies.
//! - Scorers without a threshold stay components; the report gives each its own paired Δ.
//! - [`guide_task_results`] recomputes the platform's pass/fail per task from the trials, to set
//!   beside the platform's own `task_results` (the audit's `PLATFORM_RESULTS_*` findings).
//!
//! The wire types are in [`crate::api`] (`ChronicleJob`, `ChronicleTrial`, …).

use std::collections::HashSet;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::api::{ChronicleJob, ChronicleScore, ChronicleTrial, SuiteEvalRun};

use super::builder::RunSetBuilder;
use super::component::RewardComponent;
use super::error::ModelError;
use super::outcome::OutcomeClass;
use super::run::{ChronicleRunInfo, RunIdx, RunInfo, TaskScoring};
use super::run_set::RunSet;
use super::source::SourceKind;
use super::task::{TaskIdx, TaskInput};
use super::trajectory::{TrajectoryFlags, TrajectoryInput};

/// The run id of an agent version of a job: `{job_id}/{agent}` (an agent version is a run).
pub fn chronicle_run_id(job_id: &str, agent: &str) -> String {
    format!("{job_id}/{agent}")
}

/// The job id and agent version of a Chronicle run id (split at the first `/`); `None` for an
/// id without one, or with an empty part.
pub fn split_chronicle_run_id(run_id: &str) -> Option<(&str, &str)> {
    run_id
        .split_once('/')
        .filter(|(job, agent)| !job.is_empty() && !agent.is_empty())
}

/// Whether a scorer met its threshold: `None` for a scorer without one (it only measures);
/// `Some(false)` when it produced no score (null is never a pass); else its `passed`, or
/// `score >= threshold` when `passed` is missing.
pub fn threshold_met(
    score: Option<f64>,
    threshold: Option<f64>,
    passed: Option<bool>,
) -> Option<bool> {
    let threshold = threshold?;
    let Some(score) = score else {
        return Some(false);
    };
    Some(passed.unwrap_or(score >= threshold))
}

impl ChronicleScore {
    /// [`threshold_met`] of this score.
    pub fn met_threshold(&self) -> Option<bool> {
        threshold_met(self.score, self.threshold, self.passed)
    }
}

/// A JSON error value as text: a string as it is, any other JSON compact; `None` for null or
/// an empty string (no error).
pub fn error_text(error: Option<&Value>) -> Option<String> {
    match error? {
        Value::Null => None,
        Value::String(text) if text.trim().is_empty() => None,
        Value::String(text) => Some(text.clone()),
        other => Some(other.to_string()),
    }
}

impl ChronicleTrial {
    /// The trial's error as text ([`error_text`]).
    pub fn error_text(&self) -> Option<String> {
        error_text(self.error.as_ref())
    }

    /// The trial's reward: its binary outcome.
    ///
    /// - With thresholded scorers: 1 when every one passed, else 0 (a task passes when every
    ///   scorer with a threshold met it); `None` when one of them produced no score.
    /// - Without: the mean of the scores, `None` when any is missing or there is none.
    pub fn reward(&self) -> Option<f64> {
        let gated: Vec<&ChronicleScore> = self
            .scores
            .iter()
            .filter(|score| score.threshold.is_some())
            .collect();
        if !gated.is_empty() {
            if gated.iter().any(|score| score.score.is_none()) {
                return None;
            }
            let all_passed = gated
                .iter()
                .all(|score| score.met_threshold() == Some(true));
            return Some(if all_passed { 1.0 } else { 0.0 });
        }
        let values: Option<Vec<f64>> = self.scores.iter().map(|score| score.score).collect();
        values
            .filter(|values| !values.is_empty())
            .map(|values| values.iter().sum::<f64>() / values.len() as f64)
    }

    /// The trial's class, from its status and error (an errored trial is failed):
    ///
    /// | status                         | class                                  |
    /// |--------------------------------|----------------------------------------|
    /// | `succeeded`, `completed`       | failed with an error, else graded with a reward, else ungraded |
    /// | `failed`, `errored`, `error`   | failed                                 |
    /// | `cancelled`, `canceled`        | cancelled                              |
    /// | `queued`, `pending`, `running` | unfinished                             |
    /// | none, with an error            | failed                                 |
    /// | anything else, or none         | other (the status is kept by name as the ending) |
    pub fn class(&self, has_reward: bool) -> OutcomeClass {
        let errored = self.error_text().is_some();
        match self.status.as_deref() {
            Some("succeeded" | "completed") if errored => OutcomeClass::Failed,
            Some("succeeded" | "completed") if has_reward => OutcomeClass::Graded,
            Some("succeeded" | "completed") => OutcomeClass::Ungraded,
            Some("failed" | "errored" | "error") => OutcomeClass::Failed,
            Some("cancelled" | "canceled") => OutcomeClass::Cancelled,
            Some("queued" | "pending" | "running") => OutcomeClass::Unfinished,
            None if errored => OutcomeClass::Failed,
            _ => OutcomeClass::Other,
        }
    }

    /// The scorers as reward components, every name kept as given (no weights: Chronicle does
    /// not publish them).
    pub fn components(&self) -> Vec<RewardComponent> {
        self.scores
            .iter()
            .map(|score| RewardComponent {
                name: score.name.clone(),
                value: score.score,
                scaled_value: None,
                weight: None,
                score_range: None,
                threshold: score.threshold,
                passed: score.passed,
                explanation: None,
            })
            .collect()
    }
}

impl RunSetBuilder {
    /// Adds one run per agent version of a Chronicle job, in the job's agent order (so in
    /// `compare` mode the first returned run is the baseline), then any agent seen only on a
    /// trial. Each trial becomes a trajectory with its scorers as components; a trial id listed
    /// twice is used once (counted in [`ChronicleRunInfo::duplicate_trials`]). Run ids are
    /// [`chronicle_run_id`]s; each run scores its tasks by [`TaskScoring::AllSamplesPass`] and
    /// carries the job in [`RunInfo::chronicle`]. `results` is the platform's own pass/fail per
    /// task for the job (`GET /v1/task-suites/{suiteId}/eval-runs`), kept beside the computed
    /// numbers; results of another job are refused.
    pub fn add_chronicle_job(
        &mut self,
        job: &ChronicleJob,
        trials: &[ChronicleTrial],
        results: Option<&SuiteEvalRun>,
    ) -> Result<Vec<RunIdx>, ModelError> {
        self.add_chronicle_job_from(job, trials, results, SourceKind::Chronicle, None)
    }

    /// [`Self::add_chronicle_job`] with the source named (a run folder's is usually
    /// [`SourceKind::Files`]) and, when its files were cut short, what is missing.
    pub fn add_chronicle_job_from(
        &mut self,
        job: &ChronicleJob,
        trials: &[ChronicleTrial],
        results: Option<&SuiteEvalRun>,
        source: SourceKind,
        incomplete_load: Option<String>,
    ) -> Result<Vec<RunIdx>, ModelError> {
        if let Some(results) = results {
            if results.job_id != job.id {
                return Err(ModelError::ResultsOfAnotherJob {
                    job: job.id.clone(),
                    results: results.job_id.clone(),
                });
            }
        }
        let agents = chronicle_agents(job, trials);
        let mut seen: HashSet<&str> = HashSet::with_capacity(trials.len());
        let mut kept: Vec<(usize, &ChronicleTrial)> = Vec::with_capacity(trials.len());
        let mut duplicates = vec![0u64; agents.len()];
        for trial in trials {
            let Some(position) = agents.iter().position(|agent| *agent == trial.agent) else {
                continue;
            };
            if seen.insert(&trial.id) {
                kept.push((position, trial));
            } else if let Some(count) = duplicates.get_mut(position) {
                *count += 1;
            }
        }
        let per_agent = match (job.total_trials, u64::try_from(job.agents.len())) {
            (Some(total), Ok(count)) if count > 0 && total % count == 0 => Some(total / count),
            _ => None,
        };
        let mut runs = Vec::with_capacity(agents.len());
        for (position, agent) in agents.iter().enumerate() {
            let in_job = position < job.agents.len();
            runs.push(self.add_run(RunInfo {
                id: chronicle_run_id(&job.id, agent),
                display_name: Some((*agent).to_owned()),
                base_model: agent.split('@').next().map(str::to_owned),
                bench_id: job.task_suite_id.clone(),
                status: job.status.as_ref().map(|status| status.as_str().to_owned()),
                failure: error_text(job.error.as_ref()),
                total_rollouts: per_agent.filter(|_| in_job),
                source,
                incomplete_load: incomplete_load.clone(),
                task_scoring: TaskScoring::AllSamplesPass,
                chronicle: Some(ChronicleRunInfo {
                    job_id: job.id.clone(),
                    job_name: job.name.clone(),
                    agent: (*agent).to_owned(),
                    agent_position: position,
                    mode: job.mode.clone(),
                    task_suite_id: job.task_suite_id.clone(),
                    task_suite_version: job.task_suite_version.clone(),
                    tasks: job.tasks.clone(),
                    scorers: job.scorers.clone(),
                    environment_version_id: job.environment_version_id.clone(),
                    status: job.status.clone(),
                    error: error_text(job.error.as_ref()),
                    completed_trials: job.completed_trials,
                    total_trials: job.total_trials,
                    duplicate_trials: duplicates.get(position).copied().unwrap_or(0),
                    results: results.cloned(),
                    trial_efforts: Default::default(),
                }),
                ..RunInfo::default()
            })?);
        }
        // The platform's results title the tasks (trials name only ids): the panel and the
        // table show the titles the gate prints.
        for task in results.map_or(&[][..], |results| &results.task_results[..]) {
            let title = task.title.as_deref().map(str::trim);
            if let Some(title) = title.filter(|t| !t.is_empty() && *t != task.task_id) {
                self.add_task(TaskInput {
                    id: task.task_id.clone(),
                    label: Some(title.to_owned()),
                    split: None,
                    categories: Vec::new(),
                })?;
            }
        }
        for (position, trial) in kept {
            let Some(&run) = runs.get(position) else {
                continue;
            };
            let reward = trial.reward();
            self.add_trajectory(
                run,
                TrajectoryInput {
                    id: &trial.id,
                    task: trial.task_id.as_deref(),
                    class: trial.class(reward.is_some()),
                    reward,
                    ending: trial.status.as_deref(),
                    flags: TrajectoryFlags::NONE,
                    created: None,
                    components: Some(trial.components()),
                },
            )?;
        }
        Ok(runs)
    }
}

/// The agent versions of a job as runs: the job's agents in order, then any agent seen only on
/// a trial, in trial order.
pub fn chronicle_agents<'a>(job: &'a ChronicleJob, trials: &'a [ChronicleTrial]) -> Vec<&'a str> {
    let mut agents: Vec<&str> = Vec::with_capacity(job.agents.len());
    for agent in job
        .agents
        .iter()
        .chain(trials.iter().map(|trial| &trial.agent))
    {
        if !agents.contains(&agent.as_str()) {
            agents.push(agent);
        }
    }
    agents
}

/// Where a task stands under the guide's rule, or what a source says about it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PassState {
    /// Every scorer with a threshold met it in every trial.
    Passed,
    /// Some scorer with a threshold missed it in some trial (or produced no score).
    Failed,
    /// Some trial has not finished (queued or running): not decided yet.
    Unfinished,
    /// Listed by the platform without a `passed` value.
    Unstated,
    /// Not there: no trial of the task, or not in the platform's list.
    Missing,
}

impl PassState {
    /// How the state reads in a sentence ("passed", "not listed", …).
    pub fn label(self) -> &'static str {
        match self {
            PassState::Passed => "passed",
            PassState::Failed => "failed",
            PassState::Unfinished => "not finished",
            PassState::Unstated => "listed without pass/fail",
            PassState::Missing => "not listed",
        }
    }
}

/// One task's pass/fail by the guide's rule, computed from trials.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GuideTaskResult {
    /// The task.
    pub task: TaskIdx,
    /// Its trials (of every run given).
    pub trials: u32,
    /// [`PassState::Passed`], [`PassState::Failed`] or [`PassState::Unfinished`].
    pub state: PassState,
    /// Thresholded scorers that missed in some trial, in the order first seen.
    pub failed_scorers: Vec<String>,
}

/// The guide's pass/fail per task over the trials of `runs` together (as the platform's
/// `task_results` covers every agent of a job): a task passes when every scorer with a
/// threshold met it ([`threshold_met`]) in every trial; a task with a trial still queued or
/// running is [`PassState::Unfinished`] (the platform lists only tasks whose trials have all
/// finished). The rule is applied as the guide states it: a failed trial whose scorers produced
/// nothing fails its task, and a trial without any thresholded scorer does not. Tasks without a
/// trial are left out; the rest come in task order.
pub fn guide_task_results(
    set: &RunSet,
    runs: &[RunIdx],
) -> Result<Vec<GuideTaskResult>, ModelError> {
    let members = runs
        .iter()
        .map(|&run| set.run(run))
        .collect::<Result<Vec<_>, _>>()?;
    let mut results = Vec::new();
    for task in 0..set.tasks().len() as TaskIdx {
        let mut trials = 0u32;
        let mut unfinished = false;
        let mut failed_scorers: Vec<String> = Vec::new();
        for run in &members {
            for trajectory in run.trajectories_of_task(task) {
                trials += 1;
                unfinished |= trajectory.class == OutcomeClass::Unfinished;
                for component in trajectory.components.unwrap_or_default() {
                    let met = threshold_met(component.value, component.threshold, component.passed);
                    if met == Some(false) && !failed_scorers.contains(&component.name) {
                        failed_scorers.push(component.name.clone());
                    }
                }
            }
        }
        if trials == 0 {
            continue;
        }
        let state = if unfinished {
            PassState::Unfinished
        } else if failed_scorers.is_empty() {
            PassState::Passed
        } else {
            PassState::Failed
        };
        results.push(GuideTaskResult {
            task,
            trials,
            state,
            failed_scorers,
        });
    }
    Ok(results)
}

/// The share of decided tasks (passed or failed) that passed; `None` when none is decided.
pub fn guide_pass_rate(results: &[GuideTaskResult]) -> Option<f64> {
    let decided = results
        .iter()
        .filter(|result| matches!(result.state, PassState::Passed | PassState::Failed))
        .count();
    let passed = results
        .iter()
        .filter(|result| result.state == PassState::Passed)
        .count();
    (decided > 0).then(|| passed as f64 / decided as f64)
}
