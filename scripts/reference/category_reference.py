#!/usr/bin/env python3
"""Reference values for where the Δ comes from (crates/core/src/report/categories.rs) and for
pass^k (crates/core/src/stats/pass_at_k.rs).

Writes crates/core/tests/data/category_reference.json, read by
crates/core/tests/category_reference.rs.

Sources:
  * per category: Δ = mean of the paired deltas (rounded to 1e-9 like the Rust side), the t
    interval from scipy.stats.t.interval on n - 1 df around Δ with the SE sd/sqrt(n), and the
    paired t-test's two-sided p from scipy.stats.ttest_rel;
  * Holm and BH across a candidate's categories that have a p: statsmodels
    multipletests(method='holm') and multipletests(method='fdr_bh');
  * the contribution of a category: n_cat * Δ_cat / n_total;
  * pass^k: exact rational arithmetic, math.comb(c, k) / math.comb(n, k), averaged over the tasks
    with n >= k (tasks with n < k are left out and counted).

Usage: python3 scripts/reference/category_reference.py   (needs numpy, scipy, statsmodels)
Inputs come from fixed numpy seeds, so reruns give the same file.
"""

import json
import math
import pathlib
from fractions import Fraction

import numpy as np
import scipy
import scipy.stats as st
import statsmodels
from statsmodels.stats.multitest import multipletests

OUT = pathlib.Path(__file__).resolve().parents[2] / "crates/core/tests/data/category_reference.json"
LEVEL = 0.95


def fnum(x):
    x = float(x)
    return x if math.isfinite(x) else None


def round_delta(d):
    return np.round(np.asarray(d, dtype=float) * 1e9) / 1e9


def category_case(seed, sizes, shifts, constant=()):
    """Tasks of len(sizes) categories (the last may be uncategorised, index None), continuous
    rewards in [0, 1] on a grid of 1/8 (several samples per task), a shift per category; the
    categories in `constant` get the same delta on every task (zero variance: no test)."""
    rng = np.random.default_rng(seed)
    tasks = []
    for cat, (size, shift) in enumerate(zip(sizes, shifts)):
        label = None if cat == len(sizes) - 1 and size < 0 else cat
        size = abs(size)
        base = rng.integers(0, 9, size) / 8.0
        if cat in constant:
            cand = np.clip(base + 0.125, None, None)
        else:
            cand = np.clip(base + shift + rng.normal(0, 0.2, size), 0, 1)
            cand = np.round(cand * 8) / 8.0
        for b, c in zip(base, cand):
            tasks.append({"category": label, "base": float(b), "cand": float(c)})
    # Interleave the categories, as a benchmark lists its tasks.
    order = rng.permutation(len(tasks))
    tasks = [tasks[i] for i in order]
    keys = []
    for t in tasks:
        if t["category"] not in keys:
            keys.append(t["category"])
    keys.sort(key=lambda k: (k is None, k if k is not None else 0))
    groups = []
    for key in keys:
        members = [t for t in tasks if t["category"] == key]
        base = np.array([t["base"] for t in members])
        cand = np.array([t["cand"] for t in members])
        d = round_delta(cand - base)
        n = len(d)
        delta = float(np.mean(d))
        if n >= 2 and np.std(d) > 0:
            se = np.std(d, ddof=1) / math.sqrt(n)
            lo, hi = st.t.interval(LEVEL, n - 1, loc=delta, scale=se)
            p = st.ttest_rel(cand, base).pvalue
        else:
            lo = hi = p = float("nan")
        groups.append({
            "category": key, "n": n, "delta": delta,
            "contribution": n * delta / len(tasks),
            "lower": fnum(lo), "upper": fnum(hi), "p": fnum(p),
        })
    with_p = [i for i, g in enumerate(groups) if g["p"] is not None]
    raw = [groups[i]["p"] for i in with_p]
    holm = multipletests(raw, method="holm")[1] if raw else []
    bh = multipletests(raw, method="fdr_bh")[1] if raw else []
    for slot, i in enumerate(with_p):
        groups[i]["p_holm"] = float(holm[slot])
        groups[i]["p_bh"] = float(bh[slot])
    for g in groups:
        g.setdefault("p_holm", None)
        g.setdefault("p_bh", None)
    return {"seed": seed, "tasks": tasks, "groups": groups}


def pass_hat_case(seed, tasks, k):
    rng = np.random.default_rng(seed)
    counts = []
    for _ in range(tasks):
        n = int(rng.integers(1, 13))
        c = int(rng.binomial(n, rng.uniform()))
        counts.append([n, c])
    values = [Fraction(math.comb(c, k), math.comb(n, k)) for n, c in counts if n >= k]
    per_task = [float(Fraction(math.comb(c, k), math.comb(n, k))) if n >= k else None
                for n, c in counts]
    mean = float(sum(values) / len(values)) if values else None
    return {"k": k, "counts": counts, "per_task": per_task, "mean": mean,
            "excluded": sum(1 for n, _ in counts if n < k)}


def main():
    cases = [
        category_case(1, [30, 25, 12, 40, 8, 20, -15], [0.05, -0.1, 0.0, 0.02, -0.3, 0.1, 0.0]),
        category_case(2, [12, 9, 1, 6], [-0.2, 0.1, 0.0, 0.0], constant=(3,)),
        category_case(3, [60, 55, -5], [0.0, -0.04, 0.2]),
    ]
    pass_hat = [pass_hat_case(10 + k, 60, k) for k in (1, 2, 3, 5, 8)]
    out = {
        "generated_with": {
            "numpy": np.__version__, "scipy": scipy.__version__,
            "statsmodels": statsmodels.__version__,
        },
        "level": LEVEL,
        "categories": cases,
        "pass_hat_k": pass_hat,
    }
    OUT.write_text(json.dumps(out, indent=1) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
