//! Tokens beside the turns, where the data has them: read on request from each counted
//! trajectory's transcript (`load::load_tokens`) and attached to the run set; never estimated.
//!
//! Per run: per task the mean prompt, completion and total tokens of its counted trajectories
//! (those the turns count) that have a count, then the mean over those tasks (each task weighs
//! the same). Per candidate: the paired Δ of the per-task mean total tokens over the tasks both
//! runs have tokens on, with the t interval, the t-test, Wilcoxon (Pratt), the seeded bootstrap
//! (left to draw as the turns' are: at once by `build_report`, in slices by the page; its slot
//! is [`super::BootstrapSlot::tokens`]) and the relative change
//! (Δ / the baseline's mean, the delta method, as the turns); prompt and completion apart. A
//! trajectory read without a count ("no count") or not read is left out and counted, never 0.
//! The section exists only once some tokens were read.

use serde::{Deserialize, Serialize};

use crate::model::{Run, RunSet, TaskIdx, TokenState};
use crate::stats::{
    self, BootstrapResult, BootstrapRun, BootstrapSettings, PairedEstimate, Stat, TTest, Wilcoxon,
    WilcoxonMethod, ZeroMethod,
};

use super::effort::{relative_change, RelativeChange};
use super::settings::ReportSettings;

/// Tokens of every compared run and of each candidate against the baseline.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TokensReport {
    /// One per compared run, in [`Report::runs`](super::Report::runs) order.
    pub runs: Vec<RunTokens>,
    /// One per candidate, in [`Report::candidates`](super::Report::candidates) order.
    pub candidates: Vec<CandidateTokens>,
}

/// One run's tokens.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunTokens {
    /// Counted trajectories (those the turns count).
    pub counted: u64,
    /// Of those, read with a count.
    pub with_count: u64,
    /// Read, but without a count on every model call ("no count", not 0).
    pub no_count: u64,
    /// Not read (yet, or the read failed, or no step count to read the last step by).
    pub not_read: u64,
    /// Tasks with tokens (a counted trajectory with a count).
    pub tasks_with_tokens: u64,
    /// Mean over those tasks of their mean prompt tokens.
    pub mean_prompt: Option<f64>,
    /// The same of completion tokens.
    pub mean_completion: Option<f64>,
    /// The same of prompt and completion tokens together.
    pub mean_total: Option<f64>,
}

/// A candidate's tokens against the baseline: the paired Δ of the per-task mean tokens.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CandidateTokens {
    /// Index in [`Report::runs`](super::Report::runs).
    pub run: usize,
    /// Tasks with tokens in both runs.
    pub n: usize,
    /// Tasks both runs have counted trajectories on left out for lacking tokens in one or both.
    pub tasks_without_tokens: usize,
    /// Δ total tokens with its t interval, each run's mean over the paired tasks.
    pub total: Stat<PairedEstimate>,
    /// Paired t-test of the total.
    pub t_test: Stat<TTest>,
    /// Wilcoxon signed-rank of the total, zeros by Pratt.
    pub wilcoxon_pratt: Stat<Wilcoxon>,
    /// Seeded bootstrap over tasks of the total (absent when B = 0, or until drawn).
    pub bootstrap: Option<Stat<BootstrapResult>>,
    /// Δ total relative to the baseline's mean total.
    pub relative: Stat<RelativeChange>,
    /// Δ prompt tokens.
    pub prompt: Stat<PairedEstimate>,
    /// Δ completion tokens.
    pub completion: Stat<PairedEstimate>,
}

/// A task's mean prompt and completion tokens in one run.
type Means = (f64, f64);

/// One run's tokens on one task.
#[derive(Debug, Clone, Copy, Default)]
struct TaskTokens {
    counted: u32,
    with_count: u32,
    no_count: u32,
    prompt_sum: f64,
    completion_sum: f64,
}

impl TaskTokens {
    /// Mean prompt and completion tokens, when a trajectory has a count.
    fn means(&self) -> Option<Means> {
        (self.with_count > 0).then(|| {
            let n = f64::from(self.with_count);
            (self.prompt_sum / n, self.completion_sum / n)
        })
    }
}

fn task_tokens(set: &RunSet, run: &Run) -> Vec<Option<TaskTokens>> {
    (0..set.tasks().len())
        .map(|index| {
            let task = index as TaskIdx;
            let stats = run.stats_of(task)?;
            if stats.samples() == 0 {
                return None;
            }
            let mut tokens = TaskTokens::default();
            for trajectory in run.trajectories_of_task(task) {
                if trajectory.scoring().primary.value().is_none() {
                    continue;
                }
                tokens.counted += 1;
                match set.token_state(trajectory.id) {
                    TokenState::Counted(count) => {
                        tokens.with_count += 1;
                        tokens.prompt_sum += count.prompt as f64;
                        tokens.completion_sum += count.completion as f64;
                    }
                    TokenState::NoCount => tokens.no_count += 1,
                    TokenState::NotRead => {}
                }
            }
            Some(tokens)
        })
        .collect()
}

fn mean_of(values: impl Iterator<Item = f64>) -> Option<f64> {
    let (sum, n) = values.fold((0.0, 0u64), |(sum, n), value| (sum + value, n + 1));
    (n > 0).then(|| sum / n as f64)
}

fn run_tokens(tasks: &[Option<TaskTokens>]) -> RunTokens {
    let present = || tasks.iter().flatten();
    let total = |part: fn(&TaskTokens) -> u32| present().map(|t| u64::from(part(t))).sum();
    let (counted, with_count, no_count) = (
        total(|t| t.counted),
        total(|t| t.with_count),
        total(|t| t.no_count),
    );
    let means = || present().filter_map(TaskTokens::means);
    RunTokens {
        counted,
        with_count,
        no_count,
        not_read: counted - with_count - no_count,
        tasks_with_tokens: means().count() as u64,
        mean_prompt: mean_of(means().map(|m| m.0)),
        mean_completion: mean_of(means().map(|m| m.1)),
        mean_total: mean_of(means().map(|m| m.0 + m.1)),
    }
}

/// A candidate's tokens, its bootstrap left out, and that bootstrap still to draw (`None` when
/// B = 0).
fn candidate_tokens(
    run: usize,
    base: &[Option<TaskTokens>],
    cand: &[Option<TaskTokens>],
    settings: &ReportSettings,
) -> (CandidateTokens, Option<Stat<BootstrapRun>>) {
    let mut pairs: Vec<(Means, Means)> = Vec::new();
    let mut without = 0;
    for (b, c) in base.iter().zip(cand) {
        let (Some(b), Some(c)) = (b, c) else {
            continue;
        };
        match (b.means(), c.means()) {
            (Some(bm), Some(cm)) => pairs.push((bm, cm)),
            _ if b.counted > 0 && c.counted > 0 => without += 1,
            _ => {}
        }
    }
    let side = |pick: fn(&(Means, Means)) -> (f64, f64)| -> (Vec<f64>, Vec<f64>) {
        pairs.iter().map(pick).unzip()
    };
    let (base_total, cand_total) = side(|(b, c)| (b.0 + b.1, c.0 + c.1));
    let (base_prompt, cand_prompt) = side(|(b, c)| (b.0, c.0));
    let (base_completion, cand_completion) = side(|(b, c)| (b.1, c.1));
    let level = settings.level;
    let deltas = stats::paired_deltas(&base_total, &cand_total);
    let bootstrap = (settings.resamples > 0).then(|| {
        let bootstrap = BootstrapSettings {
            resamples: settings.resamples,
            seed: settings.seed,
            level,
        };
        deltas
            .clone()
            .and_then(|d| BootstrapRun::per_task(&d, &bootstrap))
    });
    let tokens = CandidateTokens {
        run,
        n: pairs.len(),
        tasks_without_tokens: without,
        total: stats::paired_estimate(&base_total, &cand_total, level),
        t_test: deltas.clone().and_then(|d| stats::paired_t_test(&d)),
        wilcoxon_pratt: deltas
            .and_then(|d| stats::wilcoxon_signed_rank(&d, ZeroMethod::Pratt, WilcoxonMethod::Auto)),
        bootstrap: None,
        relative: relative_change(&base_total, &cand_total, level),
        prompt: stats::paired_estimate(&base_prompt, &cand_prompt, level),
        completion: stats::paired_estimate(&base_completion, &cand_completion, level),
    };
    (tokens, bootstrap)
}

/// The tokens of `runs` (the baseline first) and each candidate's against the baseline, with
/// the candidates' bootstraps still to draw (in candidate order; none when B = 0); `None` when
/// no trajectory's tokens were read.
pub fn tokens(
    set: &RunSet,
    runs: &[&Run],
    settings: &ReportSettings,
) -> Option<(TokensReport, Vec<Stat<BootstrapRun>>)> {
    if !set.has_token_reads() {
        return None;
    }
    let tasks: Vec<Vec<Option<TaskTokens>>> =
        runs.iter().map(|run| task_tokens(set, run)).collect();
    let base = tasks.first()?;
    let (candidates, bootstraps): (Vec<CandidateTokens>, Vec<Option<Stat<BootstrapRun>>>) = tasks
        .iter()
        .enumerate()
        .skip(1)
        .map(|(index, cand)| candidate_tokens(index, base, cand, settings))
        .unzip();
    let report = TokensReport {
        runs: tasks.iter().map(|t| run_tokens(t)).collect(),
        candidates,
    };
    Some((report, bootstraps.into_iter().flatten().collect()))
}
