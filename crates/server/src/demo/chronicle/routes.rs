//! Handlers of the Chronicle read paths: jobs, one job, its progress stream, its trials, one
//! trial, and a task suite's evaluation results. Lists page with `limit` (1..=100, default 20)
//! and `cursor`. An unknown job, trial or suite id answers 400 `unknown_id`, as the guide says.

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use axum::Json;

use super::jobs::{created_at, job, job_plan, slots, suite_eval_run};
use super::plans::{JobPlan, Launch, JOBS};
use super::stream::{event_stream, StreamTiming};
use super::suite::SUITE_ID;
use super::wire::{
    ChronicleJob, ChroniclePage, ChronicleTrial, ChronicleTrialDetail, JobStatus, SuiteEvalRun,
};
use crate::demo::paginate::Pager;
use crate::demo::path::ApiPath;
use crate::demo::query::{Order, Query};
use crate::demo::routes::{sort_key, ApiResult};
use crate::demo::state::DemoState;
use crate::error::ApiError;

/// Chronicle's largest page.
const MAX_LIMIT: usize = 100;
/// Chronicle's default page size.
const DEFAULT_LIMIT: usize = 20;

/// The page size and cursor of a Chronicle list request.
fn pager(query: &Query) -> Result<Pager<'_>, ApiError> {
    Pager::with_default(query, MAX_LIMIT, DEFAULT_LIMIT)
}

/// Sorts `entries` in `order` and answers the requested page in Chronicle's page shape.
fn page<T>(
    pager: Pager<'_>,
    entries: Vec<(String, T)>,
    order: Order,
    scope: String,
) -> ApiResult<ChroniclePage<T>> {
    let slice = pager.slice(entries, order, scope)?;
    Ok(Json(ChroniclePage {
        items: slice.items,
        has_next_page: slice.has_more,
        limit: u32::try_from(pager.limit()).ok(),
        next_cursor: slice.next_cursor,
    }))
}

fn require_job(job_id: &str) -> Result<&'static JobPlan, ApiError> {
    job_plan(job_id).ok_or_else(|| ApiError::unknown_id("jobId", "evaluation job", job_id))
}

/// `GET /v1/backtests/jobs`: newest first; filter `status`.
pub async fn list_jobs(
    State(state): State<DemoState>,
    query: Query,
) -> ApiResult<ChroniclePage<ChronicleJob>> {
    let pager = pager(&query)?;
    let status = query.choice(
        "status",
        &["queued", "running", "succeeded", "failed", "cancelled"],
    )?;
    let running = state.progress();
    let entries = JOBS
        .iter()
        .map(|plan| {
            (
                sort_key(&[&created_at(&state.data, plan).to_string(), plan.id]),
                job(&state.data, plan, running),
            )
        })
        .filter(|(_, j)| status.is_none_or(|s| j.status.as_ref().map(JobStatus::as_str) == Some(s)))
        .collect();
    let scope = format!("chronicle-jobs|{status:?}");
    page(pager, entries, Order::Desc, scope)
}

/// `GET /v1/backtests/jobs/{jobId}`.
pub async fn get_job(
    State(state): State<DemoState>,
    ApiPath(job_id): ApiPath<String>,
) -> ApiResult<ChronicleJob> {
    let plan = require_job(&job_id)?;
    Ok(Json(job(&state.data, plan, state.progress())))
}

/// `GET /v1/backtests/jobs/{jobId}/stream`: progress events (see [`super::stream`]).
pub async fn stream(
    State(state): State<DemoState>,
    ApiPath(job_id): ApiPath<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let plan = require_job(&job_id)?;
    event_stream(state, plan, &headers, StreamTiming::default())
}

/// `GET /v1/backtests/jobs/{jobId}/trials`: by agent (baseline first), then task id; a queued
/// job has no trials yet.
pub async fn list_trials(
    State(state): State<DemoState>,
    ApiPath(job_id): ApiPath<String>,
    query: Query,
) -> ApiResult<ChroniclePage<ChronicleTrial>> {
    let plan = require_job(&job_id)?;
    let pager = pager(&query)?;
    let entries = if plan.launch == Launch::Queued {
        Vec::new()
    } else {
        slots(&state.data, plan, state.progress())
            .iter()
            .map(|slot| {
                (
                    sort_key(&[&format!("{:03}", slot.agent_index), &slot.task.task_id]),
                    slot.trial(),
                )
            })
            .collect()
    };
    let scope = format!("chronicle-trials|{job_id}");
    page(pager, entries, Order::Asc, scope)
}

/// `GET /v1/backtests/jobs/{jobId}/trials/{trialId}`.
pub async fn get_trial(
    State(state): State<DemoState>,
    ApiPath((job_id, trial_id)): ApiPath<(String, String)>,
) -> ApiResult<ChronicleTrialDetail> {
    let plan = require_job(&job_id)?;
    let unknown = || ApiError::unknown_id("trialId", "trial", &trial_id);
    if plan.launch == Launch::Queued {
        return Err(unknown());
    }
    slots(&state.data, plan, state.progress())
        .iter()
        .find(|slot| slot.trial_id() == trial_id)
        .map(|slot| Json(slot.detail()))
        .ok_or_else(unknown)
}

/// `GET /v1/task-suites/{suiteId}/eval-runs`: each job's pass/fail per task, newest first;
/// filter `job_id` (an unknown one answers 400, as for the job itself).
pub async fn suite_eval_runs(
    State(state): State<DemoState>,
    ApiPath(suite_id): ApiPath<String>,
    query: Query,
) -> ApiResult<ChroniclePage<SuiteEvalRun>> {
    if suite_id != SUITE_ID {
        return Err(ApiError::unknown_id("suiteId", "task suite", &suite_id));
    }
    let pager = pager(&query)?;
    let job_id = query.text("job_id");
    if let Some(id) = job_id.filter(|id| job_plan(id).is_none()) {
        return Err(ApiError::unknown_id("job_id", "evaluation job", id));
    }
    let running = state.progress();
    let entries = JOBS
        .iter()
        .filter(|plan| job_id.is_none_or(|id| plan.id == id))
        .map(|plan| {
            let key = sort_key(&[&created_at(&state.data, plan).to_string(), plan.id]);
            (key, suite_eval_run(&state.data, plan, running))
        })
        .collect();
    let scope = format!("chronicle-suite-runs|{suite_id}|{job_id:?}");
    page(pager, entries, Order::Desc, scope)
}
