#!/usr/bin/env python3
"""Reference values for the statistics engine (crates/core/src/stats).

Writes crates/core/tests/data/stats_reference.json, read by crates/core/tests/stats_reference.rs.

Sources:
  * normal and Student t tails and quantiles: mpmath at 50 significant digits (true values);
    scipy's own values are compared with them and the largest disagreement is printed;
  * binomial pmf/cdf/sf and binomtest: scipy.stats;
  * paired estimates, t-test, Wilcoxon, sign test: scipy.stats (1.17);
  * McNemar exact: statsmodels mcnemar(exact=True); mid-p from scipy's binomial;
  * Holm: statsmodels multipletests(method='holm'); BH: scipy false_discovery_control, checked
    against statsmodels fdr_bh;
  * cluster-robust SE: statsmodels OLS on a constant, cov_type='cluster', use_t=True;
  * bootstrap: scipy.stats.bootstrap with a large B (a tolerance check, the RNGs differ);
  * pass@k: exact rational arithmetic with math.comb.

Usage: python3 scripts/reference/stats_reference.py   (needs numpy, scipy, statsmodels, mpmath)
Inputs are generated from fixed numpy seeds, so reruns give the same file.
"""

import json
import math
import pathlib
from fractions import Fraction

import mpmath as mp
import numpy as np
import scipy
import scipy.stats as st
import statsmodels
import statsmodels.api as sm
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.multitest import multipletests

mp.mp.dps = 50
OUT = pathlib.Path(__file__).resolve().parents[2] / "crates/core/tests/data/stats_reference.json"


def fnum(x):
    """A float for JSON, or None for NaN/inf (the Rust side expects a 'not computable' state)."""
    x = float(x)
    return x if math.isfinite(x) else None


def round_delta(d):
    """Same rounding as the Rust side: to the nearest 1e-9 (inputs never hit a half step)."""
    return np.round(np.asarray(d, dtype=float) * 1e9) / 1e9


# ---------------------------------------------------------------- distributions (mpmath truth)

def mp_normal_cdf(x):
    return mp.ncdf(mp.mpf(x))


def mp_t_outer(df, t):
    """P(T >= |t|) = I_x(df/2, 1/2)/2 with x = df/(df+t^2), by mpmath's betainc: directly for
    x < 1/2, and as (1 - I_y(1/2, df/2))/2 with y = 1 - x otherwise, at a working precision that
    absorbs the cancellation (40 digits beyond the tail's magnitude)."""
    if t == 0:
        return mp.mpf(1) / 2
    estimate = st.t.sf(abs(float(t)), float(df))
    if estimate < 1e-295:
        return mp.mpf(0)  # far below the double range (scipy is off by percents, not decades)
    digits = int(max(50, -math.log10(estimate) + 40))
    with mp.workdps(digits):
        df, t = mp.mpf(df), mp.mpf(abs(t))
        x = df / (df + t * t)
        if x < 0.5:
            value = mp.betainc(df / 2, mp.mpf(1) / 2, 0, x, regularized=True) / 2
        else:
            y = t * t / (df + t * t)
            try:
                value = (1 - mp.betainc(mp.mpf(1) / 2, df / 2, 0, y, regularized=True)) / 2
            except mp.libmp.libhyper.NoConvergence:
                value = mp_t_outer_by_quadrature(df, t)
    return +value


def mp_t_outer_by_quadrature(df, t):
    """P(T >= t) by quadrature over short steps (the local scale of the log-density), so each
    piece is smooth even where the density falls by hundreds of orders of magnitude."""
    log_norm = mp.loggamma((df + 1) / 2) - mp.loggamma(df / 2) - mp.log(df * mp.pi) / 2
    log_density = lambda s: log_norm - (df + 1) / 2 * mp.log1p(s * s / df)
    points = [t]
    while log_density(points[-1]) > log_density(t) - 150:
        s = points[-1]
        points.append(s + (df + s * s) / ((df + 1) * s))
    points.append(mp.inf)
    return mp.quad(lambda s: mp.exp(log_density(s)), points)


def mp_t_cdf(df, t):
    outer = mp_t_outer(df, t)
    return outer if t <= 0 else 1 - outer


def normal_section(report):
    xs = [-37.5, -20.0, -8.3, -5.0, -1.96, -1.0, -0.1, 0.0, 0.5, 1.2, 3.0, 6.0, 9.0, 20.0]
    cdf = []
    for x in xs:
        c, s = mp_normal_cdf(x), mp_normal_cdf(-x)
        report["normal_scipy_max_rel"] = max(
            report.get("normal_scipy_max_rel", 0.0),
            float(abs(mp.mpf(st.norm.cdf(x)) - c) / c) if c > 0 else 0.0)
        cdf.append({"x": x, "cdf": float(c), "sf": float(s)})
    ps = [1e-300, 1e-100, 1e-20, 1e-10, 1e-5, 0.001, 0.025, 0.1, 0.3, 0.5, 0.7, 0.8, 0.9,
          0.975, 0.999, 1 - 1e-10]
    quantiles = []
    for p in ps:
        tail = min(p, 1 - p)  # solve on the smaller tail: ncdf(q) = tail, q <= 0
        q = mp.findroot(lambda x: mp.log(mp.ncdf(x)) - mp.log(tail), mp.mpf(st.norm.ppf(tail)))
        quantiles.append({"p": p, "quantile": float(q if p <= 0.5 else -q)})
    return {"cdf": cdf, "quantile": quantiles}


def student_t_section(report):
    dfs = [1, 2, 3, 4.5, 7, 10, 29, 30, 99, 100, 101, 1000, 1e4, 1e5, 1e6, 1e8, 1e10]
    ts = [0.0, 0.05, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 5.0, 10.0, 30.0, 100.0, 1e4]
    cdf = []
    worst = 0.0
    for df in dfs:
        for t in ts:
            for signed in (t, -t) if t else (t,):
                c = mp_t_cdf(df, signed)
                outer = mp_t_outer(df, signed)
                if float(outer) < 1e-290:
                    continue  # underflow region: both sides are 0
                scipy_two = st.t.sf(abs(signed), df) * 2
                worst = max(worst, float(abs(mp.mpf(scipy_two) - 2 * outer) / (2 * outer)))
                sf = outer if signed > 0 else 1 - outer
                cdf.append({"df": df, "t": signed, "cdf": float(c), "sf": float(sf),
                            "two_sided_p": float(min(1, 2 * outer))})
    report["student_t_scipy_two_sided_max_rel"] = worst
    ps = [1e-12, 1e-6, 0.001, 0.025, 0.05, 0.3, 0.5, 0.6, 0.9, 0.975, 0.995]
    quantiles = []
    for df in [1, 2, 3, 4.5, 9, 29, 99, 100, 1000, 1e5, 1e8]:
        for p in ps:
            start = st.t.ppf(p, df)
            if p == 0.5:
                q = mp.mpf(0)
            else:
                try:
                    q = mp.findroot(lambda t: mp_t_cdf(df, t) - p, mp.mpf(start))
                except mp.libmp.libhyper.NoConvergence:
                    report.setdefault("t_quantiles_skipped", []).append([df, p])
                    continue
            quantiles.append({"df": df, "p": p, "quantile": float(q)})
    return {"cdf": cdf, "quantile": quantiles}


def binomial_section():
    cases = []
    for n, p in [(1, 0.5), (5, 0.5), (10, 0.3), (20, 0.5), (50, 0.1), (100, 0.37), (1000, 0.5),
                 (10000, 0.37), (100000, 0.5), (100000, 0.9)]:
        ks = sorted({0, 1, n // 10, n // 3, n // 2, int(n * p), int(n * p) + 1, n - 1, n})
        for k in ks:
            if k > n:
                continue
            cases.append({"n": n, "p": p, "k": k, "pmf": float(st.binom.pmf(k, n, p)),
                          "cdf": float(st.binom.cdf(k, n, p)),
                          "sf": float(st.binom.sf(k, n, p))})
    tests = []
    for k, n, p in [(3, 10, 0.3), (7, 10, 0.3), (0, 10, 0.3), (10, 10, 0.3), (2, 5, 0.5),
                    (5, 5, 0.5), (51, 100, 0.37), (25, 100, 0.37), (4000, 10000, 0.37),
                    (30, 1000, 0.02), (12, 1000, 0.02), (1, 2, 0.5), (480, 1000, 0.5),
                    (520, 1000, 0.5), (17, 20, 0.5), (0, 1, 0.5), (6, 7, 0.9)]:
        tests.append({"k": k, "n": n, "p": p,
                      "p_value": float(st.binomtest(k, n, p).pvalue)})
    return {"cases": cases, "tests": tests}


# ---------------------------------------------------------------- paired data sets

def paired_inputs():
    rng = np.random.default_rng(20250301)
    sets = {}
    # n = 10, scores on a 0.25 grid: ties and zeros.
    b = rng.integers(0, 5, 10) / 4
    c = np.clip(b + rng.integers(-1, 3, 10) / 4, 0, 1)
    sets["n10_grid_ties_zeros"] = (b, c)
    # n = 8 distinct non-zero deltas: exact Wilcoxon without ties.
    b = rng.uniform(0, 1, 8)
    c = np.clip(b + rng.normal(0.1, 0.2, 8), 0, 1)
    sets["n8_distinct"] = (b, c)
    # n = 12 with ties and zeros (scipy's auto uses its permutation test).
    b = rng.integers(0, 3, 12) / 2
    c = np.clip(b + rng.integers(-1, 2, 12) / 2, 0, 1)
    sets["n12_halves"] = (b, c)
    # n = 18 distinct: exact under both rules.
    b = rng.uniform(0, 1, 18)
    c = rng.uniform(0, 1, 18)
    sets["n18_distinct"] = (b, c)
    # n = 30 continuous: normal approximation under statistics.md's rule.
    b = rng.uniform(0.2, 0.8, 30)
    c = np.clip(b + rng.normal(0.05, 0.15, 30), 0, 1)
    sets["n30_continuous"] = (b, c)
    # n = 30 binary outcomes.
    b = (rng.uniform(size=30) < 0.5).astype(float)
    c = (rng.uniform(size=30) < 0.65).astype(float)
    sets["n30_binary"] = (b, c)
    # n = 100, K = 4 samples per task (0.25 grid), correlated runs.
    ability = rng.uniform(0, 1, 100)
    b = rng.binomial(4, ability) / 4
    c = rng.binomial(4, np.clip(ability + 0.05, 0, 1)) / 4
    sets["n100_k4"] = (b, c)
    return sets


def paired_section(sets):
    out = []
    for name, (b, c) in sets.items():
        d = round_delta(c - b)
        n = len(d)
        mean = d.mean()
        sd = d.std(ddof=1)
        se = sd / math.sqrt(n)
        entry = {"name": name, "baseline": b.tolist(), "candidate": c.tolist(),
                 "deltas": d.tolist(), "n": n, "delta": float(mean), "sd": float(sd),
                 "se": float(se)}
        for level in (0.95, 0.9):
            tl, tu = st.t.interval(level, n - 1, loc=mean, scale=se)
            zl, zu = st.norm.interval(level, loc=mean, scale=se)
            entry[f"t_interval_{int(level * 100)}"] = [float(tl), float(tu)]
            entry[f"z_interval_{int(level * 100)}"] = [float(zl), float(zu)]
        tt = st.ttest_1samp(d, 0.0)
        entry["t_test"] = {"t": float(tt.statistic), "df": float(tt.df),
                           "p_value": float(tt.pvalue)}
        entry["correlation"] = fnum(st.pearsonr(b, c).statistic) if b.std() > 0 and c.std() > 0 else None
        entry["baseline_se"] = float(st.sem(b))
        entry["candidate_se"] = float(st.sem(c))
        entry["wilcoxon"] = wilcoxon_cases(d)
        nonzero = d[d != 0]
        entry["sign_test"] = {
            "wins": int((d > 0).sum()), "losses": int((d < 0).sum()), "ties": int((d == 0).sum()),
            "p_value": float(st.binomtest(int((d > 0).sum()), len(nonzero), 0.5).pvalue)}
        out.append(entry)
    return out


def wilcoxon_cases(d):
    n = len(d)
    nonzero = int((d != 0).sum())
    has_ties = len(np.unique(np.abs(d[d != 0]))) < nonzero
    cases = []
    for zero_method in ("pratt", "wilcox"):
        res = st.wilcoxon(d, zero_method=zero_method, method="asymptotic")
        cases.append({"zero_method": zero_method, "method": "normal",
                      "statistic": float(res.statistic), "p_value": float(res.pvalue),
                      "z": float(res.zstatistic)})
        res = st.wilcoxon(d, zero_method=zero_method)  # scipy's method='auto'
        cases.append({"zero_method": zero_method, "method": "scipy_auto",
                      "statistic": float(res.statistic), "p_value": float(res.pvalue)})
        if nonzero <= 20:
            if not has_ties and nonzero == n:
                res = st.wilcoxon(d, zero_method=zero_method, method="exact")
                p, source = res.pvalue, "scipy exact"
            elif n <= 16:
                # Exact conditional distribution = scipy's permutation test enumerating all
                # 2^n sign flips (n_resamples >= 2^n makes it exact and deterministic).
                method = st.PermutationMethod(n_resamples=2 ** n, batch=4096)
                res = st.wilcoxon(d, zero_method=zero_method, method=method)
                p, source = res.pvalue, "scipy permutation"
            else:
                # Too many zeros for scipy's 2^n enumeration: enumerate the 2^nonzero sign
                # flips here (zeros cannot change sign).
                res = st.wilcoxon(d, zero_method=zero_method, method="asymptotic")
                p, source = enumerate_sign_flips(d, zero_method), "enumeration"
            cases.append({"zero_method": zero_method, "method": "exact", "source": source,
                          "statistic": float(res.statistic), "p_value": float(p)})
    return cases


def enumerate_sign_flips(d, zero_method):
    """Two-sided exact p of R+ over all sign flips of the non-zero deltas, ranks as scipy's."""
    kept = d if zero_method == "pratt" else d[d != 0]
    ranks = st.rankdata(np.abs(kept))[kept != 0]
    observed = ranks[kept[kept != 0] > 0].sum()
    m = len(ranks)
    patterns = (np.arange(2 ** m)[:, None] >> np.arange(m)[None, :]) & 1
    r_plus = patterns @ ranks
    lower = np.mean(r_plus <= observed + 1e-9)
    upper = np.mean(r_plus >= observed - 1e-9)
    return min(1.0, 2 * min(lower, upper))


def mcnemar_section():
    out = []
    for b, c in [(1, 4), (3, 3), (0, 7), (10, 2), (25, 40), (120, 95), (1, 0), (500, 560)]:
        exact = mcnemar([[0, b], [c, 0]], exact=True).pvalue
        m = min(b, c)
        mid = min(1.0, 2 * st.binom.cdf(m, b + c, 0.5) - st.binom.pmf(m, b + c, 0.5))
        out.append({"baseline_only": b, "candidate_only": c, "p_exact": float(exact),
                    "p_mid": float(mid)})
    return out


def multiplicity_section():
    rng = np.random.default_rng(7)
    vectors = [
        [0.01, 0.04, 0.03, 0.005],
        [0.5, 0.5, 0.01, 0.2, 0.04, 0.04],
        [1e-8, 0.9, 0.049, 0.051],
        rng.uniform(0, 0.2, 15).tolist(),
        [0.3],
    ]
    out = []
    for p in vectors:
        holm = multipletests(p, method="holm")[1]
        bh = st.false_discovery_control(p, method="bh")
        bh_sm = multipletests(p, method="fdr_bh")[1]
        assert np.allclose(bh, bh_sm, rtol=1e-14, atol=0)
        out.append({"p": list(map(float, p)), "holm": holm.tolist(), "bh": bh.tolist()})
    return out


def cluster_section():
    rng = np.random.default_rng(11)
    out = []
    for n, clusters in [(40, 5), (100, 12), (30, 2)]:
        labels = rng.integers(0, clusters, n)
        labels[:clusters] = np.arange(clusters)  # every cluster present
        effect = rng.normal(0.05, 0.1, clusters)
        d = round_delta(effect[labels] + rng.normal(0, 0.2, n))
        fit = sm.OLS(d, np.ones(n)).fit(cov_type="cluster", cov_kwds={"groups": labels},
                                        use_t=True)
        for level in (0.95, 0.9):
            lo, hi = fit.conf_int(alpha=1 - level)[0]
            out.append({"deltas": d.tolist(), "labels": labels.tolist(), "level": level,
                        "clusters": clusters, "mean": float(fit.params[0]),
                        "se": float(fit.bse[0]), "t": float(fit.tvalues[0]),
                        "p_value": float(fit.pvalues[0]), "df": float(fit.df_resid_inference),
                        "interval": [float(lo), float(hi)]})
    return out


def bootstrap_section():
    rng = np.random.default_rng(5)
    out = []
    cases = {
        "n40_continuous": round_delta(rng.normal(0.05, 0.3, 40)),
        "n60_grid": round_delta(rng.integers(-2, 4, 60) / 4),
    }
    resamples = 200_000
    for name, d in cases.items():
        entry = {"name": name, "deltas": d.tolist(), "resamples": resamples,
                 "se_of_mean": float(d.std(ddof=1) / math.sqrt(len(d)))}
        for method in ("percentile", "BCa"):
            res = st.bootstrap((d,), np.mean, n_resamples=resamples, method=method,
                               confidence_level=0.95, rng=np.random.default_rng(1))
            entry[method.lower()] = [float(res.confidence_interval.low),
                                     float(res.confidence_interval.high)]
            entry["standard_error"] = float(res.standard_error)
        out.append(entry)
    return out


def pass_at_k_section():
    out = []
    for n, c, k in [(5, 2, 2), (10, 3, 1), (10, 3, 5), (10, 0, 3), (10, 10, 3), (20, 4, 10),
                    (100, 7, 10), (100, 1, 50), (7, 5, 3), (200, 3, 100)]:
        exact = 1 - Fraction(math.comb(n - c, k), math.comb(n, k))
        out.append({"samples": n, "passes": c, "k": k, "value": float(exact)})
    return out


def main():
    report = {}
    data = {
        "generator": {"script": "scripts/reference/stats_reference.py",
                      "scipy": scipy.__version__, "statsmodels": statsmodels.__version__,
                      "numpy": np.__version__, "mpmath": mp.__version__},
        "normal": normal_section(report),
        "student_t": student_t_section(report),
        "binomial": binomial_section(),
        "paired": paired_section(paired_inputs()),
        "mcnemar": mcnemar_section(),
        "multiplicity": multiplicity_section(),
        "cluster": cluster_section(),
        "bootstrap": bootstrap_section(),
        "pass_at_k": pass_at_k_section(),
    }
    data["generator"]["scipy_vs_mpmath"] = report
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(data, indent=1) + "\n")
    print(f"wrote {OUT}")
    print("scipy vs mpmath:", report)


if __name__ == "__main__":
    main()
