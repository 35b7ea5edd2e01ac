//! The action above the runs that loads the details of every trajectory of the task.

use std::sync::Arc;

use eval_compare_core::client::ClientConfig;
use eval_compare_core::model::RunSet;
use eval_compare_core::report::{Report, TaskRow};
use eval_compare_core::text::noun;
use leptos::prelude::*;

use super::details::{self, DetailLoader, DetailState};
use super::lines::trajectory_lines;
use crate::report::task_panel::run_kind::is_trajectory_api_run;

/// "Load details for all N trajectories", when a client is configured.
#[component]
pub fn LoadAllBar(
    report: Arc<Report>,
    set: Arc<RunSet>,
    row: TaskRow,
    client: Signal<Option<ClientConfig>>,
    loader: DetailLoader,
) -> impl IntoView {
    let ids: Vec<String> = report
        .runs
        .iter()
        .filter(|run| is_trajectory_api_run(run))
        .flat_map(|run| trajectory_lines(&set, run, &row.task_id, None))
        .map(|line| line.id)
        .collect();
    move || {
        let config = client.get()?;
        if ids.is_empty() {
            return None;
        }
        let count = ids.len();
        let trajectories = noun(count as u64, "trajectory", "trajectories");
        let all_loaded = ids.iter().all(|id| {
            matches!(
                loader.state(Some(&config), id),
                Some(DetailState::Loaded(_))
            )
        });
        let ids = ids.clone();
        let label = if all_loaded {
            format!("Details of all {count} {trajectories} loaded")
        } else {
            format!("Load details of all {count} {trajectories}")
        };
        Some(view! {
            <div class="task-panel-actions">
                <button
                    type="button"
                    class="button button-quiet"
                    disabled=all_loaded
                    on:click=move |_| loader.load(config.clone(), ids.clone())
                >
                    {label}
                </button>
                <span class="muted">
                    {format!("error messages and reward components, {} at a time", details::MAX_CONCURRENT_LOADS)}
                </span>
            </div>
        })
    }
}
