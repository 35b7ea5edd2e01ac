//! The demo: the Trajectory API's read endpoints (and Chronicle's) over the generated dataset.

pub mod chronicle;
pub mod cursor;
pub mod paginate;
pub mod path;
pub mod query;
pub mod render;
pub mod routes;
pub mod state;

use axum::http::{Method, Uri};
use axum::routing::{any, get};
use axum::Router;

use crate::error::ApiError;

use routes::{
    agents, benchmarks, billing, eval_runs, organization, rollout_statistics, training,
    trajectories,
};
pub use state::DemoState;

/// The demo API: Trajectory under `/api/v1`, Chronicle under `/v1`; any other path under
/// those prefixes answers 404, and a known path with another method 405, in the envelope.
pub fn router(state: DemoState) -> Router {
    trajectory_router(state.clone())
        .merge(chronicle::router(state))
        .route("/api/{*rest}", any(no_route))
        .route("/v1/{*rest}", any(no_route))
        .method_not_allowed_fallback(method_not_allowed)
}

async fn no_route(method: Method, uri: Uri) -> ApiError {
    ApiError::no_route(method.as_str(), uri.path())
}

async fn method_not_allowed(method: Method, uri: Uri) -> ApiError {
    ApiError::method_not_allowed(method.as_str(), uri.path())
}

/// The Trajectory API read endpoints.
fn trajectory_router(state: DemoState) -> Router {
    // Path parameters at the same position share one name ({id}) where the contract uses
    // different names for the same slot (`/eval/{bench_id}/runs` and `/eval/{run_id}`).
    Router::new()
        .route("/api/v1/organizations/current", get(organization::current))
        .route("/api/v1/agents", get(agents::list))
        .route("/api/v1/agents/name/{name}", get(agents::by_name))
        .route("/api/v1/agents/{agent_id}", get(agents::one))
        .route(
            "/api/v1/agents/{agent_id}/benchmarks",
            get(agents::benchmarks),
        )
        .route(
            "/api/v1/agents/{agent_id}/benchmarks/latest",
            get(agents::latest_benchmark),
        )
        .route(
            "/api/v1/agents/{agent_id}/benchmarks/versions",
            get(agents::benchmark_versions),
        )
        .route(
            "/api/v1/agents/{agent_id}/evaluation-runs",
            get(eval_runs::of_agent),
        )
        .route(
            "/api/v1/agents/{agent_id}/training-runs",
            get(training::of_agent),
        )
        .route(
            "/api/v1/agents/{agent_id}/training-runs/{training_run_id}/evaluation-series",
            get(training::evaluation_series),
        )
        .route("/api/v1/benchmarks", get(benchmarks::list))
        .route("/api/v1/benchmarks/{bench_id}", get(benchmarks::one))
        .route(
            "/api/v1/benchmarks/{bench_id}/tasks",
            get(benchmarks::tasks),
        )
        // A static segment wins over `{id}`: `options` is the evaluation options, as in the
        // contract (where `/eval/options` and `/eval/{run_id}` share the slot too).
        .route("/api/v1/eval/options", get(eval_runs::options))
        .route("/api/v1/eval/{id}", get(eval_runs::one))
        .route("/api/v1/eval/{id}/runs", get(eval_runs::of_benchmark))
        .route("/api/v1/eval/{id}/progress", get(eval_runs::progress))
        .route(
            "/api/v1/eval/{id}/rollout-statistics",
            get(rollout_statistics::rollout_statistics),
        )
        .route("/api/v1/billing/usage/runs", get(billing::usage_runs))
        .route(
            "/api/v1/eval/{id}/remaining-work",
            get(eval_runs::remaining_work),
        )
        .route(
            "/api/v1/eval/{id}/trajectory-rewards",
            get(eval_runs::trajectory_rewards),
        )
        .route("/api/v1/trajectories", get(trajectories::list))
        .route(
            "/api/v1/trajectories/{trajectory_id}",
            get(trajectories::one),
        )
        .route(
            "/api/v1/trajectories/{trajectory_id}/steps",
            get(trajectories::steps),
        )
        .route("/api/v1/train/{id}", get(training::one))
        .route("/api/v1/train/{id}/runs", get(training::of_benchmark))
        .route("/api/v1/train/{id}/checkpoints", get(training::checkpoints))
        .route(
            "/api/v1/train/{id}/step/held-out-reward-by-step",
            get(training::held_out),
        )
        .with_state(state)
}
