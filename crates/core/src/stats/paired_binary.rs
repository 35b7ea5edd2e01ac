//! Tango's score interval for the difference of two paired proportions (Tango 1998, Statistics
//! in Medicine 17:891–908): one binary outcome per task in each run, Δ = p_cand − p_base.
//!
//! It inverts the score test of H₀: Δ = Δ₀ with the restricted maximum-likelihood estimate of
//! the discordant cell under H₀, so it holds its level at small n where the CLT (Wald or t)
//! interval under-covers (Fagerland, Lydersen & Laake 2014 recommend it; Bowyer, Aitchison &
//! Ivanova 2025 show the CLT interval's failure on evals of a few hundred tasks). At Δ₀ = 0 its
//! statistic is McNemar's uncorrected one, (c − b)/√(b + c).

use super::dist::normal;
use super::interval::Interval;
use super::outcome::{NotComputable, Stat};
use super::validate::check_level;

/// Bisection steps: far more than needed for the two bounds to reach adjacent doubles.
const BISECTION_STEPS: u32 = 200;

/// Tango's score statistic T(Δ₀) for `candidate_only` = x₁₂ (candidate passes, baseline
/// fails) and `baseline_only` = x₂₁ of `n` pairs: (x₁₂ − x₂₁ − nΔ₀) / √(n(2p̃₂₁ + Δ₀(1 − Δ₀))),
/// where p̃₂₁ is the restricted MLE of the baseline-only cell under Δ = Δ₀. A zero denominator
/// gives ±∞ by the numerator's sign (0 when both are 0).
pub fn tango_statistic(candidate_only: u64, baseline_only: u64, n: u64, delta0: f64) -> f64 {
    let (x12, x21, n) = (candidate_only as f64, baseline_only as f64, n as f64);
    let a = 2.0 * n;
    let b = -x12 - x21 + (2.0 * n - x12 + x21) * delta0;
    let c = -x21 * delta0 * (1.0 - delta0);
    let discriminant = (b * b - 4.0 * a * c).max(0.0);
    let p21 = (-b + discriminant.sqrt()) / (2.0 * a);
    let numerator = x12 - x21 - n * delta0;
    let variance = (n * (2.0 * p21 + delta0 * (1.0 - delta0))).max(0.0);
    if variance == 0.0 {
        return if numerator == 0.0 {
            0.0
        } else {
            numerator.signum() * f64::INFINITY
        };
    }
    numerator / variance.sqrt()
}

/// Tango's two-sided score interval at `level` for Δ = (candidate_only − baseline_only) / n:
/// the Δ₀ in [−1, 1] with |T(Δ₀)| ≤ z₁₋α/₂, each bound found by bisection (T decreases in Δ₀).
/// Needs n ≥ 1 and at most n discordant pairs.
pub fn tango_interval(
    candidate_only: u64,
    baseline_only: u64,
    n: u64,
    level: f64,
) -> Stat<Interval> {
    check_level(level)?;
    if n == 0 {
        return Err(NotComputable::NotEnoughData { needed: 1, got: 0 });
    }
    if candidate_only
        .checked_add(baseline_only)
        .is_none_or(|discordant| discordant > n)
    {
        return Err(NotComputable::invalid(
            "counts",
            "more discordant pairs than pairs",
        ));
    }
    let z = normal::quantile(0.5 + 0.5 * level)?;
    let estimate = (candidate_only as f64 - baseline_only as f64) / n as f64;
    let t = |delta0: f64| tango_statistic(candidate_only, baseline_only, n, delta0);
    // Lower bound: T(Δ₀) = z on [−1, Δ̂] (T(Δ̂) = 0 < z); −1 when T stays above z there.
    let lower = if t(-1.0) <= z {
        -1.0
    } else {
        bisect(-1.0, estimate, |d| t(d) > z)
    };
    // Upper bound: T(Δ₀) = −z on [Δ̂, 1].
    let upper = if t(1.0) >= -z {
        1.0
    } else {
        bisect(estimate, 1.0, |d| t(d) >= -z)
    };
    Ok(Interval {
        lower,
        upper,
        level,
    })
}

/// The boundary in [lo, hi] where `left_side` turns from true (at lo) to false (at hi).
fn bisect(mut lo: f64, mut hi: f64, left_side: impl Fn(f64) -> bool) -> f64 {
    for _ in 0..BISECTION_STEPS {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if left_side(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_statistic_at_zero_is_mcnemars() {
        // (c − b)/√(b + c) with c = 7 candidate-only, b = 2 baseline-only.
        let t = tango_statistic(7, 2, 40, 0.0);
        assert!((t - 5.0 / 3.0).abs() < 1e-15, "{t}");
        assert_eq!(tango_statistic(0, 0, 10, 0.0), 0.0);
    }

    #[test]
    fn no_discordant_pair_gives_a_wilson_like_interval_around_zero() {
        // b = c = 0: the bounds solve nΔ/(1 − Δ) = z², Δ = z²/(n + z²).
        let ci = tango_interval(0, 0, 20, 0.95).unwrap();
        let z = normal::quantile(0.975).unwrap();
        let bound = z * z / (20.0 + z * z);
        assert!((ci.upper - bound).abs() < 1e-12, "{ci:?}");
        assert!((ci.lower + bound).abs() < 1e-12, "{ci:?}");
    }

    #[test]
    fn bounds_stay_in_range_and_contain_the_estimate() {
        for (c, b, n) in [(5, 0, 5), (0, 5, 5), (3, 1, 4), (1, 0, 1), (12, 3, 30)] {
            let ci = tango_interval(c, b, n, 0.95).unwrap();
            let estimate = (c as f64 - b as f64) / n as f64;
            assert!(-1.0 <= ci.lower && ci.upper <= 1.0, "{ci:?}");
            assert!(ci.contains(estimate), "{c} {b} {n}: {ci:?}");
        }
        assert_eq!(tango_interval(5, 0, 5, 0.95).unwrap().upper, 1.0);
    }

    #[test]
    fn bad_inputs_are_not_computable() {
        assert_eq!(
            tango_interval(0, 0, 0, 0.95),
            Err(NotComputable::NotEnoughData { needed: 1, got: 0 })
        );
        assert!(tango_interval(4, 3, 6, 0.95).is_err());
        assert!(tango_interval(1, 1, 6, 1.5).is_err());
    }
}
