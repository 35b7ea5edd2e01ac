//! Checkpoints against each other (each step against the previous one, and against a step the
//! user picks: `versus=` in the URL), the tasks whose state changes across the steps with each
//! step's mean, and the pass threshold for graded rewards (`pass=`). The numbers, cells and
//! sentences are the core's (`report.checkpoints`, `step_cells`, `path_cells`), as in the
//! markdown and HTML reports; this folder only lays them out.

mod threshold;
mod words;

use std::sync::Arc;

use eval_compare_core::report::{
    path_cells, path_columns, paths_line, step_cells, versus_chosen_line, Decision, Report,
    StepComparison, PATHS_HEADING, PATHS_INTRO, STEPS_HEADING, STEPS_INTRO, STEP_COLUMNS,
};
use eval_compare_core::view_state::{RowFilter, ViewState};
use leptos::prelude::*;

pub use threshold::PassThresholdForm;
use words::{chosen_step_options, shown_paths_line, with_versus_step, SHOWN_PATHS};

/// The panel; nothing when the candidates are not checkpoints of one training run.
#[component]
pub fn CheckpointStepsPanel(
    /// The report.
    #[prop(into)]
    report: Signal<Arc<Report>>,
    /// The view state.
    #[prop(into)]
    view: Signal<ViewState>,
    /// Called with the view to show.
    on_change: Callback<ViewState>,
) -> impl IntoView {
    move || {
        report.with(|report| {
            let checkpoints = report.checkpoints.as_ref()?;
            let chosen = checkpoints.versus_step.map(|step| {
                view! {
                    <p class="checkpoint-chosen-line">{versus_chosen_line(step)}</p>
                    <StepTable comparisons=checkpoints.versus_chosen.clone() class="step-vs-chosen"/>
                }
            });
            Some(view! {
                <section class="panel checkpoint-steps" aria-labelledby="checkpoint-steps-title">
                    <h3 id="checkpoint-steps-title" class="panel-title">{STEPS_HEADING}</h3>
                    <p class="muted">{STEPS_INTRO}</p>
                    <StepTable comparisons=checkpoints.versus_previous.clone() class="step-vs-previous"/>
                    <ChosenStep report=report.clone() view on_change/>
                    {chosen}
                    <TaskPaths report=report.clone() on_change view/>
                </section>
            })
        })
    }
}

/// One family of comparisons as a table, each row marked with its decision.
#[component]
fn StepTable(comparisons: Vec<StepComparison>, class: &'static str) -> impl IntoView {
    let head = STEP_COLUMNS
        .iter()
        .map(|heading| view! { <th scope="col">{*heading}</th> })
        .collect_view();
    let rows = comparisons
        .iter()
        .map(|comparison| {
            let decision = comparison.verdict.decision;
            let cells = step_cells(comparison)
                .into_iter()
                .map(|text| view! { <td>{text}</td> })
                .collect_view();
            let reasons = comparison.verdict.reasons.join(" ");
            view! {
                <tr
                    data-step=comparison.step.to_string()
                    data-against=comparison.against_step.to_string()
                    data-decision=decision.label()
                    class:better=decision == Decision::Better
                    class:worse=decision == Decision::Worse
                    title=reasons
                >
                    {cells}
                </tr>
            }
        })
        .collect_view();
    view! {
        <div class="table-scroll">
            <table class=format!("data-table compact {class}")>
                <thead><tr>{head}</tr></thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
    }
}

/// The step every checkpoint is also compared with.
#[component]
fn ChosenStep(
    report: Arc<Report>,
    view: Signal<ViewState>,
    on_change: Callback<ViewState>,
) -> impl IntoView {
    let options = chosen_step_options(&report)
        .into_iter()
        .map(|step| {
            let selected = move || view.with(|v| v.versus_step == Some(step));
            view! { <option value=step.to_string() selected=selected>{format!("step {step}")}</option> }
        })
        .collect_view();
    view! {
        <label class="field checkpoint-versus">
            <span class="field-label">"Also compare every checkpoint with"</span>
            <select
                name="versus"
                on:change=move |event| {
                    let next = with_versus_step(&view.get_untracked(), &event_target_value(&event));
                    on_change.run(next);
                }
            >
                <option value="" selected=move || view.with(|v| v.versus_step.is_none())>"no other step"</option>
                {options}
            </select>
        </label>
    }
}

/// The tasks whose state changes across the steps, each with its means by step.
#[component]
fn TaskPaths(
    report: Arc<Report>,
    view: Signal<ViewState>,
    on_change: Callback<ViewState>,
) -> impl IntoView {
    let checkpoints = report.checkpoints.as_ref();
    let paths = checkpoints.map(|c| c.paths.as_slice()).unwrap_or_default();
    let line = checkpoints.map(paths_line).unwrap_or_default();
    let head = path_columns(&report)
        .into_iter()
        .map(|heading| view! { <th scope="col">{heading}</th> })
        .collect_view();
    let rows = paths
        .iter()
        .take(SHOWN_PATHS)
        .map(|path| {
            let cells = path_cells(&report, path)
                .into_iter()
                .map(|text| view! { <td>{text}</td> })
                .collect_view();
            view! { <tr data-task=path.task.to_string()>{cells}</tr> }
        })
        .collect_view();
    let filter = move |_| {
        let current = view.get_untracked();
        on_change.run(ViewState {
            filter: RowFilter::Changing,
            ..current
        });
    };
    let table = (!paths.is_empty()).then(|| {
        view! {
            <div class="table-scroll">
                <table class="data-table compact task-paths">
                    <thead><tr>{head}</tr></thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
            <button type="button" class="button button-secondary show-changing" on:click=filter>
                "Show these tasks in the task table"
            </button>
        }
    });
    view! {
        <h4 class="task-paths-title">{PATHS_HEADING}</h4>
        <p class="muted">{PATHS_INTRO}" "<span class="task-paths-line">{line}</span></p>
        {shown_paths_line(paths.len()).map(|text| view! { <p class="muted">{text}</p> })}
        {table}
    }
}
