//! Student's t distribution for any real degrees of freedom `df > 0`.

use super::normal;

use super::special::{incomplete_beta, incomplete_beta_half_large_a, ln_beta};
use crate::math;

/// From this many degrees of freedom on, the tail near the centre comes from the large-`a`
/// expansion of `I_x(a, ½)` rather than the continued fraction.
const LARGE_DF: f64 = 100.0;
use crate::stats::outcome::{NotComputable, Stat};

/// Student's t distribution with `df` degrees of freedom.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StudentT {
    df: f64,
}

/// The two tails at `|t|`: `outer = P(T ≥ |t|)` and `inner = P(T < |t|)`, each computed
/// directly so that neither suffers from `1 − x` cancellation.
#[derive(Debug, Clone, Copy)]
struct Tails {
    outer: f64,
    inner: f64,
}

impl StudentT {
    /// The distribution with `df` degrees of freedom; `df` must be finite and positive.
    pub fn new(df: f64) -> Stat<Self> {
        if df.is_finite() && df > 0.0 {
            Ok(Self { df })
        } else {
            Err(NotComputable::invalid("df", "must be finite and positive"))
        }
    }

    /// Degrees of freedom.
    pub fn df(&self) -> f64 {
        self.df
    }

    /// Density at `t`.
    pub fn pdf(&self, t: f64) -> f64 {
        let nu = self.df;
        math::exp(
            -ln_beta(0.5 * nu, 0.5)
                - 0.5 * math::ln(nu)
                - 0.5 * (nu + 1.0) * math::ln_1p(t * t / nu),
        )
    }

    /// Lower tail `P(T ≤ t)`. A NaN argument gives NaN.
    pub fn cdf(&self, t: f64) -> f64 {
        if t.is_nan() {
            return f64::NAN;
        }
        let tails = self.tails(t);
        if t <= 0.0 {
            tails.outer
        } else {
            tails.inner
        }
    }

    /// Upper tail `P(T > t)`. A NaN argument gives NaN.
    pub fn sf(&self, t: f64) -> f64 {
        self.cdf(-t)
    }

    /// Two-sided p-value `P(|T| ≥ |t|)`. A NaN argument gives NaN.
    pub fn two_sided_p(&self, t: f64) -> f64 {
        if t.is_nan() {
            return f64::NAN;
        }
        (2.0 * self.tails(t).outer).min(1.0)
    }

    /// Quantile: the `t` with `P(T ≤ t) = p`, for `0 < p < 1`.
    pub fn quantile(&self, p: f64) -> Stat<f64> {
        if !(p > 0.0 && p < 1.0) {
            return Err(NotComputable::invalid(
                "p",
                "must lie strictly between 0 and 1",
            ));
        }
        // Both p and 1 − p are exact here when p ≥ 0.5 (Sterbenz), so work on the smaller tail.
        let (tail, sign) = if p < 0.5 { (p, -1.0) } else { (1.0 - p, 1.0) };
        if tail == 0.5 {
            return Ok(0.0);
        }
        Ok(sign * self.upper_tail_quantile(tail))
    }

    /// Tails at `|t|` through `P(T ≥ |t|) = ½·I_x(df/2, ½)` with `x = df/(df + t²)`.
    fn tails(&self, t: f64) -> Tails {
        let nu = self.df;
        let t = t.abs();
        let t_sq = t * t;
        let (x, y) = if t_sq < nu {
            (nu / (nu + t_sq), t_sq / (nu + t_sq))
        } else {
            let ratio = nu / t / t;
            (ratio / (1.0 + ratio), 1.0 / (1.0 + ratio))
        };
        // −ln x, the distance of x from 1 on the log scale.
        let log_distance = if x < 0.5 {
            -math::ln(x)
        } else {
            -math::ln_1p(-y)
        };
        let outer = if nu >= LARGE_DF && log_distance <= 1.0 {
            0.5 * incomplete_beta_half_large_a(0.5 * nu, log_distance)
        } else {
            0.5 * incomplete_beta(0.5 * nu, 0.5, x, y).lower
        };
        // outer ≤ ½, so 1 − outer loses nothing.
        Tails {
            outer,
            inner: 1.0 - outer,
        }
    }

    /// The `t > 0` with `P(T ≥ t) = tail`, for `0 < tail < 0.5`.
    ///
    /// Safeguarded Newton on `ln P(T ≥ sinh s) − ln tail` in `s = asinh t`: the log of a
    /// polynomial tail is nearly linear in `s`, so few steps are needed even for `df = 1`;
    /// a bracket with bisection fallback guarantees convergence.
    fn upper_tail_quantile(&self, tail: f64) -> f64 {
        let target = math::ln(tail);
        let residual = |s: f64| math::ln(self.tails(math::sinh(s)).outer) - target;
        let mut lo = 0.0_f64;
        let mut hi = f64::INFINITY;
        let mut s = self.initial_guess(tail).asinh();
        for _ in 0..200 {
            let h = residual(s);
            if h == 0.0 {
                return math::sinh(s);
            }
            if h > 0.0 {
                lo = s;
            } else {
                hi = s;
            }
            let t = math::sinh(s);
            let slope = -math::cosh(s) * self.pdf(t) / self.tails(t).outer;
            let newton = s - h / slope;
            let next = if newton.is_finite() && newton > lo && newton < hi {
                newton
            } else if hi.is_finite() {
                0.5 * (lo + hi)
            } else {
                2.0 * s + 1.0
            };
            let converged =
                (next - s).abs() <= 1e-15 * next.abs() || (hi.is_finite() && hi - lo <= 1e-15 * hi);
            s = next;
            if converged {
                break;
            }
        }
        math::sinh(s)
    }

    /// Starting point for the quantile search: exact for df 1 and 2, Cornish–Fisher otherwise.
    fn initial_guess(&self, tail: f64) -> f64 {
        let nu = self.df;
        if nu == 1.0 {
            return 1.0 / math::tan(std::f64::consts::PI * tail);
        }
        if nu == 2.0 {
            return (1.0 - 2.0 * tail) / (2.0 * tail * (1.0 - tail)).sqrt();
        }
        let z = -normal::quantile(tail).unwrap_or(0.0);
        let z2 = z * z;
        let g1 = z * (z2 + 1.0) / 4.0;
        let g2 = z * ((5.0 * z2 + 16.0) * z2 + 3.0) / 96.0;
        let g3 = z * (((3.0 * z2 + 19.0) * z2 + 17.0) * z2 - 15.0) / 384.0;
        let g4 = z * ((((79.0 * z2 + 776.0) * z2 + 1482.0) * z2 - 1920.0) * z2 - 945.0) / 92160.0;
        let guess = z + (g1 + (g2 + (g3 + g4 / nu) / nu) / nu) / nu;
        if guess.is_finite() && guess > 0.0 {
            guess
        } else {
            z.max(1.0)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_bad_df() {
        assert!(StudentT::new(0.0).is_err());
        assert!(StudentT::new(f64::INFINITY).is_err());
        assert!(StudentT::new(f64::NAN).is_err());
    }

    #[test]
    fn cauchy_closed_form() {
        let t = StudentT::new(1.0).unwrap();
        for x in [-50.0, -1.0, 0.3, 7.0] {
            let exact = 0.5 + f64::atan(x) / std::f64::consts::PI;
            assert!((t.cdf(x) - exact).abs() < 1e-14, "x = {x}");
        }
        assert_eq!(t.cdf(0.0), 0.5);
        assert!((t.quantile(0.75).unwrap() - 1.0).abs() < 1e-14);
    }

    #[test]
    fn quantile_round_trips() {
        for df in [1.0, 2.0, 3.0, 7.5, 29.0, 1e3, 1e6] {
            let dist = StudentT::new(df).unwrap();
            for p in [1e-12, 0.001, 0.025, 0.4, 0.5, 0.9, 0.975] {
                let q = dist.quantile(p).unwrap();
                let (tail, back) = if p < 0.5 {
                    (p, dist.cdf(q))
                } else {
                    (1.0 - p, dist.sf(q))
                };
                assert!((back - tail).abs() <= 1e-12 * tail, "df = {df}, p = {p}");
            }
        }
    }
}
