#!/usr/bin/env python3
"""The paired comparison of two run folders in pandas + scipy, for timing beside the CLI.

Usage: pandas_compare.py BASE_DIR CAND_DIR

What it computes is what `eval-compare report --resamples 0` computes for the headline: per
task, the mean of the included samples (graded trajectories: a reward in the rewards list and
not ending in ERROR); tasks with a score in both runs are paired; Δ, its SE and t interval, the
paired t-test and Wilcoxon's signed-rank test (Pratt), and the sign test. pandas reads the
API's pages with `read_json` (then flattens `items`), merges the lists on trajectory id, groups
by task. Prints the numbers, so they can be checked against the CLI's.
"""
import json
import sys

import numpy as np
import pandas as pd
from scipy import stats


def items(path):
    pages = pd.read_json(path)
    return pd.DataFrame([item for page in pages["items"] for item in page])


def task_scores(folder):
    rewards = items(f"{folder}/trajectory-rewards.json")
    meta = items(f"{folder}/trajectories.json")[["trajectory_id", "termination_reason"]]
    joined = rewards.merge(meta, on="trajectory_id", how="inner")
    graded = joined[joined["termination_reason"] != "ERROR"]
    return graded.groupby("task_id")["reward"].mean()


def main():
    base, cand = task_scores(sys.argv[1]), task_scores(sys.argv[2])
    paired = pd.concat([base.rename("base"), cand.rename("cand")], axis=1, join="inner")
    d = (paired["cand"] - paired["base"]).round(9).to_numpy()
    n = len(d)
    se = d.std(ddof=1) / np.sqrt(n)
    t = stats.ttest_rel(paired["cand"], paired["base"])
    ci = t.confidence_interval(0.95)
    w = stats.wilcoxon(d, zero_method="pratt")
    nonzero = d[d != 0]
    sign = stats.binomtest(int((nonzero > 0).sum()), len(nonzero))
    print(json.dumps({
        "paired_tasks": n, "delta": float(d.mean()), "se": float(se),
        "t_interval": [float(ci.low), float(ci.high)], "t_p": float(t.pvalue),
        "wilcoxon_pratt_p": float(w.pvalue), "sign_p": float(sign.pvalue),
    }, indent=1))


if __name__ == "__main__":
    main()
