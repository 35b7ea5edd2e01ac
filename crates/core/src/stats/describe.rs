//! Descriptive statistics of one sample: mean, variance (ddof 1), standard error, correlation.

use serde::{Deserialize, Serialize};

use super::outcome::{NotComputable, Stat};
use super::validate::{check_count, check_finite, check_same_length};

/// Mean, spread and standard error of a sample of per-task values.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Number of values.
    pub n: usize,
    /// Arithmetic mean.
    pub mean: f64,
    /// Sample standard deviation (ddof 1); needs n ≥ 2.
    pub sd: Stat<f64>,
    /// Standard error of the mean, `sd / √n`; needs n ≥ 2.
    pub se: Stat<f64>,
}

/// Mean, sd and SE of `values`; needs at least one finite value.
pub fn summarize(values: &[f64]) -> Stat<Summary> {
    Ok(Summary {
        n: values.len(),
        mean: mean(values)?,
        sd: sample_sd(values),
        se: standard_error(values),
    })
}

/// Arithmetic mean (compensated summation); needs n ≥ 1 finite values.
pub fn mean(values: &[f64]) -> Stat<f64> {
    check_finite(values)?;
    check_count(1, values.len())?;
    Ok(mean_of_finite(values))
}

/// Sample variance with ddof 1; needs n ≥ 2. Exactly 0 when all values are equal.
pub fn sample_variance(values: &[f64]) -> Stat<f64> {
    check_finite(values)?;
    check_count(2, values.len())?;
    Ok(variance_of_finite(values))
}

/// Sample standard deviation with ddof 1; needs n ≥ 2.
pub fn sample_sd(values: &[f64]) -> Stat<f64> {
    sample_variance(values).map(f64::sqrt)
}

/// Standard error of the mean `sqrt(Σ(x − x̄)² / (n(n−1)))`; needs n ≥ 2.
pub fn standard_error(values: &[f64]) -> Stat<f64> {
    sample_variance(values).map(|v| (v / values.len() as f64).sqrt())
}

/// Pearson correlation of paired values.
///
/// Needs n ≥ 2; [`NotComputable::ZeroVariance`] when either side is constant (the correlation
/// is undefined, not zero). The result is clamped to `[-1, 1]` against rounding.
pub fn pearson_correlation(x: &[f64], y: &[f64]) -> Stat<f64> {
    check_same_length(x.len(), y.len())?;
    check_finite(x)?;
    check_finite(y)?;
    check_count(2, x.len())?;
    if all_equal(x) || all_equal(y) {
        return Err(NotComputable::ZeroVariance);
    }
    let (mx, my) = (mean_of_finite(x), mean_of_finite(y));
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for (a, b) in x.iter().zip(y) {
        let (dx, dy) = (a - mx, b - my);
        sxy += dx * dy;
        sxx += dx * dx;
        syy += dy * dy;
    }
    Ok((sxy / (sxx.sqrt() * syy.sqrt())).clamp(-1.0, 1.0))
}

/// Neumaier-compensated sum (accurate and symmetric under negation of every value).
pub(crate) fn compensated_sum(values: impl IntoIterator<Item = f64>) -> f64 {
    let mut sum = 0.0_f64;
    let mut compensation = 0.0_f64;
    for v in values {
        let t = sum + v;
        if sum.abs() >= v.abs() {
            compensation += (sum - t) + v;
        } else {
            compensation += (v - t) + sum;
        }
        sum = t;
    }
    sum + compensation
}

/// Mean of a non-empty slice of finite values.
pub(crate) fn mean_of_finite(values: &[f64]) -> f64 {
    compensated_sum(values.iter().copied()) / values.len() as f64
}

/// Variance (ddof 1) of at least two finite values; exactly 0 when all are equal.
pub(crate) fn variance_of_finite(values: &[f64]) -> f64 {
    if all_equal(values) {
        return 0.0;
    }
    let m = mean_of_finite(values);
    compensated_sum(values.iter().map(|v| (v - m) * (v - m))) / (values.len() - 1) as f64
}

/// True when every value equals the first (or the slice is empty).
pub(crate) fn all_equal(values: &[f64]) -> bool {
    values.windows(2).all(|w| w[0] == w[1])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_of_small_sample() {
        let s = summarize(&[1.0, 2.0, 3.0, 4.0]).unwrap();
        assert_eq!(s.n, 4);
        assert_eq!(s.mean, 2.5);
        assert!((s.sd.unwrap() - (5.0f64 / 3.0).sqrt()).abs() < 1e-15);
        assert!((s.se.unwrap() - (5.0f64 / 12.0).sqrt()).abs() < 1e-15);
    }

    #[test]
    fn degenerate_samples_are_explicit() {
        assert_eq!(
            mean(&[]),
            Err(NotComputable::NotEnoughData { needed: 1, got: 0 })
        );
        let one = summarize(&[0.7]).unwrap();
        assert_eq!(
            one.sd,
            Err(NotComputable::NotEnoughData { needed: 2, got: 1 })
        );
        assert_eq!(sample_variance(&[0.1, 0.1, 0.1]), Ok(0.0));
        assert_eq!(
            mean(&[1.0, f64::INFINITY]),
            Err(NotComputable::NonFinite { index: 1 })
        );
    }

    #[test]
    fn correlation_cases() {
        let r = pearson_correlation(&[1.0, 2.0, 3.0], &[2.0, 4.0, 6.5]).unwrap();
        assert!(r > 0.99 && r <= 1.0);
        let r = pearson_correlation(&[1.0, 2.0, 3.0], &[3.0, 2.0, 1.0]).unwrap();
        assert!((r + 1.0).abs() < 1e-15);
        assert_eq!(
            pearson_correlation(&[1.0, 1.0], &[0.0, 1.0]),
            Err(NotComputable::ZeroVariance)
        );
    }
}
