#!/usr/bin/env python3
"""Writes two synthetic run folders (baseline and candidate) for the CLI-vs-pandas benchmark.

Usage: make_run_folders.py OUT_DIR TASKS SAMPLES

Each run has TASKS tasks x SAMPLES samples; about 2% of trajectories end in ERROR (no reward),
the rest pass with a per-task probability (the candidate a little more often). The layout is
what `eval-compare export` writes: run.json, trajectory-rewards.json and trajectories.json as
the API's pages (one JSON array of page objects, 200 items a page). Deterministic for a size.
"""
import json
import os
import random
import sys

PAGE = 200


def pages(items, extra):
    out = []
    chunks = [items[i:i + PAGE] for i in range(0, len(items), PAGE)]
    for i, chunk in enumerate(chunks):
        more = i < len(chunks) - 1
        page = {"items": chunk, "next_cursor": f"c{i + 1}" if more else None, "has_more": more}
        page.update(extra)
        out.append(page)
    return out


def write_run(root, run_id, shift, tasks, samples, seed):
    rng = random.Random(seed)
    rewards, meta = [], []
    for task in range(tasks):
        difficulty = (task * 0.61803398875) % 1.0
        task_id = f"task-{task:06d}"
        for s in range(samples):
            tid = f"tr-{run_id}-{task:06d}-{s}"
            failed = rng.random() < 0.02
            reward = 1.0 if rng.random() < min(1.0, max(0.0, 1.0 - difficulty + shift)) else 0.0
            if not failed:
                rewards.append({"trajectory_id": tid, "reward": reward, "task_id": task_id})
            meta.append({
                "trajectory_id": tid, "organization_id": "org", "source": "eval",
                "status": "completed", "termination_reason": "ERROR" if failed else "ENV_DONE",
                "reward": None if failed else reward, "num_steps": 12,
                "created_at": "2026-11-01T00:00:00Z", "task_id": task_id,
            })
    folder = os.path.join(root, run_id)
    os.makedirs(folder, exist_ok=True)
    run = {
        "eval_run_id": run_id, "agent_id": "agent_bench", "bench_id": "bench_synthetic",
        "display_name": run_id, "base_model_slug": "bench/model",
        "options": {"temperature": 0.7, "evaluation_samples_per_task": samples},
        "status": "completed", "created_at": "2026-11-01T00:00:00Z",
        "updated_at": "2026-11-01T00:00:00Z",
    }
    with open(os.path.join(folder, "run.json"), "w") as f:
        json.dump(run, f)
    with open(os.path.join(folder, "trajectory-rewards.json"), "w") as f:
        json.dump(pages(rewards, {"eval_run_id": run_id}), f)
    with open(os.path.join(folder, "trajectories.json"), "w") as f:
        json.dump(pages(meta, {}), f)
    return folder


def main():
    out, tasks, samples = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    write_run(out, "er_bench_base", 0.0, tasks, samples, 1)
    write_run(out, "er_bench_cand", 0.03, tasks, samples, 2)


if __name__ == "__main__":
    main()
