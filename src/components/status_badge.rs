//! A coloured pill naming a run's lifecycle status.

use eval_compare_core::api::EvalRunStatus;
use leptos::prelude::*;

use crate::format::status_label;

/// The status of an evaluation run; unknown statuses are shown by name.
#[component]
pub fn StatusBadge(
    /// Lifecycle status; `None` for legacy rows.
    status: Option<EvalRunStatus>,
) -> impl IntoView {
    let (label, modifier) = status_label(status.as_ref());
    view! { <span class=format!("status {modifier}")>{label}</span> }
}
