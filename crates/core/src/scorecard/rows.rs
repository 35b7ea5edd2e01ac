//! Per row: the baseline, its mean, the minimum detectable effect at the row's size, the first
//! step whose change is significant.

use serde::{Deserialize, Serialize};

use super::baseline::BaselineChoice;
use super::cell::CellState;
use super::ScorecardCell;

/// What a row says beside its cells.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RowSummary {
    /// The benchmark version.
    pub bench_id: String,
    /// The baseline and how it was chosen.
    pub baseline: BaselineChoice,
    /// The baseline's task-weighted mean (reward units), from the row's comparisons.
    pub baseline_mean: Option<f64>,
    /// The minimum detectable effect (reward units; α 0.05 two-sided, power 0.8) of the row's
    /// comparison with the most paired tasks (the earliest step on a tie), and its tasks.
    pub mde: Option<f64>,
    /// The paired tasks that MDE is computed at.
    pub mde_tasks: Option<usize>,
    /// The first step whose verdict is better or worse.
    pub first_significant_step: Option<i64>,
}

/// The summary of a row from its cells (in step order).
pub fn summarize_row(
    baseline: &BaselineChoice,
    bench_id: &str,
    cells: &[&ScorecardCell],
) -> RowSummary {
    let compared = || {
        cells.iter().filter_map(|cell| match &cell.state {
            CellState::Compared { comparison } => Some((cell.step, comparison)),
            _ => None,
        })
    };
    let baseline_mean = compared().find_map(|(_, comparison)| comparison.baseline_mean);
    let mut widest: Option<(usize, f64)> = None;
    for (_, comparison) in compared() {
        if let Ok(mde) = &comparison.primary.mde {
            if widest.is_none_or(|(n, _)| mde.n > n) {
                widest = Some((mde.n, mde.mde));
            }
        }
    }
    RowSummary {
        bench_id: bench_id.to_owned(),
        baseline: baseline.clone(),
        baseline_mean,
        mde: widest.map(|(_, mde)| mde),
        mde_tasks: widest.map(|(n, _)| n),
        first_significant_step: compared()
            .find(|(_, comparison)| comparison.significant())
            .map(|(step, _)| step),
    }
}
