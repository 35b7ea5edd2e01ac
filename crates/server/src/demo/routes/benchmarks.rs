//! Benchmarks (spec versions) and their tasks.

use axum::extract::State;
use axum::Json;
use eval_compare_core::api::{BenchmarkListItem, BenchmarkPage, BenchmarkTaskPage};

use super::{matches_search, sort_key, ApiResult};
use crate::dataset::tasks::{Benchmark, Split};
use crate::dataset::Dataset;
use crate::demo::paginate::{paginate, PageRequest};
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

fn sort_value(item: &BenchmarkListItem, sort: &str) -> String {
    match sort {
        "updated_at" => item.updated_at.clone(),
        "name" => item.name.clone(),
        "bench_id" => item.bench_id.clone(),
        "eval_run_count" => format!("{:020}", item.eval_run_count),
        _ => item.created_at.clone(),
    }
}

/// `GET /api/v1/benchmarks`: newest first unless `sort` is given; `search` matches the name
/// or benchmark id; `latest_only` keeps the latest version of each name.
pub async fn list(State(state): State<DemoState>, query: Query) -> ApiResult<BenchmarkPage> {
    let limit = query.limit(200)?;
    let order = query.order()?;
    let sort = query
        .choice(
            "sort",
            &[
                "created_at",
                "updated_at",
                "name",
                "bench_id",
                "eval_run_count",
            ],
        )?
        .unwrap_or("created_at");
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
        .map(|item| (sort_key(&[&sort_value(&item, sort), &item.bench_id]), item))
        .collect();
    let scope = format!("benchmarks|{sort}|{order:?}|{latest_only}|{include_holodeck}|{search:?}");
    let page = paginate(
        entries,
        order,
        &PageRequest {
            scope,
            limit,
            cursor: query.cursor(),
        },
    )?;
    Ok(Json(page.into_page()))
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
    let limit = query.limit(200)?;
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
    let page = paginate(
        entries,
        order,
        &PageRequest {
            scope,
            limit,
            cursor: query.cursor(),
        },
    )?;
    Ok(Json(page.into_page()))
}
