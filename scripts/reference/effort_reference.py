#!/usr/bin/env python3
"""Reference values for the effort section (turns and endings, paired per task) on the real
SWE-bench Pro results in ../shared/real-data.

Computed with pandas and scipy from per_instance.csv, independently of the Rust code and of the
run folders' JSON, following the rules in docs/statistics.md ("Effort"):
- counted trajectories: those the primary analysis includes (here every ending but ERROR);
- a trajectory's turns: `agent_steps`, else `docent_turns` (what the folders' `num_steps` hold);
- per task the mean turns of its counted trajectories; paired over the tasks both runs have
  turns on; deltas rounded to 1e-9;
- relative change R = mean(d) / mean(b), its SE by the delta method
  sqrt((var(d) - 2 R cov(d, b) + R^2 var(b)) / n) / mean(b), interval R -+ z SE;
- solved: the task's reward is at least 0.5; Δ turns on tasks both solved, and both failed;
- endings: per task the share of attempts (every trajectory) ending one way, paired over the
  tasks both runs attempted.
Writes crates/core/tests/data/effort_reference.json.

Run from the repository root with pandas and scipy installed:
  python3 scripts/reference/effort_reference.py
"""
import json
import os

import numpy as np
import pandas as pd
from scipy import stats

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CSV = os.path.join(ROOT, "..", "shared", "real-data", "swe-bench-pro", "per_instance.csv")
OUT = os.path.join(ROOT, "crates", "core", "tests", "data", "effort_reference.json")
LEVEL = 0.95


def table():
    frame = pd.read_csv(CSV, dtype={"agent_steps": "Int64", "docent_turns": "Int64"})
    frame["turns"] = frame["agent_steps"].fillna(frame["docent_turns"]).astype("float64")
    frame["reward"] = frame["reward"].astype("float64")
    return frame


def per_task(frame, system):
    rows = frame[frame["system"] == system]
    counted = rows[rows["termination_reason"] != "ERROR"]
    turns = counted.groupby("task_id")["turns"].mean()
    score = counted.groupby("task_id")["reward"].apply(lambda r: r.fillna(0.0).mean())
    return rows, pd.DataFrame({"turns": turns, "score": score})


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


def ending_shares(base_rows, cand_rows, names):
    def shares(rows):
        hit = rows["termination_reason"].isin(names)
        return hit.groupby(rows["task_id"]).mean()

    b, c = shares(base_rows), shares(cand_rows)
    tasks = b.index.intersection(c.index)
    out = paired(b[tasks].to_numpy(), c[tasks].to_numpy())
    out["baseline_share"] = float(base_rows["termination_reason"].isin(names).mean())
    out["candidate_share"] = float(cand_rows["termination_reason"].isin(names).mean())
    return out


def compare(frame, baseline, candidate):
    base_rows, base = per_task(frame, baseline)
    cand_rows, cand = per_task(frame, candidate)
    both = base.index.intersection(cand.index)
    with_turns = [t for t in both if not np.isnan(base.at[t, "turns"]) and not np.isnan(cand.at[t, "turns"])]
    b = base.loc[with_turns, "turns"].to_numpy()
    c = cand.loc[with_turns, "turns"].to_numpy()
    d = np.round(c - b, 9)
    out = paired(b, c)
    out["tasks_without_turns"] = len(both) - len(with_turns)
    out["t_p"] = float(stats.ttest_rel(c, b).pvalue)
    out["wilcoxon_pratt_p"] = float(stats.wilcoxon(d, zero_method="pratt", method="approx").pvalue)
    ratio = d.mean() / b.mean()
    n = len(d)
    cov = np.cov(np.vstack([d, b]), ddof=1)
    se = np.sqrt((cov[0, 0] - 2 * ratio * cov[0, 1] + ratio**2 * cov[1, 1]) / n) / b.mean()
    z = stats.norm.ppf(0.5 + LEVEL / 2)
    out["relative"] = float(ratio)
    out["relative_se"] = float(se)
    out["relative_lower"] = float(ratio - z * se)
    out["relative_upper"] = float(ratio + z * se)
    for name, keep in (("solved", lambda s: s >= 0.5), ("failed", lambda s: s < 0.5)):
        tasks = [t for t in with_turns if keep(base.at[t, "score"]) and keep(cand.at[t, "score"])]
        out[name] = paired(base.loc[tasks, "turns"].to_numpy(), cand.loc[tasks, "turns"].to_numpy())
    out["run_mean_turns"] = [float(base["turns"].mean()), float(cand["turns"].mean())]
    out["missing_submit"] = ending_shares(base_rows, cand_rows, ["MISSING_SUBMIT"])
    return out


def main():
    frame = table()
    refs = {
        "swe_claude45_vs_gpt5": compare(frame, "claude-45sonnet-10132025", "gpt-5-250-turns-10132025"),
        "swe_claude45_vs_claude4": compare(frame, "claude-45sonnet-10132025", "claude-4sonnet-10132025"),
        "_generated_by": "scripts/reference/effort_reference.py with pandas %s, scipy %s"
        % (pd.__version__, __import__("scipy").__version__),
    }
    with open(OUT, "w") as f:
        json.dump(refs, f, indent=1, sort_keys=True)
        f.write("\n")
    print("wrote", OUT)


if __name__ == "__main__":
    main()
