//! The two statistical checks of the ledger, with their thresholds stated.

use serde::{Deserialize, Serialize};

use crate::math;

/// Two-sided 5% critical value of the standard normal.
pub const Z_CRITICAL: f64 = 1.959_963_984_540_054;

/// A failure-rate difference is flagged only when at least this large (2 percentage points),
/// so that huge runs do not flag trivial differences.
pub const MIN_RATE_DIFFERENCE: f64 = 0.02;

/// A missingness difference is flagged only when the means differ by at least this much.
pub const MIN_MEAN_DIFFERENCE: f64 = 0.05;

/// Share of trajectories left out of the primary analysis in two runs, compared with a pooled
/// two-proportion z-test. Flagged when |z| ≥ [`Z_CRITICAL`] and the rates differ by at least
/// [`MIN_RATE_DIFFERENCE`]. Samples of one task are treated as independent (an approximation).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FailureRateCheck {
    /// Baseline trajectories left out (failed, cancelled, unfinished, ungraded, invalid, …).
    pub base_unscored: u64,
    /// Baseline trajectories.
    pub base_total: u64,
    /// Candidate trajectories left out.
    pub cand_unscored: u64,
    /// Candidate trajectories.
    pub cand_total: u64,
    /// Baseline share left out; `None` without trajectories.
    pub base_rate: Option<f64>,
    /// Candidate share left out.
    pub cand_rate: Option<f64>,
    /// Pooled two-proportion z (candidate − baseline); `None` when undefined (no trajectories,
    /// or every trajectory on both sides scored, or none).
    pub z: Option<f64>,
    /// Whether the difference is flagged.
    pub flagged: bool,
}

impl FailureRateCheck {
    /// Compares the two runs' unscored shares.
    pub fn new(base_unscored: u64, base_total: u64, cand_unscored: u64, cand_total: u64) -> Self {
        let rate = |unscored: u64, total: u64| (total > 0).then(|| unscored as f64 / total as f64);
        let base_rate = rate(base_unscored, base_total);
        let cand_rate = rate(cand_unscored, cand_total);
        let z = match (base_rate, cand_rate) {
            (Some(base), Some(cand)) => {
                let pooled =
                    (base_unscored + cand_unscored) as f64 / (base_total + cand_total) as f64;
                let variance =
                    pooled * (1.0 - pooled) * (1.0 / base_total as f64 + 1.0 / cand_total as f64);
                (variance > 0.0).then(|| (cand - base) / variance.sqrt())
            }
            _ => None,
        };
        let flagged = match (base_rate, cand_rate, z) {
            (Some(base), Some(cand), Some(z)) => {
                z.abs() >= Z_CRITICAL && (cand - base).abs() >= MIN_RATE_DIFFERENCE
            }
            _ => false,
        };
        FailureRateCheck {
            base_unscored,
            base_total,
            cand_unscored,
            cand_total,
            base_rate,
            cand_rate,
            z,
            flagged,
        }
    }
}

/// Which side of a comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// The baseline run.
    Baseline,
    /// The candidate run.
    Candidate,
}

/// Informative missingness: do the tasks one side lost score differently, on the other side,
/// from the paired tasks? If the tasks a candidate failed on were the baseline's hard ones,
/// the paired comparison flatters the candidate.
///
/// Compares the other side's per-task means on the excluded tasks with its means on the
/// paired tasks (Welch's z over task means). Flagged when the means differ by at least
/// [`MIN_MEAN_DIFFERENCE`] and either |z| ≥ [`Z_CRITICAL`] or both groups have zero spread.
/// Needs at least two tasks in each group.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MissingnessCheck {
    /// The side the tasks are excluded from.
    pub excluded_from: Side,
    /// Tasks excluded from that side but scored on the other.
    pub excluded_tasks: u64,
    /// The other side's mean over those tasks.
    pub excluded_mean: Option<f64>,
    /// Paired tasks.
    pub paired_tasks: u64,
    /// The other side's mean over the paired tasks.
    pub paired_mean: Option<f64>,
    /// `excluded_mean − paired_mean`.
    pub difference: Option<f64>,
    /// Welch's z of the difference; `None` when undefined.
    pub z: Option<f64>,
    /// Whether the difference is flagged.
    pub flagged: bool,
}

impl MissingnessCheck {
    /// Compares the other side's task means on excluded versus paired tasks.
    pub fn new(excluded_from: Side, excluded: &[f64], paired: &[f64]) -> Self {
        let excluded_summary = Summary::of(excluded);
        let paired_summary = Summary::of(paired);
        let excluded_mean = excluded_summary.map(|summary| summary.mean);
        let paired_mean = paired_summary.map(|summary| summary.mean);
        let difference = excluded_mean.zip(paired_mean).map(|(x, y)| x - y);
        let mut z = None;
        let mut flagged = false;
        if let (Some(x), Some(y), Some(difference)) = (excluded_summary, paired_summary, difference)
        {
            if x.count >= 2 && y.count >= 2 {
                let variance = x.variance / x.count as f64 + y.variance / y.count as f64;
                let large = difference.abs() >= MIN_MEAN_DIFFERENCE;
                if variance > 0.0 {
                    let value = difference / variance.sqrt();
                    z = Some(value);
                    flagged = large && value.abs() >= Z_CRITICAL;
                } else {
                    flagged = large;
                }
            }
        }
        MissingnessCheck {
            excluded_from,
            excluded_tasks: excluded.len() as u64,
            excluded_mean,
            paired_tasks: paired.len() as u64,
            paired_mean,
            difference,
            z,
            flagged,
        }
    }
}

#[derive(Debug, Clone, Copy)]
struct Summary {
    count: usize,
    mean: f64,
    /// Sample variance (ddof 1); 0 for one value.
    variance: f64,
}

impl Summary {
    fn of(values: &[f64]) -> Option<Summary> {
        if values.is_empty() {
            return None;
        }
        let count = values.len();
        let mean = values.iter().sum::<f64>() / count as f64;
        let variance = if count > 1 {
            values.iter().map(|v| math::powi(v - mean, 2)).sum::<f64>() / (count - 1) as f64
        } else {
            0.0
        };
        Some(Summary {
            count,
            mean,
            variance,
        })
    }
}
