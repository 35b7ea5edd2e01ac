//! Evaluation runs: lists, one run, its progress, outstanding attempts, trajectory rewards, and
//! the evaluation options (defaults) of a benchmark version.

use axum::extract::State;
use axum::Json;
use eval_compare_core::api::{
    EvalProgress, EvalRemainingAttempt, EvalRemainingWorkPage, EvalRun, EvalRunPage,
    EvalTrajectoryReward, EvalTrajectoryRewardsPage, RunOptionsResponse,
};

use super::agents::require_agent;
use super::benchmarks::require_benchmark;
use super::{sort_key, ApiResult};
use crate::dataset::catalog::{BASE_MODEL_SLUG, OTHER_MODEL_SLUG};
use crate::dataset::live::{AttemptState, Progress};
use crate::dataset::runs::{Attempt, EvalRun as RunRecord};
use crate::dataset::tasks::Benchmark;
use crate::dataset::Dataset;
use crate::demo::paginate::{paginate_ordered, OrderedList, PageRequest, Pager, Slice};
use crate::demo::path::ApiPath;
use crate::demo::query::{Order, Query};
use crate::demo::render;
use crate::demo::state::DemoState;
use crate::error::ApiError;

/// `EvalRunLifecycleStatus` values.
const STATUSES: [&str; 6] = [
    "pending",
    "registered",
    "running",
    "completed",
    "failed",
    "cancelled",
];

/// The run with this id, or 404.
pub fn require_run<'a>(
    data: &'a Dataset,
    run_id: &str,
    param: &str,
) -> Result<&'a RunRecord, ApiError> {
    data.run(run_id)
        .ok_or_else(|| ApiError::not_found(param, "evaluation run", run_id))
}

/// Filters shared by the two run lists.
#[derive(Debug)]
struct RunFilter<'a> {
    bench_id: Option<&'a str>,
    statuses: Vec<&'static str>,
    training_run_id: Option<&'a str>,
    base_model_slug: Option<&'a str>,
}

/// Renders the runs passing `filter`, newest first, and cuts the requested page.
fn run_page(
    state: &DemoState,
    filter: &RunFilter<'_>,
    query: &Query,
    scope: &str,
) -> ApiResult<EvalRunPage> {
    let pager = Pager::new(query, 200)?;
    let running = state.progress();
    let entries = state
        .data
        .runs
        .iter()
        .map(|run| render::eval_run(run, running))
        .filter(|run| filter.bench_id.is_none_or(|b| run.bench_id == b))
        .filter(|run| {
            filter.statuses.is_empty()
                || run
                    .status
                    .as_ref()
                    .is_some_and(|s| filter.statuses.contains(&s.as_str()))
        })
        .filter(|run| {
            filter
                .training_run_id
                .is_none_or(|t| run.training_run_id.as_deref() == Some(t))
        })
        .filter(|run| {
            filter
                .base_model_slug
                .is_none_or(|m| run.base_model_slug.as_deref() == Some(m))
        })
        .map(|run| (sort_key(&[&run.created_at, &run.eval_run_id]), run))
        .collect();
    let scope = format!("{scope}|{filter:?}");
    pager.page(entries, Order::Desc, scope).map(Json)
}

/// `GET /api/v1/eval/{bench_id}/runs`: a benchmark's runs, newest first; filters `status`
/// (repeated), `training_run_id`, `base_model_slug`.
pub async fn of_benchmark(
    State(state): State<DemoState>,
    ApiPath(bench_id): ApiPath<String>,
    query: Query,
) -> ApiResult<EvalRunPage> {
    require_benchmark(&state.data, &bench_id)?;
    let filter = RunFilter {
        bench_id: Some(&bench_id),
        statuses: query.choices("status", &STATUSES)?,
        training_run_id: query.text("training_run_id"),
        base_model_slug: query.text("base_model_slug"),
    };
    run_page(&state, &filter, &query, "bench-runs")
}

/// `GET /api/v1/agents/{agent_id}/evaluation-runs`: an agent's runs, newest first; filters
/// `bench_id`, `status`, `training_run_id`.
pub async fn of_agent(
    State(state): State<DemoState>,
    ApiPath(agent_id): ApiPath<String>,
    query: Query,
) -> ApiResult<EvalRunPage> {
    require_agent(&agent_id)?;
    let filter = RunFilter {
        bench_id: query.text("bench_id"),
        statuses: query.choice("status", &STATUSES)?.into_iter().collect(),
        training_run_id: query.text("training_run_id"),
        base_model_slug: None,
    };
    run_page(&state, &filter, &query, "agent-runs")
}

/// `GET /api/v1/eval/{run_id}`.
pub async fn one(
    State(state): State<DemoState>,
    ApiPath(run_id): ApiPath<String>,
) -> ApiResult<EvalRun> {
    let run = require_run(&state.data, &run_id, "run_id")?;
    Ok(Json(render::eval_run(run, state.progress())))
}

/// `GET /api/v1/eval/{run_id}/progress`.
pub async fn progress(
    State(state): State<DemoState>,
    ApiPath(run_id): ApiPath<String>,
) -> ApiResult<EvalProgress> {
    let run = require_run(&state.data, &run_id, "run_id")?;
    Ok(Json(render::eval_progress(run, state.progress())))
}

/// The sort key of an attempt in the trajectory-rewards list: trajectories without a task
/// first, then by task id, then by trajectory id (the order of [`crate::dataset::runs::AttemptOrders::by_task`]).
fn reward_key(bench: &Benchmark, run: &RunRecord, attempt: &Attempt) -> String {
    let trajectory_id = run.ids(bench, attempt).trajectory_id();
    match attempt.task_recorded {
        false => sort_key(&["0", &trajectory_id]),
        true => sort_key(&["1", bench.task_ids.get(attempt.task), &trajectory_id]),
    }
}

/// A run's published rewards at `progress`, the page `request` asks for, walked in the
/// run's [`crate::dataset::runs::AttemptOrders::by_task`] order.
pub fn rewards_slice(
    bench: &Benchmark,
    run: &RunRecord,
    progress: Progress,
    request: &PageRequest<'_>,
) -> Result<Slice<EvalTrajectoryReward>, ApiError> {
    let order = &run.orders.by_task;
    let at = |p: usize| &run.attempts[order[p] as usize];
    let list = OrderedList {
        positions: 0..order.len(),
        key: |p| reward_key(bench, run, at(p)),
        keep: |p| at(p).reward_at(progress).is_some(),
    };
    let render = |p| {
        let a = at(p);
        EvalTrajectoryReward {
            trajectory_id: run.ids(bench, a).trajectory_id(),
            reward: a.reward_at(progress).unwrap_or_default(),
            task_id: a
                .task_recorded
                .then(|| bench.task_ids.get(a.task).to_owned()),
        }
    };
    paginate_ordered(list, render, Order::Asc, request)
}

/// A run's outstanding attempts at `progress` by sample id, the page `request` asks for,
/// walked in the run's [`crate::dataset::runs::AttemptOrders::by_id`] order (sample ids sort as trajectory ids do).
pub fn remaining_slice(
    bench: &Benchmark,
    run: &RunRecord,
    progress: Progress,
    request: &PageRequest<'_>,
) -> Result<Slice<EvalRemainingAttempt>, ApiError> {
    let order = &run.orders.by_id;
    let at = |p: usize| &run.attempts[order[p] as usize];
    // Once the last attempt has ended, nothing is outstanding: no walk.
    let outstanding = progress.fraction() < run.end_fraction();
    let list = OrderedList {
        positions: 0..if outstanding { order.len() } else { 0 },
        key: |p| run.ids(bench, at(p)).sample_id(),
        keep: |p| at(p).state(progress) != AttemptState::Finished,
    };
    let render = |p| render::remaining_attempt(bench, run, at(p), progress);
    let page = paginate_ordered(list, render, Order::Asc, request)?;
    Ok(Slice {
        items: page.items.into_iter().flatten().collect(),
        next_cursor: page.next_cursor,
        has_more: page.has_more,
    })
}

/// `GET /api/v1/eval/{eval_run_id}/remaining-work`: outstanding attempts by sample id
/// (`limit` up to 100).
pub async fn remaining_work(
    State(state): State<DemoState>,
    ApiPath(run_id): ApiPath<String>,
    query: Query,
) -> ApiResult<EvalRemainingWorkPage> {
    let run = require_run(&state.data, &run_id, "eval_run_id")?;
    let pager = Pager::new(&query, 100)?;
    let progress = run.progress(state.progress());
    let bench = state.data.bench_of(run);
    let request = pager.request(format!("remaining-work|{run_id}"));
    let page = remaining_slice(bench, run, progress, &request)?;
    Ok(Json(EvalRemainingWorkPage {
        eval_run_id: run_id,
        status: Some(render::run_status(run.status(progress))),
        supported: true,
        items: page.items,
        next_cursor: page.next_cursor,
        has_more: page.has_more,
        page_reset: false,
    }))
}

/// `GET /api/v1/eval/{run_id}/trajectory-rewards`: published rewards in ascending task-id
/// order, trajectories without a task first, then ascending trajectory id.
pub async fn trajectory_rewards(
    State(state): State<DemoState>,
    ApiPath(run_id): ApiPath<String>,
    query: Query,
) -> ApiResult<EvalTrajectoryRewardsPage> {
    let run = require_run(&state.data, &run_id, "run_id")?;
    let pager = Pager::new(&query, 200)?;
    let progress = run.progress(state.progress());
    let bench = state.data.bench_of(run);
    let request = pager.request(format!("trajectory-rewards|{run_id}"));
    let page = rewards_slice(bench, run, progress, &request)?;
    Ok(Json(EvalTrajectoryRewardsPage {
        eval_run_id: run_id,
        items: page.items,
        next_cursor: page.next_cursor,
        has_more: page.has_more,
    }))
}

/// The contract's `BaseModelSlug` values (the `base_model_slug` of `GET /api/v1/eval/options`).
pub const BASE_MODEL_SLUGS: [&str; 25] = [
    "thinkingmachines/Inkling-Small",
    "Qwen/Qwen3.5-4B",
    "Qwen/Qwen3.5-397B-A17B",
    "Qwen/Qwen3.6-35B-A3B",
    "Qwen/Qwen3.8-27B",
    "qwen/qwen3-235b-a22b",
    "nvidia/NVIDIA-Nemotron-3-Ultra-550B-A55B-BF16",
    "nvidia/NVIDIA-Nemotron-3-Super-120B-A12B-BF16",
    "nvidia/NVIDIA-Nemotron-3.5-Lightning-30B-A3B-BF16",
    "nvidia/NVIDIA-Nemotron-3.5-Super-120B-A12B-BF16",
    "openai/gpt-6.1-sol",
    "openai/gpt-6-sol",
    "openai/gpt-6-astra",
    "openai/gpt-5.6-sol",
    "openai/gpt-5.6-luna",
    "anthropic/claude-opus-5.5",
    "anthropic/claude-sonnet-5.5",
    "openai/gpt-5-mini",
    "openai/gpt-5.4-mini",
    "openai/gpt-5.5",
    "anthropic/claude-sonnet-4.6",
    "google/gemini-3.1-pro-preview",
    "z-ai/glm-5.3",
    "z-ai/glm-5.3-flash",
    "moonshotai/kimi-k3",
];

/// The models the demo's benchmark versions support for evaluation.
const SUPPORTED_MODELS: [&str; 2] = [BASE_MODEL_SLUG, OTHER_MODEL_SLUG];

/// `GET /api/v1/eval/options?bench_id=&base_model_slug=`: the evaluation options of a benchmark
/// version per supported model, with their bounds and defaults; only `base_model_slug`'s entry
/// when it is given (none when the version does not support that model).
pub async fn options(
    State(state): State<DemoState>,
    query: Query,
) -> ApiResult<RunOptionsResponse> {
    let bench_id = query
        .text("bench_id")
        .ok_or_else(|| ApiError::validation("bench_id", "`bench_id` is required."))?;
    require_benchmark(&state.data, bench_id)?;
    let model = query.choice("base_model_slug", &BASE_MODEL_SLUGS)?;
    let models = SUPPORTED_MODELS
        .iter()
        .filter(|&&supported| model.is_none_or(|asked| asked == supported))
        .map(|model| render::model_run_options(model))
        .collect();
    Ok(Json(RunOptionsResponse {
        bench_id: bench_id.to_owned(),
        models,
    }))
}
