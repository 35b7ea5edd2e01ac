//! One trial of a job: an agent version on a suite task, provided by one attempt of the agent's
//! evaluation run (agent version = run, trial = trajectory, scorer = reward component).

use crate::dataset::catalog::{ComponentSpec, AGENT_NAME};
use crate::dataset::live::{AttemptState, Progress};
use crate::dataset::outcome::{scaled, Ending, Grade};
use crate::dataset::runs::{Attempt, EvalRun};
use crate::dataset::tasks::Task;
use crate::dataset::transcript;
use crate::demo::render::recorded_steps;

use super::plans::{ExtraScorer, JobPlan};
use super::wire::{ChronicleScore, ChronicleTrial, ChronicleTrialDetail, TrialArtifact, TrialStep};

/// `name@version` of an agent version.
pub fn agent_ref(version: &str) -> String {
    format!("{AGENT_NAME}@{version}")
}

/// Why a trial has no attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotStarted {
    /// The job waits for a runtime.
    Queued,
    /// The job was cancelled before the trial started.
    Cancelled,
    /// The agent's run failed before the trial started.
    RunFailed,
}

/// One trial slot: an agent version on a suite task, with the attempt providing it.
#[derive(Debug, Clone, Copy)]
pub struct Slot<'a> {
    /// The job.
    pub job: &'a JobPlan,
    /// Position of the agent in the job.
    pub agent_index: usize,
    /// Agent version.
    pub version: &'static str,
    /// The run.
    pub run: &'a EvalRun,
    /// The task.
    pub task: &'a Task,
    /// The attempt, or why there is none.
    pub attempt: Result<&'a Attempt, NotStarted>,
    /// Where the run stands.
    pub progress: Progress,
}

/// The size of the patch an attempt submits.
fn patch_bytes(attempt: &Attempt) -> u64 {
    200 + attempt.transcript_seed % 1_800
}

/// A score and whether it passed (a scorer without a threshold passes whenever it scored).
fn score(name: &str, value: Option<f64>, threshold: Option<f64>) -> ChronicleScore {
    let passed = match (value, threshold) {
        (Some(s), Some(t)) => s >= t,
        (Some(_), None) => true,
        (None, _) => false,
    };
    ChronicleScore {
        name: name.into(),
        score: value,
        threshold,
        passed: Some(passed),
    }
}

impl Slot<'_> {
    /// The trial id: `trial_<run tag>_<task id>`, with `_<sample>` after a later sample's.
    pub fn trial_id(&self) -> String {
        let base = format!("trial_{}_{}", self.run.plan.tag, self.task.task_id);
        match self.job.sample {
            0 => base,
            sample => format!("{base}_{sample}"),
        }
    }

    /// The agent reference.
    pub fn agent(&self) -> String {
        agent_ref(self.version)
    }

    /// The attempt's state; none when it never started.
    fn state(&self) -> Option<AttemptState> {
        self.attempt.ok().map(|a| a.state(self.progress))
    }

    /// The trial status.
    pub fn status(&self) -> &'static str {
        match (self.attempt, self.state()) {
            (Err(NotStarted::Queued), _) => "queued",
            (Err(_), _) => "cancelled",
            (_, Some(AttemptState::Waiting)) => "queued",
            (_, Some(AttemptState::Running { .. } | AttemptState::AwaitingResult)) => "running",
            (Ok(a), _) if a.outcome.ending == Ending::Cancelled => "cancelled",
            (Ok(a), _) if a.outcome.ending.is_execution_failure() => "failed",
            _ => "succeeded",
        }
    }

    /// Whether the trial has finished.
    pub fn is_finished(&self) -> bool {
        !matches!(self.status(), "queued" | "running")
    }

    /// The grade, once the trial has finished with one.
    fn grade(&self) -> Option<Grade> {
        self.attempt
            .ok()
            .filter(|_| self.state() == Some(AttemptState::Finished))
            .and_then(|a| a.outcome.grade)
    }

    /// One score per scorer: the suite version's, then the job's extra ones.
    pub fn scores(&self) -> Vec<ChronicleScore> {
        let grade = self.grade();
        let values = grade.map(|g| g.components());
        let component = |spec: &ComponentSpec| {
            values
                .and_then(|v| v.iter().find(|(c, _)| c.name == spec.name).copied())
                .map(|(c, raw)| scaled(&c, raw))
        };
        let mut scores: Vec<ChronicleScore> = self
            .job
            .suite
            .scorers
            .iter()
            .map(|spec| score(spec.name, component(spec), spec.threshold))
            .collect();
        for extra in self.job.extra_scorers {
            let value = match extra {
                ExtraScorer::DiffLines => grade.zip(self.attempt.ok()).map(|(g, a)| {
                    if g.patch_applies {
                        (patch_bytes(a) / 40) as f64
                    } else {
                        0.0
                    }
                }),
            };
            scores.push(score(extra.id(), value, None));
        }
        scores
    }

    /// What went wrong, for a trial that failed or that its failed run never started.
    fn error(&self) -> Option<String> {
        match (self.status(), self.attempt) {
            ("failed", Ok(a)) => a.outcome.failure.as_deref().map(|f| f.message.clone()),
            (_, Err(NotStarted::RunFailed)) => {
                Some("The job failed before this trial started.".into())
            }
            _ => None,
        }
    }

    /// The trial as listed.
    pub fn trial(&self) -> ChronicleTrial {
        ChronicleTrial {
            id: self.trial_id(),
            agent: self.agent(),
            task_id: Some(self.task.task_id.clone()),
            status: Some(self.status().into()),
            error: self.error().map(serde_json::Value::String),
            scores: self.scores(),
        }
    }

    /// The trial with its instruction, steps and artifacts.
    pub fn detail(&self) -> ChronicleTrialDetail {
        let trial = self.trial();
        let mut steps = Vec::new();
        let mut artifacts = Vec::new();
        if let Some(attempt) = self.attempt.ok().filter(|a| a.is_visible(self.progress)) {
            let finished = self.state() == Some(AttemptState::Finished);
            steps = self.steps(attempt, finished);
            if let (true, Some(grade)) = (finished, attempt.outcome.grade) {
                steps.extend(trial.scores.iter().map(|score| TrialStep {
                    kind: "scoring".into(),
                    name: Some(score.name.clone()),
                    status: Some("succeeded".into()),
                    duration_ms: Some(800),
                }));
                if grade.patch_applies {
                    artifacts.push(TrialArtifact {
                        name: "patch.diff".into(),
                        media_type: Some("text/x-diff".into()),
                        size_bytes: Some(patch_bytes(attempt)),
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

    /// The setup step, then each recorded model turn and its tool call.
    fn steps(&self, attempt: &Attempt, finished: bool) -> Vec<TrialStep> {
        let status = |failed: bool| if failed { "failed" } else { "succeeded" };
        let mut steps = vec![TrialStep {
            kind: "setup".into(),
            name: Some("Start sandbox rt_codefix_py312".into()),
            status: Some("succeeded".into()),
            duration_ms: Some(4_000 + attempt.transcript_seed % 3_000),
        }];
        let source = attempt.transcript(self.run, self.task, finished);
        for turn in transcript::turns(&source, recorded_steps(attempt, self.progress)) {
            let index = turn.index;
            let reply = turn.reply();
            let tokens = reply.and_then(|m| m.completion_tokens).unwrap_or(0) as u64;
            steps.push(TrialStep {
                kind: "agent".into(),
                name: Some(format!("Model turn {}", index + 1)),
                status: Some(status(turn.has_error).into()),
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
        steps
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
