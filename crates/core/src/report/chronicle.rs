//! What a report says about the Chronicle job behind a run.

use serde::{Deserialize, Serialize};

use crate::model::{guide_pass_rate, guide_task_results, PassState, RunIdx, RunSet};

/// A Chronicle run's job, and its pass rate by the guide's rule beside the platform's.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChronicleSummary {
    /// Job id.
    pub job_id: String,
    /// Job name.
    pub job_name: Option<String>,
    /// The agent version this run is.
    pub agent: String,
    /// Its position among the job's agents (0 = the first: the baseline in `compare` mode).
    pub agent_position: usize,
    /// The job's mode, kept by name.
    pub mode: Option<String>,
    /// The task suite.
    pub task_suite_id: Option<String>,
    /// Its version frozen at launch.
    pub task_suite_version: Option<String>,
    /// The task subset run; `None`: the whole suite.
    pub tasks: Option<Vec<String>>,
    /// Extra scorers applied to every trial.
    pub scorers: Vec<String>,
    /// Fallback environment.
    pub environment_version_id: Option<String>,
    /// The job's status, kept by name.
    pub job_status: Option<String>,
    /// The job's error, as text.
    pub job_error: Option<String>,
    /// Trials finished (the whole job's).
    pub completed_trials: Option<u64>,
    /// Trials scheduled (the whole job's).
    pub total_trials: Option<u64>,
    /// This agent's tasks whose trials have all finished.
    pub decided_tasks: usize,
    /// This agent's pass rate by the guide's rule over those tasks (every thresholded scorer
    /// met in every trial; a failed trial without scores fails its task).
    pub pass_rate: Option<f64>,
    /// The platform's `pass_rate` of the whole job, when its results were loaded (in `compare`
    /// mode it covers every agent together; see the report's `platform` checks).
    pub platform_pass_rate: Option<f64>,
}

/// The summary of a run's Chronicle job; `None` for other runs.
pub(super) fn chronicle_summary(set: &RunSet, index: RunIdx) -> Option<ChronicleSummary> {
    let job = set.run(index).ok()?.info().chronicle.as_ref()?;
    let results = guide_task_results(set, &[index]).unwrap_or_default();
    Some(ChronicleSummary {
        job_id: job.job_id.clone(),
        job_name: job.job_name.clone(),
        agent: job.agent.clone(),
        agent_position: job.agent_position,
        mode: job.mode.as_ref().map(|mode| mode.as_str().to_owned()),
        task_suite_id: job.task_suite_id.clone(),
        task_suite_version: job.task_suite_version.clone(),
        tasks: job.tasks.clone(),
        scorers: job.scorers.clone(),
        environment_version_id: job.environment_version_id.clone(),
        job_status: job.status.as_ref().map(|status| status.as_str().to_owned()),
        job_error: job.error.clone(),
        completed_trials: job.completed_trials,
        total_trials: job.total_trials,
        decided_tasks: results
            .iter()
            .filter(|result| matches!(result.state, PassState::Passed | PassState::Failed))
            .count(),
        pass_rate: guide_pass_rate(&results),
        platform_pass_rate: job
            .results
            .as_ref()
            .and_then(|results| results.pass_rate)
            .filter(|rate| rate.is_finite()),
    })
}
