#!/usr/bin/env python3
"""Reads a Trajectory API (the demo server) with the official client, trajectory-sdk 0.9.31, in
strict response validation: every endpoint the viewer uses, failing with the endpoint's name.

Usage: TRAJECTORY_API_KEY=... scripts/sdk-check.py BASE_URL
The key is read from the environment only (never an argument, never printed).

Endpoints the client has no method for (remaining work, an agent's benchmarks, latest benchmark,
benchmark versions, evaluation runs (also of one training run) and training runs, the
evaluation series) are read through the client's own transport and checked against the response
schema of the OpenAPI document the SDK ships. Every benchmark version's tasks and runs are read,
so the checkpoint scorecard's runs on the agent's other benchmarks are too.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import sys
import time
from collections.abc import Callable
from typing import Any

REQUIRED_SDK = "0.9.31"

try:
    import jsonschema
    import referencing
    import trajectory
    from trajectory._base_client import SyncPage
    from trajectory.types.benchmarks.benchmark_list_item import BenchmarkListItem
    from trajectory.types.evals.eval_run import EvalRun
    from trajectory.types.training.training_run_response import TrainingRunResponse
except ImportError as error:  # pragma: no cover - reported to the caller
    sys.exit(f"sdk-check: missing Python package ({error}); install trajectory-sdk=={REQUIRED_SDK} and jsonschema")


def sdk_openapi() -> dict[str, Any]:
    """The OpenAPI document installed with trajectory-sdk."""
    for file in importlib.metadata.files("trajectory-sdk") or []:
        if file.name == "openapi.json":
            return json.loads(file.locate().read_text(encoding="utf-8"))
    sys.exit("sdk-check: trajectory-sdk ships no openapi.json")


class Checker:
    """Runs named checks, recording each endpoint's outcome."""

    def __init__(self, client: trajectory.Client, spec: dict[str, Any]) -> None:
        self.client = client
        self.spec = spec
        self.registry = referencing.Registry().with_resource(
            "urn:trajectory-openapi",
            referencing.Resource.from_contents(spec, default_specification=referencing.jsonschema.DRAFT202012),
        )
        self.failures: list[str] = []
        self.passed = 0

    def check(self, endpoint: str, read: Callable[[], str]) -> None:
        """Runs `read` (which returns a short summary) and reports it under `endpoint`."""
        try:
            summary = read()
        except trajectory.APIResponseValidationError as error:
            cause = error.__cause__ or error
            self.fail(endpoint, f"response does not match the SDK's models: {str(cause)[:1500]}")
        except trajectory.APIStatusError as error:
            self.fail(endpoint, f"HTTP {error.status_code}: {str(error)[:500]}")
        except jsonschema.ValidationError as error:
            path = "/".join(str(p) for p in error.absolute_path)
            self.fail(endpoint, f"response does not match the SDK's OpenAPI schema at '{path}': {error.message[:500]}")
        except (trajectory.APIError, AssertionError, ValueError, KeyError, TypeError) as error:
            self.fail(endpoint, f"{type(error).__name__}: {str(error)[:500]}")
        else:
            self.passed += 1
            print(f"ok    {endpoint}: {summary}")

    def fail(self, endpoint: str, message: str) -> None:
        self.failures.append(endpoint)
        print(f"FAIL  {endpoint}: {message}")

    def schema_one(self, path: str, template: str, params: dict[str, Any] | None = None) -> Any:
        """One GET, validated against the 200 response schema of `template` in the SDK's OpenAPI
        document; returns the body."""
        schema = self.spec["paths"][template]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
        validator = jsonschema.Draft202012Validator(
            {"$ref": "urn:trajectory-openapi" + schema["$ref"]}, registry=self.registry
        )
        body = self.client.get(path, cast_to=object, options={"params": dict(params or {})})
        validator.validate(body)
        return body

    def schema_pages(self, path: str, template: str, params: dict[str, Any] | None = None) -> list[Any]:
        """Every page of a cursor-paginated GET with no SDK method, each validated against the
        200 response schema of `template` in the SDK's OpenAPI document; returns the items."""
        schema = self.spec["paths"][template]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
        validator = jsonschema.Draft202012Validator(
            {"$ref": "urn:trajectory-openapi" + schema["$ref"]}, registry=self.registry
        )
        items: list[Any] = []
        query = dict(params or {})
        while True:
            body = self.client.get(path, cast_to=object, options={"params": query})
            validator.validate(body)
            items.extend(body["items"])
            if not body.get("has_more") or not body.get("next_cursor"):
                return items
            query["cursor"] = body["next_cursor"]


def run_checks(c: Checker) -> None:
    client = c.client
    state: dict[str, Any] = {}

    def organization() -> str:
        org = client.organizations.retrieve_current()
        assert isinstance(org, dict) and org.get("organization_id"), f"no organization_id in {org!r}"
        return str(org["organization_id"])

    def agents() -> str:
        listed = client.agents.list()
        items = list(listed.items if hasattr(listed, "items") else listed)
        assert items, "no agents"
        state["agent"] = items[0]
        return f"{len(items)} agent(s)"

    def agent_by_name() -> str:
        agent = client.agents.retrieve_by_name(state["agent"].name)
        state["agent_id"] = agent.agent_id
        return agent.agent_id

    def benchmarks() -> str:
        items = list(client.benchmarks.list())
        assert items, "no benchmarks"
        latest = max(items, key=lambda b: b.created_at)
        state["bench_id"], state["bench_name"] = latest.bench_id, latest.name
        state["bench_ids"] = [b.bench_id for b in items]
        return f"{len(items)} version(s)"

    def benchmark() -> str:
        return client.benchmarks.retrieve(state["bench_id"]).bench_id

    def agent_benchmark_versions() -> str:
        path = f"/api/v1/agents/{state['agent_id']}/benchmarks/versions"
        params = {"name": state["bench_name"]}
        items = c.schema_pages(path, "/api/v1/agents/{agent_id}/benchmarks/versions", params)
        assert items, "no versions"
        # The client's own model of the items too.
        page = client.get(path, cast_to=SyncPage[BenchmarkListItem], options={"params": params})
        return f"{len(items)} version(s), {len(page.items)} on the first page"

    def agent_benchmarks() -> str:
        path = f"/api/v1/agents/{state['agent_id']}/benchmarks"
        items = c.schema_pages(path, "/api/v1/agents/{agent_id}/benchmarks", {"limit": 2})
        assert len({b["name"] for b in items}) == len(items), "one version per name"
        page = client.get(path, cast_to=SyncPage[BenchmarkListItem], options={"params": {"sort": "name", "order": "asc"}})
        state["bench_names"] = [b["name"] for b in items]
        return f"{len(items)} benchmark(s): {', '.join(b.name for b in page.items)}"

    def agent_latest_benchmark() -> str:
        path = f"/api/v1/agents/{state['agent_id']}/benchmarks/latest"
        for name in state["bench_names"]:
            body = c.schema_one(path, "/api/v1/agents/{agent_id}/benchmarks/latest", {"name": name})
            one = client.get(path, cast_to=BenchmarkListItem, options={"params": {"name": name}})
            assert body["name"] == one.name == name
        return f"{len(state['bench_names'])} name(s)"

    def tasks() -> str:
        total = 0
        for bench_id in state["bench_ids"]:
            items = list(client.benchmarks.tasks.list(bench_id, split="test", limit=200))
            assert items, f"{bench_id}: no test tasks"
            total += len(items)
        return f"{total} test task(s) over {len(state['bench_ids'])} version(s)"

    def eval_runs() -> str:
        runs = []
        for bench_id in state["bench_ids"]:
            runs.extend(client.evals.runs.list(bench_id))
        assert runs, "no evaluation runs"
        state["runs"] = runs
        return f"{len(runs)} run(s) over {len(state['bench_ids'])} version(s)"

    def agent_eval_runs() -> str:
        path = f"/api/v1/agents/{state['agent_id']}/evaluation-runs"
        items = c.schema_pages(path, "/api/v1/agents/{agent_id}/evaluation-runs")
        assert len(items) == len(state["runs"]), f"{len(items)} of the agent's runs, {len(state['runs'])} of its benchmarks"
        page = client.get(path, cast_to=SyncPage[EvalRun])
        return f"{len(items)} run(s), {len(page.items)} on the first page"

    def agent_training_runs() -> str:
        path = f"/api/v1/agents/{state['agent_id']}/training-runs"
        items = c.schema_pages(path, "/api/v1/agents/{agent_id}/training-runs")
        assert items, "no training runs"
        page = client.get(path, cast_to=SyncPage[TrainingRunResponse])
        state["training_run_id"] = page.items[0].training_run_id
        return f"{len(items)} training run(s)"

    def training_run_evals() -> str:
        path = f"/api/v1/agents/{state['agent_id']}/evaluation-runs"
        params = {"training_run_id": state["training_run_id"], "limit": 7}
        items = c.schema_pages(path, "/api/v1/agents/{agent_id}/evaluation-runs", params)
        assert items and all(r["training_run_id"] == state["training_run_id"] for r in items), "filtered"
        page = client.get(path, cast_to=SyncPage[EvalRun], options={"params": params})
        cells = {(r["bench_id"], r["step"]) for r in items}
        benches = {r["bench_id"] for r in items}
        return f"{len(items)} checkpoint evaluation(s) on {len(benches)} benchmark(s), {len(cells)} cell(s); {len(page.items)} on the first page"

    def eval_run_each() -> str:
        for run in state["runs"]:
            one = client.evals.runs.retrieve(run.eval_run_id)
            assert one.eval_run_id == run.eval_run_id
        return f"{len(state['runs'])} run(s) read one by one"

    def eval_options() -> str:
        # Every benchmark version and base model of the runs (what the viewer resolves settings
        # with), through the client's method and against the schema; and one without a model.
        keys = sorted({(run.bench_id, run.base_model_slug) for run in state["runs"] if run.base_model_slug})
        assert keys, "no run names a base model"
        for bench_id, model in keys:
            listed = client.evals.list_options(bench_id=bench_id, base_model_slug=model)
            assert [m.base_model_slug for m in listed.models] == [model], f"{bench_id}: {listed.models!r}"
            assert listed.models[0].options, f"{bench_id}/{model}: no options"
            c.schema_one("/api/v1/eval/options", "/api/v1/eval/options", {"bench_id": bench_id, "base_model_slug": model})
        every = client.evals.list_options(bench_id=state["bench_id"])
        assert every.models, "no models without base_model_slug"
        c.schema_one("/api/v1/eval/options", "/api/v1/eval/options", {"bench_id": state["bench_id"]})
        return f"{len(keys)} version/model pair(s); {len(every.models)} model(s) on {state['bench_id']}"

    def progress_each() -> str:
        statuses = {}
        for run in state["runs"]:
            progress = client.evals.runs.progress(run.eval_run_id)
            statuses[run.eval_run_id] = progress.status
        state["running"] = [rid for rid, status in statuses.items() if str(status).endswith("running")]
        return f"{len(statuses)} run(s), running: {', '.join(state['running']) or 'none'}"

    def remaining_work() -> str:
        counts = []
        for run_id in state["running"] or [state["runs"][0].eval_run_id]:
            items = c.schema_pages(f"/api/v1/eval/{run_id}/remaining-work", "/api/v1/eval/{eval_run_id}/remaining-work")
            counts.append(f"{run_id}: {len(items)}")
        return "outstanding attempts " + ", ".join(counts)

    def trajectory_rewards() -> str:
        total = 0
        for run in state["runs"]:
            rewards = list(client.evals.rewards.list_trajectory_rewards(run.eval_run_id, limit=200))
            total += len(rewards)
        # The oldest completed base-model run: the usual baseline.
        baselines = [r for r in state["runs"] if r.parent_checkpoint_id is None and str(r.status).endswith("completed")]
        assert baselines, "no completed base-model run"
        state["baseline"] = min(baselines, key=lambda r: r.created_at).eval_run_id
        return f"{total} reward(s) over {len(state['runs'])} run(s)"

    def trajectories() -> str:
        items = list(client.trajectories.list(eval_run_id=state["baseline"], limit=200))
        assert items, "no trajectories"
        # One trajectory of every other run too (the added benchmarks' ids and rewards).
        others = [run.eval_run_id for run in state["runs"] if run.eval_run_id != state["baseline"]]
        extra = [next(iter(client.trajectories.list(eval_run_id=rid, limit=1)), None) for rid in others]
        state["trajectories"] = items + [t for t in extra if t is not None]
        return f"{len(items)} trajectories of {state['baseline']}, the first of {len(others)} other run(s)"

    def picked() -> list[Any]:
        items = state["trajectories"]
        by_reason: dict[str, Any] = {}
        for t in items:
            key = f"{t.termination_reason}/{'zero' if not t.num_steps else 'some'}"
            by_reason.setdefault(key, t)
        longest = max(items, key=lambda t: t.num_steps or 0)
        return [*by_reason.values(), longest]

    def trajectory_detail() -> str:
        chosen = picked()
        for t in chosen:
            detail = client.trajectories.retrieve(t.trajectory_id, include_reward_components=True)
            assert detail.trajectory_id == t.trajectory_id
        with_steps = client.trajectories.retrieve(chosen[-1].trajectory_id, include_steps=True, include_reward_components=True)
        assert len(with_steps.steps or []) == (with_steps.num_steps or 0), "include_steps returns every step"
        return f"{len(chosen)} trajectories with reward components (one per ending), one with all its {len(with_steps.steps or [])} steps"

    def steps() -> str:
        messages = 0
        for t in picked():
            num_steps = client.trajectories.retrieve(t.trajectory_id).num_steps
            first = client.trajectories.steps.list(t.trajectory_id, limit=20)
            if not num_steps:
                assert not first.items, f"{t.trajectory_id}: num_steps 0 but steps listed"
                continue
            last = client.trajectories.steps.list(t.trajectory_id, start_step_index=num_steps - 1, limit=1).items[0]
            assert last.step_index == num_steps - 1
            messages += len(last.messages or [])
        every = list(client.trajectories.steps.list(picked()[-1].trajectory_id, limit=7))
        return f"first pages and last steps ({messages} messages); {len(every)} steps walked in pages of 7"

    def training_runs() -> str:
        runs = list(client.training.runs.list(state["bench_id"]))
        assert runs, "no training runs"
        state["training"] = runs
        overrides = 0
        for run in runs:
            one = client.training.runs.retrieve(run.training_run_id)
            assert one.training_run_id == run.training_run_id
            overrides += sum(1 for key in ("evaluation_temperature", "evaluation_top_p") if getattr(one.options, key, None) is not None)
        assert overrides, "no training run carries evaluation_* overrides in its options"
        return f"{len(runs)} training run(s), each read; {overrides} evaluation override(s)"

    def checkpoints() -> str:
        total = 0
        for run in state["training"]:
            listed = list(client.training.checkpoints.list(run.training_run_id, limit=2))
            total += len(listed)
        return f"{total} checkpoint(s)"

    def evaluation_series() -> str:
        points = 0
        for run in state["training"]:
            path = f"/api/v1/agents/{state['agent_id']}/training-runs/{run.training_run_id}/evaluation-series"
            points += len(c.schema_pages(path, "/api/v1/agents/{agent_id}/training-runs/{training_run_id}/evaluation-series"))
        return f"{points} point(s)"

    def held_out() -> str:
        rows = 0
        for run in state["training"]:
            rows += len(list(client.training.rewards.list_held_out_rewards(run.training_run_id)))
        return f"{rows} round(s)"

    for name, read in [
        ("GET /api/v1/organizations/current", organization),
        ("GET /api/v1/agents", agents),
        ("GET /api/v1/agents/name/{name}", agent_by_name),
        ("GET /api/v1/benchmarks", benchmarks),
        ("GET /api/v1/benchmarks/{bench_id}", benchmark),
        ("GET /api/v1/agents/{agent_id}/benchmarks/versions", agent_benchmark_versions),
        ("GET /api/v1/agents/{agent_id}/benchmarks", agent_benchmarks),
        ("GET /api/v1/agents/{agent_id}/benchmarks/latest?name=", agent_latest_benchmark),
        ("GET /api/v1/benchmarks/{bench_id}/tasks", tasks),
        ("GET /api/v1/eval/{bench_id}/runs", eval_runs),
        ("GET /api/v1/agents/{agent_id}/evaluation-runs", agent_eval_runs),
        ("GET /api/v1/agents/{agent_id}/training-runs", agent_training_runs),
        ("GET /api/v1/agents/{agent_id}/evaluation-runs?training_run_id=", training_run_evals),
        ("GET /api/v1/eval/{run_id}", eval_run_each),
        ("GET /api/v1/eval/options?bench_id=&base_model_slug=", eval_options),
        ("GET /api/v1/eval/{run_id}/progress", progress_each),
        ("GET /api/v1/eval/{eval_run_id}/remaining-work", remaining_work),
        ("GET /api/v1/eval/{run_id}/trajectory-rewards", trajectory_rewards),
        ("GET /api/v1/trajectories?eval_run_id=", trajectories),
        ("GET /api/v1/trajectories/{id}?include_reward_components&include_steps", trajectory_detail),
        ("GET /api/v1/trajectories/{id}/steps", steps),
        ("GET /api/v1/train/{bench_id}/runs, /api/v1/train/{run_id}", training_runs),
        ("GET /api/v1/train/{run_id}/checkpoints", checkpoints),
        ("GET /api/v1/agents/{agent_id}/training-runs/{training_run_id}/evaluation-series", evaluation_series),
        ("GET /api/v1/train/{run_id}/step/held-out-reward-by-step", held_out),
    ]:
        c.check(name, read)


def run_cost_checks(c: Checker, key_without_billing: str | None) -> None:
    """The cost and effort endpoints (issue 37): the billing list through the client's method,
    paged by offset and sorted both ways, every run's rollout statistics, and the 403 of a key
    without billing access (when the server was started with one)."""
    client = c.client
    runs: list[Any] = []

    def billing() -> str:
        first = client.billing.list_run_costs(limit=50)
        total = first.total
        assert total == len(first.items) or len(first.items) == 50, f"{len(first.items)} of {total}"
        cents = [row.cents for row in first.items]
        assert cents == sorted(cents, reverse=True), "cents, descending by default"
        walked = []
        for offset in range(0, total, 4):
            walked.extend(r.run_id for r in client.billing.list_run_costs(offset=offset, limit=4).items)
        assert walked == [r.run_id for r in first.items], "offset pages make the list"
        by_launch = client.billing.list_run_costs(limit=50, sort="launch_at", order="asc").items
        launches = [r.launch_at for r in by_launch]
        assert launches == sorted(launches), "launch_at ascending"
        c.schema_one("/api/v1/billing/usage/runs", "/api/v1/billing/usage/runs", {"limit": 3, "offset": 2})
        for row in first.items:
            parts = row.training_cents + row.inference_cents + row.grading_cents + row.sandbox_cents
            assert abs(row.cents - parts) < 0.011, f"{row.run_id}: {row.cents} != {parts}"
        return f"{total} run cost(s), snapshot {first.snapshot_id}"

    def rollout_statistics() -> str:
        for bench in client.benchmarks.list():
            runs.extend(client.evals.runs.list(bench.bench_id))
        snapshots = 0
        for run in runs:
            stats = client.evals.runs.retrieve_rollout_statistics(run.eval_run_id)
            assert stats.eval_run_id == run.eval_run_id
            snapshots += len(stats.snapshots)
            c.schema_one(f"/api/v1/eval/{run.eval_run_id}/rollout-statistics", "/api/v1/eval/{run_id}/rollout-statistics")
        return f"{snapshots} distribution(s) over {len(runs)} run(s)"

    def without_billing() -> str:
        assert key_without_billing, "no key without billing access given"
        other = trajectory.Client(api_key=key_without_billing, base_url=str(client.base_url), _strict_response_validation=True, max_retries=0, timeout=60)
        try:
            other.billing.list_run_costs()
        except trajectory.APIStatusError as error:
            assert error.status_code == 403, f"status {error.status_code}"
            assert error.code == "permission_denied", f"code {error.code}"
        else:
            raise AssertionError("billing answered a key without billing access")
        other.evals.runs.retrieve_rollout_statistics(runs[0].eval_run_id)
        return "403 permission_denied on billing; other endpoints answer"

    checks = [
        ("GET /api/v1/billing/usage/runs", billing),
        ("GET /api/v1/eval/{run_id}/rollout-statistics", rollout_statistics),
    ]
    if key_without_billing:
        checks.append(("GET /api/v1/billing/usage/runs with a key without billing access", without_billing))
    for name, read in checks:
        c.check(name, read)


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    base_url = sys.argv[1]
    installed = importlib.metadata.version("trajectory-sdk")
    if installed != REQUIRED_SDK:
        print(f"sdk-check: trajectory-sdk {installed} is installed, {REQUIRED_SDK} is required", file=sys.stderr)
        return 2
    key = os.environ.get("TRAJECTORY_API_KEY")
    client = trajectory.Client(api_key=key, base_url=base_url, _strict_response_validation=True, max_retries=0, timeout=60)
    checker = Checker(client, sdk_openapi())
    started = time.monotonic()
    run_checks(checker)
    run_cost_checks(checker, os.environ.get("SDK_CHECK_KEY_WITHOUT_BILLING"))
    elapsed = time.monotonic() - started
    if checker.failures:
        print(f"\nsdk-check: {len(checker.failures)} endpoint(s) failed with trajectory-sdk {installed} (strict validation):")
        for endpoint in checker.failures:
            print(f"  - {endpoint}")
        return 1
    print(f"\nsdk-check: {checker.passed} endpoint checks passed with trajectory-sdk {installed} (strict validation) in {elapsed:.1f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
