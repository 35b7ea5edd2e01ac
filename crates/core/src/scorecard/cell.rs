//! One cell of the scorecard: the paired comparison of a checkpoint's evaluation against its
//! row's baseline, taken whole from the report of those two runs (`report::build_report` on a
//! set of the two, the scorecard's settings), so that its `primary`, `verdict` and `coverage`
//! are the report's own values, serialized by the same types.

use serde::{Deserialize, Serialize};

use crate::coverage::Coverage;
use crate::report::{Decision, PairedAnalysis, Report, Verdict};
use crate::stats::{Interval, Stat, TTest};

/// The comparison of one cell, as its pair's report gives it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Comparison {
    /// The pair's primary analysis (the report JSON's `candidates[0].primary`).
    pub primary: PairedAnalysis,
    /// The pair's verdict (`candidates[0].verdict`).
    pub verdict: Verdict,
    /// The pair's coverage ledger (the report JSON's `coverage`).
    pub coverage: Coverage,
    /// The headline analysis' paired t-test (the verdict's), for the decision rule.
    pub headline_test: Stat<TTest>,
    /// The headline Δ (reward units), when computable.
    pub delta: Option<f64>,
    /// The baseline's task-weighted mean.
    pub baseline_mean: Option<f64>,
    /// Tasks paired in the headline analysis.
    pub paired: u64,
    /// Tasks the candidate planned (its selection at launch), else the union of tasks.
    pub planned: u64,
}

impl Comparison {
    /// The cell of a report of one candidate against its baseline; `None` when the report has
    /// no candidate.
    pub fn of_report(report: &Report) -> Option<Comparison> {
        let candidate = report.candidates.first()?;
        let headline = report.headline(candidate);
        let pair = report.coverage.comparisons.first();
        let candidate_run = report.coverage.runs.get(1);
        Some(Comparison {
            primary: candidate.primary.clone(),
            verdict: candidate.verdict.clone(),
            coverage: report.coverage.clone(),
            headline_test: headline.t_test.clone(),
            delta: headline
                .estimate
                .as_ref()
                .ok()
                .map(|estimate| estimate.delta)
                .filter(|delta| delta.is_finite()),
            baseline_mean: report.baseline().and_then(|run| run.task_weighted_mean),
            paired: headline.n as u64,
            planned: candidate_run
                .and_then(|run| run.tasks_selected)
                .or_else(|| pair.map(|pair| pair.union))
                .unwrap_or(report.coverage.union_tasks),
        })
    }

    /// The headline interval of Δ (reward units), when computable.
    pub fn interval(&self) -> Option<Interval> {
        self.verdict.interval.as_ref().ok().copied()
    }

    /// The headline test's two-sided p-value.
    pub fn p_value(&self) -> Stat<f64> {
        self.headline_test
            .as_ref()
            .map(|t| t.p_value)
            .map_err(Clone::clone)
    }

    /// Whether the verdict says better or worse (significant on its own).
    pub fn significant(&self) -> bool {
        matches!(self.verdict.decision, Decision::Better | Decision::Worse)
    }
}

/// What stands in one cell.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum CellState {
    /// The checkpoint was not evaluated on this benchmark: missing, never 0.
    Missing,
    /// The row has no baseline to compare against.
    NoBaseline,
    /// Not computed yet (the page builds cells one at a time).
    Pending,
    /// The runs could not be compared: why.
    Failed {
        /// The error, in words.
        error: String,
    },
    /// The comparison.
    Compared {
        /// Its numbers (boxed: a cell is large).
        comparison: Box<Comparison>,
    },
}
