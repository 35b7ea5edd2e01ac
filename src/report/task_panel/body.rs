//! The panel of one task: its header (title, id, categories, Copy link, close) and its content
//! (the "load all" action, the side-by-side view, then a section per run). Rebuilt, and its
//! requests cancelled, when the task changes.

use std::sync::Arc;

use eval_compare_core::client::ClientConfig;
use eval_compare_core::model::RunSet;
use eval_compare_core::report::{Report, TaskRow};
use eval_compare_core::text::visible;
use leptos::html;
use leptos::prelude::*;

use super::panel_state::PanelState;
use super::run_section::RunSection;
use super::set_aside::SetAside;
use super::trajectory::details::DetailLoader;
use super::trajectory::lines::trajectory_lines;
use super::trajectory::load_all::LoadAllBar;
use super::transcript::loader::TranscriptLoader;
use super::transcript::side_by_side::TaskComparison;
use super::trial::details::TrialDetailLoader;
use super::trial::source::TrialSource;
use crate::report::panels::copy_link::CopyLinkButton;
use crate::report::table::row::category_names;
use crate::state::ledger::LedgerEdits;

/// The panel of one task; rebuilt (and its requests cancelled) when the task changes.
#[component]
pub fn PanelBody(
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
    edits: Option<LedgerEdits>,
) -> impl IntoView {
    let set_aside = edits.map(|edits| view! { <SetAside task=task.clone() edits/> });
    let panel = PanelState {
        client,
        org_key,
        details: DetailLoader::with_cleanup(),
        trial_details: TrialDetailLoader::with_cleanup(),
        trials,
        transcripts: TranscriptLoader::with_cleanup(),
        attempts,
        on_attempts,
    };
    let content = {
        let task = task.clone();
        move || {
            let report = report.get();
            let set = run_set.get();
            let Some(row) = report.tasks.iter().find(|row| row.task_id == task).cloned() else {
                if edits.is_some_and(|edits| edits.leaves_out(&task)) {
                    return view! {
                        <p class="muted">
                            "The reviewer's ledger leaves this task out of every run: none of "
                            "its attempts is counted."
                        </p>
                    }
                    .into_any();
                }
                return view! {
                    <p class="empty-state">
                        "This task is not among the tasks of the compared runs."
                    </p>
                }
                .into_any();
            };
            // The rewards as published, with whether they pass at the view's threshold.
            let threshold = report.settings.pass_threshold;
            let sections = report
                .runs
                .iter()
                .enumerate()
                .map(|(index, run)| {
                    let trajectories = trajectory_lines(&set, run, &row.task_id, threshold);
                    let cell = row.cells.get(index).cloned();
                    let delta = index
                        .checked_sub(1)
                        .map(|candidate| row.deltas.get(candidate).copied().flatten());
                    view! { <RunSection run=run.clone() cell delta trajectories threshold panel/> }
                })
                .collect_view();
            let comparison = view! {
                <TaskComparison
                    report=report.clone() set=set.clone() row=row.clone() focus=focus.get() panel
                />
            };
            view! {
                <LoadAllBar report=report.clone() set=set.clone() row client loader=panel.details/>
                {comparison}
                {sections}
            }
            .into_any()
        }
    };
    view! {
        <aside class="task-panel" role="dialog" aria-modal="false" aria-labelledby="task-panel-title">
            <PanelHeader report run_set task on_close/>
            <div class="task-panel-body">{set_aside} {content}</div>
        </aside>
    }
}

/// The panel's header: the task's title (focused when the panel opens), id and categories, the
/// Copy link of what the panel shows and the close button.
#[component]
fn PanelHeader(
    report: Signal<Arc<Report>>,
    run_set: Signal<Arc<RunSet>>,
    task: String,
    on_close: Callback<()>,
) -> impl IntoView {
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
                let row: &TaskRow = r.tasks.iter().find(|row| row.task_id == task)?;
                Some(category_names(&r.categories, row)).filter(|text| !text.is_empty())
            })
        }
    };
    view! {
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
    }
}
