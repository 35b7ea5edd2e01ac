//! The Chronicle view of the dataset: a task suite of 50 codefix v2 test tasks, and jobs
//! whose trials are the first sample of each suite task in the matching evaluation run
//! (agent version = run, trial = trajectory, scorer = reward component).

use crate::dataset::catalog::{AGENT_NAME, BENCH_V2, COMPONENTS};
use crate::dataset::live::{AttemptState, Progress};
use crate::dataset::outcome::{scaled, Ending};
use crate::dataset::runs::{Attempt, EvalRun};
use crate::dataset::tasks::Task;
use crate::dataset::time::Timestamp;
use crate::dataset::transcript::{self, TranscriptSource};
use crate::dataset::Dataset;
use crate::demo::render::recorded_steps;

use super::wire::{
    ChronicleJob, ChronicleScore, ChronicleTrial, ChronicleTrialDetail, JobMode, JobStatus,
    SuiteEvalRun, TaskResult, TrialArtifact, TrialStep,
};

/// The task suite every job runs.
pub const SUITE_ID: &str = "suite_codefix_smoke";
/// Tasks in the suite: every `SUITE_STRIDE`-th test task of codefix v2.
const SUITE_STRIDE: usize = 8;

/// A job: which evaluation runs provide its agents' trials.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct JobPlan {
    /// Job id.
    pub id: &'static str,
    /// Display name.
    pub name: &'static str,
    /// `suite` or `compare`.
    pub mode: &'static str,
    /// `(eval run id, agent version)` per agent; in `compare` mode the first is the baseline.
    pub agents: &'static [(&'static str, &'static str)],
}

/// Every job, oldest first.
pub const JOBS: [JobPlan; 9] = [
    JobPlan {
        id: "job_base",
        name: "codefix smoke: baseline",
        mode: "suite",
        agents: &[("eval_base_v2", "base")],
    },
    JobPlan {
        id: "job_base_hot",
        name: "codefix smoke: baseline, temperature 1.0, 20 turns",
        mode: "suite",
        agents: &[("eval_base_v2_hot", "base-t1.0-20turns")],
    },
    JobPlan {
        id: "job_s100",
        name: "codefix smoke: step 100",
        mode: "suite",
        agents: &[("eval_ckpt_s100", "step-100")],
    },
    JobPlan {
        id: "job_s200_failed",
        name: "codefix smoke: step 200 (first attempt)",
        mode: "suite",
        agents: &[("eval_ckpt_s200_failed", "step-200")],
    },
    JobPlan {
        id: "job_s200",
        name: "codefix smoke: step 200",
        mode: "suite",
        agents: &[("eval_ckpt_s200", "step-200")],
    },
    JobPlan {
        id: "job_s300",
        name: "codefix smoke: step 300",
        mode: "suite",
        agents: &[("eval_ckpt_s300", "step-300")],
    },
    JobPlan {
        id: "job_s400",
        name: "codefix smoke: step 400",
        mode: "suite",
        agents: &[("eval_ckpt_s400", "step-400")],
    },
    JobPlan {
        id: "job_compare_base_s400",
        name: "codefix smoke: baseline vs step 400",
        mode: "compare",
        agents: &[("eval_base_v2", "base"), ("eval_ckpt_s400", "step-400")],
    },
    JobPlan {
        id: "job_s500",
        name: "codefix smoke: step 500",
        mode: "suite",
        agents: &[("eval_ckpt_s500", "step-500")],
    },
];

/// A job plan by id.
pub fn job_plan(job_id: &str) -> Option<&'static JobPlan> {
    JOBS.iter().find(|job| job.id == job_id)
}

/// `name@version` of an agent version.
fn agent_ref(version: &str) -> String {
    format!("{AGENT_NAME}@{version}")
}

/// The suite's tasks (indices into codefix v2).
pub fn suite_tasks(data: &Dataset) -> Vec<usize> {
    data.benchmark(BENCH_V2)
        .map(|bench| {
            bench
                .test_tasks()
                .map(|(i, _)| i)
                .step_by(SUITE_STRIDE)
                .collect()
        })
        .unwrap_or_default()
}

/// One trial slot: an agent version on a suite task, with the attempt providing it (none when
/// the run failed before starting it).
#[derive(Debug, Clone, Copy)]
pub struct Slot<'a> {
    /// Position of the agent in the job.
    pub agent_index: usize,
    /// Agent version.
    pub version: &'static str,
    /// The run.
    pub run: &'a EvalRun,
    /// The task.
    pub task: &'a Task,
    /// The attempt, if it started.
    pub attempt: Option<&'a Attempt>,
    /// Where the run stands.
    pub progress: Progress,
}

impl Slot<'_> {
    /// The trial id.
    pub fn trial_id(&self) -> String {
        format!("trial_{}_{}", self.run.plan.tag, self.task.task_id)
    }

    /// The attempt's state; an attempt a failed run never started counts as cancelled.
    fn state(&self) -> Option<AttemptState> {
        self.attempt.map(|a| a.state(self.progress))
    }

    /// The trial status.
    pub fn status(&self) -> &'static str {
        match (self.state(), self.attempt.map(|a| a.outcome.ending)) {
            (None, _) => "cancelled",
            (Some(AttemptState::Waiting), _) => "queued",
            (Some(AttemptState::Running { .. } | AttemptState::AwaitingResult), _) => "running",
            (Some(AttemptState::Finished), Some(Ending::Cancelled)) => "cancelled",
            (Some(AttemptState::Finished), Some(e)) if e.is_execution_failure() => "failed",
            (Some(AttemptState::Finished), _) => "succeeded",
        }
    }

    /// Whether the trial has finished.
    pub fn is_finished(&self) -> bool {
        !matches!(self.status(), "queued" | "running")
    }

    /// One score per scorer (reward component).
    pub fn scores(&self) -> Vec<ChronicleScore> {
        let grade = self
            .attempt
            .filter(|_| self.state() == Some(AttemptState::Finished))
            .and_then(|a| a.outcome.grade);
        let values = grade.map(|g| g.components());
        COMPONENTS
            .iter()
            .enumerate()
            .map(|(i, spec)| {
                let score = values.map(|v| scaled(spec, v[i].1));
                let passed = match (score, spec.threshold) {
                    (Some(s), Some(t)) => s >= t,
                    (Some(_), None) => true,
                    (None, _) => false,
                };
                ChronicleScore {
                    name: spec.name.into(),
                    score,
                    threshold: spec.threshold,
                    passed: Some(passed),
                }
            })
            .collect()
    }

    /// The trial as listed.
    pub fn trial(&self) -> ChronicleTrial {
        let error = match self.status() {
            "failed" => self
                .attempt
                .and_then(|a| a.outcome.failure.as_ref())
                .map(|f| f.message.clone()),
            "cancelled" if self.attempt.is_none() => {
                Some("The job failed before this trial started.".into())
            }
            _ => None,
        };
        ChronicleTrial {
            id: self.trial_id(),
            agent: agent_ref(self.version),
            task_id: Some(self.task.task_id.clone()),
            status: Some(self.status().into()),
            error: error.map(serde_json::Value::String),
            scores: self.scores(),
        }
    }

    /// The trial with its instruction, steps and artifacts.
    pub fn detail(&self) -> ChronicleTrialDetail {
        let trial = self.trial();
        let mut steps = Vec::new();
        let mut artifacts = Vec::new();
        if let Some(attempt) = self.attempt.filter(|a| a.is_visible(self.progress)) {
            let finished = self.state() == Some(AttemptState::Finished);
            let status = |failed: bool| if failed { "failed" } else { "succeeded" };
            steps.push(TrialStep {
                kind: "setup".into(),
                name: Some("Start sandbox rt_codefix_py312".into()),
                status: Some("succeeded".into()),
                duration_ms: Some(4_000 + attempt.transcript_seed % 3_000),
            });
            let source = TranscriptSource {
                task: self.task,
                outcome: &attempt.outcome,
                seed: attempt.transcript_seed,
                finished,
            };
            let recorded = recorded_steps(attempt, self.progress);
            for index in 0..recorded {
                let step = transcript::step(&source, index);
                let reply = step.messages.last();
                let tokens = reply.and_then(|m| m.completion_tokens).unwrap_or(0) as u64;
                steps.push(TrialStep {
                    kind: "agent".into(),
                    name: Some(format!("Model turn {}", index + 1)),
                    status: Some(status(step.has_error).into()),
                    duration_ms: Some(300 + 12 * tokens),
                });
                let tool = reply
                    .and_then(|m| m.tool_calls.as_deref())
                    .and_then(tool_name);
                if let Some(tool) = tool {
                    steps.push(TrialStep {
                        kind: "tool_call".into(),
                        name: Some(tool),
                        status: Some("succeeded".into()),
                        duration_ms: Some(150 + (attempt.transcript_seed >> (index % 32)) % 2_000),
                    });
                }
            }
            if let (true, Some(grade)) = (finished, attempt.outcome.grade) {
                for score in &trial.scores {
                    steps.push(TrialStep {
                        kind: "scoring".into(),
                        name: Some(score.name.clone()),
                        status: Some("succeeded".into()),
                        duration_ms: Some(800),
                    });
                }
                if grade.patch_applies {
                    artifacts.push(TrialArtifact {
                        name: "patch.diff".into(),
                        media_type: Some("text/x-diff".into()),
                        size_bytes: Some(200 + attempt.transcript_seed % 1_800),
                        url: None,
                    });
                }
            }
        }
        ChronicleTrialDetail {
            trial,
            instruction: Some(self.task.input_message.clone()),
            steps,
            artifacts,
        }
    }
}

/// The function name of the first tool call in a tool-calls JSON text.
fn tool_name(tool_calls: &str) -> Option<String> {
    let calls: serde_json::Value = serde_json::from_str(tool_calls).ok()?;
    calls
        .get(0)?
        .get("function")?
        .get("name")?
        .as_str()
        .map(str::to_owned)
}

/// Every trial slot of a job, by agent then task.
pub fn slots<'a>(data: &'a Dataset, job: &JobPlan, running: Progress) -> Vec<Slot<'a>> {
    let tasks = suite_tasks(data);
    let mut slots = Vec::new();
    for (agent_index, (run_id, version)) in job.agents.iter().enumerate() {
        let Some(run) = data.run(run_id) else {
            continue;
        };
        let bench = data.bench_of(run);
        let progress = run.progress(running);
        for &task_index in &tasks {
            let attempt = run
                .attempts
                .iter()
                .find(|a| a.task == task_index && a.sample == 0);
            slots.push(Slot {
                agent_index,
                version,
                run,
                task: &bench.tasks[task_index],
                attempt,
                progress,
            });
        }
    }
    slots
}

/// The creation time of a job: an hour after its latest run started.
pub fn created_at(data: &Dataset, job: &JobPlan) -> Timestamp {
    job.agents
        .iter()
        .filter_map(|(run_id, _)| data.run(run_id))
        .map(|run| run.plan.created_at)
        .max()
        .unwrap_or(Timestamp(0))
        .plus(3_600)
}

/// A job at `running`.
pub fn job(data: &Dataset, plan: &JobPlan, running: Progress) -> ChronicleJob {
    let slots = slots(data, plan, running);
    let completed = slots.iter().filter(|s| s.is_finished()).count() as u64;
    let failed_run = plan
        .agents
        .iter()
        .filter_map(|(id, _)| data.run(id))
        .any(|run| {
            run.snapshot(run.progress(running)).status == crate::dataset::live::RunStatus::Failed
        });
    let status = if failed_run {
        JobStatus::Failed
    } else if completed < slots.len() as u64 {
        JobStatus::Running
    } else {
        JobStatus::Succeeded
    };
    ChronicleJob {
        id: plan.id.into(),
        name: Some(plan.name.into()),
        status: Some(status),
        mode: Some(JobMode::from(plan.mode)),
        agents: plan
            .agents
            .iter()
            .map(|(_, version)| agent_ref(version))
            .collect(),
        completed_trials: Some(completed),
        total_trials: Some(slots.len() as u64),
        task_suite_id: Some(SUITE_ID.into()),
        task_suite_version: None,
        tasks: None,
        scorers: Vec::new(),
        environment_version_id: None,
        concurrency: None,
        created_at: Some(created_at(data, plan).to_string()),
        error: None,
    }
}

/// A job's pass/fail per task (tasks whose trials have all finished).
pub fn suite_eval_run(data: &Dataset, plan: &JobPlan, running: Progress) -> SuiteEvalRun {
    let slots = slots(data, plan, running);
    let mut results = Vec::new();
    for task_index in suite_tasks(data) {
        let Some(bench) = data.benchmark(BENCH_V2) else {
            break;
        };
        let task = &bench.tasks[task_index];
        let trials: Vec<&Slot<'_>> = slots
            .iter()
            .filter(|s| s.task.task_id == task.task_id)
            .collect();
        if trials.is_empty() || !trials.iter().all(|s| s.is_finished()) {
            continue;
        }
        let mut failed_scorers: Vec<String> = Vec::new();
        for slot in &trials {
            for score in slot.scores() {
                if score.threshold.is_some()
                    && score.passed != Some(true)
                    && !failed_scorers.contains(&score.name)
                {
                    failed_scorers.push(score.name);
                }
            }
        }
        results.push(TaskResult {
            task_id: task.task_id.clone(),
            title: Some(task.label.clone()),
            passed: Some(failed_scorers.is_empty()),
            failed_scorers,
        });
    }
    let passed = results.iter().filter(|r| r.passed == Some(true)).count();
    let job = job(data, plan, running);
    SuiteEvalRun {
        job_id: job.id,
        name: job.name,
        status: job.status,
        pass_rate: (!results.is_empty()).then(|| passed as f64 / results.len() as f64),
        task_results: results,
    }
}
