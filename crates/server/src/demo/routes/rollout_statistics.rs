//! `GET /api/v1/eval/{run_id}/rollout-statistics`: the runtime distributions of an evaluation's
//! rollouts (turns, tokens, seconds), computed once it has finished.

use axum::extract::State;
use axum::Json;
use eval_compare_core::api::{EvalRolloutStatistic, EvalRolloutStatistics};

use super::eval_runs::require_run;
use super::ApiResult;
use crate::dataset::billing::rollout_distributions;
use crate::demo::path::ApiPath;
use crate::demo::state::DemoState;

/// The pipeline stage every demo distribution comes from.
const STAGE: &str = "rollout";

/// `GET /api/v1/eval/{run_id}/rollout-statistics`: 404 for an unknown run; no snapshots
/// while the run is still running.
pub async fn rollout_statistics(
    State(state): State<DemoState>,
    ApiPath(run_id): ApiPath<String>,
) -> ApiResult<EvalRolloutStatistics> {
    let run = require_run(&state.data, &run_id, "run_id")?;
    let progress = run.progress(state.progress());
    let created_at = run.finished_at(progress).map(|t| t.to_string());
    let snapshots = match created_at {
        None => Vec::new(),
        Some(created_at) => rollout_distributions(run, progress)
            .into_iter()
            .map(|d| EvalRolloutStatistic {
                eval_run_id: run.plan.eval_run_id.clone(),
                stage: STAGE.to_owned(),
                knob_name: d.knob_name.to_owned(),
                unit: d.unit.to_owned(),
                sample_count: d.samples.len() as u64,
                samples: d.samples,
                created_at: created_at.clone(),
            })
            .collect(),
    };
    Ok(Json(EvalRolloutStatistics {
        eval_run_id: run.plan.eval_run_id.clone(),
        snapshots,
    }))
}
