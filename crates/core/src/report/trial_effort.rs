//! Chronicle trials' steps and durations beside quality, paired per task like the turns
//! (`docs/statistics.md`, "Effort"): present once trial details were read for a compared
//! Chronicle run ([`crate::model::TrialEffort`]: steps = `agent` + `tool_call` steps,
//! duration = the sum of the steps' `duration_ms`).
//!
//! Per task and run the mean steps and the mean duration (seconds) of its counted trials (a
//! value in the primary analysis) whose detail records them; the paired Δ over the tasks both
//! runs have a value on, with the t interval, the t-test, Wilcoxon (Pratt), the seeded
//! bootstrap (drawn here: a job holds at most 200 trials per agent) and the relative change
//! by the delta method ([`super::relative_change`]), and apart on tasks both runs solved and
//! both failed. A trial whose detail was not read, or records no steps or no duration, is left
//! out and counted: never taken as 0.

use serde::{Deserialize, Serialize};

use crate::model::{Run, RunSet, TaskIdx, TrialEffort};
use crate::stats::{self, BootstrapSettings, WilcoxonMethod, ZeroMethod};

use super::effort::{relative_change, TurnsDelta, SOLVED_SCORE};
use super::settings::ReportSettings;

/// Steps and durations of every compared run and of each candidate against the baseline.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TrialEffortReport {
    /// One per compared run, in [`Report::runs`](super::Report::runs) order.
    pub runs: Vec<RunTrialEffort>,
    /// One per candidate, in [`Report::candidates`](super::Report::candidates) order.
    pub candidates: Vec<CandidateTrialEffort>,
}

/// One run's steps and durations.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunTrialEffort {
    /// Counted trials (a value in the primary analysis).
    pub counted: u64,
    /// Of those, whose detail was read.
    pub read: u64,
    /// Read trials whose detail lists no step.
    pub without_steps: u64,
    /// Read trials with a step without a duration (or no step).
    pub without_duration: u64,
    /// Tasks with steps (a counted trial whose detail records them).
    pub tasks_with_steps: u64,
    /// Mean over those tasks of their mean steps (each task weighs the same).
    pub mean_steps: Option<f64>,
    /// Mean over tasks of their mean trial duration, in seconds.
    pub mean_duration_s: Option<f64>,
}

/// A candidate's steps and durations against the baseline.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CandidateTrialEffort {
    /// Index in [`Report::runs`](super::Report::runs).
    pub run: usize,
    /// The paired Δ of mean steps per task (the turns' shape: `tasks_without_turns` counts the
    /// tasks without steps in a run).
    pub steps: TurnsDelta,
    /// The paired Δ of mean duration per task, in seconds.
    pub duration: TurnsDelta,
}

/// One run's values on one task.
#[derive(Debug, Clone, Default)]
struct TaskValues {
    counted: u32,
    read: u32,
    steps: Vec<f64>,
    durations: Vec<f64>,
    solved: Option<bool>,
}

fn mean(values: &[f64]) -> Option<f64> {
    (!values.is_empty()).then(|| values.iter().sum::<f64>() / values.len() as f64)
}

/// Each task's values of `run` (`None`: no counted trial there), by task index.
fn task_values(set: &RunSet, run: &Run) -> Vec<Option<TaskValues>> {
    let efforts = run.info().chronicle.as_ref().map(|job| &job.trial_efforts);
    (0..set.tasks().len())
        .map(|index| {
            let task = index as TaskIdx;
            let stats = run.stats_of(task)?;
            let mut values = TaskValues {
                solved: stats.primary.mean().map(|score| score >= SOLVED_SCORE),
                ..TaskValues::default()
            };
            for trial in run.trajectories_of_task(task) {
                if trial.scoring().primary.value().is_none() {
                    continue;
                }
                values.counted += 1;
                let Some(effort) = efforts.and_then(|map| map.get(trial.id)) else {
                    continue;
                };
                values.read += 1;
                let TrialEffort { steps, duration_ms } = *effort;
                values.steps.extend(steps.map(f64::from));
                values
                    .durations
                    .extend(duration_ms.map(|ms| ms as f64 / 1000.0));
            }
            (values.counted > 0).then_some(values)
        })
        .collect()
}

fn run_trial_effort(tasks: &[Option<TaskValues>]) -> RunTrialEffort {
    let present = || tasks.iter().flatten();
    let sum = |part: fn(&TaskValues) -> u64| present().map(part).sum();
    let means = |part: fn(&TaskValues) -> &[f64]| -> Vec<f64> {
        present().filter_map(|t| mean(part(t))).collect()
    };
    let step_means = means(|t| &t.steps);
    RunTrialEffort {
        counted: sum(|t| u64::from(t.counted)),
        read: sum(|t| u64::from(t.read)),
        without_steps: sum(|t| u64::from(t.read) - t.steps.len() as u64),
        without_duration: sum(|t| u64::from(t.read) - t.durations.len() as u64),
        tasks_with_steps: step_means.len() as u64,
        mean_steps: mean(&step_means),
        mean_duration_s: mean(&means(|t| &t.durations)),
    }
}

/// The paired Δ of one measure (`part`: a task's values) between two runs' tasks.
fn measure_delta(
    base: &[Option<TaskValues>],
    cand: &[Option<TaskValues>],
    part: fn(&TaskValues) -> &[f64],
    settings: &ReportSettings,
) -> TurnsDelta {
    let level = settings.level;
    let (mut b_all, mut c_all) = (Vec::new(), Vec::new());
    let (mut solved, mut failed) = ((Vec::new(), Vec::new()), (Vec::new(), Vec::new()));
    let mut without = 0;
    for (b, c) in base.iter().zip(cand) {
        let (Some(b), Some(c)) = (b, c) else {
            continue;
        };
        let (Some(bv), Some(cv)) = (mean(part(b)), mean(part(c))) else {
            without += 1;
            continue;
        };
        b_all.push(bv);
        c_all.push(cv);
        let side = match (b.solved, c.solved) {
            (Some(true), Some(true)) => Some(&mut solved),
            (Some(false), Some(false)) => Some(&mut failed),
            _ => None,
        };
        if let Some((sb, sc)) = side {
            sb.push(bv);
            sc.push(cv);
        }
    }
    let deltas = stats::paired_deltas(&b_all, &c_all);
    let bootstrap = (settings.resamples > 0).then(|| {
        let draw = BootstrapSettings {
            resamples: settings.resamples,
            seed: settings.seed,
            level,
        };
        deltas
            .clone()
            .and_then(|d| stats::paired_bootstrap(&d, &draw))
    });
    TurnsDelta {
        n: b_all.len(),
        tasks_without_turns: without,
        estimate: stats::paired_estimate(&b_all, &c_all, level),
        t_test: deltas.clone().and_then(|d| stats::paired_t_test(&d)),
        wilcoxon_pratt: deltas
            .and_then(|d| stats::wilcoxon_signed_rank(&d, ZeroMethod::Pratt, WilcoxonMethod::Auto)),
        bootstrap,
        relative: relative_change(&b_all, &c_all, level),
        solved_tasks: solved.0.len(),
        solved: stats::paired_estimate(&solved.0, &solved.1, level),
        failed_tasks: failed.0.len(),
        failed: stats::paired_estimate(&failed.0, &failed.1, level),
    }
}

/// The trials' steps and durations of `runs` (the baseline first) and each candidate's Δ;
/// `None` when no compared run has a trial detail read.
pub fn trial_effort_section(
    set: &RunSet,
    runs: &[&Run],
    settings: &ReportSettings,
) -> Option<TrialEffortReport> {
    let any_read = runs.iter().any(|run| {
        run.info()
            .chronicle
            .as_ref()
            .is_some_and(|job| !job.trial_efforts.is_empty())
    });
    if !any_read {
        return None;
    }
    let values: Vec<Vec<Option<TaskValues>>> =
        runs.iter().map(|run| task_values(set, run)).collect();
    let base = values.first()?;
    let candidates = values
        .iter()
        .enumerate()
        .skip(1)
        .map(|(run, cand)| CandidateTrialEffort {
            run,
            steps: measure_delta(base, cand, |t| &t.steps, settings),
            duration: measure_delta(base, cand, |t| &t.durations, settings),
        })
        .collect();
    Some(TrialEffortReport {
        runs: values.iter().map(|tasks| run_trial_effort(tasks)).collect(),
        candidates,
    })
}
