//! Chronicle (Worldsmith) evaluations onto the model: agent version = run, trial = trajectory,
//! scorer = reward component (chronicle-api/README.md).
//!
//! The wire types are in [`crate::api`] (`ChronicleJob`, `ChronicleTrial`, …).

use crate::api::{ChronicleJob, ChronicleScore, ChronicleTrial, SuiteEvalRun};

use super::builder::RunSetBuilder;
use super::component::RewardComponent;
use super::error::ModelError;
use super::outcome::OutcomeClass;
use super::run::{RunIdx, RunInfo};
use super::source::SourceKind;
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

impl ChronicleTrial {
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
            let all_passed = gated.iter().all(|score| {
                let met = matches!((score.score, score.threshold), (Some(s), Some(t)) if s >= t);
                score.passed.unwrap_or(met)
            });
            return Some(if all_passed { 1.0 } else { 0.0 });
        }
        let values: Option<Vec<f64>> = self.scores.iter().map(|score| score.score).collect();
        values
            .filter(|values| !values.is_empty())
            .map(|values| values.iter().sum::<f64>() / values.len() as f64)
    }

    /// The trial's class, from its status (and error):
    ///
    /// | status                         | class                                  |
    /// |--------------------------------|----------------------------------------|
    /// | `succeeded`, `completed`       | graded with a reward, else ungraded    |
    /// | `failed`, `errored`, `error`   | failed                                 |
    /// | `cancelled`, `canceled`        | cancelled                              |
    /// | `queued`, `pending`, `running` | unfinished                             |
    /// | none, with an error            | failed                                 |
    /// | anything else, or none         | other, kept by name                    |
    pub fn class(&self, has_reward: bool) -> OutcomeClass {
        match self.status.as_deref() {
            Some("succeeded" | "completed") if has_reward => OutcomeClass::Graded,
            Some("succeeded" | "completed") => OutcomeClass::Ungraded,
            Some("failed" | "errored" | "error") => OutcomeClass::Failed,
            Some("cancelled" | "canceled") => OutcomeClass::Cancelled,
            Some("queued" | "pending" | "running") => OutcomeClass::Unfinished,
            None if self.error.as_ref().is_some_and(|error| !error.is_null()) => {
                OutcomeClass::Failed
            }
            _ => OutcomeClass::Other,
        }
    }

    /// The scorers as reward components (no weights: Chronicle does not publish them).
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
    /// trial. Each trial becomes a trajectory with its scorers as components. Run ids are
    /// [`chronicle_run_id`]s. `results` is the platform's own pass/fail per task for the job
    /// (`GET /v1/task-suites/{suiteId}/eval-runs`), kept beside the computed numbers.
    pub fn add_chronicle_job(
        &mut self,
        job: &ChronicleJob,
        trials: &[ChronicleTrial],
        results: Option<&SuiteEvalRun>,
    ) -> Result<Vec<RunIdx>, ModelError> {
        let _ = results;
        let mut agents: Vec<&str> = job.agents.iter().map(String::as_str).collect();
        for trial in trials {
            if !agents.contains(&trial.agent.as_str()) {
                agents.push(&trial.agent);
            }
        }
        let mut runs = Vec::with_capacity(agents.len());
        for agent in &agents {
            runs.push(self.add_run(RunInfo {
                id: chronicle_run_id(&job.id, agent),
                display_name: Some((*agent).to_owned()),
                base_model: agent.split('@').next().map(str::to_owned),
                bench_id: job.task_suite_id.clone(),
                status: job.status.as_ref().map(|status| status.as_str().to_owned()),
                source: SourceKind::Chronicle,
                ..RunInfo::default()
            })?);
        }
        for trial in trials {
            let Some(position) = agents.iter().position(|agent| *agent == trial.agent) else {
                continue;
            };
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
                    components: Some(trial.components()),
                },
            )?;
        }
        Ok(runs)
    }
}
