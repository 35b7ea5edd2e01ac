//! Agents: the list, one by id, one by name, and an agent's benchmark versions by name.

use axum::extract::State;
use axum::Json;
use eval_compare_core::api::{
    Agent, AgentListItem, AgentListPage, BenchmarkListItem, BenchmarkPage,
};

use super::benchmarks::{catalog_entries, is_latest};
use super::catalog_sort::{CatalogRow, CatalogSort};
use super::{matches_search, require_known, sort_key, ApiResult};
use crate::dataset::catalog::{AGENT_ID, AGENT_NAME};
use crate::demo::paginate::Pager;
use crate::demo::path::ApiPath;
use crate::demo::query::{Order, Query};
use crate::demo::render;
use crate::demo::state::DemoState;
use crate::error::ApiError;

/// The agent with this id, or 404.
pub fn require_agent(agent_id: &str) -> Result<(), ApiError> {
    require_known(agent_id, AGENT_ID, "agent_id", "agent")
}

/// The fields an agent sorts by in the list.
fn sort_row(item: &AgentListItem) -> CatalogRow<'_> {
    CatalogRow {
        created_at: &item.created_at,
        updated_at: &item.updated_at,
        name: &item.name,
        id: &item.agent_id,
        count: i128::from(item.benchmark_count),
    }
}

/// `GET /api/v1/agents`: newest first unless `sort` is given.
pub async fn list(State(state): State<DemoState>, query: Query) -> ApiResult<AgentListPage> {
    let pager = Pager::new(&query, 200)?;
    let order = query.order()?;
    let sort = CatalogSort::from_query(&query, "agent_id", "benchmark_count")?;
    let has_deployment = query.optional_flag("has_deployment")?;
    let has_benchmarks = query.optional_flag("has_benchmarks")?;
    let ids = query.all("agent_id");
    let slug = query.text("production_model_slug");
    let search = query.text("search");
    let entries: Vec<(String, AgentListItem)> = [render::agent_item(&state.data)]
        .into_iter()
        .filter(|a| has_deployment.is_none_or(|want| a.is_deployed == want))
        .filter(|a| has_benchmarks.is_none_or(|want| (a.benchmark_count > 0) == want))
        .filter(|a| ids.is_empty() || ids.contains(&a.agent_id.as_str()))
        .filter(|a| slug.is_none_or(|s| a.production_model_slug.as_deref() == Some(s)))
        .filter(|a| matches_search(search, &[&a.name, &a.agent_id]))
        .map(|a| (sort_key(&[&sort.value(sort_row(&a)), &a.agent_id]), a))
        .collect();
    let total_count = entries.len() as u64;
    let scope = format!(
        "agents|{sort}|{order:?}|{has_deployment:?}|{has_benchmarks:?}|{ids:?}|{slug:?}|{search:?}"
    );
    let page = pager.slice(entries, order, scope)?;
    Ok(Json(AgentListPage {
        items: page.items,
        next_cursor: page.next_cursor,
        has_more: page.has_more,
        total_count,
    }))
}

/// `GET /api/v1/agents/{agent_id}`.
pub async fn one(
    State(state): State<DemoState>,
    ApiPath(agent_id): ApiPath<String>,
) -> ApiResult<Agent> {
    require_agent(&agent_id)?;
    Ok(Json(render::agent(&state.data)))
}

/// `GET /api/v1/agents/name/{name}`.
pub async fn by_name(
    State(state): State<DemoState>,
    ApiPath(name): ApiPath<String>,
) -> ApiResult<Agent> {
    require_known(&name, AGENT_NAME, "name", "agent")?;
    Ok(Json(render::agent(&state.data)))
}

/// `GET /api/v1/agents/{agent_id}/benchmarks`: the latest version of each of the agent's
/// benchmark names, newest first unless `sort` (`created_at`, `updated_at`, `name`, `bench_id`,
/// `eval_run_count`, in `order`) is given; `search` matches the name or benchmark id.
pub async fn benchmarks(
    State(state): State<DemoState>,
    ApiPath(agent_id): ApiPath<String>,
    query: Query,
) -> ApiResult<BenchmarkPage> {
    require_agent(&agent_id)?;
    let pager = Pager::new(&query, 200)?;
    let order = query.order()?;
    let sort = CatalogSort::from_query(&query, "bench_id", "eval_run_count")?;
    let search = query.text("search");
    let data = &state.data;
    let entries = catalog_entries(data, sort, |b| {
        is_latest(data, b) && matches_search(search, &[b.name, b.bench_id])
    });
    let scope = format!("agent-benchmarks|{agent_id}|{sort}|{order:?}|{search:?}");
    pager.page(entries, order, scope).map(Json)
}

/// The `name` query parameter the by-name endpoints require.
fn required_name(query: &Query) -> Result<&str, ApiError> {
    query
        .one("name")
        .filter(|name| !name.is_empty())
        .ok_or_else(|| ApiError::validation("name", "`name` is required."))
}

/// `GET /api/v1/agents/{agent_id}/benchmarks/latest?name=`: the latest version of the
/// benchmark of that name, or 404.
pub async fn latest_benchmark(
    State(state): State<DemoState>,
    ApiPath(agent_id): ApiPath<String>,
    query: Query,
) -> ApiResult<BenchmarkListItem> {
    require_agent(&agent_id)?;
    let name = required_name(&query)?;
    let data = &state.data;
    data.benchmarks
        .iter()
        .find(|b| b.name == name && is_latest(data, b))
        .map(|b| Json(render::benchmark(data, b)))
        .ok_or_else(|| ApiError::not_found("name", "benchmark", name))
}

/// `GET /api/v1/agents/{agent_id}/benchmarks/versions?name=`: by creation time, newest first.
pub async fn benchmark_versions(
    State(state): State<DemoState>,
    ApiPath(agent_id): ApiPath<String>,
    query: Query,
) -> ApiResult<BenchmarkPage> {
    require_agent(&agent_id)?;
    let pager = Pager::new(&query, 200)?;
    let name = required_name(&query)?;
    let entries = state
        .data
        .benchmarks
        .iter()
        .filter(|b| b.name == name)
        .map(|b| {
            (
                sort_key(&[&b.created_at.to_string(), b.bench_id]),
                render::benchmark(&state.data, b),
            )
        })
        .collect();
    let scope = format!("benchmark-versions|{agent_id}|{name}");
    pager.page(entries, Order::Desc, scope).map(Json)
}
