//! `GET /api/v1/billing/usage/runs`: the organization's run costs, offset-paged and sorted by
//! total cents or launch time (the contract's `BillingRunCostsResponse`).

use axum::extract::State;
use axum::Json;
use eval_compare_core::api::{BillingRunCost, BillingRunCostsResponse};

use super::ApiResult;
use crate::dataset::billing::{billing_rows, snapshot_id, BillingRow};
use crate::demo::paginate::Pager;
use crate::demo::query::{Order, Query};
use crate::demo::state::DemoState;

/// The largest page (`limit`).
pub const MAX_LIMIT: usize = 50;
/// The page size when `limit` is absent.
pub const DEFAULT_LIMIT: usize = 20;

/// A billing row in the contract's shape.
fn render(row: &BillingRow) -> BillingRunCost {
    BillingRunCost {
        run_id: row.run_id.clone(),
        name: row.name.clone(),
        run_type: Some(row.kind.to_owned()),
        status: Some(row.status.to_owned()),
        launch_at: Some(row.launch_at.to_string()),
        cents: row.costs.total(),
        training_cents: row.costs.training,
        inference_cents: row.costs.inference,
        grading_cents: row.costs.grading,
        sandbox_cents: row.costs.sandbox,
    }
}

/// `GET /api/v1/billing/usage/runs`: `offset` (from 0), `limit` (1 to 50, 20 by default),
/// `sort` (`cents`, the default, or `launch_at`) and `order` (`desc` by default); ties are
/// broken by run id in the same direction.
pub async fn usage_runs(
    State(state): State<DemoState>,
    query: Query,
) -> ApiResult<BillingRunCostsResponse> {
    let offset = query.count("offset")?.unwrap_or(0) as usize;
    let limit = Pager::with_default(&query, MAX_LIMIT, DEFAULT_LIMIT)?.limit();
    let sort = query.sort(&["cents", "launch_at"])?;
    let order = query.order()?;
    let mut rows = billing_rows(&state.data, state.progress());
    let snapshot_id = snapshot_id(&rows);
    rows.sort_by(|a, b| {
        let by_sort = match sort {
            "launch_at" => a.launch_at.cmp(&b.launch_at),
            _ => a.costs.total().total_cmp(&b.costs.total()),
        };
        by_sort.then_with(|| a.run_id.cmp(&b.run_id))
    });
    if order == Order::Desc {
        rows.reverse();
    }
    let total = rows.len() as u64;
    let items = rows.iter().skip(offset).take(limit).map(render).collect();
    Ok(Json(BillingRunCostsResponse {
        snapshot_id,
        items,
        total,
    }))
}
