//! A Chronicle trial's effort as its detail records it
//! (`GET /v1/backtests/jobs/{jobId}/trials/{trialId}`, `steps[]`): how many steps the agent
//! took and how long the trial's steps ran. The trials list carries neither, so they are read
//! per trial on request (`load::load_trial_details`) and attached to the runs' Chronicle info.
//!
//! - Steps: the count of `agent` and `tool_call` steps (the agent's own work: a model turn
//!   or a tool it called); `setup` and `scoring` are the platform's, the same for every agent
//!   version, and would only blur a difference. A detail without any step records none
//!   (`None`, never 0).
//! - Duration: the sum of every step's `duration_ms` (setup and scoring included: the time
//!   the trial took to run), when every step records one; a step without a duration makes the
//!   trial's duration unknown rather than understated. The API gives no start and end time of
//!   a trial, so wall time (with queueing) is not known.

use std::collections::{BTreeMap, HashMap, HashSet};

use serde::{Deserialize, Serialize};

use crate::api::ChronicleTrialDetail;

use super::run::RunIdx;
use super::run_set::RunSet;

/// The step kinds counted as the agent's steps.
pub const COUNTED_STEP_KINDS: [&str; 2] = ["agent", "tool_call"];

/// One trial's steps and duration, from its detail.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct TrialEffort {
    /// `agent` and `tool_call` steps; `None` when the detail lists no step at all.
    pub steps: Option<u32>,
    /// Sum of the steps' `duration_ms`; `None` without steps or when one has no duration.
    pub duration_ms: Option<u64>,
}

impl TrialEffort {
    /// The effort a trial's detail records.
    pub fn from_detail(detail: &ChronicleTrialDetail) -> Self {
        if detail.steps.is_empty() {
            return Self::default();
        }
        let counted = detail
            .steps
            .iter()
            .filter(|step| COUNTED_STEP_KINDS.contains(&step.kind.as_str()))
            .count();
        let duration_ms = detail.steps.iter().try_fold(0u64, |sum, step| {
            Some(sum.saturating_add(step.duration_ms?))
        });
        Self {
            steps: Some(u32::try_from(counted).unwrap_or(u32::MAX)),
            duration_ms,
        }
    }
}

/// A trial to read: its job and its id.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TrialRef {
    /// The job.
    pub job_id: String,
    /// The trial.
    pub trial_id: String,
}

impl RunSet {
    /// The trials of the Chronicle runs among `runs` that enter the report (a value in the
    /// primary analysis): what reading trial details asks for, each once, in run order.
    pub fn trial_detail_targets(&self, runs: &[RunIdx]) -> Vec<TrialRef> {
        let mut seen = HashSet::new();
        let mut targets = Vec::new();
        for run in runs.iter().filter_map(|&index| self.run(index).ok()) {
            let Some(job) = run.info().chronicle.as_ref() else {
                continue;
            };
            for trajectory in run.trajectories() {
                if trajectory.scoring().primary.value().is_none() {
                    continue;
                }
                let target = TrialRef {
                    job_id: job.job_id.clone(),
                    trial_id: trajectory.id.to_owned(),
                };
                if seen.insert(target.clone()) {
                    targets.push(target);
                }
            }
        }
        targets
    }

    /// Attaches the trial efforts read to the Chronicle runs whose job and trials they are;
    /// returns how many trials got one.
    pub fn attach_trial_efforts(&mut self, efforts: &HashMap<TrialRef, TrialEffort>) -> usize {
        if efforts.is_empty() {
            return 0;
        }
        let mut attached = 0;
        for run in &mut self.runs {
            let ids: Vec<String> = (0..run.columns.len())
                .map(|row| run.columns.ids.get(row).to_owned())
                .collect();
            let Some(job) = run.info.chronicle.as_mut() else {
                continue;
            };
            let mut key = TrialRef {
                job_id: job.job_id.clone(),
                trial_id: String::new(),
            };
            let mut found = BTreeMap::new();
            for id in ids {
                key.trial_id = id;
                if let Some(effort) = efforts.get(&key) {
                    found.insert(key.trial_id.clone(), *effort);
                }
            }
            attached += found.len();
            job.trial_efforts.extend(found);
        }
        attached
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::{ChronicleTrial, TrialStep};

    fn step(kind: &str, duration_ms: Option<u64>) -> TrialStep {
        TrialStep {
            kind: kind.into(),
            name: None,
            status: None,
            duration_ms,
        }
    }

    fn detail(steps: Vec<TrialStep>) -> ChronicleTrialDetail {
        ChronicleTrialDetail {
            trial: ChronicleTrial {
                id: "t".into(),
                agent: "a@1".into(),
                task_id: None,
                status: None,
                error: None,
                scores: Vec::new(),
            },
            instruction: None,
            steps,
            artifacts: Vec::new(),
        }
    }

    #[test]
    fn counts_agent_and_tool_steps_and_sums_every_duration() {
        let effort = TrialEffort::from_detail(&detail(vec![
            step("setup", Some(4_000)),
            step("agent", Some(500)),
            step("tool_call", Some(200)),
            step("agent", Some(300)),
            step("scoring", Some(800)),
        ]));
        assert_eq!(effort.steps, Some(3));
        assert_eq!(effort.duration_ms, Some(5_800));
    }

    #[test]
    fn a_missing_duration_or_no_steps_is_unknown_not_zero() {
        let effort = TrialEffort::from_detail(&detail(vec![
            step("agent", Some(500)),
            step("tool_call", None),
        ]));
        assert_eq!(effort.steps, Some(2));
        assert_eq!(effort.duration_ms, None);
        assert_eq!(
            TrialEffort::from_detail(&detail(Vec::new())),
            TrialEffort::default()
        );
        let setup_only = TrialEffort::from_detail(&detail(vec![step("setup", Some(10))]));
        assert_eq!(setup_only.steps, Some(0));
        assert_eq!(setup_only.duration_ms, Some(10));
    }
}
