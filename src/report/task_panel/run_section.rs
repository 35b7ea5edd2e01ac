//! One run's part of the task panel: its name and role, the platform link, its cell on the task,
//! then its trajectories ([`super::trajectory`]) or, for a Chronicle run, its trials
//! ([`super::trial`]).

use eval_compare_core::report::{Role, RunSummary, TaskCell};
use eval_compare_core::text::visible;
use leptos::prelude::*;

use super::link::run_trajectories_url;
use super::panel_state::PanelState;
use super::run_kind::{chronicle_job_of, is_chronicle_run, is_trajectory_api_run};
use super::trajectory::lines::{cell_mean_label, TrajectoryLine};
use super::trajectory::rows::TrajectoryTable;
use super::trial::view::TrialTable;
use crate::format;
use crate::report::table::badges::OutcomeBadges;
use crate::report::table::cells::{delta_class, delta_text, samples_text};
use crate::state::source::use_source_settings;

/// One run's part of the panel: its cell summary, platform link and trajectories (for a
/// Chronicle run, its trials).
#[component]
pub fn RunSection(
    run: RunSummary,
    cell: Option<TaskCell>,
    delta: Option<Option<f64>>,
    trajectories: Vec<TrajectoryLine>,
    /// The view's pass threshold, if set (the cell is then a pass rate).
    threshold: Option<f64>,
    panel: PanelState,
) -> impl IntoView {
    let role = match run.role {
        Role::Baseline => "baseline",
        Role::Candidate => "candidate",
    };
    let fetchable = is_trajectory_api_run(&run);
    let chronicle = is_chronicle_run(&run);
    let list = if trajectories.is_empty() {
        let text = if chronicle {
            "No trial of this run on this task."
        } else {
            "No trajectory of this run on this task."
        };
        view! { <p class="muted panel-none">{text}</p> }.into_any()
    } else if chronicle {
        let job = chronicle_job_of(&run);
        view! { <TrialTable lines=trajectories job panel/> }.into_any()
    } else {
        view! { <TrajectoryTable lines=trajectories fetchable panel/> }.into_any()
    };
    let link =
        fetchable.then(|| view! { <PlatformLink run_id=run.id.clone() org_key=panel.org_key/> });
    view! {
        <section class="panel-run" data-run-id=run.id.clone()>
            <header class="panel-run-header">
                <h3 class="panel-run-name">
                    {run.name.clone()}
                    <span class=format!("role-badge role-{role}")>{role}</span>
                </h3>
                <span class="panel-run-id">{visible(&run.id).into_owned()}</span>
                {link}
            </header>
            {cell.map(|cell| view! { <CellSummary cell delta threshold/> })}
            {list}
        </section>
    }
}

/// The platform's page of the run's attempts, when the source settings name the platform and
/// the organization.
#[component]
fn PlatformLink(run_id: String, org_key: Signal<Option<String>>) -> impl IntoView {
    let source = use_source_settings();
    move || {
        let platform = source.platform_url();
        org_key
            .with(|key| {
                run_trajectories_url(
                    platform.as_deref(),
                    key.as_deref(),
                    &run_id,
                    &source.origin(),
                )
            })
            .map(|href| {
                view! {
                    <a class="platform-link" href=href target="_blank" rel="noopener noreferrer">
                        "Open attempts on the platform"
                    </a>
                }
            })
    }
}

/// The run's cell on the task: mean (a pass rate with a threshold), samples included, Δ against the baseline (a candidate's)
/// and outcome badges.
#[component]
fn CellSummary(
    cell: TaskCell,
    delta: Option<Option<f64>>,
    threshold: Option<f64>,
) -> impl IntoView {
    let (samples, samples_title) = samples_text(&cell);
    let delta = delta.map(|delta| {
        view! {
            <span class="panel-delta">
                "Δ " <span class=delta_class(delta)>{delta_text(delta)}</span>
                {delta.map(|_| " points")}
            </span>
        }
    });
    view! {
        <p class="panel-cell">
            <span>{cell_mean_label(threshold)}" "<strong class="cell-mean">{format::reward_mean(cell.mean)}</strong></span>
            <span class="cell-samples" title=samples_title>{samples}" included"</span>
            {delta}
            <span class="cell-badges"><OutcomeBadges cell/></span>
        </p>
    }
}
