//! Benchmarks (spec versions) and their tasks.

use axum::extract::State;
use axum::Json;
use eval_compare_core::api::{BenchmarkListItem, BenchmarkPage, BenchmarkTaskPage};

use super::catalog_sort::{CatalogRow, CatalogSort};
use super::{matches_search, sort_key, ApiResult};
use crate::dataset::tasks::{Benchmark, Split};
use crate::dataset::Dataset;
use crate::demo::paginate::Pager;
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
    let entries = data
        .benchmarks
        .iter()
        .filter(|b| {
            !latest_only
                || data
                    .benchmarks
                    .iter()
                    .filter(|o| o.name == b.name)
                    .all(|o| o.created_at <= b.created_at)
        })
        .filter(|b| matches_search(search, &[b.name, b.bench_id]))
        .map(|b| render::benchmark(data, b))
        .map(|item| {
            (
                sort_key(&[&sort.value(sort_row(&item)), &item.bench_id]),
                item,
            )
        })
        .collect();
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

/// `GET /api/v1/benchmarks/{bench_id}/tasks`: in ascending task-id order unless `sort`
/// (`task_id` or `label`, in `order`) is given; filters `task_id` (repeated), `split`
/// (`train`, `test`, `unassigned`), `environment` and `search`.
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
    let split = query.choice("split", &["train", "test", "unassigned"])?;
    // Every task's runtime is built, so only `ready` selects tasks.
    let environment = query.choice(
        "environment",
        &["setup_needed", "building", "failed", "ready"],
    )?;
    let search = query.text("search");
    let entries = bench
        .tasks
        .iter()
        .filter(|t| ids.is_empty() || ids.contains(&t.task_id.as_str()))
        .filter(|t| match split {
            Some("train") => t.split == Some(Split::Train),
            Some("test") => t.split == Some(Split::Test),
            Some(_) => t.split.is_none(),
            None => true,
        })
        .filter(|_| environment.is_none_or(|e| e == "ready"))
        .filter(|t| matches_search(search, &[&t.task_id, &t.label]))
        .map(|t| {
            let key = match sort {
                Some("label") => sort_key(&[&t.label, &t.task_id]),
                _ => t.task_id.clone(),
            };
            (key, render::spec_task(t))
        })
        .collect();
    let scope =
        format!("tasks|{bench_id}|{sort:?}|{order:?}|{ids:?}|{split:?}|{environment:?}|{search:?}");
    pager.page(entries, order, scope).map(Json)
}
