//! The paired estimate Δ = mean(candidate − baseline) with its SE and intervals, and the paired
//! t-test (statistics.md §3–4).

use serde::{Deserialize, Serialize};

use super::describe::{all_equal, CompensatedSum, CrossSums, Moments};
use super::dist::{normal, StudentT};
use super::interval::Interval;
use super::outcome::{NotComputable, Stat};
use super::validate::{check_count, check_level, paired_deltas, rounded_deltas};

/// Δ with its uncertainty, from per-task scores of two runs over the same tasks.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PairedEstimate {
    /// Number of paired tasks.
    pub n: usize,
    /// Mean task score of the baseline run.
    pub baseline_mean: f64,
    /// Mean task score of the candidate run.
    pub candidate_mean: f64,
    /// Δ = mean of the per-task deltas `candidate − baseline` (rounded to 1e-9).
    pub delta: f64,
    /// Standard deviation of the deltas (ddof 1); needs n ≥ 2.
    pub sd: Stat<f64>,
    /// SE_Δ = sd(d)/√n; needs n ≥ 2.
    pub se: Stat<f64>,
    /// Δ ± t_{n−1}·SE_Δ. [`NotComputable::ZeroVariance`] when all deltas are equal.
    pub t_interval: Stat<Interval>,
    /// Δ ± z·SE_Δ (Miller's normal interval); same conditions as `t_interval`.
    pub z_interval: Stat<Interval>,
    /// SE of the baseline's mean task score.
    pub baseline_se: Stat<f64>,
    /// SE of the candidate's mean task score.
    pub candidate_se: Stat<f64>,
    /// Pearson correlation between the runs' task scores — what pairing bought.
    pub correlation: Stat<f64>,
}

/// Paired estimate from per-task scores (same task order on both sides) at a two-sided
/// confidence `level` (0.95 by convention, see [`super::DEFAULT_LEVEL`]).
///
/// Needs n ≥ 1 finite pairs; the parts that need n ≥ 2 or a non-zero spread say so in their own
/// fields.
pub fn paired_estimate(baseline: &[f64], candidate: &[f64], level: f64) -> Stat<PairedEstimate> {
    check_level(level)?;
    let deltas = paired_deltas(baseline, candidate)?;
    check_count(1, deltas.len())?;
    let n = deltas.len();
    // Each side's mean and variance serve its mean, its SE and the correlation.
    let PairedMoments {
        deltas: moments,
        base,
        cand,
        cross,
    } = PairedMoments::of_finite(&deltas, baseline, candidate);
    let delta = moments.mean;
    let spread = delta_spread(&moments);
    let interval = |critical: Stat<f64>| -> Stat<Interval> {
        let spread = spread.clone()?;
        if spread.sd == 0.0 {
            return Err(NotComputable::ZeroVariance);
        }
        Ok(Interval::around(delta, critical? * spread.se, level))
    };
    let two_sided = 0.5 + 0.5 * level;
    let t_critical = StudentT::new((n - 1) as f64).and_then(|t| t.quantile(two_sided));
    Ok(PairedEstimate {
        n,
        baseline_mean: base.mean,
        candidate_mean: cand.mean,
        delta,
        sd: spread.clone().map(|s| s.sd),
        se: spread.clone().map(|s| s.se),
        t_interval: interval(t_critical),
        z_interval: interval(normal::quantile(two_sided)),
        baseline_se: base.standard_error(),
        candidate_se: cand.standard_error(),
        correlation: cross.correlation(&base, &cand),
    })
}

/// The moments of the deltas and of both sides and the correlation's sums, computed in two
/// passes over the three samples together: every sum is the one its own function adds up,
/// value by value in the same order, so the results are the same.
struct PairedMoments {
    deltas: Moments,
    base: Moments,
    cand: Moments,
    cross: CrossSums,
}

impl PairedMoments {
    /// The moments of finite `deltas`, `baseline` and `candidate` of one length.
    fn of_finite(deltas: &[f64], baseline: &[f64], candidate: &[f64]) -> PairedMoments {
        let n = deltas.len();
        let triples = || deltas.iter().zip(baseline).zip(candidate);
        let mut sums = [CompensatedSum::default(); 3];
        for ((&d, &b), &c) in triples() {
            sums[0].add(d);
            sums[1].add(b);
            sums[2].add(c);
        }
        let [d_mean, b_mean, c_mean] = sums.map(|sum| sum.total() / n as f64);
        let mut squares = [CompensatedSum::default(); 3];
        let mut cross = CrossSums::default();
        for ((&d, &b), &c) in triples() {
            let (dd, db, dc) = (d - d_mean, b - b_mean, c - c_mean);
            squares[0].add(dd * dd);
            squares[1].add(db * db);
            squares[2].add(dc * dc);
            cross.add(db, dc);
        }
        let [d_squares, b_squares, c_squares] = squares.map(|sum| sum.total());
        PairedMoments {
            deltas: Moments::from_sums(n, d_mean, all_equal(deltas), d_squares),
            base: Moments::from_sums(n, b_mean, all_equal(baseline), b_squares),
            cand: Moments::from_sums(n, c_mean, all_equal(candidate), c_squares),
            cross,
        }
    }
}

/// Result of a paired t-test of H0: Δ = 0.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TTest {
    /// Number of paired tasks.
    pub n: usize,
    /// Δ, the mean delta.
    pub mean: f64,
    /// SE_Δ.
    pub se: f64,
    /// t = Δ / SE_Δ.
    pub t: f64,
    /// Degrees of freedom, n − 1.
    pub df: f64,
    /// Two-sided p-value.
    pub p_value: f64,
}

/// Paired t-test on per-task deltas (rounded to 1e-9 first): t = d̄/(s_d/√n) on n − 1 df,
/// as scipy's `ttest_rel`.
///
/// Needs n ≥ 2. All deltas equal gives [`NotComputable::ZeroVariance`]: t is 0/0 or ±∞ there,
/// and reporting p = 0 for identical non-zero deltas would overstate the evidence.
pub fn paired_t_test(deltas: &[f64]) -> Stat<TTest> {
    let deltas = rounded_deltas(deltas)?;
    t_test_of(&Moments::of_finite(&deltas))
}

/// [`paired_t_test`] from the moments of deltas already checked and rounded.
pub(crate) fn t_test_of(moments: &Moments) -> Stat<TTest> {
    let spread = delta_spread(moments)?;
    if spread.sd == 0.0 {
        return Err(NotComputable::ZeroVariance);
    }
    let n = moments.n;
    let mean = moments.mean;
    let t = mean / spread.se;
    let df = (n - 1) as f64;
    Ok(TTest {
        n,
        mean,
        se: spread.se,
        t,
        df,
        p_value: StudentT::new(df)?.two_sided_p(t),
    })
}

/// Standard deviation and standard error of a delta sample.
#[derive(Debug, Clone, Copy)]
struct Spread {
    sd: f64,
    se: f64,
}

/// sd (ddof 1) and SE of finite deltas; needs n ≥ 2; sd is exactly 0 when all are equal (the
/// moments' variance is then 0).
fn delta_spread(moments: &Moments) -> Stat<Spread> {
    check_count(2, moments.n)?;
    let sd = moments.variance.sqrt();
    Ok(Spread {
        sd,
        se: sd / (moments.n as f64).sqrt(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn estimate_of_a_small_paired_sample() {
        let base = [0.2, 0.5, 0.4, 0.9];
        let cand = [0.3, 0.7, 0.4, 1.0];
        let e = paired_estimate(&base, &cand, 0.95).unwrap();
        assert_eq!(e.n, 4);
        assert!((e.delta - 0.1).abs() < 1e-15);
        let t = e.t_interval.unwrap();
        assert!(t.contains(e.delta) && t.level == 0.95);
        assert!(t.width() > e.z_interval.unwrap().width());
    }

    #[test]
    fn degenerate_estimates() {
        assert_eq!(
            paired_estimate(&[], &[], 0.95),
            Err(NotComputable::NotEnoughData { needed: 1, got: 0 })
        );
        let one = paired_estimate(&[0.5], &[1.0], 0.95).unwrap();
        assert_eq!(one.delta, 0.5);
        assert_eq!(
            one.t_interval,
            Err(NotComputable::NotEnoughData { needed: 2, got: 1 })
        );
        let equal = paired_estimate(&[0.1, 0.4], &[0.2, 0.5], 0.95).unwrap();
        assert_eq!(equal.sd, Ok(0.0));
        assert_eq!(equal.t_interval, Err(NotComputable::ZeroVariance));
        assert!(paired_estimate(&[0.1], &[0.2], 1.5).is_err());
    }

    #[test]
    fn t_test_degenerate_cases() {
        assert_eq!(
            paired_t_test(&[0.0, 0.0, 0.0]),
            Err(NotComputable::ZeroVariance)
        );
        assert_eq!(paired_t_test(&[0.3, 0.3]), Err(NotComputable::ZeroVariance));
        assert_eq!(
            paired_t_test(&[0.3]),
            Err(NotComputable::NotEnoughData { needed: 2, got: 1 })
        );
        assert_eq!(
            paired_t_test(&[f64::NAN, 1.0]),
            Err(NotComputable::NonFinite { index: 0 })
        );
    }
}
