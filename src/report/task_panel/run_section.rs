//! One run's part of the task panel (its cell on the task, the platform link and a row per
//! trajectory with its details action), and the action loading every trajectory's details.

use std::sync::Arc;

use eval_compare_core::client::ClientConfig;
use eval_compare_core::model::RunSet;
use eval_compare_core::report::{Report, Role, RunSummary, TaskCell, TaskRow};
use eval_compare_core::text::noun;
use eval_compare_core::text::visible;
use leptos::prelude::*;

use super::details::{self, DetailLoader, DetailState};
use super::details_view::{ComponentsView, DetailsView};
use super::lines::{class_slug, trajectory_lines, TrajectoryLine};
use super::link::run_trajectories_url;
use super::transcript_view::TranscriptSlot;
use super::transcripts::TranscriptLoader;
use super::trial_details::TrialDetailLoader;
use super::trial_source::TrialSource;
use super::trial_view::TrialTable;
use super::{chronicle_job_of, is_chronicle_run, is_trajectory_api_run};
use crate::format;
use crate::report::table::badges::OutcomeBadges;
use crate::report::table::cells::{delta_class, delta_text, samples_text};
use crate::state::source::use_source_settings;

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
        .flat_map(|run| trajectory_lines(&set, run, &row.task_id))
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

/// One run's part of the panel: its cell summary, platform link and trajectories (for a
/// Chronicle run, its trials).
#[component]
pub fn RunSection(
    run: RunSummary,
    cell: Option<TaskCell>,
    delta: Option<Option<f64>>,
    trajectories: Vec<TrajectoryLine>,
    client: Signal<Option<ClientConfig>>,
    org_key: Signal<Option<String>>,
    loader: DetailLoader,
    trial_loader: TrialDetailLoader,
    trials: TrialSource,
    transcripts: TranscriptLoader,
    attempts: Signal<Vec<String>>,
    on_attempts: Callback<Vec<String>>,
) -> impl IntoView {
    let role = match run.role {
        Role::Baseline => "baseline",
        Role::Candidate => "candidate",
    };
    let fetchable = is_trajectory_api_run(&run);
    let source = use_source_settings();
    let link = {
        let run_id = run.id.clone();
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
                .filter(|_| fetchable)
                .map(|href| {
                    view! {
                        <a class="platform-link" href=href target="_blank" rel="noopener noreferrer">
                            "Open attempts on the platform"
                        </a>
                    }
                })
        }
    };
    let summary = cell.map(|cell| {
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
                <span>"Mean "<strong class="cell-mean">{format::reward_mean(cell.mean)}</strong></span>
                <span class="cell-samples" title=samples_title>{samples}" included"</span>
                {delta}
                <span class="cell-badges"><OutcomeBadges cell/></span>
            </p>
        }
    });
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
        view! { <TrialTable lines=trajectories job client loader=trial_loader trials/> }.into_any()
    } else {
        let rows = trajectories
            .into_iter()
            .map(|line| {
                view! {
                    <TrajectoryRows line client loader fetchable transcripts attempts on_attempts/>
                }
            })
            .collect_view();
        view! {
            <table class="trajectories">
                <colgroup>
                    <col class="col-trajectory"/>
                    <col class="col-outcome"/>
                    <col class="col-reward"/>
                    <col class="col-ending"/>
                    <col class="col-action"/>
                </colgroup>
                <thead>
                    <tr>
                        <th scope="col">"Trajectory"</th>
                        <th scope="col">"Outcome"</th>
                        <th scope="col" class="num">"Reward"</th>
                        <th scope="col">"Ending"</th>
                        <th scope="col"><span class="sr-only">"Details"</span></th>
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        }
        .into_any()
    };
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
            {summary}
            {list}
        </section>
    }
}

/// A trajectory's row, its details action and, once asked for, its details.
#[component]
fn TrajectoryRows(
    line: TrajectoryLine,
    client: Signal<Option<ClientConfig>>,
    loader: DetailLoader,
    fetchable: bool,
    transcripts: TranscriptLoader,
    attempts: Signal<Vec<String>>,
    on_attempts: Callback<Vec<String>>,
) -> impl IntoView {
    let id = line.id.clone();
    // Open when asked here, or when the link's `attempts` is this trajectory alone.
    let opened = RwSignal::new(attempts.with_untracked(|ids| ids.as_slice() == [id.clone()]));
    {
        let id = id.clone();
        Effect::new(move |_| {
            if let Some(config) = client.get().filter(|_| fetchable && opened.get()) {
                transcripts.load(config, vec![id.clone()]);
            }
        });
    }
    let read = {
        let id = id.clone();
        move || {
            client
                .with(|config| config.is_some() && fetchable)
                .then_some(())?;
            let id = id.clone();
            let label = if opened.get() {
                "Hide transcript"
            } else {
                "Read transcript"
            };
            Some(view! {
                <button
                    type="button"
                    class="link-button transcript-action"
                    aria-expanded=move || opened.get().to_string()
                    aria-label=format!("{label}: trajectory {id}")
                    on:click=move |_| {
                        let open = !opened.get_untracked();
                        opened.set(open);
                        if open {
                            on_attempts.run(vec![id.clone()]);
                        } else {
                            on_attempts.run(Vec::new());
                        }
                    }
                >
                    {label}
                </button>
            })
        }
    };
    let transcript = {
        let id = id.clone();
        move || {
            let config = client.get().filter(|_| fetchable && opened.get())?;
            Some(view! {
                <tr class="transcript-row">
                    <td colspan="5">
                        <TranscriptSlot id=id.clone() config loader=transcripts/>
                    </td>
                </tr>
            })
        }
    };
    let state = {
        let id = id.clone();
        Memo::new(move |_| client.with(|config| loader.state(config.as_ref(), &id)))
    };
    let action = {
        let id = id.clone();
        move || {
            let config = client.get().filter(|_| fetchable)?;
            let id = id.clone();
            let (label, busy) = match state.get() {
                None => ("Load details", false),
                Some(DetailState::Loading) => ("Loading…", true),
                Some(DetailState::Failed(_)) => ("Retry", false),
                Some(DetailState::Loaded(_)) => return None,
            };
            Some(view! {
                <button
                    type="button"
                    class="link-button details-action"
                    disabled=busy
                    aria-label=format!("{label}: trajectory {id}")
                    on:click=move |_| loader.load(config.clone(), vec![id.clone()])
                >
                    {label}
                </button>
            })
        }
    };
    let known_components = line.components.clone();
    let details = move || {
        let fetched = match state.get() {
            Some(DetailState::Loaded(details)) => Some(details),
            Some(DetailState::Failed(explanation)) => {
                return Some(
                    view! {
                        <tr class="details-row">
                            <td colspan="5">
                                <div class="details-error" role="alert">
                                    <strong>{explanation.title}</strong>
                                    <span>{explanation.message}</span>
                                    <span class="muted">{explanation.hint}</span>
                                </div>
                            </td>
                        </tr>
                    }
                    .into_any(),
                );
            }
            Some(DetailState::Loading) | None => None,
        };
        if fetched.is_none() && known_components.is_none() {
            return None;
        }
        let body = match fetched {
            Some(details) => view! { <DetailsView details=(*details).clone()/> }.into_any(),
            None => view! {
                <ComponentsView components=known_components.clone().unwrap_or_default()/>
            }
            .into_any(),
        };
        Some(
            view! {
                <tr class="details-row">
                    <td colspan="5">{body}</td>
                </tr>
            }
            .into_any(),
        )
    };
    let flags = line
        .flags_text()
        .map(|text| view! { <span class="trajectory-flags">{text}</span> });
    view! {
        <tr class="trajectory-row" data-trajectory-id=id.clone()>
            <td class="trajectory-id">{visible(&id).into_owned()}{flags}</td>
            <td>
                <span class=format!("traj-class traj-class-{}", class_slug(line.class))>{line.class.label()}</span>
            </td>
            <td class="num trajectory-reward">
                <span class="reward-value">{line.reward.clone()}</span>
                {line.note.map(|note| view! { <span class="reward-note">{note}</span> })}
            </td>
            <td class="trajectory-ending">
                {match line.ending.clone() {
                    Some(ending) => view! { <code>{ending}</code> }.into_any(),
                    None => view! { <span class="muted">"not recorded"</span> }.into_any(),
                }}
            </td>
            <td class="trajectory-action">{action}{read}</td>
        </tr>
        {details}
        {transcript}
    }
}
