#!/usr/bin/env python3
"""Reference values for Tango's score interval of a paired difference of proportions
(crates/core/src/stats/paired_binary.rs), and the exact coverage that justifies using it at
small n.

Writes crates/core/tests/data/paired_binary_reference.json, read by
crates/core/tests/paired_binary_reference.rs.

Computed independently of the Rust code's closed form:
  * the restricted MLE of the baseline-only cell under H0: delta = d0 is found by maximizing
    the multinomial log-likelihood numerically (scipy.optimize.minimize_scalar, bounded), not
    from Tango's quadratic;
  * the score statistic's variance is the multinomial variance of x12 - x21 at that MLE,
    n*((p12 + p21) - (p12 - p21)^2);
  * each bound is the root of |T(d0)| = z found by scipy.optimize.brentq;
  * T(0)^2 is checked against statsmodels' uncorrected McNemar chi-square statistic.
The coverage section enumerates every 2x2 table of n pairs under fixed cell probabilities and
sums the multinomial probabilities of the tables whose interval covers the true difference, for
Tango's interval and for the t interval on the per-task deltas (the CLT interval the report uses
for continuous rewards).

Usage: python3 scripts/reference/paired_binary_reference.py   (needs numpy, scipy, statsmodels)
"""

import json
import math
import pathlib

import numpy as np
import scipy
import scipy.stats as st
from scipy.optimize import brentq, minimize_scalar
import statsmodels
from statsmodels.stats.contingency_tables import mcnemar

OUT = (pathlib.Path(__file__).resolve().parents[2]
       / "crates/core/tests/data/paired_binary_reference.json")


def restricted_p21(x12, x21, n, d0):
    """argmax over p21 of the multinomial log-likelihood with p12 = p21 + d0 (concave in p21):
    the root of its derivative x12/(p21 + d0) + x21/p21 - 2*rest/(1 - 2*p21 - d0) by brentq,
    or an end of [max(0, -d0), (1 - d0)/2] when the derivative keeps one sign."""
    lo = max(0.0, -d0)
    hi = (1.0 - d0) / 2.0
    if hi - lo <= 0:
        return lo
    rest = n - x12 - x21

    def derivative(p21):
        # A cell with a count and no probability left pulls with infinite force.
        total = 0.0
        for count, p, sign in ((x12, p21 + d0, 1), (x21, p21, 1), (rest, 1.0 - 2 * p21 - d0, -2)):
            if count:
                total += sign * count / p if p > 0 else sign * math.inf
        return total

    span = hi - lo
    inner_lo, inner_hi = lo + span * 1e-15, hi - span * 1e-15
    if derivative(inner_lo) <= 0:
        return lo
    if derivative(inner_hi) >= 0:
        return hi
    return brentq(derivative, inner_lo, inner_hi, xtol=1e-17, rtol=4 * np.finfo(float).eps,
                  maxiter=500)


def score_statistic(x12, x21, n, d0):
    p21 = restricted_p21(x12, x21, n, d0)
    p12 = p21 + d0
    variance = n * ((p12 + p21) - (p12 - p21) ** 2)
    numerator = x12 - x21 - n * d0
    if variance <= 0:
        return 0.0 if numerator == 0 else math.copysign(math.inf, numerator)
    return numerator / math.sqrt(variance)


def tango_interval(x12, x21, n, level):
    z = st.norm.ppf(0.5 + level / 2)
    estimate = (x12 - x21) / n
    eps = 1e-12
    if estimate <= -1 + eps or score_statistic(x12, x21, n, -1 + eps) <= z:
        lower = -1.0
    else:
        lower = brentq(lambda d: score_statistic(x12, x21, n, d) - z, -1 + eps, estimate,
                       xtol=1e-15, rtol=4 * np.finfo(float).eps, maxiter=500)
    if estimate >= 1 - eps or score_statistic(x12, x21, n, 1 - eps) >= -z:
        upper = 1.0
    else:
        upper = brentq(lambda d: score_statistic(x12, x21, n, d) + z, estimate, 1 - eps,
                       xtol=1e-15, rtol=4 * np.finfo(float).eps, maxiter=500)
    return lower, upper


def t_interval(x12, x21, n, level):
    """The t interval of the mean per-task delta (d in {-1, 0, 1}), or None when sd = 0."""
    if n < 2:
        return None
    mean = (x12 - x21) / n
    ss = x12 * (1 - mean) ** 2 + x21 * (-1 - mean) ** 2 + (n - x12 - x21) * mean ** 2
    sd = math.sqrt(ss / (n - 1))
    if sd == 0:
        return None
    half = st.t.ppf(0.5 + level / 2, n - 1) * sd / math.sqrt(n)
    return mean - half, mean + half


def interval_cases():
    # (candidate_only x12, baseline_only x21, n): small and moderate n, both directions, no
    # discordant pair, every pair discordant, and the all-one-way extremes.
    tables = [(7, 2, 40), (2, 7, 40), (0, 0, 20), (1, 0, 1), (0, 1, 1), (3, 1, 4), (5, 0, 5),
              (0, 5, 5), (12, 3, 30), (1, 7, 21), (7, 1, 21), (40, 25, 200), (13, 17, 120),
              (60, 30, 400), (4, 4, 10), (10, 0, 10), (0, 10, 10), (1, 1, 2), (9, 1, 15),
              (2, 0, 164), (33, 21, 499)]
    out = []
    for x12, x21, n in tables:
        for level in (0.95, 0.9):
            lower, upper = tango_interval(x12, x21, n, level)
            entry = {"candidate_only": x12, "baseline_only": x21, "n": n, "level": level,
                     "lower": float(lower), "upper": float(upper),
                     "statistic_at_zero": float(score_statistic(x12, x21, n, 0.0))}
            if x12 + x21 > 0:
                chi2 = mcnemar([[0, x12], [x21, 0]], exact=False, correction=False).statistic
                assert abs(entry["statistic_at_zero"] ** 2 - chi2) < 1e-9 * max(1, chi2), (
                    x12, x21, chi2)
                entry["mcnemar_chi2_statsmodels"] = float(chi2)
            out.append(entry)
    return out


def coverage_cases():
    """Exact coverage of both intervals: both depend on the discordant counts only, so sum the
    trinomial probability of every (x12, x21, rest) of n pairs whose interval covers the truth."""
    settings = [
        # n, p12 (candidate only), p21 (baseline only); concordant pairs fill the rest
        (20, 0.15, 0.05),
        (30, 0.10, 0.10),
        (30, 0.05, 0.02),
        (50, 0.08, 0.03),
        (100, 0.20, 0.12),
    ]
    level = 0.95
    out = []
    for n, p12, p21 in settings:
        truth = p12 - p21
        covered = {"tango": 0.0, "t": 0.0}
        for x12 in range(n + 1):
            for x21 in range(n + 1 - x12):
                rest = n - x12 - x21
                prob = st.multinomial.pmf([x12, x21, rest], n, [p12, p21, 1 - p12 - p21])
                lo, hi = tango_interval(x12, x21, n, level)
                if lo <= truth <= hi:
                    covered["tango"] += prob
                t = t_interval(x12, x21, n, level)
                if t is not None and t[0] <= truth <= t[1]:
                    covered["t"] += prob
        out.append({"n": n, "p12": p12, "p21": p21, "level": level,
                    "tango_coverage": covered["tango"], "t_coverage": covered["t"]})
        print(f"n={n} p12={p12} p21={p21}: Tango {covered['tango']:.4f}, t {covered['t']:.4f}")
    return out


def main():
    data = {
        "generator": {"script": "scripts/reference/paired_binary_reference.py",
                      "scipy": scipy.__version__, "statsmodels": statsmodels.__version__,
                      "numpy": np.__version__},
        "intervals": interval_cases(),
        "coverage": coverage_cases(),
    }
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(data, indent=1) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
