//! The standard normal distribution: density, both tails and the quantile function.

use super::special::erfc;

use crate::math;
use crate::stats::outcome::{NotComputable, Stat};

/// `1 / sqrt(2π)`.
const FRAC_1_SQRT_TWO_PI: f64 = 0.398_942_280_401_432_7;

/// Density `φ(z)`.
pub fn pdf(z: f64) -> f64 {
    FRAC_1_SQRT_TWO_PI * math::exp(-0.5 * z * z)
}

/// Lower tail `Φ(z) = P(Z ≤ z)`, relatively accurate down to the underflow limit.
/// A NaN argument gives NaN.
pub fn cdf(z: f64) -> f64 {
    0.5 * erfc(-z / std::f64::consts::SQRT_2)
}

/// Upper tail `1 − Φ(z) = P(Z > z)`, relatively accurate (no `1 − cdf` cancellation).
pub fn sf(z: f64) -> f64 {
    0.5 * erfc(z / std::f64::consts::SQRT_2)
}

/// Two-sided p-value `2·P(Z > |z|)` of a z statistic.
pub fn two_sided_p(z: f64) -> f64 {
    (2.0 * sf(z.abs())).min(1.0)
}

/// Quantile `Φ⁻¹(p)` for `0 < p < 1`; other `p` give [`NotComputable::InvalidParameter`].
///
/// Starts from Abramowitz & Stegun 26.2.23 (error below 4.5e-4) and refines with Halley steps on
/// the lower tail, so the result is accurate to a few ulps for `p ≥ 1e-300`.
pub fn quantile(p: f64) -> Stat<f64> {
    if !(p > 0.0 && p < 1.0) {
        return Err(NotComputable::invalid(
            "p",
            "must lie strictly between 0 and 1",
        ));
    }
    if p > 0.5 {
        // 1 − p is exact for p in [0.5, 1] (Sterbenz), so the symmetry loses nothing.
        return Ok(-lower_quantile(1.0 - p));
    }
    Ok(lower_quantile(p))
}

/// `Φ⁻¹(p)` for `0 < p ≤ 0.5`.
fn lower_quantile(p: f64) -> f64 {
    if p == 0.5 {
        return 0.0;
    }
    let t = (-2.0 * math::ln(p)).sqrt();
    let numerator = 2.515_517 + t * (0.802_853 + t * 0.010_328);
    let denominator = 1.0 + t * (1.432_788 + t * (0.189_269 + t * 0.001_308));
    let mut z = -(t - numerator / denominator);
    for _ in 0..8 {
        let density = pdf(z);
        if density == 0.0 {
            break;
        }
        let ratio = (cdf(z) - p) / density;
        let step = ratio / (1.0 + 0.5 * z * ratio);
        z -= step;
        if step.abs() <= 1e-15 * z.abs().max(1e-300) {
            break;
        }
    }
    z
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tails_are_symmetric_and_known() {
        assert_eq!(cdf(0.0), 0.5);
        assert_eq!(cdf(-1.3), sf(1.3));
        let reference = 0.975_002_104_851_780_1; // Φ(1.96)
        assert!((cdf(1.96) - reference).abs() < 1e-15);
        assert!(two_sided_p(0.0) == 1.0);
    }

    #[test]
    fn quantile_round_trips_and_rejects_bad_levels() {
        for p in [
            1e-300,
            1e-20,
            1e-5,
            0.025,
            0.3,
            0.5,
            0.8,
            0.975,
            1.0 - 1e-12,
        ] {
            let z = quantile(p).unwrap();
            let (tail, back) = if p < 0.5 {
                (p, cdf(z))
            } else {
                (1.0 - p, sf(z))
            };
            assert!((back - tail).abs() <= 1e-13 * tail, "p = {p}");
        }
        assert!((quantile(0.975).unwrap() - 1.959_963_984_540_054).abs() < 4e-15);
        assert!(quantile(0.0).is_err());
        assert!(quantile(1.0).is_err());
        assert!(quantile(f64::NAN).is_err());
    }
}
