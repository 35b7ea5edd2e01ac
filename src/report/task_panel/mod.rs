//! The task drill-down: a side panel listing, run by run, what each compared run did on the
//! selected task and every trajectory behind it, with on-demand details (error message, reward
//! components) and a link to the platform's page of the run's attempts.
//!
//! Per-run numbers come from the report's task row; trajectories (id, outcome class, reward,
//! ending) from the loaded [`RunSet`]. Nothing is recomputed here.

pub mod details;
pub mod link;

use std::sync::Arc;

use eval_compare_core::client::ClientConfig;
use eval_compare_core::model::{
    Exclusion, OutcomeClass, PrimaryValue, RewardComponent, RewardState, RunSet, SourceKind,
    Trajectory,
};
use eval_compare_core::report::{Report, Role, RunSummary, TaskCell, TaskRow};
use eval_compare_core::text::{mean, noun};
use leptos::ev;
use leptos::html;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::format;
use crate::report::table::badges::OutcomeBadges;
use crate::report::table::cells::{delta_class, delta_text, samples_text};
use details::{DetailLoader, DetailState, TrajectoryDetails};
use link::run_trajectories_path;

/// The side panel of the selected task; renders nothing while no task is selected.
///
/// Escape (outside a text field) and the close button call `on_close`. When it opens, focus
/// moves to its heading; closing it or selecting another task cancels its detail requests.
#[component]
pub fn TaskPanel(
    /// The comparison report (runs in order, the task's row).
    report: Signal<Arc<Report>>,
    /// The loaded runs, for the trajectories behind each cell.
    run_set: Signal<Arc<RunSet>>,
    /// The selected task, if any.
    task_id: Signal<Option<String>>,
    /// Where to fetch trajectory details; `None` hides the "Load details" actions.
    client: Signal<Option<ClientConfig>>,
    /// The organization URL key for platform links; `None` shows no link.
    org_key: Signal<Option<String>>,
    /// Called to close the panel.
    on_close: Callback<()>,
) -> impl IntoView {
    let task = Memo::new(move |_| task_id.get());
    let escape = window_event_listener(ev::keydown, move |event| {
        let open = task.try_with_untracked(Option::is_some).unwrap_or(false);
        if open && event.key() == "Escape" && !event.default_prevented() && !in_text_field(&event) {
            event.prevent_default();
            on_close.run(());
        }
    });
    on_cleanup(move || escape.remove());
    move || {
        task.get().map(|task| {
            view! { <PanelBody report run_set task client org_key on_close/> }
        })
    }
}

/// Whether a key event comes from a field where Escape has its own meaning.
fn in_text_field(event: &web_sys::KeyboardEvent) -> bool {
    event
        .target()
        .and_then(|target| target.dyn_into::<web_sys::Element>().ok())
        .is_some_and(|element| {
            matches!(
                element.tag_name().to_ascii_uppercase().as_str(),
                "INPUT" | "SELECT" | "TEXTAREA"
            )
        })
}

/// Whether a run's trajectories are Trajectory API records (read from the API or from exported
/// run folders), so their ids can be fetched and the run linked on the platform. Chronicle
/// trials are not.
pub fn is_trajectory_api_run(run: &RunSummary) -> bool {
    run.source != SourceKind::Chronicle
}

/// The panel of one task; rebuilt (and its requests cancelled) when the task changes.
#[component]
fn PanelBody(
    report: Signal<Arc<Report>>,
    run_set: Signal<Arc<RunSet>>,
    task: String,
    client: Signal<Option<ClientConfig>>,
    org_key: Signal<Option<String>>,
    on_close: Callback<()>,
) -> impl IntoView {
    let loader = DetailLoader::with_cleanup();
    let heading = NodeRef::<html::H2>::new();
    Effect::new(move |_| {
        if let Some(heading) = heading.get() {
            let _ = heading.focus();
        }
    });

    let title = {
        let task = task.clone();
        move || {
            let from_report = report.with(|r| {
                r.tasks
                    .iter()
                    .find(|row| row.task_id == task)
                    .and_then(|row| row.label.clone())
            });
            from_report
                .or_else(|| {
                    run_set.with(|set| {
                        set.find_task(&task)
                            .and_then(|index| set.task(index))
                            .and_then(|t| t.label.clone())
                    })
                })
                .unwrap_or_else(|| task.clone())
        }
    };
    let categories = {
        let task = task.clone();
        move || {
            report.with(|r| {
                r.tasks
                    .iter()
                    .find(|row| row.task_id == task)
                    .map(|row| {
                        row.categories
                            .iter()
                            .filter_map(|&c| r.categories.get(c as usize).cloned())
                            .collect::<Vec<_>>()
                            .join(", ")
                    })
                    .filter(|text| !text.is_empty())
            })
        }
    };

    let content = {
        let task = task.clone();
        move || {
            let report = report.get();
            let set = run_set.get();
            let Some(row) = report.tasks.iter().find(|row| row.task_id == task).cloned() else {
                return view! {
                    <p class="empty-state">
                        "This task is not among the tasks of the compared runs."
                    </p>
                }
                .into_any();
            };
            let sections = report
                .runs
                .iter()
                .enumerate()
                .map(|(index, run)| {
                    let trajectories = trajectory_lines(&set, run, &row.task_id);
                    let cell = row.cells.get(index).cloned();
                    let delta = index
                        .checked_sub(1)
                        .map(|candidate| row.deltas.get(candidate).copied().flatten());
                    view! {
                        <RunSection
                            run=run.clone()
                            cell
                            delta
                            trajectories
                            client
                            org_key
                            loader
                        />
                    }
                })
                .collect_view();
            view! {
                <LoadAllBar report=report.clone() set=set.clone() row client loader/>
                {sections}
            }
            .into_any()
        }
    };

    view! {
        <aside class="task-panel" role="dialog" aria-modal="false" aria-labelledby="task-panel-title">
            <header class="task-panel-header">
                <div class="task-panel-titles">
                    <p class="task-panel-kicker">"Task"</p>
                    <h2 id="task-panel-title" class="task-panel-title" tabindex="-1" node_ref=heading>
                        {title}
                    </h2>
                    <p class="task-panel-id">{task.clone()}</p>
                    {move || categories().map(|text| view! { <p class="task-panel-categories">{text}</p> })}
                </div>
                <button
                    type="button"
                    class="task-panel-close"
                    aria-label="Close task details"
                    title="Close (Esc)"
                    on:click=move |_| on_close.run(())
                >
                    "×"
                </button>
            </header>
            <div class="task-panel-body">{content}</div>
        </aside>
    }
}

/// "Load details for all N trajectories", when a client is configured.
#[component]
fn LoadAllBar(
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

/// One trajectory as the panel lists it, copied out of the run set.
#[derive(Debug, Clone, PartialEq)]
pub struct TrajectoryLine {
    /// Trajectory id.
    pub id: String,
    /// Outcome class.
    pub class: OutcomeClass,
    /// The reward as shown: a number, `no reward`, or the invalid value.
    pub reward: String,
    /// How the reward enters the per-task mean, when not simply as itself.
    pub note: Option<&'static str>,
    /// The ending kept by name, if recorded.
    pub ending: Option<String>,
    /// Provenance flags, by name.
    pub flags: Vec<&'static str>,
    /// Reward components already in the run set.
    pub components: Option<Vec<RewardComponent>>,
}

impl TrajectoryLine {
    /// The line of a stored trajectory.
    pub fn of(trajectory: &Trajectory<'_>) -> Self {
        let (reward, note) = reward_text(trajectory);
        Self {
            id: trajectory.id.to_owned(),
            class: trajectory.class,
            reward,
            note,
            ending: trajectory.ending.map(str::to_owned),
            flags: trajectory.flags.names().collect(),
            components: trajectory.components.map(<[RewardComponent]>::to_vec),
        }
    }
}

/// The reward of a trajectory as shown, and how it enters the task's mean when that is not
/// simply as itself. A missing reward is "no reward", never 0; a cut-off without one reads
/// "0 by platform rule".
pub fn reward_text(trajectory: &Trajectory<'_>) -> (String, Option<&'static str>) {
    let shown = match trajectory.reward_state() {
        RewardState::Missing => "no reward".to_owned(),
        RewardState::Valid(value) => mean(value),
        RewardState::Invalid => match trajectory.reward {
            Some(raw) => format!("{raw}"),
            None => "no reward".to_owned(),
        },
    };
    let note = match trajectory.scoring().primary {
        PrimaryValue::Reward(_) => None,
        PrimaryValue::ZeroByPlatformRule => Some("0 by platform rule"),
        PrimaryValue::ZeroWithoutGrade => Some("0, no grade"),
        PrimaryValue::Excluded(Exclusion::InvalidReward) => Some("invalid, not in the mean"),
        PrimaryValue::Excluded(_) => Some("not in the mean"),
    };
    (shown, note)
}

/// The trajectories of `run` on the task `task_id`, in the order the run set keeps them.
pub fn trajectory_lines(set: &RunSet, run: &RunSummary, task_id: &str) -> Vec<TrajectoryLine> {
    let (Ok(stored), Some(task)) = (set.run(run.index), set.find_task(task_id)) else {
        return Vec::new();
    };
    stored
        .trajectories_of_task(task)
        .map(|trajectory| TrajectoryLine::of(&trajectory))
        .collect()
}

/// One run's part of the panel: its cell summary, platform link and trajectories.
#[component]
fn RunSection(
    run: RunSummary,
    cell: Option<TaskCell>,
    delta: Option<Option<f64>>,
    trajectories: Vec<TrajectoryLine>,
    client: Signal<Option<ClientConfig>>,
    org_key: Signal<Option<String>>,
    loader: DetailLoader,
) -> impl IntoView {
    let role = match run.role {
        Role::Baseline => "baseline",
        Role::Candidate => "candidate",
    };
    let fetchable = is_trajectory_api_run(&run);
    let link = {
        let run_id = run.id.clone();
        move || {
            org_key
                .with(|key| run_trajectories_path(key.as_deref(), &run_id))
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
    let list = if trajectories.is_empty() {
        view! { <p class="muted panel-none">"No trajectory of this run on this task."</p> }
            .into_any()
    } else {
        let rows = trajectories
            .into_iter()
            .map(|line| view! { <TrajectoryRows line client loader fetchable/> })
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
                <span class="panel-run-id">{run.id.clone()}</span>
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
) -> impl IntoView {
    let id = line.id.clone();
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
                    class="link-button"
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
    let flags = (!line.flags.is_empty()).then(|| {
        let text = line
            .flags
            .iter()
            .map(|flag| flag.replace('_', " "))
            .collect::<Vec<_>>()
            .join(", ");
        view! { <span class="trajectory-flags">{text}</span> }
    });
    view! {
        <tr class="trajectory-row" data-trajectory-id=id.clone()>
            <td class="trajectory-id">{id.clone()}{flags}</td>
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
            <td class="trajectory-action">{action}</td>
        </tr>
        {details}
    }
}

/// A CSS-friendly name of an outcome class.
fn class_slug(class: OutcomeClass) -> &'static str {
    match class {
        OutcomeClass::Graded => "graded",
        OutcomeClass::Ungraded => "ungraded",
        OutcomeClass::CutOff => "cut-off",
        OutcomeClass::ModelEnding => "model-ending",
        OutcomeClass::Failed => "failed",
        OutcomeClass::Cancelled => "cancelled",
        OutcomeClass::Unfinished => "unfinished",
        OutcomeClass::Other => "other",
    }
}

/// A fetched trajectory's error message and reward components.
#[component]
pub fn DetailsView(
    /// What was fetched.
    details: TrajectoryDetails,
) -> impl IntoView {
    let error = match details.error {
        Some(error) => view! {
            <div class="details-message">
                <span class="details-label">"Error"</span>
                <pre class="details-error-text">{error}</pre>
            </div>
        }
        .into_any(),
        None => view! { <p class="muted details-message">"No error recorded."</p> }.into_any(),
    };
    view! {
        {error}
        <ComponentsView components=details.components/>
    }
}

/// Reward components: name, value, scaled value, weight (0 = informative only), bounds and the
/// grader's explanation.
#[component]
pub fn ComponentsView(
    /// The components in logged order.
    components: Vec<RewardComponent>,
) -> impl IntoView {
    if components.is_empty() {
        return view! { <p class="muted details-message">"No reward components recorded."</p> }
            .into_any();
    }
    let rows = components
        .into_iter()
        .map(|component| {
            let weight = match component.weight {
                Some(0.0) => view! {
                    "0 "<span class="pill pill-neutral">"informative only"</span>
                }
                .into_any(),
                Some(weight) => number(weight).into_any(),
                None => format::MISSING.into_any(),
            };
            let bounds = component
                .score_range
                .map_or_else(|| format::MISSING.to_owned(), |(low, high)| {
                    format!("[{}, {}]", number(low), number(high))
                });
            let threshold = component.threshold.map(|threshold| {
                let outcome = match component.passed {
                    Some(true) => ": passed",
                    Some(false) => ": not passed",
                    None => "",
                };
                format!("threshold {}{outcome}", number(threshold))
            });
            let explanation = component.explanation.clone().filter(|text| !text.trim().is_empty());
            view! {
                <tr>
                    <th scope="row" class="component-name">{component.name.clone()}</th>
                    <td class="num">{component.value.map_or_else(|| "no value".to_owned(), number)}</td>
                    <td class="num">{component.scaled_value.map_or_else(|| format::MISSING.to_owned(), number)}</td>
                    <td class="num component-weight">{weight}</td>
                    <td class="num">{bounds}</td>
                    <td class="component-explanation">
                        {threshold.map(|text| view! { <span class="component-threshold">{text}</span> })}
                        {explanation.unwrap_or_default()}
                    </td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <table class="components">
            <caption>"Reward components"</caption>
            <colgroup>
                <col class="col-name"/>
                <col class="col-value"/>
                <col class="col-scaled"/>
                <col class="col-weight"/>
                <col class="col-bounds"/>
                <col class="col-explanation"/>
            </colgroup>
            <thead>
                <tr>
                    <th scope="col">"Name"</th>
                    <th scope="col" class="num">"Value"</th>
                    <th scope="col" class="num">"Scaled"</th>
                    <th scope="col" class="num">"Weight"</th>
                    <th scope="col" class="num">"Bounds"</th>
                    <th scope="col">"Explanation"</th>
                </tr>
            </thead>
            <tbody>{rows}</tbody>
        </table>
    }
    .into_any()
}

/// A component number with up to four decimals, trailing zeros dropped (`1`, `0.85`, `0.3333`).
pub fn number(value: f64) -> String {
    if !value.is_finite() {
        return format!("{value}");
    }
    let text = format!("{value:.4}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    match text {
        "-0" | "" => "0".to_owned(),
        other => other.to_owned(),
    }
}
