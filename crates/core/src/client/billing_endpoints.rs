//! The cost and effort reads: the organization's billing list and a run's rollout statistics.
//!
//! The billing list has no filter by run: a run's row is found by walking the list by offset
//! (oldest launch first, so rows launched meanwhile land behind the walk), and the walk ends:
//! at the row, at the `total` the first page announced, at a short or empty page, or after
//! [`MAX_BILLING_PAGES`] pages.

use crate::api::{BillingRunCost, BillingRunCostsResponse, EvalRolloutStatistics};

use super::error::ApiError;
use super::paths;
use super::query::{segment, Query};
use super::trajectory_client::TrajectoryClient;
use super::transport::Transport;

/// The largest billing page the contract allows (`limit`).
pub const BILLING_MAX_LIMIT: u32 = 50;
/// The most billing pages one search reads (10,000 rows at the largest page).
pub const MAX_BILLING_PAGES: u64 = 200;

impl<T: Transport> TrajectoryClient<T> {
    /// `GET /api/v1/billing/usage/runs?offset=&limit=&sort=launch_at&order=asc`: one page of
    /// the organization's run costs, oldest launch first (`limit` is capped at 50).
    pub async fn billing_run_costs(
        &self,
        offset: u64,
        limit: u32,
    ) -> Result<BillingRunCostsResponse, ApiError> {
        let mut query = Query::default();
        query.push("offset", offset.to_string());
        query.push("limit", limit.clamp(1, BILLING_MAX_LIMIT).to_string());
        query.push("sort", "launch_at");
        query.push("order", "asc");
        let path = format!("{}{}", paths::BILLING_RUN_COSTS, query.to_query_string());
        self.get(&path).await
    }

    /// The billing rows of `run_ids` (each found at most once; a run billing does not list is
    /// absent from the answer), reading the list page by page until every run was found or the
    /// list ends.
    pub async fn billing_rows_of(
        &self,
        run_ids: &[String],
    ) -> Result<Vec<BillingRunCost>, ApiError> {
        let mut found: Vec<BillingRunCost> = Vec::new();
        let mut offset = 0u64;
        let mut total = None;
        for _ in 0..MAX_BILLING_PAGES {
            if found.len() == run_ids.len() || total.is_some_and(|t| offset >= t) {
                break;
            }
            let page = self.billing_run_costs(offset, BILLING_MAX_LIMIT).await?;
            let total = *total.get_or_insert(page.total);
            let read = page.items.len() as u64;
            for row in page.items {
                let wanted = run_ids.contains(&row.run_id);
                if wanted && !found.iter().any(|f| f.run_id == row.run_id) {
                    found.push(row);
                }
            }
            offset += read;
            if read < u64::from(BILLING_MAX_LIMIT) || offset >= total {
                break;
            }
        }
        Ok(found)
    }

    /// `GET /api/v1/eval/{run_id}/rollout-statistics`: the runtime distributions of a run's
    /// rollouts (none while it runs).
    pub async fn rollout_statistics(
        &self,
        run_id: &str,
    ) -> Result<EvalRolloutStatistics, ApiError> {
        let run_id = segment("evaluation run id", run_id)?;
        self.get(&paths::rollout_statistics(&run_id)).await
    }
}
