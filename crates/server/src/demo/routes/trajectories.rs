//! Trajectories: the list, one trajectory, and its transcript steps.

use axum::extract::State;
use axum::Json;
use eval_compare_core::api::{StepPage, Trajectory, TrajectoryPage};

use super::eval_runs::require_run;
use super::{matches_search, sort_key, ApiResult};
use crate::dataset::live::Progress;
use crate::dataset::runs::{Attempt, EvalRun as RunRecord};
use crate::dataset::Dataset;
use crate::demo::paginate::{Pager, Slice};
use crate::demo::path::ApiPath;
use crate::demo::query::{Order, Query};
use crate::demo::render::{self, DetailOptions};
use crate::demo::state::DemoState;
use crate::error::ApiError;

/// The started trajectory with this id and where its run stands, or 404.
fn require_trajectory<'a>(
    data: &'a Dataset,
    running: Progress,
    trajectory_id: &str,
) -> Result<(&'a RunRecord, &'a Attempt, Progress), ApiError> {
    let not_found = || ApiError::not_found("trajectory_id", "trajectory", trajectory_id);
    let (run, attempt) = data.trajectory(trajectory_id).ok_or_else(not_found)?;
    let progress = run.progress(running);
    if attempt.is_visible(progress) {
        Ok((run, attempt, progress))
    } else {
        Err(not_found())
    }
}

/// `GET /api/v1/trajectories`: newest first (`order`, and `sort` by `created_at`,
/// `trajectory_id` or `task_id`), including unfinished and failed ones; filters
/// `eval_run_id`, `training_run_id` (training rollouts, of which the demo has none recorded),
/// `dataset_name` and `search` (trajectory or task id).
pub async fn list(State(state): State<DemoState>, query: Query) -> ApiResult<TrajectoryPage> {
    let pager = Pager::new(&query, 200)?;
    let order = query.order()?;
    let sort = query.sort(&["created_at", "trajectory_id", "task_id"])?;
    let eval_run_id = query.text("eval_run_id");
    let training_run_id = query.text("training_run_id");
    let dataset_name = query.text("dataset_name");
    let search = query.text("search");
    let data = &state.data;
    let running = state.progress();
    let runs: Vec<&RunRecord> = match eval_run_id {
        Some(id) => vec![require_run(data, id, "eval_run_id")?],
        None => data.runs.iter().collect(),
    };
    // Evaluation trajectories belong to no training run and no dataset.
    let excluded = training_run_id.is_some() || dataset_name.is_some();
    let mut entries = Vec::new();
    for run in runs.into_iter().filter(|_| !excluded) {
        let progress = run.progress(running);
        let bench = data.bench_of(run);
        for attempt in run.attempts.iter().filter(|a| a.is_visible(progress)) {
            let meta = render::trajectory_metadata(bench, run, attempt, progress);
            if !matches_search(
                search,
                &[&meta.trajectory_id, meta.task_id.as_deref().unwrap_or("")],
            ) {
                continue;
            }
            let key = match sort {
                "trajectory_id" => meta.trajectory_id.clone(),
                "task_id" => {
                    sort_key(&[meta.task_id.as_deref().unwrap_or(""), &meta.trajectory_id])
                }
                _ => sort_key(&[&meta.created_at, &meta.trajectory_id]),
            };
            entries.push((key, meta));
        }
    }
    let scope = format!("trajectories|{sort}|{order:?}|{eval_run_id:?}|{training_run_id:?}|{dataset_name:?}|{search:?}");
    pager.page(entries, order, scope).map(Json)
}

/// `GET /api/v1/trajectories/{trajectory_id}`: with `include_steps` and
/// `include_reward_components`.
pub async fn one(
    State(state): State<DemoState>,
    ApiPath(trajectory_id): ApiPath<String>,
    query: Query,
) -> ApiResult<Trajectory> {
    let options = DetailOptions {
        steps: query.flag("include_steps", false)?,
        reward_components: query.flag("include_reward_components", false)?,
    };
    let (run, attempt, progress) =
        require_trajectory(&state.data, state.progress(), &trajectory_id)?;
    let bench = state.data.bench_of(run);
    Ok(Json(render::trajectory(
        bench, run, attempt, progress, options,
    )))
}

/// `GET /api/v1/trajectories/{trajectory_id}/steps`: steps in ascending index, from
/// `start_step_index` (which cannot be combined with `cursor`).
pub async fn steps(
    State(state): State<DemoState>,
    ApiPath(trajectory_id): ApiPath<String>,
    query: Query,
) -> ApiResult<StepPage> {
    let pager = Pager::new(&query, 200)?;
    let start = query.count("start_step_index")?;
    if start.is_some() && query.cursor().is_some() {
        return Err(ApiError::validation(
            "start_step_index",
            "`start_step_index` cannot be combined with `cursor`.",
        ));
    }
    let (run, attempt, progress) =
        require_trajectory(&state.data, state.progress(), &trajectory_id)?;
    let bench = state.data.bench_of(run);
    let recorded = render::recorded_steps(attempt, progress);
    let entries = (start.unwrap_or(0)..recorded)
        .map(|index| (format!("{index:010}"), index))
        .collect();
    let scope = format!("steps|{trajectory_id}");
    let page = pager.slice(entries, Order::Asc, scope)?;
    let range = match (page.items.first(), page.items.last()) {
        (Some(&first), Some(&last)) => first..last + 1,
        _ => 0..0,
    };
    // A page holds consecutive indices: generate the conversation once for all of them.
    let page = Slice {
        items: render::steps(bench, run, attempt, progress, range),
        next_cursor: page.next_cursor,
        has_more: page.has_more,
    };
    Ok(Json(page.into_page()))
}
