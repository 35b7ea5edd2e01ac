#!/usr/bin/env python3
"""Reference values for the tokens beside the turns (read from the transcripts, paired per task)
on the fixture crates/core/tests/data/tokens_fixture.csv.

Computed with pandas and scipy, independently of the Rust code, following the rules in
crates/core/src/report/effort_tokens.rs:
- counted trajectories: those the primary analysis includes (here every `graded` row; the
  `failed` ones are left out);
- a trajectory's tokens: prompt + completion when read with a count (`tokens` = counted); a
  transcript read without a count (`no_count`) or not read (`not_read`) is left out, never 0;
- per task the mean prompt, completion and total tokens of its counted trajectories with a
  count; paired over the tasks both runs have tokens on; deltas rounded to 1e-9;
- relative change R = mean(d) / mean(b), its SE by the delta method
  sqrt((var(d) - 2 R cov(d, b) + R^2 var(b)) / n) / mean(b), interval R -+ z SE;
- tasks without tokens: tasks both runs have counted trajectories on, without tokens in one.
Writes crates/core/tests/data/tokens_reference.json.

Run from the repository root with pandas and scipy installed:
  python3 scripts/reference/tokens_reference.py
"""
import json
import os

import numpy as np
import pandas as pd
from scipy import stats

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(ROOT, "crates", "core", "tests", "data")
CSV = os.path.join(DATA, "tokens_fixture.csv")
OUT = os.path.join(DATA, "tokens_reference.json")
LEVEL = 0.95


def paired(base, cand):
    """The paired estimate of per-task values: Δ, SE, t interval, means."""
    d = np.round(cand - base, 9)
    n = len(d)
    se = d.std(ddof=1) / np.sqrt(n)
    t = stats.t.ppf(0.5 + LEVEL / 2, n - 1)
    return {
        "n": int(n),
        "baseline_mean": float(base.mean()),
        "candidate_mean": float(cand.mean()),
        "delta": float(d.mean()),
        "se": float(se),
        "t_lower": float(d.mean() - t * se),
        "t_upper": float(d.mean() + t * se),
    }


def per_task(frame, run):
    counted = frame[(frame["run"] == run) & (frame["class"] == "graded")]
    read = counted[counted["tokens"] == "counted"]
    means = read.groupby("task")[["prompt", "completion"]].mean()
    means["total"] = means["prompt"] + means["completion"]
    summary = {
        "counted": int(len(counted)),
        "with_count": int(len(read)),
        "no_count": int((counted["tokens"] == "no_count").sum()),
        "not_read": int((counted["tokens"] == "not_read").sum()),
        "tasks_with_tokens": int(len(means)),
        "mean_prompt": float(means["prompt"].mean()),
        "mean_completion": float(means["completion"].mean()),
        "mean_total": float(means["total"].mean()),
    }
    return set(counted["task"]), means, summary


def main():
    frame = pd.read_csv(CSV, dtype={"prompt": "float64", "completion": "float64"})
    base_tasks, base, base_summary = per_task(frame, "base")
    cand_tasks, cand, cand_summary = per_task(frame, "cand")
    tasks = sorted(base.index.intersection(cand.index))
    b, c = base.loc[tasks], cand.loc[tasks]
    bt, ct = b["total"].to_numpy(), c["total"].to_numpy()
    d = np.round(ct - bt, 9)
    out = {"total": paired(bt, ct)}
    out["prompt"] = paired(b["prompt"].to_numpy(), c["prompt"].to_numpy())
    out["completion"] = paired(b["completion"].to_numpy(), c["completion"].to_numpy())
    out["tasks_without_tokens"] = len(base_tasks & cand_tasks) - len(tasks)
    out["t_p"] = float(stats.ttest_rel(ct, bt).pvalue)
    out["wilcoxon_pratt_p"] = float(stats.wilcoxon(d, zero_method="pratt", method="approx").pvalue)
    ratio = d.mean() / bt.mean()
    n = len(d)
    cov = np.cov(np.vstack([d, bt]), ddof=1)
    se = np.sqrt((cov[0, 0] - 2 * ratio * cov[0, 1] + ratio**2 * cov[1, 1]) / n) / bt.mean()
    z = stats.norm.ppf(0.5 + LEVEL / 2)
    out["relative"] = float(ratio)
    out["relative_se"] = float(se)
    out["relative_lower"] = float(ratio - z * se)
    out["relative_upper"] = float(ratio + z * se)
    out["runs"] = [base_summary, cand_summary]
    out["_generated_by"] = "scripts/reference/tokens_reference.py with pandas %s, scipy %s" % (
        pd.__version__,
        __import__("scipy").__version__,
    )
    with open(OUT, "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write("\n")
    print("wrote", OUT)


if __name__ == "__main__":
    main()
