//! Training runs, checkpoints, the evaluation series and held-out rewards by step.

use axum::extract::State;
use axum::Json;
use eval_compare_core::api::{
    AgentTrainingEvaluationSeriesPage, HeldOutRewardsByStepPage, TrainingCheckpointPage,
    TrainingRun, TrainingRunPage,
};

use super::agents::require_agent;
use super::benchmarks::require_benchmark;
use super::{require_known, sort_key, ApiResult};
use crate::dataset::catalog::TRAINING_RUN_ID;
use crate::demo::paginate::Pager;
use crate::demo::path::ApiPath;
use crate::demo::query::{Order, Query};
use crate::demo::render;
use crate::demo::state::DemoState;
use crate::error::ApiError;

/// `TrainingRunLifecycleStatus` values.
const STATUSES: [&str; 7] = [
    "pending",
    "running",
    "cancel_signaled",
    "cancelling",
    "succeeded",
    "failed",
    "cancelled",
];

/// The training run with this id, or 404.
fn require_training_run(run_id: &str, param: &str) -> Result<(), ApiError> {
    require_known(run_id, TRAINING_RUN_ID, param, "training run")
}

/// `GET /api/v1/train/{bench_id}/runs`: newest first; filters `status` (repeated) and
/// `has_training_execution`.
pub async fn of_benchmark(
    State(state): State<DemoState>,
    ApiPath(bench_id): ApiPath<String>,
    query: Query,
) -> ApiResult<TrainingRunPage> {
    require_benchmark(&state.data, &bench_id)?;
    let pager = Pager::new(&query, 200)?;
    let statuses = query.choices("status", &STATUSES)?;
    let execution = query.optional_flag("has_training_execution")?;
    let entries = [render::training_run(&state.data)]
        .into_iter()
        .filter(|run| run.bench_id.as_deref() == Some(bench_id.as_str()))
        .filter(|run| statuses.is_empty() || statuses.contains(&run.status.as_str()))
        .filter(|run| execution.is_none_or(|want| run.has_training_execution == want))
        .map(|run| (sort_key(&[&run.created_at, &run.training_run_id]), run))
        .collect();
    let scope = format!("training-runs|{bench_id}|{statuses:?}|{execution:?}");
    pager.page(entries, Order::Desc, scope).map(Json)
}

/// `GET /api/v1/agents/{agent_id}/training-runs`: the agent's training runs, newest first;
/// filters `bench_id`, `status`, `has_training_execution` and `has_checkpoints`.
pub async fn of_agent(
    State(state): State<DemoState>,
    ApiPath(agent_id): ApiPath<String>,
    query: Query,
) -> ApiResult<TrainingRunPage> {
    require_agent(&agent_id)?;
    let pager = Pager::new(&query, 200)?;
    let bench_id = query.text("bench_id");
    let status = query.choice("status", &STATUSES)?;
    let execution = query.optional_flag("has_training_execution")?;
    // Every demo training run has committed checkpoints.
    let checkpoints = query.optional_flag("has_checkpoints")?;
    let entries = [render::training_run(&state.data)]
        .into_iter()
        .filter(|run| bench_id.is_none_or(|b| run.bench_id.as_deref() == Some(b)))
        .filter(|run| status.is_none_or(|s| run.status.as_str() == s))
        .filter(|run| execution.is_none_or(|want| run.has_training_execution == want))
        .filter(|_| checkpoints.is_none_or(|want| want))
        .map(|run| (sort_key(&[&run.created_at, &run.training_run_id]), run))
        .collect();
    let scope = format!(
        "agent-training-runs|{agent_id}|{bench_id:?}|{status:?}|{execution:?}|{checkpoints:?}"
    );
    pager.page(entries, Order::Desc, scope).map(Json)
}

/// `GET /api/v1/train/{run_id}`.
pub async fn one(
    State(state): State<DemoState>,
    ApiPath(run_id): ApiPath<String>,
) -> ApiResult<TrainingRun> {
    require_training_run(&run_id, "run_id")?;
    Ok(Json(render::training_run(&state.data)))
}

/// `GET /api/v1/train/{run_id}/checkpoints`: ascending step.
pub async fn checkpoints(
    State(state): State<DemoState>,
    ApiPath(run_id): ApiPath<String>,
    query: Query,
) -> ApiResult<TrainingCheckpointPage> {
    require_training_run(&run_id, "run_id")?;
    let pager = Pager::new(&query, 200)?;
    let entries = state
        .data
        .scale
        .scorecard
        .steps()
        .into_iter()
        .map(|step| {
            (
                sort_key(&[
                    &format!("{step:010}"),
                    &render::checkpoint(step).checkpoint_id,
                ]),
                render::checkpoint(step),
            )
        })
        .collect();
    let scope = format!("checkpoints|{run_id}");
    pager.page(entries, Order::Asc, scope).map(Json)
}

/// `GET /api/v1/agents/{agent_id}/training-runs/{training_run_id}/evaluation-series`: the
/// latest scored checkpoint evaluation of each step, ascending.
pub async fn evaluation_series(
    State(state): State<DemoState>,
    ApiPath((agent_id, training_run_id)): ApiPath<(String, String)>,
    query: Query,
) -> ApiResult<AgentTrainingEvaluationSeriesPage> {
    require_agent(&agent_id)?;
    require_training_run(&training_run_id, "training_run_id")?;
    let pager = Pager::new(&query, 200)?;
    let (points, has_active_work) = render::evaluation_series(&state.data, state.progress());
    let entries = points
        .into_iter()
        .map(|p| (format!("{:010}", p.step), p))
        .collect();
    let scope = format!("evaluation-series|{agent_id}|{training_run_id}");
    let page = pager.slice(entries, Order::Asc, scope)?;
    Ok(Json(AgentTrainingEvaluationSeriesPage {
        items: page.items,
        next_cursor: page.next_cursor,
        has_more: page.has_more,
        has_active_work,
    }))
}

/// `GET /api/v1/train/{run_id}/step/held-out-reward-by-step`: ascending step.
pub async fn held_out(
    State(state): State<DemoState>,
    ApiPath(run_id): ApiPath<String>,
    query: Query,
) -> ApiResult<HeldOutRewardsByStepPage> {
    require_training_run(&run_id, "run_id")?;
    let pager = Pager::new(&query, 200)?;
    let entries = state
        .data
        .held_out
        .iter()
        .map(|r| (format!("{:010}", r.step), render::held_out(r)))
        .collect();
    let scope = format!("held-out|{run_id}");
    let page = pager.slice(entries, Order::Asc, scope)?;
    Ok(Json(HeldOutRewardsByStepPage {
        training_run_id: run_id,
        items: page.items,
        next_cursor: page.next_cursor,
        has_more: page.has_more,
    }))
}
