//! Benchmarks (spec versions) and their tasks.

use axum::extract::State;
use axum::Json;
use eval_compare_core::api::{
    BenchmarkListItem, BenchmarkPage, BenchmarkSpecTask, BenchmarkTaskPage,
};

use super::catalog_sort::{CatalogRow, CatalogSort};
use super::{matches_search, sort_key, ApiResult};
use crate::dataset::tasks::{Benchmark, Split, Task};
use crate::dataset::Dataset;
use crate::demo::paginate::{paginate_ordered, OrderedList, PageRequest, Pager, Slice};
use crate::demo::path::ApiPath;
use crate::demo::query::{Order, Query};
use crate::demo::render;
use crate::demo::state::DemoState;
use crate::error::ApiError;

/// The benchmark version with this id, or 404.
pub fn require_benchmark<'a>(data: &'a Dataset, bench_id: &str) -> Result<&'a Benchmark, ApiError> {
    data.benchmark(bench_id)
        .ok_or_else(|| ApiError::not_found("bench_id", "benchmark", bench_id))
}

/// The fields a benchmark sorts by in the list.
fn sort_row(item: &BenchmarkListItem) -> CatalogRow<'_> {
    CatalogRow {
        created_at: &item.created_at,
        updated_at: &item.updated_at,
        name: &item.name,
        id: &item.bench_id,
        count: i128::from(item.eval_run_count),
    }
}

/// Whether `bench` is the latest version of its name.
pub fn is_latest(data: &Dataset, bench: &Benchmark) -> bool {
    data.benchmarks
        .iter()
        .filter(|o| o.name == bench.name)
        .all(|o| (o.created_at, o.bench_id) <= (bench.created_at, bench.bench_id))
}

/// The benchmark versions `keep` keeps, as listed, keyed by `sort` (then benchmark id); the
/// entries of `GET /api/v1/benchmarks` and `GET /api/v1/agents/{agent_id}/benchmarks`.
pub fn catalog_entries(
    data: &Dataset,
    sort: CatalogSort,
    keep: impl Fn(&Benchmark) -> bool,
) -> Vec<(String, BenchmarkListItem)> {
    data.benchmarks
        .iter()
        .filter(|b| keep(b))
        .map(|b| render::benchmark(data, b))
        .map(|item| {
            (
                sort_key(&[&sort.value(sort_row(&item)), &item.bench_id]),
                item,
            )
        })
        .collect()
}

/// `GET /api/v1/benchmarks`: newest first unless `sort` is given; `search` matches the name
/// or benchmark id; `latest_only` keeps the latest version of each name.
pub async fn list(State(state): State<DemoState>, query: Query) -> ApiResult<BenchmarkPage> {
    let pager = Pager::new(&query, 200)?;
    let order = query.order()?;
    let sort = CatalogSort::from_query(&query, "bench_id", "eval_run_count")?;
    let latest_only = query.flag("latest_only", false)?;
    // Holodeck benchmarks are a library the demo organization has none of.
    let include_holodeck = query.flag("include_holodeck", false)?;
    let search = query.text("search");
    let data = &state.data;
    let entries = catalog_entries(data, sort, |b| {
        (!latest_only || is_latest(data, b)) && matches_search(search, &[b.name, b.bench_id])
    });
    let scope = format!("benchmarks|{sort}|{order:?}|{latest_only}|{include_holodeck}|{search:?}");
    pager.page(entries, order, scope).map(Json)
}

/// `GET /api/v1/benchmarks/{bench_id}`.
pub async fn one(
    State(state): State<DemoState>,
    ApiPath(bench_id): ApiPath<String>,
) -> ApiResult<BenchmarkListItem> {
    let bench = require_benchmark(&state.data, &bench_id)?;
    Ok(Json(render::benchmark(&state.data, bench)))
}

/// The task list's filters that keep its order (`split` and `environment`).
#[derive(Debug, Clone, Copy)]
pub struct TaskFilter<'a> {
    /// `train`, `test` or `unassigned`.
    pub split: Option<&'a str>,
    /// Only `ready` keeps tasks (every task's runtime is built).
    pub environment: Option<&'a str>,
}

impl TaskFilter<'_> {
    /// Whether `task` passes.
    fn keeps(&self, task: &Task) -> bool {
        let split = match self.split {
            Some("train") => task.split == Some(Split::Train),
            Some("test") => task.split == Some(Split::Test),
            Some(_) => task.split.is_none(),
            None => true,
        };
        split && self.environment.is_none_or(|e| e == "ready")
    }
}

/// The sort key of a task in the list (`sort=label`, or by task id).
fn task_key(task: &Task, by_label: bool) -> String {
    if by_label {
        sort_key(&[&task.label, &task.task_id])
    } else {
        task.task_id.clone()
    }
}

/// A benchmark's tasks passing `filter`, the page `request` asks for, walked in task-id order
/// or [`Benchmark::by_label`].
pub fn tasks_slice(
    bench: &Benchmark,
    by_label: bool,
    filter: TaskFilter<'_>,
    order: Order,
    request: &PageRequest<'_>,
) -> Result<Slice<BenchmarkSpecTask>, ApiError> {
    let at = |p: usize| {
        let index = if by_label {
            bench.by_label[p] as usize
        } else {
            p
        };
        &bench.tasks[index]
    };
    let list = OrderedList {
        positions: 0..bench.tasks.len(),
        key: |p| task_key(at(p), by_label),
        keep: |p| filter.keeps(at(p)),
    };
    paginate_ordered(list, |p| render::spec_task(at(p)), order, request)
}

/// `GET /api/v1/benchmarks/{bench_id}/tasks`: in ascending task-id order unless `sort`
/// (`task_id` or `label`, in `order`) is given; filters `task_id` (repeated), `split`
/// (`train`, `test`, `unassigned`), `environment` and `search`. Without `task_id` or `search`
/// the list is walked in its kept order; with them the matching tasks are sorted.
pub async fn tasks(
    State(state): State<DemoState>,
    ApiPath(bench_id): ApiPath<String>,
    query: Query,
) -> ApiResult<BenchmarkTaskPage> {
    let bench = require_benchmark(&state.data, &bench_id)?;
    let pager = Pager::new(&query, 200)?;
    let sort = query.choice("sort", &["task_id", "label"])?;
    let order = if sort.is_some() {
        query.order()?
    } else {
        Order::Asc
    };
    let ids = query.all("task_id");
    let filter = TaskFilter {
        split: query.choice("split", &["train", "test", "unassigned"])?,
        environment: query.choice(
            "environment",
            &["setup_needed", "building", "failed", "ready"],
        )?,
    };
    let search = query.text("search");
    let scope = format!(
        "tasks|{bench_id}|{sort:?}|{order:?}|{ids:?}|{:?}|{:?}|{search:?}",
        filter.split, filter.environment
    );
    let by_label = sort == Some("label");
    if ids.is_empty() && search.is_none() {
        let request = pager.request(scope);
        return tasks_slice(bench, by_label, filter, order, &request)
            .map(|page| Json(page.into_page()));
    }
    let entries = bench
        .tasks
        .iter()
        .filter(|t| ids.is_empty() || ids.contains(&t.task_id.as_str()))
        .filter(|t| filter.keeps(t))
        .filter(|t| matches_search(search, &[&t.task_id, &t.label]))
        .map(|t| (task_key(t, by_label), render::spec_task(t)))
        .collect();
    pager.page(entries, order, scope).map(Json)
}
