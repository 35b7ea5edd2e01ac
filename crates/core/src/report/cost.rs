//! Money beside quality (`docs/statistics.md`, "Cost"): each compared run's cost as the
//! platform's billing splits it, per attempted task and per solved task, each candidate's Δ
//! against the baseline, and the quality–cost view across the candidates.
//!
//! Billing is per run, never per task, so nothing here is paired per task:
//! - per attempted task: the run's cents by kind over the tasks it attempted (a task with at
//!   least one trajectory), without an interval (the total is a count of what was spent, not
//!   a sample);
//! - per solved task: the total over the tasks it solved (primary score at least
//!   [`SOLVED_SCORE`]), with an interval from the solved count's binomial uncertainty: the
//!   Wilson score interval of the solve rate `s / n`, turned into `C / (n · rate)` (its ends
//!   swap); none when no task was solved;
//! - a candidate's Δ: per attempted and per solved task, absolute (cents) and relative to the
//!   baseline's, without an interval;
//! - the quality–cost view: Δ reward (the headline analysis, with its interval) against Δ cost
//!   per attempted task, the baseline at the origin, and which points no other beats on both
//!   (more reward for no more cost, or less cost for no less reward), on point estimates.
//!
//! A cost billing does not give is unavailable with its reason, never 0.

use serde::{Deserialize, Serialize};

use crate::model::{CostCents, CostUnavailable, Run, RunCost, RunSet, TaskIdx};
use crate::stats::{dist::normal, Interval, Stat};

use super::{headline_interval, Report, SOLVED_SCORE};

/// The cost of every compared run, each candidate's Δ and the quality–cost view.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CostReport {
    /// One per compared run, in [`Report::runs`] order.
    pub runs: Vec<RunCostSummary>,
    /// One per candidate, in [`Report::candidates`] order.
    pub candidates: Vec<CandidateCost>,
    /// The quality–cost view: the baseline first, then the candidates (by checkpoint step when
    /// the candidates form a progression).
    pub quality_cost: Vec<QualityCostPoint>,
}

/// One run's cost.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunCostSummary {
    /// The run's cost by kind, or why it is unavailable.
    pub cost: RunCost,
    /// Tasks with at least one trajectory.
    pub attempted_tasks: u64,
    /// Tasks whose primary score is at least [`SOLVED_SCORE`].
    pub solved_tasks: u64,
    /// The cost by kind over the attempted tasks, or why there is none.
    pub per_attempted_task: Result<CostCents, CostGap>,
    /// The total over the solved tasks, or why there is none.
    pub per_solved_task: Result<f64, CostGap>,
    /// Its interval from the solve rate's Wilson interval; `None` with no solved task.
    pub per_solved_interval: Option<Interval>,
}

/// Why a cost figure is missing.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum CostGap {
    /// The run's cost is unavailable.
    Unavailable {
        /// Index of the run in [`Report::runs`].
        run: usize,
        /// Why.
        why: CostUnavailable,
    },
    /// The run attempted no task.
    NoAttemptedTask {
        /// Index of the run in [`Report::runs`].
        run: usize,
    },
    /// The run solved no task.
    NoSolvedTask {
        /// Index of the run in [`Report::runs`].
        run: usize,
    },
}

/// A candidate's cost against the baseline.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CandidateCost {
    /// Index in [`Report::runs`].
    pub run: usize,
    /// Δ of the total per attempted task (what `--max-cost-increase` compares).
    pub per_attempted_task: Result<CostDelta, CostGap>,
    /// Δ per attempted task of each kind, as billing splits it.
    pub per_attempted_by_kind: Result<CostCents, CostGap>,
    /// Δ of the total per solved task.
    pub per_solved_task: Result<CostDelta, CostGap>,
}

/// A change of cost per task, candidate − baseline, in cents.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct CostDelta {
    /// The baseline's cost per task.
    pub baseline: f64,
    /// The candidate's.
    pub candidate: f64,
    /// candidate − baseline.
    pub delta: f64,
    /// delta / baseline (0.12: 12% more); `None` when the baseline's is 0.
    pub relative: Option<f64>,
}

impl CostDelta {
    fn between(baseline: f64, candidate: f64) -> Self {
        Self {
            baseline,
            candidate,
            delta: candidate - baseline,
            relative: (baseline > 0.0).then(|| (candidate - baseline) / baseline),
        }
    }
}

/// One run in the quality–cost view.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct QualityCostPoint {
    /// Index in [`Report::runs`] (0: the baseline, at the origin).
    pub run: usize,
    /// Checkpoint step, for checkpoints.
    pub step: Option<i64>,
    /// Δ reward of the headline analysis (0 for the baseline); `None` when not computable.
    pub reward_delta: Option<f64>,
    /// Its interval, where there is one.
    pub reward_interval: Option<Interval>,
    /// Δ cost per attempted task in cents (0 for the baseline when its cost is known).
    pub cost_delta: Result<f64, CostGap>,
    /// No other point has at least its reward for at most its cost (one of them strictly);
    /// false for a point without both coordinates.
    pub unbeaten: bool,
}

/// The cost section of the report on `set` for `runs` (the baseline first, then the
/// candidates, as in [`Report::runs`]); the quality–cost view is added by [`quality_cost`]
/// once the candidates' analyses are known.
pub fn run_costs(set: &RunSet, runs: &[&Run], level: f64) -> Vec<RunCostSummary> {
    runs.iter()
        .enumerate()
        .map(|(index, run)| run_cost(set, index, run, level))
        .collect()
}

fn run_cost(set: &RunSet, index: usize, run: &Run, level: f64) -> RunCostSummary {
    let (mut attempted, mut solved) = (0u64, 0u64);
    for task in 0..set.tasks().len() {
        let Some(stats) = run.stats_of(task as TaskIdx) else {
            continue;
        };
        if stats.samples() == 0 {
            continue;
        }
        attempted += 1;
        solved += u64::from(stats.primary.mean().is_some_and(|m| m >= SOLVED_SCORE));
    }
    per_task(index, run.info().cost.clone(), attempted, solved, level)
}

/// A run's cost per attempted and per solved task from its `cost`, its `attempted` and
/// `solved` task counts, at the confidence `level` (`index`: the run in [`Report::runs`]).
pub fn per_task(
    index: usize,
    cost: RunCost,
    attempted: u64,
    solved: u64,
    level: f64,
) -> RunCostSummary {
    let known = match &cost {
        RunCost::Known(cents) => Ok(*cents),
        RunCost::Unavailable(why) => Err(CostGap::Unavailable {
            run: index,
            why: why.clone(),
        }),
    };
    let per_attempted_task = known.clone().and_then(|cents| {
        if attempted == 0 {
            return Err(CostGap::NoAttemptedTask { run: index });
        }
        let n = attempted as f64;
        Ok(CostCents {
            total: cents.total / n,
            training: cents.training / n,
            inference: cents.inference / n,
            grading: cents.grading / n,
            sandbox: cents.sandbox / n,
        })
    });
    let per_solved_task = per_attempted_task.clone().and_then(|_| match solved {
        0 => Err(CostGap::NoSolvedTask { run: index }),
        _ => Ok(known.as_ref().map_or(0.0, |c| c.total) / solved as f64),
    });
    let per_solved_interval = match (&known, per_solved_task.is_ok()) {
        (Ok(cents), true) => per_solved_interval(cents.total, attempted, solved, level),
        _ => None,
    };
    RunCostSummary {
        cost,
        attempted_tasks: attempted,
        solved_tasks: solved,
        per_attempted_task,
        per_solved_task,
        per_solved_interval,
    }
}

/// `total / (attempted · rate)` over the Wilson score interval of the solve rate
/// `solved / attempted` at `level`; `None` without a solved task or a usable level.
pub fn per_solved_interval(
    total: f64,
    attempted: u64,
    solved: u64,
    level: f64,
) -> Option<Interval> {
    let (lower, upper) = wilson(solved, attempted, level).ok()?;
    if lower <= 0.0 || solved == 0 {
        return None;
    }
    let n = attempted as f64;
    Some(Interval {
        lower: total / (n * upper),
        upper: total / (n * lower),
        level,
    })
}

/// The Wilson score interval of a binomial rate `k / n` at two-sided `level`. Hand-written: a
/// few lines over the crate's own normal quantile, so native and wasm agree.
pub fn wilson(k: u64, n: u64, level: f64) -> Stat<(f64, f64)> {
    if n == 0 || k > n {
        return Err(crate::stats::NotComputable::NotEnoughData {
            needed: 1,
            got: n as usize,
        });
    }
    let z = normal::quantile(0.5 + 0.5 * level)?;
    let (k, n) = (k as f64, n as f64);
    let p = k / n;
    let z2 = z * z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = z / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    // At k = 0 and k = n the ends are exactly 0 and 1 (rounding would leave them a hair off).
    let lower = if k == 0.0 {
        0.0
    } else {
        (centre - half).max(0.0)
    };
    let upper = if k == n {
        1.0
    } else {
        (centre + half).min(1.0)
    };
    Ok((lower, upper))
}

/// Candidate `run`'s cost against the baseline's (`runs[0]`).
pub fn candidate_cost(runs: &[RunCostSummary], run: usize) -> CandidateCost {
    let (Some(base), Some(cand)) = (runs.first(), runs.get(run)) else {
        let gap = CostGap::Unavailable {
            run,
            why: CostUnavailable::NotRead,
        };
        return CandidateCost {
            run,
            per_attempted_task: Err(gap.clone()),
            per_attempted_by_kind: Err(gap.clone()),
            per_solved_task: Err(gap),
        };
    };
    let both_attempted = base
        .per_attempted_task
        .clone()
        .and_then(|b| cand.per_attempted_task.clone().map(|c| (b, c)));
    let both_solved = base
        .per_solved_task
        .clone()
        .and_then(|b| cand.per_solved_task.clone().map(|c| (b, c)));
    CandidateCost {
        run,
        per_attempted_task: both_attempted
            .clone()
            .map(|(b, c)| CostDelta::between(b.total, c.total)),
        per_attempted_by_kind: both_attempted.map(|(b, c)| CostCents {
            total: c.total - b.total,
            training: c.training - b.training,
            inference: c.inference - b.inference,
            grading: c.grading - b.grading,
            sandbox: c.sandbox - b.sandbox,
        }),
        per_solved_task: both_solved.map(|(b, c)| CostDelta::between(b, c)),
    }
}

/// The quality–cost view of `report`'s candidates over `runs` (the report's run costs) and
/// `candidates` (their Δ): the baseline first, then each candidate, ordered by step when every
/// candidate has one.
pub fn quality_cost(
    report: &Report,
    runs: &[RunCostSummary],
    candidates: &[CandidateCost],
) -> Vec<QualityCostPoint> {
    let baseline_cost = match runs.first().map(|r| &r.per_attempted_task) {
        Some(Ok(_)) => Ok(0.0),
        Some(Err(gap)) => Err(gap.clone()),
        None => Err(CostGap::Unavailable {
            run: 0,
            why: CostUnavailable::NotRead,
        }),
    };
    let mut points = vec![QualityCostPoint {
        run: 0,
        step: report.runs.first().and_then(|r| r.step),
        reward_delta: Some(0.0),
        reward_interval: None,
        cost_delta: baseline_cost,
        unbeaten: false,
    }];
    for (result, cost) in report.candidates.iter().zip(candidates) {
        let headline = report.headline(result);
        points.push(QualityCostPoint {
            run: result.run,
            step: report.runs.get(result.run).and_then(|r| r.step),
            reward_delta: headline.estimate.as_ref().ok().map(|e| e.delta),
            reward_interval: headline_interval(headline).ok(),
            cost_delta: cost.per_attempted_task.clone().map(|d| d.delta),
            unbeaten: false,
        });
    }
    if points[1..].iter().all(|p| p.step.is_some()) {
        points[1..].sort_by_key(|p| p.step);
    }
    let coordinates: Vec<Option<(f64, f64)>> = points
        .iter()
        .map(|p| Some((p.reward_delta?, *p.cost_delta.as_ref().ok()?)))
        .collect();
    for (point, unbeaten) in points.iter_mut().zip(unbeaten(&coordinates)) {
        point.unbeaten = unbeaten;
    }
    points
}

/// For each point `(reward, cost)`, whether no other point beats it: has at least its reward
/// for at most its cost, one of the two strictly. A missing point is never unbeaten and beats
/// none.
pub fn unbeaten(points: &[Option<(f64, f64)>]) -> Vec<bool> {
    let beats = |a: (f64, f64), b: (f64, f64)| a.0 >= b.0 && a.1 <= b.1 && (a.0 > b.0 || a.1 < b.1);
    points
        .iter()
        .map(|point| point.is_some_and(|p| !points.iter().flatten().any(|&other| beats(other, p))))
        .collect()
}

/// The whole cost section of a built `report` from the loaded `set` (its runs in report order
/// are `runs`).
pub fn cost_report(report: &Report, set: &RunSet, runs: &[&Run]) -> CostReport {
    let summaries = run_costs(set, runs, report.settings.level);
    let candidates: Vec<CandidateCost> = report
        .candidates
        .iter()
        .map(|c| candidate_cost(&summaries, c.run))
        .collect();
    let quality_cost = quality_cost(report, &summaries, &candidates);
    CostReport {
        runs: summaries,
        candidates,
        quality_cost,
    }
}

/// [`cost_report`], or `None` when no compared run carries anything from billing (every cost
/// [`CostUnavailable::NotRead`] or [`CostUnavailable::NotInFolder`]).
pub fn cost_section(report: &Report, set: &RunSet, runs: &[&Run]) -> Option<CostReport> {
    let any_billing = runs.iter().any(|run| {
        !matches!(
            run.info().cost,
            RunCost::Unavailable(CostUnavailable::NotRead | CostUnavailable::NotInFolder)
        )
    });
    any_billing.then(|| cost_report(report, set, runs))
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn cents(total: f64) -> RunCost {
        RunCost::Known(CostCents {
            total,
            training: 0.0,
            inference: total * 0.5,
            grading: total * 0.2,
            sandbox: total * 0.3,
        })
    }

    #[test]
    fn an_unavailable_cost_stays_unavailable_with_its_reason_never_zero() {
        let forbidden = RunCost::Unavailable(CostUnavailable::Forbidden);
        let base = per_task(0, forbidden, 10, 5, 0.95);
        let gap = CostGap::Unavailable {
            run: 0,
            why: CostUnavailable::Forbidden,
        };
        assert_eq!(base.per_attempted_task, Err(gap.clone()));
        assert_eq!(base.per_solved_task, Err(gap.clone()));
        assert_eq!(base.per_solved_interval, None);
        let cand = per_task(1, cents(50.0), 10, 6, 0.95);
        let delta = candidate_cost(&[base, cand], 1);
        assert_eq!(delta.per_attempted_task, Err(gap.clone()));
        assert_eq!(delta.per_attempted_by_kind, Err(gap.clone()));
        assert_eq!(delta.per_solved_task, Err(gap));
    }

    #[test]
    fn per_solved_task_with_zero_solved_is_missing_and_has_no_interval() {
        let run = per_task(1, cents(40.0), 8, 0, 0.95);
        assert_eq!(run.per_attempted_task.map(|c| c.total), Ok(5.0));
        assert_eq!(run.per_solved_task, Err(CostGap::NoSolvedTask { run: 1 }));
        assert_eq!(run.per_solved_interval, None);
        let none = per_task(2, cents(40.0), 0, 0, 0.95);
        assert_eq!(
            none.per_attempted_task,
            Err(CostGap::NoAttemptedTask { run: 2 })
        );
    }

    #[test]
    fn per_task_costs_and_deltas_divide_by_the_tasks() {
        let base = per_task(0, cents(100.0), 10, 5, 0.95);
        let cand = per_task(1, cents(150.0), 10, 6, 0.95);
        assert_eq!(base.per_solved_task, Ok(20.0));
        let interval = base.per_solved_interval.expect("an interval");
        assert!(
            interval.lower < 20.0 && 20.0 < interval.upper,
            "{interval:?}"
        );
        let delta = candidate_cost(&[base, cand], 1);
        let attempted = delta.per_attempted_task.expect("known");
        assert_eq!((attempted.baseline, attempted.candidate), (10.0, 15.0));
        assert_eq!(attempted.delta, 5.0);
        assert_eq!(attempted.relative, Some(0.5));
        let kinds = delta.per_attempted_by_kind.expect("known");
        assert!((kinds.inference - 2.5).abs() < 1e-12);
        let solved = delta.per_solved_task.expect("known");
        assert_eq!((solved.baseline, solved.candidate), (20.0, 25.0));
        assert_eq!(solved.relative, Some(0.25));
        let free = per_task(0, cents(0.0), 10, 5, 0.95);
        let paid = per_task(1, cents(10.0), 10, 5, 0.95);
        let from_zero = candidate_cost(&[free, paid], 1);
        assert_eq!(from_zero.per_attempted_task.map(|d| d.relative), Ok(None));
    }

    #[test]
    fn wilson_matches_a_known_value() {
        // 5 of 10 at 95%: 0.2366 to 0.7634 (Wilson 1927; statsmodels proportion_confint).
        let (lower, upper) = wilson(5, 10, 0.95).expect("computable");
        assert!((lower - 0.236_593).abs() < 1e-5, "{lower}");
        assert!((upper - 0.763_407).abs() < 1e-5, "{upper}");
        assert!(wilson(0, 0, 0.95).is_err());
        let (zero_lower, _) = wilson(0, 10, 0.95).expect("computable");
        assert_eq!(zero_lower, 0.0);
    }

    #[test]
    fn unbeaten_marks_the_points_no_other_beats_on_both() {
        let points = [
            Some((0.0, 0.0)),   // baseline
            Some((0.05, 1.0)),  // better, dearer: unbeaten
            Some((0.04, 2.0)),  // beaten by the one before
            Some((-0.01, 0.5)), // beaten by the baseline
            None,               // cost unavailable
            Some((0.05, 1.0)),  // a tie beats no one
        ];
        assert_eq!(
            unbeaten(&points),
            vec![true, true, false, false, false, true]
        );
    }

    proptest! {
        #[test]
        fn every_beaten_point_is_beaten_by_an_unbeaten_one(
            points in proptest::collection::vec(
                proptest::option::of((-10i32..10, -10i32..10)), 0..12)
        ) {
            let points: Vec<Option<(f64, f64)>> = points
                .into_iter()
                .map(|p| p.map(|(r, c)| (f64::from(r), f64::from(c))))
                .collect();
            let marks = unbeaten(&points);
            let known: Vec<(f64, f64)> = points.iter().flatten().copied().collect();
            prop_assert_eq!(known.is_empty(), !marks.contains(&true));
            for (point, &mark) in points.iter().zip(&marks) {
                let Some(p) = point else {
                    prop_assert!(!mark);
                    continue;
                };
                let beaten_by_unbeaten = points.iter().zip(&marks).any(|(q, &m)| {
                    m && q.is_some_and(|q| q.0 >= p.0 && q.1 <= p.1 && (q.0 > p.0 || q.1 < p.1))
                });
                prop_assert_eq!(mark, !beaten_by_unbeaten);
            }
        }

        #[test]
        fn the_per_solved_interval_holds_its_estimate(
            attempted in 1u64..500, solved_share in 0.01f64..1.0, total in 0.1f64..1e6
        ) {
            let solved = ((attempted as f64 * solved_share).ceil() as u64).clamp(1, attempted);
            let run = per_task(0, cents(total), attempted, solved, 0.95);
            let estimate = run.per_solved_task.expect("solved");
            let interval = run.per_solved_interval.expect("an interval");
            prop_assert!(interval.lower <= estimate * (1.0 + 1e-12));
            prop_assert!(estimate <= interval.upper * (1.0 + 1e-12));
        }
    }
}
