//! Trajectories: the list, one trajectory, and its transcript steps.

use axum::extract::State;
use axum::Json;
use eval_compare_core::api::{StepPage, Trajectory, TrajectoryMetadata, TrajectoryPage};

use super::eval_runs::require_run;
use super::{matches_search, sort_key, ApiResult};
use crate::dataset::live::Progress;
use crate::dataset::runs::{start_seconds, Attempt, EvalRun as RunRecord};
use crate::dataset::tasks::Benchmark;
use crate::dataset::Dataset;
use crate::demo::paginate::{paginate_ordered, OrderedList, PageRequest, Pager, Slice};
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

/// The sort keys of the trajectory list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TrajectorySort {
    /// `created_at`, then trajectory id (the default).
    CreatedAt,
    /// Trajectory id.
    TrajectoryId,
    /// Task id (none first), then trajectory id.
    TaskId,
}

impl TrajectorySort {
    /// The `sort` values, in the order the error message names them.
    pub const NAMES: [&'static str; 3] = ["created_at", "trajectory_id", "task_id"];

    /// The key of a `sort` value (the default for anything else).
    pub fn of(name: &str) -> Self {
        match name {
            "trajectory_id" => Self::TrajectoryId,
            "task_id" => Self::TaskId,
            _ => Self::CreatedAt,
        }
    }

    /// The sort key of a trajectory in the list.
    fn key(self, meta: &TrajectoryMetadata) -> String {
        match self {
            Self::TrajectoryId => meta.trajectory_id.clone(),
            Self::TaskId => sort_key(&[meta.task_id.as_deref().unwrap_or(""), &meta.trajectory_id]),
            Self::CreatedAt => sort_key(&[&meta.created_at, &meta.trajectory_id]),
        }
    }
}

/// Every run's started trajectories at `running` that match `search`, with their sort keys:
/// the list built whole (for the lists over every run or with a search).
pub fn trajectory_entries(
    data: &Dataset,
    runs: &[&RunRecord],
    running: Progress,
    sort: TrajectorySort,
    search: Option<&str>,
) -> Vec<(String, TrajectoryMetadata)> {
    let mut entries = Vec::new();
    for run in runs {
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
            entries.push((sort.key(&meta), meta));
        }
    }
    entries
}

/// One run's started trajectories at `progress`, the page `request` asks for, walked in the
/// run's order of `sort` ([`crate::dataset::runs::AttemptOrders`]).
pub fn run_trajectories_slice(
    bench: &Benchmark,
    run: &RunRecord,
    progress: Progress,
    sort: TrajectorySort,
    order: Order,
    request: &PageRequest<'_>,
) -> Result<Slice<TrajectoryMetadata>, ApiError> {
    let attempts = match sort {
        TrajectorySort::CreatedAt => &run.orders.by_created,
        TrajectorySort::TrajectoryId => &run.orders.by_id,
        TrajectorySort::TaskId => &run.orders.by_task,
    };
    let at = |p: usize| &run.attempts[attempts[p] as usize];
    let positions = match sort {
        // By creation, the attempts started by now come first: every one created before the
        // current second has started, none created after it.
        TrajectorySort::CreatedAt if progress.fraction().is_finite() => {
            let now = start_seconds(progress.fraction());
            let end = attempts
                .partition_point(|&a| start_seconds(run.attempts[a as usize].window.start) <= now);
            0..end
        }
        _ => 0..attempts.len(),
    };
    let key = |p: usize| {
        let a = at(p);
        let trajectory_id = run.ids(bench, a).trajectory_id();
        match sort {
            TrajectorySort::TrajectoryId => trajectory_id,
            TrajectorySort::TaskId => {
                let task_id = if a.task_recorded {
                    bench.task_ids.get(a.task)
                } else {
                    ""
                };
                sort_key(&[task_id, &trajectory_id])
            }
            TrajectorySort::CreatedAt => sort_key(&[
                &run.timestamp_at(a.window.start).to_string(),
                &trajectory_id,
            ]),
        }
    };
    let list = OrderedList {
        positions,
        key,
        keep: |p| at(p).is_visible(progress),
    };
    let render = |p| render::trajectory_metadata(bench, run, at(p), progress);
    paginate_ordered(list, render, order, request)
}

/// `GET /api/v1/trajectories`: newest first (`order`, and `sort` by `created_at`,
/// `trajectory_id` or `task_id`), including unfinished and failed ones; filters
/// `eval_run_id`, `training_run_id` (training rollouts, of which the demo has none recorded),
/// `dataset_name` and `search` (trajectory or task id). One run's list without a search is
/// walked in the run's kept order; the others are built whole.
pub async fn list(State(state): State<DemoState>, query: Query) -> ApiResult<TrajectoryPage> {
    let pager = Pager::new(&query, 200)?;
    let order = query.order()?;
    let sort = query.sort(&TrajectorySort::NAMES)?;
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
    let scope = format!("trajectories|{sort}|{order:?}|{eval_run_id:?}|{training_run_id:?}|{dataset_name:?}|{search:?}");
    let sort = TrajectorySort::of(sort);
    match (eval_run_id, &runs[..]) {
        (Some(_), [run]) if !excluded && search.is_none() => {
            let request = pager.request(scope);
            let progress = run.progress(running);
            run_trajectories_slice(data.bench_of(run), run, progress, sort, order, &request)
                .map(|page| Json(page.into_page()))
        }
        _ => {
            let runs = if excluded { &[][..] } else { &runs[..] };
            let entries = trajectory_entries(data, runs, running, sort, search);
            pager.page(entries, order, scope).map(Json)
        }
    }
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
