//! Effort beside quality: the turns each run takes and how its attempts end, paired per task
//! like the reward (`docs/statistics.md`, "Effort").
//!
//! - Turns: per task the mean step count (`num_steps`) of its counted trajectories (those the
//!   primary analysis includes) in each run; the paired Δ over the tasks both runs have turns
//!   on, with the t interval, the t-test, Wilcoxon (Pratt) and the seeded bootstrap (drawn
//!   with the reward's, [`super::BootstrapSlot::effort`]), and relative to the baseline's mean
//!   (Δ / baseline mean, its interval by the delta method). Turns on tasks both runs solved
//!   and on tasks both failed, apart. A trajectory without a step count is left out and
//!   counted (null is not zero), as is a negative one.
//! - Endings: each run's share of attempts (trajectories that ended) by ending, and the paired
//!   change of the per-task proportions, the turn limit (`MAX_STEPS`) and the timeouts
//!   (`TIMEOUT`, `SANDBOX_TIMEOUT`) singled out.
//! - Tokens, once read from the transcripts: `effort_tokens.rs`.
//! - Per task and run: the mean turns, the attempts, how many hit the turn limit or timed out,
//!   and the most frequent ending (the task table's columns).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::model::{Run, RunSet};
use crate::stats::{
    self, BootstrapResult, BootstrapRun, BootstrapSettings, Interval, NotComputable,
    PairedEstimate, Stat, TTest, Wilcoxon, WilcoxonMethod, ZeroMethod,
};

use super::effort_facts::{RunFacts, TaskFacts};
use super::settings::ReportSettings;

/// The ending of a trajectory the harness stopped at its turn or step limit.
pub const TURN_LIMIT_ENDINGS: [&str; 1] = ["MAX_STEPS"];

/// The endings of a trajectory stopped at a time limit (the harness's or the sandbox's).
pub const TIMEOUT_ENDINGS: [&str; 2] = ["TIMEOUT", "SANDBOX_TIMEOUT"];

/// The ending of a trajectory that recorded none (no termination reason and no status).
pub const NO_ENDING: &str = "none recorded";

/// A task is solved in a run when its primary score (the mean of its included samples) is at
/// least this: for one 0/1 sample, when it passed.
pub const SOLVED_SCORE: f64 = 0.5;

/// The effort of every compared run and of each candidate against the baseline.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EffortReport {
    /// One per compared run, in [`Report::runs`](super::Report::runs) order.
    pub runs: Vec<RunEffort>,
    /// One per candidate, in [`Report::candidates`](super::Report::candidates) order.
    pub candidates: Vec<CandidateEffort>,
    /// One per task row, in [`Report::tasks`](super::Report::tasks) order.
    pub tasks: Vec<TaskEffort>,
    /// Tokens, once some were read from the transcripts ([`super::tokens`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tokens: Option<super::TokensReport>,
}

/// One run's turns and endings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunEffort {
    /// Counted trajectories (included in the primary analysis).
    pub counted: u64,
    /// Counted trajectories with a step count.
    pub with_steps: u64,
    /// Counted trajectories without one (null or absent: not zero), left out of the turns.
    pub without_steps: u64,
    /// Counted trajectories with a negative step count, left out of the turns.
    pub invalid_steps: u64,
    /// Tasks with turns (a counted trajectory with a step count).
    pub tasks_with_turns: u64,
    /// Mean over those tasks of their mean turns (each task weighs the same).
    pub mean_turns: Option<f64>,
    /// The same over the tasks the run solved ([`SOLVED_SCORE`]).
    pub solved_mean_turns: Option<f64>,
    /// The same over the tasks the run failed.
    pub failed_mean_turns: Option<f64>,
    /// Attempts: trajectories that ended (all but the unfinished).
    pub attempts: u64,
    /// Attempts by ending, most frequent first (then by name).
    pub endings: Vec<EndingCount>,
    /// Share of attempts that hit the turn limit; `None` without attempts.
    pub turn_limit_share: Option<f64>,
    /// Share of attempts that timed out.
    pub timeout_share: Option<f64>,
}

/// Attempts of a run that ended one way.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EndingCount {
    /// The ending (termination reason, else status, else [`NO_ENDING`]).
    pub ending: String,
    /// Attempts.
    pub count: u64,
    /// Share of the run's attempts.
    pub share: f64,
}

/// A candidate's turns and endings against the baseline.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CandidateEffort {
    /// Index in [`Report::runs`](super::Report::runs).
    pub run: usize,
    /// The paired turns.
    pub turns: TurnsDelta,
    /// The paired change of the share of attempts hitting the turn limit.
    pub turn_limit: EndingDelta,
    /// The paired change of the share of attempts timing out.
    pub timeout: EndingDelta,
    /// The paired change of each ending's share (every ending either run has).
    pub endings: Vec<EndingDelta>,
}

/// The paired Δ of mean turns per task, candidate − baseline.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TurnsDelta {
    /// Tasks with turns in both runs.
    pub n: usize,
    /// Tasks both runs scored (primary) left out for lacking turns in one run or both.
    pub tasks_without_turns: usize,
    /// Δ turns with its t interval, each run's mean over the paired tasks.
    pub estimate: Stat<PairedEstimate>,
    /// Paired t-test.
    pub t_test: Stat<TTest>,
    /// Wilcoxon signed-rank, zeros by Pratt.
    pub wilcoxon_pratt: Stat<Wilcoxon>,
    /// Seeded bootstrap over tasks (absent when B = 0, or until drawn).
    pub bootstrap: Option<Stat<BootstrapResult>>,
    /// Δ relative to the baseline's mean turns.
    pub relative: Stat<RelativeChange>,
    /// Tasks both runs solved, among the paired ones.
    pub solved_tasks: usize,
    /// Δ turns on them.
    pub solved: Stat<PairedEstimate>,
    /// Tasks both runs failed, among the paired ones.
    pub failed_tasks: usize,
    /// Δ turns on them.
    pub failed: Stat<PairedEstimate>,
}

/// A relative change, Δ / baseline mean, with its delta-method interval.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RelativeChange {
    /// Δ / baseline mean (0.18: 18% more).
    pub ratio: f64,
    /// Its standard error by the delta method.
    pub se: f64,
    /// ratio ± z · se.
    pub interval: Interval,
}

/// The paired change of the per-task share of attempts ending one way.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EndingDelta {
    /// The ending (or `turn limit`, `timeout` for the endings singled out).
    pub ending: String,
    /// The baseline's share of all its attempts; `None` without attempts.
    pub baseline_share: Option<f64>,
    /// The candidate's share of all its attempts.
    pub candidate_share: Option<f64>,
    /// Paired Δ of the per-task shares over the tasks both runs attempted.
    pub estimate: Stat<PairedEstimate>,
}

/// One task's effort in every compared run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TaskEffort {
    /// One per run, in [`Report::runs`](super::Report::runs) order.
    pub cells: Vec<TaskEffortCell>,
}

/// One run's effort on one task.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TaskEffortCell {
    /// Mean turns of the counted trajectories with a step count.
    pub turns: Option<f64>,
    /// Attempts (trajectories that ended).
    pub attempts: u32,
    /// Attempts that hit the turn limit.
    pub turn_limit: u32,
    /// Attempts that timed out.
    pub timeout: u32,
    /// The most frequent ending of its attempts (the first by name on a tie).
    pub ending: Option<String>,
}

/// The mean of `values`, when there is one.
fn mean_of(values: impl Iterator<Item = f64>) -> Option<f64> {
    let (sum, n) = values.fold((0.0, 0u64), |(sum, n), value| (sum + value, n + 1));
    (n > 0).then(|| sum / n as f64)
}

fn run_effort(run: &RunFacts<'_>) -> RunEffort {
    let present = || run.tasks.iter().flatten();
    let total = |part: fn(&TaskFacts) -> u32| present().map(|t| u64::from(part(t))).sum();
    let attempts: u64 = total(|t| t.attempts);
    let endings: BTreeMap<&str, u64> = run.totals().into_iter().collect();
    let share = |count: u64| (attempts > 0).then(|| count as f64 / attempts as f64);
    let named = |names: &[&str]| names.iter().filter_map(|n| endings.get(n)).sum::<u64>();
    let mut counts: Vec<EndingCount> = endings
        .iter()
        .map(|(name, &count)| EndingCount {
            ending: (*name).to_owned(),
            count,
            share: share(count).unwrap_or(0.0),
        })
        .collect();
    counts.sort_by(|a, b| b.count.cmp(&a.count).then(a.ending.cmp(&b.ending)));
    let turns_where = |keep: fn(Option<bool>) -> bool| {
        mean_of(
            present()
                .filter(|t| keep(t.solved()))
                .filter_map(TaskFacts::turns),
        )
    };
    RunEffort {
        counted: total(|t| t.counted),
        with_steps: total(|t| t.with_steps),
        without_steps: total(|t| t.without_steps),
        invalid_steps: total(|t| t.invalid_steps),
        tasks_with_turns: present().filter(|t| t.turns().is_some()).count() as u64,
        mean_turns: turns_where(|_| true),
        solved_mean_turns: turns_where(|solved| solved == Some(true)),
        failed_mean_turns: turns_where(|solved| solved == Some(false)),
        attempts,
        turn_limit_share: share(named(&TURN_LIMIT_ENDINGS)),
        timeout_share: share(named(&TIMEOUT_ENDINGS)),
        endings: counts,
    }
}

/// Per-task turns of both runs over the tasks both have turns on, and the tasks both scored
/// without turns on a side.
struct PairedTurns {
    base: Vec<f64>,
    cand: Vec<f64>,
    solved: (Vec<f64>, Vec<f64>),
    failed: (Vec<f64>, Vec<f64>),
    without_turns: usize,
}

fn paired_turns(base: &[Option<TaskFacts>], cand: &[Option<TaskFacts>]) -> PairedTurns {
    let mut paired = PairedTurns {
        base: Vec::new(),
        cand: Vec::new(),
        solved: (Vec::new(), Vec::new()),
        failed: (Vec::new(), Vec::new()),
        without_turns: 0,
    };
    for (b, c) in base.iter().zip(cand) {
        let (Some(b), Some(c)) = (b, c) else {
            continue;
        };
        match (b.turns(), c.turns()) {
            (Some(bt), Some(ct)) => {
                paired.base.push(bt);
                paired.cand.push(ct);
                let side = match (b.solved(), c.solved()) {
                    (Some(true), Some(true)) => Some(&mut paired.solved),
                    (Some(false), Some(false)) => Some(&mut paired.failed),
                    _ => None,
                };
                if let Some((sb, sc)) = side {
                    sb.push(bt);
                    sc.push(ct);
                }
            }
            _ if b.counted > 0 && c.counted > 0 => paired.without_turns += 1,
            _ => {}
        }
    }
    paired
}

/// Δ / baseline mean with its delta-method interval at `level`, from per-task values of both
/// runs over the same tasks: with d = c − b (rounded to 1e-9) and R = d̄ / b̄,
/// Var(R) ≈ (s_d² − 2R·s_db + R²·s_b²) / (n·b̄²), the interval R ± z·SE.
pub fn relative_change(baseline: &[f64], candidate: &[f64], level: f64) -> Stat<RelativeChange> {
    let deltas = stats::paired_deltas(baseline, candidate)?;
    let n = deltas.len();
    if n < 2 {
        return Err(NotComputable::NotEnoughData { needed: 2, got: n });
    }
    let count = n as f64;
    let d_mean = deltas.iter().sum::<f64>() / count;
    let b_mean = baseline.iter().sum::<f64>() / count;
    if b_mean <= 0.0 {
        return Err(NotComputable::invalid(
            "baseline mean",
            "must be positive for a relative change",
        ));
    }
    let (mut dd, mut db, mut bb) = (0.0, 0.0, 0.0);
    for (&d, &b) in deltas.iter().zip(baseline) {
        let (ed, eb) = (d - d_mean, b - b_mean);
        dd += ed * ed;
        db += ed * eb;
        bb += eb * eb;
    }
    let ratio = d_mean / b_mean;
    let variance = (dd - 2.0 * ratio * db + ratio * ratio * bb) / (count - 1.0);
    let se = (variance.max(0.0) / count).sqrt() / b_mean;
    if se == 0.0 {
        return Err(NotComputable::ZeroVariance);
    }
    let z = stats::dist::normal::quantile(0.5 + 0.5 * level)?;
    Ok(RelativeChange {
        ratio,
        se,
        interval: Interval::around(ratio, z * se, level),
    })
}

fn turns_delta(paired: &PairedTurns, level: f64) -> TurnsDelta {
    let deltas = stats::paired_deltas(&paired.base, &paired.cand);
    TurnsDelta {
        n: paired.base.len(),
        tasks_without_turns: paired.without_turns,
        estimate: stats::paired_estimate(&paired.base, &paired.cand, level),
        t_test: deltas.clone().and_then(|d| stats::paired_t_test(&d)),
        wilcoxon_pratt: deltas
            .and_then(|d| stats::wilcoxon_signed_rank(&d, ZeroMethod::Pratt, WilcoxonMethod::Auto)),
        bootstrap: None,
        relative: relative_change(&paired.base, &paired.cand, level),
        solved_tasks: paired.solved.0.len(),
        solved: stats::paired_estimate(&paired.solved.0, &paired.solved.1, level),
        failed_tasks: paired.failed.0.len(),
        failed: stats::paired_estimate(&paired.failed.0, &paired.failed.1, level),
    }
}

/// The paired change of the per-task share of attempts ending in one of `names`.
fn ending_delta(
    label: &str,
    names: &[&str],
    runs: (&RunEffort, &RunEffort),
    facts: (&RunFacts<'_>, &RunFacts<'_>),
    level: f64,
) -> EndingDelta {
    let share_of = |run: &RunEffort| {
        (run.attempts > 0).then(|| {
            let count: u64 = run
                .endings
                .iter()
                .filter(|e| names.contains(&e.ending.as_str()))
                .map(|e| e.count)
                .sum();
            count as f64 / run.attempts as f64
        })
    };
    let indices = (facts.0.indices_of(names), facts.1.indices_of(names));
    let (mut base, mut cand) = (Vec::new(), Vec::new());
    for (b, c) in facts.0.tasks.iter().zip(&facts.1.tasks) {
        let (Some(b), Some(c)) = (b, c) else {
            continue;
        };
        if b.attempts > 0 && c.attempts > 0 {
            base.push(f64::from(facts.0.count_of(b, &indices.0)) / f64::from(b.attempts));
            cand.push(f64::from(facts.1.count_of(c, &indices.1)) / f64::from(c.attempts));
        }
    }
    EndingDelta {
        ending: label.to_owned(),
        baseline_share: share_of(runs.0),
        candidate_share: share_of(runs.1),
        estimate: stats::paired_estimate(&base, &cand, level),
    }
}

/// The effort of `runs` (the baseline first), each candidate's against the baseline, and the
/// task rows' cells (tasks any of them has a trajectory on, in task order), with the turn
/// bootstraps of the candidates, then their tokens', still to draw (none when B = 0); `facts`
/// are each run's ([`RunFacts::of`]), in the same order.
pub(super) fn effort(
    set: &RunSet,
    runs: &[&Run],
    facts: &[RunFacts<'_>],
    settings: &ReportSettings,
) -> (EffortReport, Vec<super::PendingBootstrap>) {
    let run_efforts: Vec<RunEffort> = facts.iter().map(run_effort).collect();
    let mut candidates = Vec::new();
    let mut bootstraps = Vec::new();
    let (Some(base_facts), Some(base_run)) = (facts.first(), run_efforts.first()) else {
        return (
            EffortReport {
                runs: run_efforts,
                candidates,
                tasks: Vec::new(),
                tokens: None,
            },
            Vec::new(),
        );
    };
    for (index, (cand_facts, cand_run)) in facts.iter().zip(&run_efforts).enumerate().skip(1) {
        let paired = paired_turns(&base_facts.tasks, &cand_facts.tasks);
        if settings.resamples > 0 {
            let bootstrap = BootstrapSettings {
                resamples: settings.resamples,
                seed: settings.seed,
                level: settings.level,
            };
            bootstraps.push(
                stats::paired_deltas(&paired.base, &paired.cand)
                    .and_then(|deltas| BootstrapRun::per_task(&deltas, &bootstrap)),
            );
        }
        let pair = (base_run, cand_run);
        let tasks = (base_facts, cand_facts);
        let level = settings.level;
        let mut names: Vec<&str> = base_run
            .endings
            .iter()
            .chain(&cand_run.endings)
            .map(|e| e.ending.as_str())
            .collect();
        names.sort_unstable();
        names.dedup();
        candidates.push(CandidateEffort {
            run: index,
            turns: turns_delta(&paired, level),
            turn_limit: ending_delta("turn limit", &TURN_LIMIT_ENDINGS, pair, tasks, level),
            timeout: ending_delta("timeout", &TIMEOUT_ENDINGS, pair, tasks, level),
            endings: names
                .iter()
                .map(|name| ending_delta(name, &[name], pair, tasks, level))
                .collect(),
        });
    }
    let rows = (0..set.tasks().len())
        .filter(|&task| facts.iter().any(|run| run.task(task).is_some()))
        .map(|task| TaskEffort {
            cells: facts
                .iter()
                .map(|run| run.task(task).map_or_else(empty_cell, |t| run.cell(t)))
                .collect(),
        })
        .collect();
    let (tokens, token_bootstraps) = super::tokens(set, runs, settings).unzip();
    let report = EffortReport {
        runs: run_efforts,
        candidates,
        tasks: rows,
        tokens,
    };
    let mut pending = super::bootstrap_slots::pending_effort(bootstraps, false);
    pending.extend(super::bootstrap_slots::pending_effort(
        token_bootstraps.unwrap_or_default(),
        true,
    ));
    (report, pending)
}

fn empty_cell() -> TaskEffortCell {
    TaskEffortCell {
        turns: None,
        attempts: 0,
        turn_limit: 0,
        timeout: 0,
        ending: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_change_is_delta_over_the_baseline_mean() {
        let base = [10.0, 20.0, 30.0, 40.0];
        let cand = [12.0, 22.0, 36.0, 46.0];
        let change = relative_change(&base, &cand, 0.95).unwrap();
        assert!((change.ratio - 4.0 / 25.0).abs() < 1e-12);
        assert!(change.interval.lower < change.ratio && change.ratio < change.interval.upper);
        // Every task up by the same share: no spread of the ratio around it.
        let scaled: Vec<f64> = base.iter().map(|b| b * 1.5).collect();
        assert_eq!(
            relative_change(&base, &scaled, 0.95),
            Err(NotComputable::ZeroVariance)
        );
        assert!(relative_change(&[0.0, 0.0], &[1.0, 2.0], 0.95).is_err());
        assert!(matches!(
            relative_change(&[1.0], &[2.0], 0.95),
            Err(NotComputable::NotEnoughData { .. })
        ));
    }
}
