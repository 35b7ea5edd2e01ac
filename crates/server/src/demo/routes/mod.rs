//! Handlers of the Trajectory API read endpoints, one module per resource.

pub mod agents;
pub mod benchmarks;
pub mod billing;
pub mod catalog_sort;
pub mod eval_runs;
pub mod organization;
#[cfg(test)]
mod paging_tests;
pub mod rollout_statistics;
pub mod training;
pub mod trajectories;

use axum::Json;

use crate::error::ApiError;

/// What a handler answers: a JSON body or an error in the contract's envelope.
pub type ApiResult<T> = Result<Json<T>, ApiError>;

/// `Ok` when `id` names the demo's only `what` (`known`); otherwise 404 naming the path or
/// query parameter `param`.
pub fn require_known(id: &str, known: &str, param: &str, what: &str) -> Result<(), ApiError> {
    if id == known {
        Ok(())
    } else {
        Err(ApiError::not_found(param, what, id))
    }
}

/// A composite sort key: parts joined by a separator that sorts below every printable
/// character, so keys order like the tuples of their parts.
pub fn sort_key(parts: &[&str]) -> String {
    parts.join("\u{1f}")
}

/// Case-insensitive substring match for `search` parameters.
pub fn matches_search(search: Option<&str>, fields: &[&str]) -> bool {
    search.is_none_or(|needle| {
        let needle = needle.to_lowercase();
        fields
            .iter()
            .any(|field| field.to_lowercase().contains(&needle))
    })
}
