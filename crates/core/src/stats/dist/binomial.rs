//! The binomial distribution and the exact two-sided binomial test.

use super::special::stirling_remainder;

use crate::math;
use crate::stats::outcome::{NotComputable, Stat};

/// `ln(2π)`.
const LN_TWO_PI: f64 = 1.837_877_066_409_345_5;
/// Relative tolerance scipy's `binomtest` uses when collecting outcomes "as extreme" as the
/// observed one.
const EXTREME_TOLERANCE: f64 = 1e-7;
/// Tail sums recompute the exact term this often to stop recurrence drift.
const RESYNC_EVERY: u64 = 64;

/// Binomial distribution with `n` trials and success probability `p`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Binomial {
    n: u64,
    p: f64,
    q: f64,
}

impl Binomial {
    /// The distribution `Bin(n, p)`; `p` must lie in `[0, 1]`.
    pub fn new(n: u64, p: f64) -> Stat<Self> {
        if (0.0..=1.0).contains(&p) {
            Ok(Self { n, p, q: 1.0 - p })
        } else {
            Err(NotComputable::invalid("p", "must lie in [0, 1]"))
        }
    }

    /// `P(X = k)` by Loader's saddle-point form, relatively accurate even for large `n`.
    pub fn pmf(&self, k: u64) -> f64 {
        let (n, p, q) = (self.n, self.p, self.q);
        if k > n {
            return 0.0;
        }
        if p == 0.0 {
            return if k == 0 { 1.0 } else { 0.0 };
        }
        if q == 0.0 {
            return if k == n { 1.0 } else { 0.0 };
        }
        let nf = n as f64;
        if k == 0 {
            return math::exp(nf * math::ln_1p(-p));
        }
        if k == n {
            return math::exp(nf * math::ln(p));
        }
        let kf = k as f64;
        let rest = (n - k) as f64;
        let log_core = stirling_remainder(nf)
            - stirling_remainder(kf)
            - stirling_remainder(rest)
            - deviance(kf, nf * p)
            - deviance(rest, nf * q);
        let log_width = LN_TWO_PI + math::ln(kf) + math::ln_1p(-kf / nf);
        math::exp(log_core - 0.5 * log_width)
    }

    /// `P(X ≤ k)`.
    pub fn cdf(&self, k: u64) -> f64 {
        if k >= self.n {
            return 1.0;
        }
        if (k as f64) <= self.mean() {
            self.sum_downward(k)
        } else {
            1.0 - self.sum_upward(k + 1)
        }
    }

    /// `P(X > k)`.
    pub fn sf(&self, k: u64) -> f64 {
        if k >= self.n {
            return 0.0;
        }
        if (k as f64) < self.mean() {
            1.0 - self.sum_downward(k)
        } else {
            self.sum_upward(k + 1)
        }
    }

    /// Mean `n·p`.
    pub fn mean(&self) -> f64 {
        self.n as f64 * self.p
    }

    /// `Σ_{j ≤ k} P(X = j)`, summed from `k` down while terms matter.
    fn sum_downward(&self, k: u64) -> f64 {
        if self.p == 0.0 {
            return 1.0;
        }
        let odds_down = self.q / self.p;
        let mut term = self.pmf(k);
        let mut sum = term;
        let mut j = k;
        while j > 0 && term > sum * 1e-17 {
            term *= j as f64 / (self.n - j + 1) as f64 * odds_down;
            j -= 1;
            if (k - j).is_multiple_of(RESYNC_EVERY) {
                term = self.pmf(j);
            }
            sum += term;
        }
        sum
    }

    /// `Σ_{j ≥ k} P(X = j)`, summed from `k` up while terms matter.
    fn sum_upward(&self, k: u64) -> f64 {
        if self.q == 0.0 {
            return 1.0;
        }
        let odds_up = self.p / self.q;
        let mut term = self.pmf(k);
        let mut sum = term;
        let mut j = k;
        while j < self.n && term > sum * 1e-17 {
            term *= (self.n - j) as f64 / (j + 1) as f64 * odds_up;
            j += 1;
            if (j - k).is_multiple_of(RESYNC_EVERY) {
                term = self.pmf(j);
            }
            sum += term;
        }
        sum
    }
}

/// Loader's deviance term `x·ln(x/m) + m − x`, by a series when `x ≈ m`.
fn deviance(x: f64, m: f64) -> f64 {
    if (x - m).abs() < 0.1 * (x + m) {
        let v = (x - m) / (x + m);
        let v_sq = v * v;
        let mut sum = (x - m) * v;
        let mut odd_power = 2.0 * x * v;
        let mut j = 1.0;
        loop {
            odd_power *= v_sq;
            let next = sum + odd_power / (2.0 * j + 1.0);
            if next == sum {
                return sum;
            }
            sum = next;
            j += 1.0;
        }
    }
    x * math::ln(x / m) + m - x
}

/// Exact two-sided binomial test of `k` successes in `n` trials against success probability
/// `p`, with scipy's `binomtest` convention: the p-value sums the probabilities of all outcomes
/// whose probability is at most `pmf(k)·(1 + 1e-7)`, capped at 1.
///
/// `n = 0` gives [`NotComputable::NotEnoughData`]; `k > n` or `p ∉ [0, 1]` give
/// [`NotComputable::InvalidParameter`].
pub fn binomial_test_two_sided(k: u64, n: u64, p: f64) -> Stat<f64> {
    if n == 0 {
        return Err(NotComputable::NotEnoughData { needed: 1, got: 0 });
    }
    if k > n {
        return Err(NotComputable::invalid("k", "must not exceed n"));
    }
    let dist = Binomial::new(n, p)?;
    let mean = dist.mean();
    let kf = k as f64;
    if kf == mean {
        return Ok(1.0);
    }
    let threshold = dist.pmf(k) * (1.0 + EXTREME_TOLERANCE);
    let p_value = if kf < mean {
        // The upper side is non-increasing from ceil(mean): find the first j with pmf ≤ threshold.
        let first = first_at_most(&dist, mean.ceil() as u64, n, threshold);
        let upper = match first {
            Some(j) if j > 0 => dist.sf(j - 1),
            Some(_) => 1.0,
            None => 0.0,
        };
        dist.cdf(k) + upper
    } else {
        // The lower side is non-decreasing up to floor(mean): find the last j with pmf ≤ threshold.
        let lower =
            last_at_most(&dist, mean.floor() as u64, threshold).map_or(0.0, |j| dist.cdf(j));
        let upper = if k == 0 { 1.0 } else { dist.sf(k - 1) };
        lower + upper
    };
    Ok(p_value.min(1.0))
}

/// Smallest `j ∈ [lo, hi]` with `pmf(j) ≤ threshold`, where pmf is non-increasing on the range.
fn first_at_most(dist: &Binomial, lo: u64, hi: u64, threshold: f64) -> Option<u64> {
    if lo > hi || dist.pmf(hi) > threshold {
        return None;
    }
    let (mut lo, mut hi) = (lo, hi);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if dist.pmf(mid) <= threshold {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    Some(lo)
}

/// Largest `j ∈ [0, hi]` with `pmf(j) ≤ threshold`, where pmf is non-decreasing on the range.
fn last_at_most(dist: &Binomial, hi: u64, threshold: f64) -> Option<u64> {
    if dist.pmf(0) > threshold {
        return None;
    }
    let (mut lo, mut hi) = (0, hi);
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        if dist.pmf(mid) <= threshold {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    Some(lo)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pmf_matches_direct_formula_and_sums_to_one() {
        let dist = Binomial::new(10, 0.3).unwrap();
        // C(10,3) 0.3^3 0.7^7
        let direct = 120.0 * math::powi(0.3f64, 3) * math::powi(0.7f64, 7);
        assert!((dist.pmf(3) - direct).abs() < 1e-15);
        let total: f64 = (0..=10).map(|k| dist.pmf(k)).sum();
        assert!((total - 1.0).abs() < 1e-14);
        assert!((dist.cdf(4) + dist.sf(4) - 1.0).abs() < 1e-15);
    }

    #[test]
    fn degenerate_probabilities() {
        let zero = Binomial::new(5, 0.0).unwrap();
        assert_eq!((zero.pmf(0), zero.cdf(0), zero.sf(0)), (1.0, 1.0, 0.0));
        let one = Binomial::new(5, 1.0).unwrap();
        assert_eq!((one.pmf(5), one.cdf(4), one.sf(4)), (1.0, 0.0, 1.0));
        assert!(Binomial::new(5, 1.5).is_err());
    }

    #[test]
    fn two_sided_test_symmetric_case() {
        // Bin(10, 0.5), k = 2: P(X ≤ 2) + P(X ≥ 8) = 2·56/1024.
        let p = binomial_test_two_sided(2, 10, 0.5).unwrap();
        assert!((p - 112.0 / 1024.0).abs() < 1e-15);
        assert_eq!(binomial_test_two_sided(5, 10, 0.5), Ok(1.0));
        assert!(binomial_test_two_sided(0, 0, 0.5).is_err());
        assert!(binomial_test_two_sided(3, 2, 0.5).is_err());
    }
}
