#!/usr/bin/env python3
"""Reference values for the report on the real run folders in ../shared/real-data.

Computed from the CSV tables (per_instance.csv, per_sample.csv) with pandas-free plain Python
plus scipy/statsmodels, independently of the Rust code and of the run folders' JSON, following
the project's classing rules: ERROR is excluded (failed); MISSING_SUBMIT counts with its reward
(0); ENV_DONE counts with its reward. Writes crates/core/tests/data/report_real_data.json.

Run from the repository root:  python3 scripts/reference/report_real_data.py
"""
import csv
import json
import math
import os
from collections import defaultdict

import numpy as np
from scipy import stats
from statsmodels.stats.contingency_tables import mcnemar

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(ROOT, "..", "shared", "real-data")
OUT = os.path.join(ROOT, "crates", "core", "tests", "data", "report_real_data.json")


def swe_scores(system):
    """task -> list of included rewards; plus the set of tasks attempted."""
    scores, attempted = defaultdict(list), set()
    with open(os.path.join(DATA, "swe-bench-pro", "per_instance.csv")) as f:
        for row in csv.DictReader(f):
            if row["system"] != system:
                continue
            attempted.add(row["task_id"])
            if row["termination_reason"] == "ERROR":
                continue
            reward = float(row["reward"]) if row["reward"] not in ("", None) else 0.0
            scores[row["task_id"]].append(reward)
    return scores, attempted


def humaneval_scores(system):
    scores = defaultdict(list)
    with open(os.path.join(DATA, "humaneval-10x", "per_sample.csv")) as f:
        for row in csv.DictReader(f):
            if row["system"] == system:
                scores[row["task_id"]].append(float(row["reward"]))
    return scores, set(scores)


def pass_at_k(n, c, k):
    if n - c < k:
        return 1.0
    return 1.0 - math.comb(n - c, k) / math.comb(n, k)


def compare(base, cand, level=0.95):
    (bs, b_att), (cs, c_att) = base, cand
    paired = sorted(set(bs) & set(cs))
    b = np.array([np.mean(bs[t]) for t in paired])
    c = np.array([np.mean(cs[t]) for t in paired])
    d = np.round(c - b, 9)
    n = len(d)
    se = d.std(ddof=1) / math.sqrt(n)
    tcrit = stats.t.ppf(0.5 + level / 2, n - 1)
    out = {
        "n": n,
        "union": len(b_att | c_att),
        "excluded": len((b_att | c_att)) - n,
        "baseline_mean": float(b.mean()),
        "candidate_mean": float(c.mean()),
        "delta": float(d.mean()),
        "se": float(se),
        "t_lower": float(d.mean() - tcrit * se),
        "t_upper": float(d.mean() + tcrit * se),
        "correlation": float(np.corrcoef(b, c)[0, 1]),
        "t_p": float(stats.ttest_rel(c, b).pvalue),
        "wilcoxon_pratt_p": float(stats.wilcoxon(d, zero_method="pratt", method="approx").pvalue),
        "wilcoxon_wilcox_p": float(stats.wilcoxon(d, zero_method="wilcox", method="approx").pvalue),
        "sign_p": float(stats.binomtest(int((d > 0).sum()), int((d != 0).sum()), 0.5).pvalue),
        "wins": int((d > 0).sum()),
        "ties": int((d == 0).sum()),
        "losses": int((d < 0).sum()),
        "mde": float(2.8015852 * d.std(ddof=1) / math.sqrt(n)),
    }
    single = all(len(bs[t]) == 1 and len(cs[t]) == 1 for t in paired)
    if single:
        table = [[int(((b == 1) & (c == 1)).sum()), int(((b == 1) & (c == 0)).sum())],
                 [int(((b == 0) & (c == 1)).sum()), int(((b == 0) & (c == 0)).sum())]]
        out["mcnemar_exact_p"] = float(mcnemar(table, exact=True).pvalue)
    else:
        for k in (1, 5, 10):
            pb = [pass_at_k(len(bs[t]), int(sum(bs[t])), k) for t in paired if len(bs[t]) >= k]
            pc = [pass_at_k(len(cs[t]), int(sum(cs[t])), k) for t in paired if len(cs[t]) >= k]
            out[f"pass_at_{k}_baseline"] = float(np.mean(pb))
            out[f"pass_at_{k}_candidate"] = float(np.mean(pc))
    return out


def main():
    refs = {
        "swe_claude45_vs_gpt5": compare(swe_scores("claude-45sonnet-10132025"),
                                        swe_scores("gpt-5-250-turns-10132025")),
        "swe_claude45_vs_claude4": compare(swe_scores("claude-45sonnet-10132025"),
                                           swe_scores("claude-4sonnet-10132025")),
        "humaneval_gpt35_vs_gpt4": compare(humaneval_scores("gpt-3.5-turbo"),
                                           humaneval_scores("gpt-4")),
        "_generated_by": "scripts/reference/report_real_data.py with scipy %s" % __import__("scipy").__version__,
    }
    with open(OUT, "w") as f:
        json.dump(refs, f, indent=1, sort_keys=True)
        f.write("\n")
    print("wrote", OUT)


if __name__ == "__main__":
    main()
