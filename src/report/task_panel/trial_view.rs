//! The trials of one Chronicle run on the task: a row per trial (id, status, agent, "Load
//! details"), its scorers (score, threshold, passed) and error, and once asked for its detail,
//! or the failed request with Retry.

use eval_compare_core::client::ClientConfig;
use eval_compare_core::text::{visible, MISSING};
use leptos::prelude::*;

use super::details::shown_base;
use super::lines::{class_slug, TrajectoryLine};
use super::trial_detail_view::TrialDetailView;
use super::trial_details::{TrialDetailLoader, TrialDetailState};
use eval_compare_core::model::error_text;

use super::trial_lines::{ScoreLine, TrialLine};
use super::trial_source::TrialSource;
use crate::components::api_error::ApiErrorPanel;

/// Every trial of one Chronicle run on the task.
#[component]
pub fn TrialTable(
    /// The run's trajectories (its trials) from the run set.
    lines: Vec<TrajectoryLine>,
    /// The job and agent of the run, when its id names them.
    job: Option<(String, String)>,
    client: Signal<Option<ClientConfig>>,
    loader: TrialDetailLoader,
    trials: TrialSource,
) -> impl IntoView {
    let bodies = lines
        .into_iter()
        .map(|line| view! { <TrialRows line job=job.clone() client loader trials/> })
        .collect_view();
    view! {
        <table class="trials">
            <colgroup>
                <col class="col-trial"/>
                <col class="col-status"/>
                <col class="col-agent"/>
                <col class="col-action"/>
            </colgroup>
            <thead>
                <tr>
                    <th scope="col">"Trial"</th>
                    <th scope="col">"Status"</th>
                    <th scope="col">"Agent"</th>
                    <th scope="col"><span class="sr-only">"Details"</span></th>
                </tr>
            </thead>
            {bodies}
        </table>
    }
}

/// One trial: its row, scorers and error, and its detail once asked for.
#[component]
fn TrialRows(
    line: TrajectoryLine,
    job: Option<(String, String)>,
    client: Signal<Option<ClientConfig>>,
    loader: TrialDetailLoader,
    trials: TrialSource,
) -> impl IntoView {
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
    let action = {
        let (id, job_id) = (id.clone(), job_id.clone());
        move || {
            let config = client.get()?;
            let job_id = job_id.clone()?;
            let id = id.clone();
            let (label, busy) = match state.get() {
                None => ("Load details", false),
                Some(TrialDetailState::Loading) => ("Loading…", true),
                Some(TrialDetailState::Failed(_)) => ("Retry", false),
                Some(TrialDetailState::Loaded(_)) => return None,
            };
            Some(view! {
                <button
                    type="button"
                    class="link-button"
                    disabled=busy
                    aria-label=format!("{label}: trial {}", visible(&id))
                    on:click=move |_| loader.load(config.clone(), job_id.clone(), id.clone())
                >
                    {label}
                </button>
            })
        }
    };
    let detail = {
        let (id, job_id) = (id.clone(), job_id.clone());
        move || {
            let body = match state.get()? {
                TrialDetailState::Loading => return None,
                TrialDetailState::Loaded(detail) => {
                    view! { <TrialDetailView detail=(*detail).clone()/> }.into_any()
                }
                TrialDetailState::Failed(error) => {
                    let config = client.get()?;
                    let base_url = shown_base(&config);
                    let context = format!("Trial {} — its detail", visible(&id));
                    let (id, job_id) = (id.clone(), job_id.clone()?);
                    let on_retry = Callback::new(move |()| {
                        loader.load(config.clone(), job_id.clone(), id.clone());
                    });
                    view! { <ApiErrorPanel error base_url on_retry context/> }.into_any()
                }
            };
            Some(view! {
                <tr class="details-row trial-detail-row">
                    <td colspan="4">{body}</td>
                </tr>
            })
        }
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
                {error().map(|error| view! {
                    <div class="trial-error">
                        <span class="details-label">"Error"</span>
                        <pre class="details-error-text">{error}</pre>
                    </div>
                })}
            }
        })
    };
    view! {
        <tbody class="trial" data-trial-id=id.clone()>
            <tr class="trial-row">
                <th scope="row" class="trial-id">{visible(&id).into_owned()}</th>
                <td class="trial-status">{status}</td>
                <td class="trial-agent">{agent}</td>
                <td class="trajectory-action">{action}</td>
            </tr>
            <tr class="trial-scores-row">
                <td colspan="4">{scores}</td>
            </tr>
            {detail}
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
            let missing = score.score == super::trial_lines::NO_SCORE;
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
        <table class="scorers">
            <caption>"Scorers"</caption>
            <colgroup>
                <col class="col-name"/>
                <col class="col-score"/>
                <col class="col-threshold"/>
                <col class="col-result"/>
            </colgroup>
            <thead>
                <tr>
                    <th scope="col">"Scorer"</th>
                    <th scope="col" class="num">"Score"</th>
                    <th scope="col" class="num">"Threshold"</th>
                    <th scope="col">"Result"</th>
                </tr>
            </thead>
            <tbody>{rows}</tbody>
        </table>
    }
    .into_any()
}
