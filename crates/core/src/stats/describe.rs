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
    check_finite(values)?;
    check_count(1, values.len())?;
    let moments = Moments::of_finite(values);
    Ok(Summary {
        n: values.len(),
        mean: moments.mean,
        sd: moments.sample_variance().map(f64::sqrt),
        se: moments.standard_error(),
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
    let (x_moments, y_moments) = (Moments::of_finite(x), Moments::of_finite(y));
    let mut sums = CrossSums::default();
    for (a, b) in x.iter().zip(y) {
        sums.add(a - x_moments.mean, b - y_moments.mean);
    }
    sums.correlation(&x_moments, &y_moments)
}

/// The plain sums of products of deviations from the means that the Pearson correlation adds
/// up, value by value in order.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct CrossSums {
    xy: f64,
    xx: f64,
    yy: f64,
}

impl CrossSums {
    /// Adds one pair's deviations from the means.
    #[inline]
    pub(crate) fn add(&mut self, dx: f64, dy: f64) {
        self.xy += dx * dy;
        self.xx += dx * dx;
        self.yy += dy * dy;
    }

    /// [`pearson_correlation`] of the pairs added, given each side's moments.
    pub(crate) fn correlation(&self, x: &Moments, y: &Moments) -> Stat<f64> {
        check_count(2, x.n)?;
        // Deviations too small to square (below ~1e-154) sum to a zero spread: undefined too.
        let spread = self.xx.sqrt() * self.yy.sqrt();
        if x.all_equal || y.all_equal || spread == 0.0 {
            return Err(NotComputable::ZeroVariance);
        }
        Ok((self.xy / spread).clamp(-1.0, 1.0))
    }
}

/// Mean and ddof-1 variance of finite values, each computed once with the same sums as
/// [`mean_of_finite`] and [`variance_of_finite`]: statistics that need both, or need them for
/// several purposes, read them here and agree bit for bit with computing each separately.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Moments {
    /// Number of values.
    pub(crate) n: usize,
    /// [`mean_of_finite`] (NaN when there is no value: callers check the count first).
    pub(crate) mean: f64,
    /// [`variance_of_finite`] (meaningful from two values on).
    pub(crate) variance: f64,
    /// Whether every value is the same (vacuously true below two values).
    pub(crate) all_equal: bool,
}

impl Moments {
    /// The moments of `values`, which the caller has checked are finite.
    pub(crate) fn of_finite(values: &[f64]) -> Moments {
        let mean = mean_of_finite(values);
        let all_equal = all_equal(values);
        let squares = if all_equal {
            0.0
        } else {
            squared_deviations(values, mean)
        };
        Moments::from_sums(values.len(), mean, all_equal, squares)
    }

    /// The moments of `n` values from their mean, whether they are all equal and the
    /// compensated sum of their squared deviations from the mean.
    pub(crate) fn from_sums(n: usize, mean: f64, all_equal: bool, squares: f64) -> Moments {
        Moments {
            n,
            mean,
            variance: if all_equal {
                0.0
            } else {
                squares / (n - 1) as f64
            },
            all_equal,
        }
    }

    /// [`sample_variance`]: the variance, from two values on.
    pub(crate) fn sample_variance(&self) -> Stat<f64> {
        check_count(2, self.n)?;
        Ok(self.variance)
    }

    /// [`standard_error`]: `sqrt(variance / n)`, from two values on.
    pub(crate) fn standard_error(&self) -> Stat<f64> {
        self.sample_variance()
            .map(|variance| (variance / self.n as f64).sqrt())
    }
}

/// Neumaier-compensated sum (accurate and symmetric under negation of every value).
pub(crate) fn compensated_sum(values: impl IntoIterator<Item = f64>) -> f64 {
    let mut sum = CompensatedSum::default();
    for v in values {
        sum.add(v);
    }
    sum.total()
}

/// [`compensated_sum`] one value at a time, so that several sums can share a pass over data.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct CompensatedSum {
    sum: f64,
    compensation: f64,
}

impl CompensatedSum {
    /// Adds one value.
    #[inline]
    pub(crate) fn add(&mut self, v: f64) {
        let t = self.sum + v;
        if self.sum.abs() >= v.abs() {
            self.compensation += (self.sum - t) + v;
        } else {
            self.compensation += (v - t) + self.sum;
        }
        self.sum = t;
    }

    /// The sum of the values added so far.
    pub(crate) fn total(&self) -> f64 {
        self.sum + self.compensation
    }
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
    squared_deviations(values, m) / (values.len() - 1) as f64
}

/// Compensated sum of squared deviations from `mean`.
fn squared_deviations(values: &[f64], mean: f64) -> f64 {
    compensated_sum(values.iter().map(|v| (v - mean) * (v - mean)))
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
    fn correlation_of_deviations_that_square_to_zero_is_undefined_not_nan() {
        // Found by tests/fuzz_report.rs: rewards 0 and 2.2e-308 made the correlation NaN, which
        // the report wrote as `{"Ok": null}` and could not read back.
        let tiny = f64::MIN_POSITIVE;
        let r = pearson_correlation(&[0.0, tiny, 0.0], &[tiny, 0.0, 0.0]);
        assert_eq!(r, Err(NotComputable::ZeroVariance));
        let r = pearson_correlation(&[0.0, 1e-100, 0.0], &[1e-100, 0.0, 0.0]).unwrap();
        assert!((r + 0.5).abs() < 1e-12, "{r}");
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
