//! The task drill-down: a side panel listing, run by run, what each compared run did on the
//! selected task and every trajectory behind it, with on-demand details (error message, reward
//! components) and a link to the platform's page of the run's attempts.
//!
//! Per-run numbers come from the report's task row; trajectories (id, outcome class, reward,
//! ending) from the loaded [`RunSet`]. Nothing is recomputed here.
//!
//! [`TaskPanel`] is the panel's frame (heading, Escape, close); [`run_section`] shows one run's
//! part, [`lines`] the trajectories it lists, [`details`] fetches their details on demand and
//! [`details_view`] shows them; [`link`] makes the platform link.
//!
//! A Chronicle run's trajectories are its trials: [`trial_view`] lists them with their
//! scorers and error ([`trial_lines`], the raw trials from a [`trial_source::TrialSource`]),
//! [`trial_details`] fetches a trial's detail on demand and [`trial_detail_view`] shows its
//! instruction, steps and artifacts ([`trial_detail_lines`]).
//!
//! What the agent did: [`transcripts`] reads a trajectory's transcript on demand and
//! [`transcript_view`] shows it ([`transcript_lines`] its text), with each step's reward and
//! error read on request by [`step_rewards`]; [`side_by_side`] shows the
//! task's flip table and the baseline's attempt beside the focused candidate's.

pub mod details;
pub mod details_view;
pub mod lines;
pub mod link;
pub mod on_demand;
pub mod run_section;
pub mod side_by_side;
pub mod step_rewards;
pub mod transcript_lines;
pub mod transcript_view;
pub mod transcripts;
pub mod trial_detail_lines;
pub mod trial_detail_view;
pub mod trial_details;
pub mod trial_lines;
pub mod trial_source;
pub mod trial_view;

use std::sync::Arc;

use eval_compare_core::client::ClientConfig;
use eval_compare_core::model::{split_chronicle_run_id, RunSet, SourceKind};
use eval_compare_core::report::{Report, RunSummary};
use eval_compare_core::text::visible;
use leptos::ev;
use leptos::html;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::report::panels::copy_link::CopyLinkButton;
use crate::report::table::row::category_names;
use details::DetailLoader;
use lines::trajectory_lines;
use run_section::{LoadAllBar, RunSection};
use side_by_side::TaskComparison;
use transcripts::TranscriptLoader;
use trial_details::TrialDetailLoader;
use trial_source::TrialSource;

use crate::state::loader::use_loader;

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
    /// Where Chronicle trials are read as the API listed them; the app's loader when not given.
    #[prop(optional)]
    trials: Option<TrialSource>,
    /// The open trajectories (the link's `attempts`): one transcript, or baseline and candidate.
    #[prop(optional, into)]
    attempts: Option<Signal<Vec<String>>>,
    /// Called with the trajectories opened or chosen (to keep them in the link).
    #[prop(optional)]
    on_attempts: Option<Callback<Vec<String>>>,
    /// Which candidate the side-by-side view shows (an index into the candidates).
    #[prop(optional, into)]
    focus: Option<Signal<usize>>,
) -> impl IntoView {
    let trials = trials.unwrap_or_else(|| TrialSource::from_loader(use_loader()));
    let attempts = attempts.unwrap_or_else(|| Signal::stored(Vec::new()));
    let on_attempts = on_attempts.unwrap_or_else(|| Callback::new(|_| {}));
    let focus = focus.unwrap_or_else(|| Signal::stored(0));
    // Memoized: the view's other changes (a sample chosen) must not rebuild the panel.
    let focus = Signal::from(Memo::new(move |_| focus.get()));
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
            view! {
                <PanelBody
                    report run_set task client org_key on_close trials attempts on_attempts focus
                />
            }
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
    !is_chronicle_run(run)
}

/// Whether a run is an agent version of a Chronicle job (read from Chronicle or from a job's
/// folder), whose trajectories are its trials.
pub fn is_chronicle_run(run: &RunSummary) -> bool {
    run.source == SourceKind::Chronicle || run.chronicle.is_some()
}

/// The job and agent of a Chronicle run: from what the report says of its job, else from its
/// id (`{job}/{agent}`).
pub fn chronicle_job_of(run: &RunSummary) -> Option<(String, String)> {
    if let Some(job) = &run.chronicle {
        return Some((job.job_id.clone(), job.agent.clone()));
    }
    split_chronicle_run_id(&run.id).map(|(job, agent)| (job.to_owned(), agent.to_owned()))
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
    trials: TrialSource,
    attempts: Signal<Vec<String>>,
    on_attempts: Callback<Vec<String>>,
    focus: Signal<usize>,
) -> impl IntoView {
    let loader = DetailLoader::with_cleanup();
    let transcripts = TranscriptLoader::with_cleanup();
    let trial_loader = TrialDetailLoader::with_cleanup();
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
                    .map(|row| category_names(&r.categories, row))
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
                            trial_loader
                            trials
                            transcripts
                            attempts
                            on_attempts
                        />
                    }
                })
                .collect_view();
            let comparison = view! {
                <TaskComparison
                    report=report.clone()
                    set=set.clone()
                    row=row.clone()
                    focus=focus.get()
                    client
                    transcripts
                    details=loader
                    attempts
                    on_attempts
                />
            };
            view! {
                <LoadAllBar report=report.clone() set=set.clone() row client loader/>
                {comparison}
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
                    <p class="task-panel-id">{visible(&task).into_owned()}</p>
                    {move || categories().map(|text| view! { <p class="task-panel-categories">{text}</p> })}
                </div>
                <div class="task-panel-header-actions">
                    // The link of what the panel shows (the task, the attempts side by side):
                    // the page's own Copy link is under the panel.
                    <CopyLinkButton/>
                    <button
                        type="button"
                        class="task-panel-close"
                        aria-label="Close task details"
                        title="Close (Esc)"
                        on:click=move |_| on_close.run(())
                    >
                        "×"
                    </button>
                </div>
            </header>
            <div class="task-panel-body">{content}</div>
        </aside>
    }
}
