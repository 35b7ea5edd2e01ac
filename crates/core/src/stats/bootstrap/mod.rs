//! Seeded paired bootstrap of the mean delta, over tasks or whole clusters, with percentile and
//! BCa intervals (statistics.md §3).
//!
//! Conventions (matching scipy 1.17 `stats.bootstrap` where it has one):
//! * statistic: mean(d*) of the resampled deltas (clusters: total of the resampled clusters'
//!   deltas over their total task count);
//! * interval endpoints are order statistics with linear interpolation (numpy's default
//!   percentile method);
//! * BCa: `z₀ = Φ⁻¹(share)` where share counts resamples below the estimate plus half of those
//!   equal to it, i.e. `(#{θ* < θ̂} + #{θ* ≤ θ̂}) / 2B`; acceleration from the jackknife,
//!   `a = Σe³ / (6 (Σe²)^{3/2})` with `e = θ̄₍.₎ − θ₍ᵢ₎` (leave-one-task-out, or
//!   leave-one-cluster-out), in closed form for the mean;
//! * deltas are rounded to 1e-9 and summed as exact integer multiples of 1e-9, so ties with the
//!   estimate are detected exactly and results are identical on native and wasm32 (exact while
//!   `n · max|d| < 9·10⁶`, e.g. deltas in [−1, 1] and fewer than nine million tasks).

mod jump;
#[cfg(not(target_arch = "wasm32"))]
mod parallel;
mod rng;
mod stepwise;
mod table;

use std::hash::Hash;

use serde::{Deserialize, Serialize};

use crate::math;

pub use rng::{HalfDraws, Xoshiro256};
pub use stepwise::BootstrapRun;
use table::{CompactSteps, StepTable, Table};

use super::cluster::dense_cluster_ids;
use super::dist::normal;
use super::interval::Interval;
use super::outcome::{NotComputable, Stat};
use super::validate::{check_count, check_level, rounded_deltas, DEFAULT_LEVEL};

/// Default number of bootstrap resamples B.
pub const DEFAULT_RESAMPLES: usize = 9999;
/// Deltas are resampled as integer multiples of this many units per 1.0 (their 1e-9 grid).
const UNITS_PER_ONE: f64 = 1e9;

/// What to run: number of resamples, seed and two-sided level.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct BootstrapSettings {
    /// Number of resamples B (≥ 2).
    pub resamples: usize,
    /// PRNG seed; the same seed and input give the same output everywhere.
    pub seed: u64,
    /// Two-sided confidence level.
    pub level: f64,
}

impl Default for BootstrapSettings {
    /// B = 9999, seed 0, level 0.95.
    fn default() -> Self {
        Self {
            resamples: DEFAULT_RESAMPLES,
            seed: 0,
            level: DEFAULT_LEVEL,
        }
    }
}

/// Bootstrap intervals for the mean delta.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BootstrapResult {
    /// θ̂, the mean delta.
    pub estimate: f64,
    /// Number of tasks.
    pub n: usize,
    /// Number of clusters resampled, when clustered.
    pub clusters: Option<usize>,
    /// The settings used (B, seed, level).
    pub settings: BootstrapSettings,
    /// Standard deviation (ddof 1) of the resampled means.
    pub standard_error: f64,
    /// Percentile interval.
    pub percentile: Interval,
    /// BCa interval.
    pub bca: Stat<Interval>,
    /// BCa bias correction z₀.
    pub bias_correction: Stat<f64>,
    /// BCa jackknife acceleration a (0 when every jackknife value is equal).
    pub acceleration: f64,
}

/// Paired bootstrap resampling tasks. Needs n ≥ 2 deltas that are not all equal.
pub fn paired_bootstrap(deltas: &[f64], settings: &BootstrapSettings) -> Stat<BootstrapResult> {
    BootstrapRun::per_task(deltas, settings)?.complete()
}

/// Paired bootstrap resampling whole clusters (one label per task). Needs C ≥ 2 clusters and
/// a spread in the resampled means.
pub fn clustered_paired_bootstrap<K: Eq + Hash>(
    deltas: &[f64],
    labels: &[K],
    settings: &BootstrapSettings,
) -> Stat<BootstrapResult> {
    BootstrapRun::per_cluster(deltas, labels, settings)?.complete()
}

/// The B resampled means in draw order (e.g. for a histogram), resampling tasks.
/// Needs n ≥ 1 and B ≥ 1.
pub fn bootstrap_means(deltas: &[f64], resamples: usize, seed: u64) -> Stat<Vec<f64>> {
    check_count(1, resamples)?;
    let units = Units::per_task(deltas)?;
    check_count(1, units.sums.len())?;
    Ok(units
        .resample_sums(resamples, seed)
        .into_iter()
        .map(|r| units.mean_of(r))
        .collect())
}

fn check_settings(settings: &BootstrapSettings) -> Stat<()> {
    check_level(settings.level)?;
    if settings.resamples < 2 {
        return Err(NotComputable::invalid("resamples", "must be at least 2"));
    }
    Ok(())
}

/// The resampling units: tasks (size 1 each) or clusters, as exact sums of 1e-9 steps.
#[derive(Debug)]
struct Units {
    /// Sum of each unit's deltas, in 1e-9 steps (an exact integer in f64).
    sums: Vec<f64>,
    /// The same sums as integers when every one fits `i32` (deltas within ±2.1): a table a
    /// half or a quarter of `sums`' memory ([`CompactSteps`]) and integer adds, which is what
    /// makes 10⁸ draws per second possible.
    compact: Option<CompactSteps>,
    /// Number of tasks per unit; empty when every unit is one task.
    sizes: Vec<u64>,
    total_sum: f64,
    total_size: u64,
}

/// One resample's totals.
#[derive(Debug, Clone, Copy)]
struct Resample {
    sum: f64,
    size: u64,
}

impl Units {
    fn per_task(deltas: &[f64]) -> Stat<Self> {
        let sums: Vec<f64> = rounded_deltas(deltas)?
            .into_iter()
            .map(|d| (d * UNITS_PER_ONE).round())
            .collect();
        // Draws below a u32 bound index the compact table: at most i32::MAX tasks.
        let compact = i32::try_from(sums.len())
            .ok()
            .and_then(|_| {
                sums.iter()
                    .map(|&s| (s.abs() <= f64::from(i32::MAX)).then_some(s as i32))
                    .collect::<Option<Vec<i32>>>()
            })
            .map(CompactSteps::of);
        Ok(Self {
            total_sum: sums.iter().sum(),
            total_size: sums.len() as u64,
            sums,
            compact,
            sizes: Vec::new(),
        })
    }

    fn per_cluster<K: Eq + Hash>(deltas: &[f64], labels: &[K]) -> Stat<Self> {
        let steps = Self::per_task(deltas)?;
        let (ids, clusters) = dense_cluster_ids(labels);
        check_count(2, clusters)?;
        let mut sums = vec![0.0; clusters];
        let mut sizes = vec![0_u64; clusters];
        for (step, &c) in steps.sums.iter().zip(&ids) {
            sums[c] += step;
            sizes[c] += 1;
        }
        Ok(Self {
            sums,
            compact: None,
            sizes,
            total_sum: steps.total_sum,
            total_size: steps.total_size,
        })
    }

    fn size_of(&self, unit: usize) -> u64 {
        self.sizes.get(unit).copied().unwrap_or(1)
    }

    fn mean_of(&self, r: Resample) -> f64 {
        r.sum / (r.size as f64 * UNITS_PER_ONE)
    }

    fn estimate(&self) -> Resample {
        Resample {
            sum: self.total_sum,
            size: self.total_size,
        }
    }

    /// B resamples of as many units as there are, drawn with replacement.
    fn resample_sums(&self, resamples: usize, seed: u64) -> Vec<Resample> {
        // Below 2³¹ draws of |step| ≤ 2³¹ the i64 sum cannot overflow.
        match self.table() {
            Some(Table::Grid(table)) => return Self::resample_compact(table, resamples, seed),
            Some(Table::Coded(table)) => return Self::resample_compact(table, resamples, seed),
            Some(Table::Plain(table)) => return Self::resample_compact(table, resamples, seed),
            None => {}
        }
        let mut rng = Xoshiro256::from_seed(seed);
        (0..resamples)
            .map(|_| self.wide_resample(&mut rng))
            .collect()
    }

    /// Whether the per-task fast path ([`compact_sums`]) draws this bootstrap.
    fn is_compact(&self) -> bool {
        self.compact.is_some()
    }

    /// The draw table of the compact steps.
    fn table(&self) -> Option<Table<'_>> {
        // Compact steps are kept for at most i32::MAX units (`per_task`).
        Some(self.compact.as_ref()?.table(self.sums.len() as u32))
    }

    /// `resamples` resamples of the per-task fast path from `draws`; `None` when the units
    /// are not compact.
    fn compact_resamples(&self, draws: &mut HalfDraws, resamples: usize) -> Option<Vec<Resample>> {
        Some(match self.table()? {
            Table::Grid(table) => compact_sums(table, draws, resamples),
            Table::Coded(table) => compact_sums(table, draws, resamples),
            Table::Plain(table) => compact_sums(table, draws, resamples),
        })
    }

    /// One resample of the general path (clusters, or deltas too large for `i32` steps).
    fn wide_resample(&self, rng: &mut Xoshiro256) -> Resample {
        let count = self.sums.len();
        let bound = count as u64;
        if self.sizes.is_empty() {
            let mut sum = 0.0;
            for _ in 0..count {
                sum += self.sums[rng.below(bound) as usize];
            }
            Resample { sum, size: bound }
        } else {
            let (mut sum, mut size) = (0.0, 0);
            for _ in 0..count {
                let unit = rng.below(bound) as usize;
                sum += self.sums[unit];
                size += self.sizes[unit];
            }
            Resample { sum, size }
        }
    }

    /// The per-task fast path: `i32` steps summed in `i64`, two 32-bit draws per PRNG step.
    /// Natively a large bootstrap is split over the machine's cores ([`parallel`]), with
    /// exactly the draws of the one sequential stream.
    fn resample_compact(table: impl StepTable, resamples: usize, seed: u64) -> Vec<Resample> {
        #[cfg(not(target_arch = "wasm32"))]
        if let Some(sums) = parallel::resample_sums(table, resamples, seed) {
            return sums;
        }
        compact_sums(
            table,
            &mut HalfDraws::new(Xoshiro256::from_seed(seed)),
            resamples,
        )
    }

    /// Compares a resample's mean with the estimate: exactly (cross-multiplied integer sums)
    /// while the sums are exact integers in f64, by the rounded means beyond that.
    fn compare_to_estimate(&self, r: Resample) -> std::cmp::Ordering {
        // 2⁵³: below it the step sums are exact and the i128 products cannot overflow.
        const EXACT_LIMIT: f64 = 9_007_199_254_740_992.0;
        if r.sum.abs() <= EXACT_LIMIT && self.total_sum.abs() <= EXACT_LIMIT {
            let left = r.sum as i128 * i128::from(self.total_size);
            let right = self.total_sum as i128 * i128::from(r.size);
            left.cmp(&right)
        } else {
            self.mean_of(r).total_cmp(&self.mean_of(self.estimate()))
        }
    }

    /// Jackknife acceleration `Σe³ / (6 (Σe²)^{3/2})`, leaving out one unit at a time.
    fn acceleration(&self) -> f64 {
        let count = self.sums.len();
        let leave_one_out: Vec<f64> = (0..count)
            .map(|u| (self.total_sum - self.sums[u]) / (self.total_size - self.size_of(u)) as f64)
            .collect();
        let centre = leave_one_out.iter().sum::<f64>() / count as f64;
        // a is scale-free; dividing by the largest |e| keeps e³ from overflowing.
        let scale = leave_one_out
            .iter()
            .map(|theta| (centre - theta).abs())
            .fold(0.0, f64::max);
        if scale == 0.0 {
            return 0.0;
        }
        let (mut cubes, mut squares) = (0.0, 0.0);
        for theta in &leave_one_out {
            let e = (centre - theta) / scale;
            squares += e * e;
            cubes += e * e * e;
        }
        if squares == 0.0 {
            0.0
        } else {
            cubes / (6.0 * math::powf(squares, 1.5))
        }
    }
}

/// `resamples` resamples of the table's `bound` tasks drawn from `draws`: the per-task
/// fast path's loop.
fn compact_sums(table: impl StepTable, draws: &mut HalfDraws, resamples: usize) -> Vec<Resample> {
    let bound = table.bound();
    (0..resamples)
        .map(|_| Resample {
            sum: draws.sum_of_draws(table, bound as usize) as f64,
            size: u64::from(bound),
        })
        .collect()
}

/// The intervals of `resamples`, the B resample sums of `units` in draw order.
fn summarize(
    units: &Units,
    clusters: Option<usize>,
    settings: &BootstrapSettings,
    resamples: &[Resample],
) -> Stat<BootstrapResult> {
    let below = resamples
        .iter()
        .filter(|r| units.compare_to_estimate(**r).is_lt())
        .count();
    let equal = resamples
        .iter()
        .filter(|r| units.compare_to_estimate(**r).is_eq())
        .count();
    let mut means: Vec<f64> = resamples.iter().map(|&r| units.mean_of(r)).collect();
    means.sort_by(f64::total_cmp);
    if means.first() == means.last() {
        return Err(NotComputable::ZeroVariance);
    }
    let b = means.len() as f64;
    let centre = means.iter().sum::<f64>() / b;
    let spread = means
        .iter()
        .map(|m| (m - centre) * (m - centre))
        .sum::<f64>()
        / (b - 1.0);
    let tail = 0.5 * (1.0 - settings.level);
    let percentile = Interval {
        lower: sorted_quantile(&means, tail),
        upper: sorted_quantile(&means, 1.0 - tail),
        level: settings.level,
    };
    let share = (2 * below + equal) as f64 / (2.0 * b);
    let bias_correction = if share > 0.0 && share < 1.0 {
        normal::quantile(share)
    } else {
        Err(NotComputable::BiasCorrectionUnbounded)
    };
    let acceleration = units.acceleration();
    let bca = bias_correction
        .clone()
        .and_then(|z0| bca_interval(&means, z0, acceleration, settings.level));
    Ok(BootstrapResult {
        estimate: units.mean_of(units.estimate()),
        n: units.total_size as usize,
        clusters,
        settings: *settings,
        standard_error: spread.sqrt(),
        percentile,
        bca,
        bias_correction,
        acceleration,
    })
}

/// BCa interval from sorted resampled means, bias correction z₀ and acceleration a.
fn bca_interval(sorted: &[f64], z0: f64, acceleration: f64, level: f64) -> Stat<Interval> {
    let tail = 0.5 * (1.0 - level);
    let adjusted = |probability: f64| -> Stat<f64> {
        let z = z0 + normal::quantile(probability)?;
        let denominator = 1.0 - acceleration * z;
        if denominator <= 0.0 {
            return Err(NotComputable::AccelerationOutOfRange);
        }
        Ok(normal::cdf(z0 + z / denominator))
    };
    Ok(Interval {
        lower: sorted_quantile(sorted, adjusted(tail)?),
        upper: sorted_quantile(sorted, adjusted(1.0 - tail)?),
        level,
    })
}

/// Quantile of sorted, non-empty values with linear interpolation between order statistics
/// (numpy's default `percentile` method): position `q·(B − 1)`.
fn sorted_quantile(sorted: &[f64], q: f64) -> f64 {
    let last = sorted.len() - 1;
    let position = q.clamp(0.0, 1.0) * last as f64;
    let below = position.floor() as usize;
    let above = (below + 1).min(last);
    let fraction = position - below as f64;
    sorted[below] + fraction * (sorted[above] - sorted[below])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `units` with its compact steps kept plain, whatever they are.
    fn with_plain_steps(units: &Units) -> Units {
        let steps = units.sums.iter().map(|&s| s as i32).collect();
        Units {
            sums: units.sums.clone(),
            compact: Some(CompactSteps::Plain(table::pad(steps))),
            sizes: Vec::new(),
            total_sum: units.total_sum,
            total_size: units.total_size,
        }
    }

    #[test]
    fn coded_steps_draw_the_sums_plain_steps_draw() {
        // Deltas of means of 7 and 8 samples (steps of 1/56 rounded to 1e-9: no grid), and of
        // means of 4 over 20,000 tasks (a grid), which the parallel split draws.
        let grid = |n: usize, k: u64, seed: u64| -> Vec<f64> {
            let mut rng = Xoshiro256::from_seed(seed);
            (0..n)
                .map(|_| (rng.below(2 * k + 1) as f64 - k as f64) / k as f64)
                .collect()
        };
        let sevenths_and_eighths: Vec<f64> = grid(403, 7, 1)
            .iter()
            .zip(grid(403, 8, 3))
            .map(|(a, b)| a - b)
            .collect();
        let cases = [
            (sevenths_and_eighths, 101, "coded"),
            (grid(20_000, 4, 2), 200, "grid"),
        ];
        for (deltas, resamples, form) in cases {
            let units = Units::per_task(&deltas).unwrap();
            let kept = match units.table() {
                Some(Table::Grid(_)) => "grid",
                Some(Table::Coded(_)) => "coded",
                Some(Table::Plain(_)) | None => "plain",
            };
            assert_eq!(kept, form);
            let plain = with_plain_steps(&units);
            let sums = |units: &Units| -> Vec<(f64, u64)> {
                units
                    .resample_sums(resamples, 7)
                    .iter()
                    .map(|r| (r.sum, r.size))
                    .collect()
            };
            assert_eq!(sums(&units), sums(&plain), "n {}", deltas.len());
        }
    }

    #[test]
    fn interpolated_quantiles() {
        let v = [1.0, 2.0, 4.0, 8.0];
        assert_eq!(sorted_quantile(&v, 0.0), 1.0);
        assert_eq!(sorted_quantile(&v, 1.0), 8.0);
        assert_eq!(sorted_quantile(&v, 0.5), 3.0);
    }

    #[test]
    fn exact_comparison_with_estimate() {
        let units = Units::per_task(&[0.1, 0.2, 0.3]).unwrap();
        let same = Resample { sum: 6e8, size: 3 };
        assert!(units.compare_to_estimate(same).is_eq());
    }

    #[test]
    fn mean_acceleration_has_closed_form() {
        // e ∝ d − d̄ = (−1, −1, 2)/3·…: a = Σe³ / (6 (Σe²)^{3/2}) = 6 / (6 · 6^{1.5}).
        let units = Units::per_task(&[0.0, 0.0, 3.0]).unwrap();
        assert!((units.acceleration() - 1.0 / math::powf(6f64, 1.5)).abs() < 1e-12);
    }

    #[test]
    fn clustered_standard_error_tracks_the_cluster_robust_one() {
        // 40 clusters of 5 tasks sharing a cluster effect.
        let mut rng = Xoshiro256::from_seed(5);
        let (mut deltas, mut labels) = (Vec::new(), Vec::new());
        for cluster in 0..40 {
            let effect = (rng.below(21) as f64 - 10.0) / 20.0;
            for _ in 0..5 {
                deltas.push(effect + (rng.below(5) as f64 - 2.0) / 10.0);
                labels.push(cluster);
            }
        }
        let settings = BootstrapSettings {
            resamples: 4000,
            seed: 1,
            level: 0.95,
        };
        let clustered = clustered_paired_bootstrap(&deltas, &labels, &settings).unwrap();
        let robust = crate::stats::cluster_robust(&deltas, &labels, 0.95).unwrap();
        // With equal cluster sizes the bootstrap variance is (C−1)/C times the robust one;
        // the Monte Carlo error of the SE at B = 4000 is about 1 %.
        let expected = robust.se * (39.0f64 / 40.0).sqrt();
        assert!((clustered.standard_error / expected - 1.0).abs() < 0.05);
        assert_eq!((clustered.clusters, clustered.n), (Some(40), 200));
        // Ignoring the clusters understates the uncertainty.
        let naive = paired_bootstrap(&deltas, &settings).unwrap();
        assert!(naive.standard_error < 0.8 * clustered.standard_error);
        assert!(clustered.percentile.contains(clustered.estimate));
    }

    #[test]
    fn bca_refuses_an_acceleration_beyond_its_domain() {
        let sorted: Vec<f64> = (0..100).map(f64::from).collect();
        assert!(bca_interval(&sorted, 0.1, 0.05, 0.95).is_ok());
        assert_eq!(
            bca_interval(&sorted, 0.5, 0.5, 0.95),
            Err(NotComputable::AccelerationOutOfRange)
        );
    }

    #[test]
    fn degenerate_inputs() {
        let s = BootstrapSettings::default();
        assert_eq!(
            paired_bootstrap(&[0.5], &s),
            Err(NotComputable::NotEnoughData { needed: 2, got: 1 })
        );
        assert_eq!(
            paired_bootstrap(&[0.5, 0.5, 0.5], &s),
            Err(NotComputable::ZeroVariance)
        );
        let bad = BootstrapSettings { resamples: 1, ..s };
        assert!(paired_bootstrap(&[0.1, 0.2], &bad).is_err());
        assert_eq!(
            clustered_paired_bootstrap(&[0.1, 0.2], &["a", "a"], &s),
            Err(NotComputable::NotEnoughData { needed: 2, got: 1 })
        );
    }
}
