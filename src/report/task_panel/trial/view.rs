//! The trials of one Chronicle run on the task: a row per trial (id, status, agent, "Load
//! details"), its scorers (score, threshold, passed) and error, and once asked for its detail,
//! or the failed request with Retry.

use eval_compare_core::text::{visible, MISSING};
use leptos::prelude::*;

use eval_compare_core::model::error_text;

use super::detail_row::{TrialAction, TrialDetailRow, TrialRequest};
use super::details::TrialDetailState;
use super::lines::{ScoreLine, TrialLine, NO_SCORE};
use crate::report::table::fixed::{Column, FixedTable};
use crate::report::task_panel::panel_state::PanelState;
use crate::report::task_panel::rows::{RecordedError, WideRow};
use crate::report::task_panel::trajectory::lines::{class_slug, TrajectoryLine};

/// The columns of the trials table.
const COLUMNS: [Column; 4] = [
    Column::text("Trial").col("col-trial"),
    Column::text("Status").col("col-status"),
    Column::text("Agent").col("col-agent"),
    Column::text("Details").col("col-action").hidden(),
];

/// The columns of a trial's scorers.
const SCORE_COLUMNS: [Column; 4] = [
    Column::text("Scorer").col("col-name"),
    Column::num("Score").col("col-score"),
    Column::num("Threshold").col("col-threshold"),
    Column::text("Result").col("col-result"),
];

/// Every trial of one Chronicle run on the task.
#[component]
pub fn TrialTable(
    /// The run's trajectories (its trials) from the run set.
    lines: Vec<TrajectoryLine>,
    /// The job and agent of the run, when its id names them.
    job: Option<(String, String)>,
    panel: PanelState,
) -> impl IntoView {
    let bodies = lines
        .into_iter()
        .map(|line| view! { <TrialRows line job=job.clone() panel/> })
        .collect_view();
    view! { <FixedTable class="trials" columns=&COLUMNS>{bodies}</FixedTable> }
}

/// One trial: its row, scorers and error, and its detail once asked for.
#[component]
fn TrialRows(
    line: TrajectoryLine,
    job: Option<(String, String)>,
    panel: PanelState,
) -> impl IntoView {
    let PanelState {
        client,
        trial_details: loader,
        trials,
        ..
    } = panel;
    let id = line.id.clone();
    let job_id = job.as_ref().map(|(job, _)| job.clone());
    let trial = {
        let (line, job) = (line.clone(), job.clone());
        Memo::new(move |_| {
            let raw = job
                .as_ref()
                .and_then(|(job_id, _)| trials.trial(job_id, &line.id));
            TrialLine::of(
                &line,
                raw.as_ref(),
                job.as_ref().map(|(_, agent)| agent.as_str()),
            )
        })
    };
    let state = {
        let (id, job_id) = (id.clone(), job_id.clone());
        Memo::new(move |_| {
            let job_id = job_id.as_deref()?;
            client.with(|config| loader.state(config.as_ref(), job_id, &id))
        })
    };
    let request = TrialRequest {
        id: id.clone(),
        job_id,
        client,
        state,
        loader,
    };
    let status = move || {
        let trial = trial.get();
        let text = trial.status.as_deref().map_or_else(
            || "not recorded".to_owned(),
            |status| visible(status).into_owned(),
        );
        view! {
            <span class=format!("traj-class traj-class-{}", class_slug(trial.class))>{text}</span>
        }
    };
    let agent = move || {
        trial
            .with(|trial| {
                trial
                    .agent
                    .as_deref()
                    .map(|agent| visible(agent).into_owned())
            })
            .unwrap_or_else(|| MISSING.to_owned())
    };
    // The error of the listed trial; else, once fetched, the detail's.
    let error = move || {
        trial
            .with(|trial| trial.error.clone())
            .or_else(|| match state.get() {
                Some(TrialDetailState::Loaded(detail)) => error_text(detail.trial.error.as_ref()),
                _ => None,
            })
    };
    let scores = move || {
        trial.with(|trial| {
            view! {
                <ScoresView scores=trial.scores.clone()/>
                {error().map(|text| view! { <RecordedError class="trial-error" text/> })}
            }
        })
    };
    view! {
        <tbody class="trial" data-trial-id=id.clone()>
            <tr class="trial-row">
                <th scope="row" class="trial-id">{visible(&id).into_owned()}</th>
                <td class="trial-status">{status}</td>
                <td class="trial-agent">{agent}</td>
                <td class="trajectory-action">
                    <TrialAction request=request.clone()/>
                </td>
            </tr>
            <WideRow class="trial-scores-row" columns=4>{scores}</WideRow>
            <TrialDetailRow request/>
        </tbody>
    }
}

/// A trial's scorers: score (`no score` when none, never 0), threshold (none: measured only)
/// and whether it passed.
#[component]
fn ScoresView(scores: Vec<ScoreLine>) -> impl IntoView {
    if scores.is_empty() {
        return view! { <p class="muted details-message">"No scores recorded."</p> }.into_any();
    }
    let rows = scores
        .into_iter()
        .map(|score| {
            let missing = score.score == NO_SCORE;
            view! {
                <tr>
                    <th scope="row" class="component-name">{visible(&score.name).into_owned()}</th>
                    <td class=if missing { "num score-missing" } else { "num" }>{score.score}</td>
                    <td class="num">{score.threshold}</td>
                    <td>
                        <span class=format!("score-result score-{}", score.result.slug())>
                            {score.result.label()}
                        </span>
                    </td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <FixedTable class="scorers" caption="Scorers" columns=&SCORE_COLUMNS>
            <tbody>{rows}</tbody>
        </FixedTable>
    }
    .into_any()
}
