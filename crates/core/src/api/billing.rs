//! The organization's run costs (`GET /api/v1/billing/usage/runs`) and an evaluation's rollout
//! statistics (`GET /api/v1/eval/{run_id}/rollout-statistics`).

use serde::{Deserialize, Serialize};

/// One run's costs in USD cents over the billing window (`BillingRunCost`). Free
/// organizations see usage at list price.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BillingRunCost {
    /// The run's id (an evaluation or a training run).
    pub run_id: String,
    /// The run's name.
    pub name: String,
    /// `training` or `eval` (other kinds kept by name); null when unknown.
    #[serde(rename = "type")]
    pub run_type: Option<String>,
    /// The run's status, as billing records it.
    pub status: Option<String>,
    /// When the run was launched (ISO 8601).
    pub launch_at: Option<String>,
    /// Total cents: the sum of the four kinds.
    pub cents: f64,
    /// Training cents.
    pub training_cents: f64,
    /// Inference cents (the policy's model calls).
    pub inference_cents: f64,
    /// Grading cents.
    pub grading_cents: f64,
    /// Sandbox cents.
    pub sandbox_cents: f64,
}

/// A page of run costs (`BillingRunCostsResponse`): offset paging, `total` rows in all,
/// `snapshot_id` naming the cached snapshot the rows come from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BillingRunCostsResponse {
    /// The billing snapshot these rows belong to.
    pub snapshot_id: String,
    /// This page's rows.
    pub items: Vec<BillingRunCost>,
    /// Rows in the whole list.
    pub total: u64,
}

/// One runtime-computed distribution of an evaluation's rollouts (`EvalRolloutStatisticResponse`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EvalRolloutStatistic {
    /// The evaluation run that produced this snapshot.
    pub eval_run_id: String,
    /// Pipeline stage that produced the trajectories.
    pub stage: String,
    /// The trajectory setting the distribution represents (e.g. `num_steps`).
    pub knob_name: String,
    /// Unit of the setting and of the samples.
    pub unit: String,
    /// Observed values (absent in a snapshot that keeps only the count).
    #[serde(default)]
    pub samples: Vec<f64>,
    /// Trajectories sampled.
    pub sample_count: u64,
    /// When the underlying evaluation completed (ISO 8601).
    pub created_at: String,
}

/// An evaluation's rollout statistics (`EvalRolloutStatisticsResponse`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EvalRolloutStatistics {
    /// The evaluation run whose rollouts were sampled.
    pub eval_run_id: String,
    /// Its distributions.
    pub snapshots: Vec<EvalRolloutStatistic>,
}
