//! The platform's own numbers beside ours: for each Chronicle job of the compared runs whose
//! results were loaded, its `task_results` and `pass_rate` against the guide's rule recomputed
//! from the job's trials (every agent's together, as the platform counts them). A disagreement
//! is a finding, never resolved for either side; agreement is said too.

use std::collections::{HashMap, HashSet};

use serde::{Deserialize, Serialize};

use crate::api::TaskResult;
use crate::model::{guide_pass_rate, guide_task_results, ModelError, PassState, RunIdx, RunSet};
use crate::text::{mean, plural};

use super::{Finding, Severity};

/// Pass rates closer than this agree (the platform may round the share it reports).
pub const PASS_RATE_TOLERANCE: f64 = 1e-6;

/// One job's results from the platform set beside those computed from its trials.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlatformCheck {
    /// The job.
    pub job_id: String,
    /// Its name.
    pub job_name: Option<String>,
    /// The job's runs in the loaded set (every agent: the platform's results cover them
    /// together), whether compared or not.
    pub runs: Vec<RunIdx>,
    /// The platform's `pass_rate`.
    pub platform_pass_rate: Option<f64>,
    /// Tasks the platform lists.
    pub platform_tasks: usize,
    /// The guide's pass rate over the tasks whose trials have all finished.
    pub computed_pass_rate: Option<f64>,
    /// Tasks whose trials have all finished (decided by the guide's rule).
    pub computed_tasks: usize,
    /// Tasks on which both sides say the same.
    pub agreeing_tasks: usize,
    /// Tasks on which they do not, in the platform's order, then the trials' task order.
    pub disagreements: Vec<TaskDisagreement>,
    /// Whether the pass rates agree (within [`PASS_RATE_TOLERANCE`], or both absent).
    pub pass_rate_agrees: bool,
}

impl PlatformCheck {
    /// Whether the platform and the trials agree on every task and on the pass rate.
    pub fn agrees(&self) -> bool {
        self.disagreements.is_empty() && self.pass_rate_agrees
    }
}

/// A task on which the platform's results and the trials disagree.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TaskDisagreement {
    /// Task id.
    pub task_id: String,
    /// What the platform says ([`PassState::Missing`] when it does not list the task).
    pub platform: PassState,
    /// What the trials say by the guide's rule ([`PassState::Missing`] without a trial).
    pub computed: PassState,
    /// The platform's failed scorers.
    pub platform_failed_scorers: Vec<String>,
    /// The scorers that missed their threshold in some trial.
    pub computed_failed_scorers: Vec<String>,
}

/// The platform checks of the Chronicle jobs among `runs`, in order of their first run; jobs
/// without loaded results have none.
pub fn platform_checks(set: &RunSet, runs: &[RunIdx]) -> Result<Vec<PlatformCheck>, ModelError> {
    let mut checks: Vec<PlatformCheck> = Vec::new();
    for &run in runs {
        let Some(job) = &set.run(run)?.info().chronicle else {
            continue;
        };
        let Some(results) = &job.results else {
            continue;
        };
        if checks.iter().any(|check| check.job_id == job.job_id) {
            continue;
        }
        let job_runs: Vec<RunIdx> = set
            .run_indices()
            .filter(|&index| {
                set.run(index)
                    .ok()
                    .and_then(|r| r.info().chronicle.as_ref())
                    .is_some_and(|other| other.job_id == job.job_id)
            })
            .collect();
        let computed = guide_task_results(set, &job_runs)?;
        let ours: Vec<(&str, PassState, &[String])> = computed
            .iter()
            .map(|result| {
                let id = set.task(result.task).map_or("", |task| task.id.as_str());
                (id, result.state, result.failed_scorers.as_slice())
            })
            .collect();
        let by_id: HashMap<&str, (PassState, &[String])> = ours
            .iter()
            .map(|&(id, state, scorers)| (id, (state, scorers)))
            .collect();
        let mut agreeing_tasks = 0;
        let mut disagreements = Vec::new();
        // The platform's tasks, each once (a repeated listing is skipped).
        let mut listed: HashSet<&str> = HashSet::with_capacity(results.task_results.len());
        for platform in &results.task_results {
            if !listed.insert(&platform.task_id) {
                continue;
            }
            let theirs = platform_state(platform);
            let (state, scorers) = by_id
                .get(platform.task_id.as_str())
                .copied()
                .unwrap_or((PassState::Missing, &[]));
            if theirs == state && matches!(state, PassState::Passed | PassState::Failed) {
                agreeing_tasks += 1;
            } else {
                disagreements.push(TaskDisagreement {
                    task_id: platform.task_id.clone(),
                    platform: theirs,
                    computed: state,
                    platform_failed_scorers: platform.failed_scorers.clone(),
                    computed_failed_scorers: scorers.to_vec(),
                });
            }
        }
        for (id, state, scorers) in &ours {
            // An unfinished task the platform does not list agrees: neither has decided it.
            if listed.contains(id) || *state == PassState::Unfinished {
                continue;
            }
            disagreements.push(TaskDisagreement {
                task_id: (*id).to_owned(),
                platform: PassState::Missing,
                computed: *state,
                platform_failed_scorers: Vec::new(),
                computed_failed_scorers: scorers.to_vec(),
            });
        }
        let computed_pass_rate = guide_pass_rate(&computed);
        let platform_pass_rate = results.pass_rate;
        let pass_rate_agrees = match (platform_pass_rate, computed_pass_rate) {
            (None, None) => true,
            (Some(theirs), Some(ours)) => (theirs - ours).abs() <= PASS_RATE_TOLERANCE,
            _ => false,
        };
        checks.push(PlatformCheck {
            job_id: job.job_id.clone(),
            job_name: job.job_name.clone(),
            runs: job_runs,
            platform_pass_rate,
            platform_tasks: listed.len(),
            computed_pass_rate,
            computed_tasks: computed
                .iter()
                .filter(|result| matches!(result.state, PassState::Passed | PassState::Failed))
                .count(),
            agreeing_tasks,
            disagreements,
            pass_rate_agrees,
        });
    }
    Ok(checks)
}

fn platform_state(result: &TaskResult) -> PassState {
    match result.passed {
        Some(true) => PassState::Passed,
        Some(false) => PassState::Failed,
        None => PassState::Unstated,
    }
}

/// The findings of the checks: `PLATFORM_RESULTS_AGREE` (info) or `PLATFORM_RESULTS_DIFFER`
/// (caution), naming the compared runs of the job among `members`.
pub(super) fn findings(checks: &[PlatformCheck], members: &[RunIdx], findings: &mut Vec<Finding>) {
    for check in checks {
        let mut runs: Vec<RunIdx> = members
            .iter()
            .copied()
            .filter(|run| check.runs.contains(run))
            .collect();
        runs.dedup();
        let rate = |rate: Option<f64>| rate.map_or_else(|| "none".to_owned(), mean);
        if check.agrees() {
            findings.push(Finding {
                severity: Severity::Info,
                code: "PLATFORM_RESULTS_AGREE".to_owned(),
                runs,
                message: format!(
                    "The platform's results for job {} agree with its trials: the same pass/fail on {}, pass rate {}.",
                    check.job_id,
                    plural(check.agreeing_tasks as u64, "task", "tasks"),
                    rate(check.computed_pass_rate)
                ),
            });
            continue;
        }
        let example = check
            .disagreements
            .first()
            .map_or_else(String::new, |first| {
                format!(
                    " (e.g. task {}: the platform says {}, the trials {})",
                    first.task_id,
                    first.platform.label(),
                    first.computed.label()
                )
            });
        let tasks = check.agreeing_tasks + check.disagreements.len();
        let rates = if check.pass_rate_agrees {
            String::new()
        } else {
            format!(
                "; pass rate: the platform {}, the trials {}",
                rate(check.platform_pass_rate),
                rate(check.computed_pass_rate)
            )
        };
        findings.push(Finding {
            severity: Severity::Caution,
            code: "PLATFORM_RESULTS_DIFFER".to_owned(),
            runs,
            message: format!(
                "The platform's results for job {} differ from its trials on {} of {}{example}{rates}. Neither is taken as right: check whether the results were read while trials were still finishing.",
                check.job_id,
                check.disagreements.len(),
                plural(tasks as u64, "task", "tasks"),
            ),
        });
    }
}
