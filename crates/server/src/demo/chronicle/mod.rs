//! The Chronicle evaluation read paths over the same dataset: a task suite of codefix v2 test
//! tasks in two versions, and jobs whose trials are one sample of each task in the matching
//! evaluation runs (agent version = run, trial = trajectory, scorer = reward component).

pub mod jobs;
pub mod plans;
pub mod routes;
pub mod stream;
pub mod suite;
pub mod trials;
pub mod wire;

use axum::routing::get;
use axum::Router;

use super::state::DemoState;

/// The Chronicle routes (under `/v1`).
pub fn router(state: DemoState) -> Router {
    Router::new()
        .route("/v1/backtests/jobs", get(routes::list_jobs))
        .route("/v1/backtests/jobs/{job_id}", get(routes::get_job))
        .route("/v1/backtests/jobs/{job_id}/stream", get(routes::stream))
        .route(
            "/v1/backtests/jobs/{job_id}/trials",
            get(routes::list_trials),
        )
        .route(
            "/v1/backtests/jobs/{job_id}/trials/{trial_id}",
            get(routes::get_trial),
        )
        .route(
            "/v1/task-suites/{suite_id}/eval-runs",
            get(routes::suite_eval_runs),
        )
        .with_state(state)
}
