//! An anytime-valid confidence sequence for the mean per-task delta of a running comparison:
//! intervals that hold their level simultaneously at every number of tasks, so a reader who
//! keeps looking while a run runs (and stops when the numbers look good) is not misled.
//!
//! Construction: the **predictable plug-in empirical-Bernstein** confidence sequence (PrPl-EB) of
//! Waudby-Smith & Ramdas (2024, *JRSSB* 86:1–27, Theorem 2), an instance of the
//! nonnegative-supermartingale framework of Howard, Ramdas, McAuliffe & Sekhon (2021, *Ann.
//! Statist.* 49:1055–1080). It suits bounded observations and adapts to their variance (most
//! per-task deltas are 0, where a Hoeffding-type bound with the worst-case variance is much
//! wider). A delta d ∈ [−1, 1] is mapped to x = (d + 1)/2 ∈ [0, 1]; with α = 1 − level,
//!
//! * bets λₜ = min(√(2 log(2/α) / (σ̂²ₜ₋₁ · t · log(1 + t))), c), truncation c = ½, from the
//!   regularized μ̂ₜ = (½ + Σᵢ≤ₜ xᵢ)/(t + 1) and σ̂²ₜ = (¼ + Σᵢ≤ₜ (xᵢ − μ̂ᵢ)²)/(t + 1) (priors ½, ¼);
//! * ψ(λ) = −log(1 − λ) − λ; variance increments vᵢ = (xᵢ − x̄ᵢ₋₁)² for the lower bound and
//!   ((1 − xᵢ) − (1 − x̄ᵢ₋₁))² for the upper, x̄ the plain running mean with x̄₀ = 0 on each side
//!   (so they differ only at the first task);
//! * lower = max(Σλᵢxᵢ/Σλᵢ − (log(2/α) + Σvᵢψ(λᵢ))/Σλᵢ, 0), the upper alike on 1 − x, each
//!   side at α/2, mapped back to Δ = 2x − 1.
//!
//! These are exactly the choices of `predmix_empbern_twosided_cs` in Howard's `confseq` package
//! (v0.0.11, without running intersection or finite-population correction), against which
//! `tests/confidence_sequence_reference.rs` checks it.
//!
//! The λ schedule ∝ 1/√(t log t) is the paper's anytime tuning: it is tuned for no particular
//! n (no intrinsic time to choose), and its width stays within a constant of the fixed-n t
//! interval's at every n: about 1.8–2.4 times it between 50 and 2,000 tasks (the reference's
//! table). No running intersection is taken, so Cₙ depends only on the first n deltas in the
//! given order.
//!
//! The guarantee is over the sequence in the order given: P(∀t: Δ ∈ Cₜ) ≥ level for i.i.d. (or
//! conditionally mean-Δ) deltas in that order. The report feeds paired tasks in ascending task
//! order (the trajectories carry no completion order here), which is deterministic, so the page
//! equals the CLI.

use super::interval::Interval;
use super::outcome::{NotComputable, Stat};
use super::validate::{check_finite, check_level};

/// The truncation c of the bets λₜ (Waudby-Smith & Ramdas recommend ½ or ¾).
pub const TRUNCATION: f64 = 0.5;

/// The prior mean of x = (d + 1)/2 (Δ = 0) before the first task.
const PRIOR_MEAN: f64 = 0.5;

/// The prior variance of x before the first task (the largest a [0, 1] variable can have).
const PRIOR_VARIANCE: f64 = 0.25;

/// The confidence sequence of Δ at the last task.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ConfidenceSequence {
    /// The anytime-valid interval of Δ after all the tasks (reward units).
    pub interval: Interval,
    /// Tasks seen.
    pub tasks: usize,
    /// The truncation c of the bets ([`TRUNCATION`]).
    pub truncation: f64,
}

/// The confidence sequence after the last of `deltas` (each in [−1, 1], in the order they
/// arrived) at `level`. See [`confidence_sequence_path`].
pub fn confidence_sequence(deltas: &[f64], level: f64) -> Stat<ConfidenceSequence> {
    let path = confidence_sequence_path(deltas, level)?;
    let interval = *path
        .last()
        .ok_or(NotComputable::NotEnoughData { needed: 1, got: 0 })?;
    Ok(ConfidenceSequence {
        interval,
        tasks: deltas.len(),
        truncation: TRUNCATION,
    })
}

/// The interval of Δ after each of `deltas` in turn: entry t − 1 is Cₜ. Needs at least one
/// delta, every one finite and in [−1, 1].
pub fn confidence_sequence_path(deltas: &[f64], level: f64) -> Stat<Vec<Interval>> {
    check_level(level)?;
    if deltas.is_empty() {
        return Err(NotComputable::NotEnoughData { needed: 1, got: 0 });
    }
    check_finite(deltas)?;
    if deltas.iter().any(|d| d.abs() > 1.0) {
        return Err(NotComputable::invalid(
            "deltas",
            "each per-task delta must lie in [-1, 1]",
        ));
    }
    let log_term = (2.0 / (1.0 - level)).ln();
    let mut path = Vec::with_capacity(deltas.len());
    // Running sums: of x (for μ̂ and x̄), of squared deviations (for σ̂²), of λ and λx, and of
    // vψ(λ) for each side.
    let (mut sum_x, mut sum_sq) = (0.0, 0.0);
    let (mut sum_lambda, mut sum_lambda_x) = (0.0, 0.0);
    let (mut penalty_lower, mut penalty_upper) = (0.0, 0.0);
    let mut variance_prev = PRIOR_VARIANCE;
    for (i, &delta) in deltas.iter().enumerate() {
        let t = (i + 1) as f64;
        let x = 0.5 * (delta + 1.0);
        let lambda = (2.0 * log_term / (t * (1.0 + t).ln() * variance_prev))
            .sqrt()
            .min(TRUNCATION);
        let penalty = psi(lambda);
        if i == 0 {
            penalty_lower += x * x * penalty;
            penalty_upper += (1.0 - x) * (1.0 - x) * penalty;
        } else {
            let deviation = x - sum_x / (t - 1.0);
            penalty_lower += deviation * deviation * penalty;
            penalty_upper += deviation * deviation * penalty;
        }
        sum_lambda += lambda;
        sum_lambda_x += lambda * x;
        let center = sum_lambda_x / sum_lambda;
        let lower = (center - (log_term + penalty_lower) / sum_lambda).max(0.0);
        let upper = (center + (log_term + penalty_upper) / sum_lambda).min(1.0);
        path.push(Interval {
            lower: 2.0 * lower - 1.0,
            upper: 2.0 * upper - 1.0,
            level,
        });
        sum_x += x;
        let mean = (PRIOR_MEAN + sum_x) / (t + 1.0);
        sum_sq += (x - mean) * (x - mean);
        variance_prev = (PRIOR_VARIANCE + sum_sq) / (t + 1.0);
    }
    Ok(path)
}

/// ψ(λ) = −log(1 − λ) − λ, the empirical-Bernstein penalty of a bet λ ∈ [0, 1).
fn psi(lambda: f64) -> f64 {
    -(-lambda).ln_1p() - lambda
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::bootstrap::Xoshiro256;
    use crate::stats::paired_estimate;

    /// Deltas in {−1, 0, 1}: candidate-only with probability `up`, baseline-only with `down`.
    fn ternary(rng: &mut Xoshiro256, n: usize, up: f64, down: f64) -> Vec<f64> {
        (0..n)
            .map(|_| {
                let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
                if u < up {
                    1.0
                } else if u < up + down {
                    -1.0
                } else {
                    0.0
                }
            })
            .collect()
    }

    fn t_interval(deltas: &[f64]) -> Interval {
        let zeros = vec![0.0; deltas.len()];
        paired_estimate(&zeros, deltas, 0.95)
            .unwrap()
            .t_interval
            .unwrap()
    }

    #[test]
    fn wider_than_the_fixed_n_t_interval() {
        let mut rng = Xoshiro256::from_seed(7);
        for n in [20, 50, 200, 1000] {
            let deltas = ternary(&mut rng, n, 0.2, 0.1);
            let cs = confidence_sequence(&deltas, 0.95).unwrap().interval;
            let t = t_interval(&deltas);
            assert!(cs.width() > t.width(), "n = {n}: {cs:?} vs {t:?}");
            assert!(cs.lower < t.lower && t.upper < cs.upper, "n = {n}");
        }
    }

    #[test]
    fn shrinks_with_n() {
        let mut rng = Xoshiro256::from_seed(11);
        let deltas = ternary(&mut rng, 2000, 0.15, 0.1);
        let path = confidence_sequence_path(&deltas, 0.95).unwrap();
        let width = |n: usize| path[n - 1].width();
        for (small, large) in [(10, 50), (50, 200), (200, 800), (800, 2000)] {
            assert!(width(large) < width(small), "{small} → {large}");
        }
        // About 1/√n: four times the tasks, roughly half the width (log factors aside).
        let ratio = width(2000) / width(500);
        assert!((0.4..0.65).contains(&ratio), "{ratio}");
    }

    #[test]
    fn contains_the_true_mean_at_every_n_at_the_stated_rate() {
        // 400 sequences of 1,000 tasks each; a sequence fails if any C_t (t = 1..1000) misses.
        let mut rng = Xoshiro256::from_seed(2021);
        for (up, down) in [(0.1, 0.1), (0.25, 0.05), (0.02, 0.0)] {
            let truth = up - down;
            let sequences = 400;
            let failures = (0..sequences)
                .filter(|_| {
                    let deltas = ternary(&mut rng, 1000, up, down);
                    let path = confidence_sequence_path(&deltas, 0.95).unwrap();
                    path.iter().any(|ci| !ci.contains(truth))
                })
                .count();
            // At most 5% in expectation; 9% allows for simulation noise (sd ≈ 1.1% at 400).
            assert!(
                (failures as f64) < 0.09 * sequences as f64,
                "up {up} down {down}: {failures} of {sequences} sequences missed"
            );
        }
    }

    #[test]
    fn the_fixed_n_t_interval_fails_this_test_when_looked_at_repeatedly() {
        // The property above is not trivial: watching the t interval at every n misses far more
        // often than 5% (the reason for the confidence sequence).
        let mut rng = Xoshiro256::from_seed(2021);
        let sequences = 200;
        let failures = (0..sequences)
            .filter(|_| {
                let deltas = ternary(&mut rng, 1000, 0.1, 0.1);
                (10..=1000).step_by(10).any(|n| {
                    let d = &deltas[..n];
                    d.iter().any(|&x| x != d[0]) && !t_interval(d).contains(0.0)
                })
            })
            .count();
        assert!(failures as f64 > 0.15 * sequences as f64, "{failures}");
    }

    #[test]
    fn stays_in_range_and_is_deterministic() {
        let all_up = vec![1.0; 30];
        let cs = confidence_sequence(&all_up, 0.95).unwrap();
        assert!(
            cs.interval.upper <= 1.0 && cs.interval.lower > 0.0,
            "{cs:?}"
        );
        assert_eq!(cs, confidence_sequence(&all_up, 0.95).unwrap());
        let one = confidence_sequence(&[0.0], 0.95).unwrap().interval;
        assert_eq!((one.lower, one.upper), (-1.0, 1.0));
    }

    #[test]
    fn bad_inputs_are_not_computable() {
        assert_eq!(
            confidence_sequence(&[], 0.95),
            Err(NotComputable::NotEnoughData { needed: 1, got: 0 })
        );
        assert!(confidence_sequence(&[0.5, 1.5], 0.95).is_err());
        assert!(confidence_sequence(&[0.5, f64::NAN], 0.95).is_err());
        assert!(confidence_sequence(&[0.5], 1.0).is_err());
    }
}
