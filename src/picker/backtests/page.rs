//! `/backtests`: the Chronicle job picker. The jobs of the API, newest first, a page at a time
//! ("Show more jobs"), with a status filter; jobs still queued or running are retrieved every
//! [`PROGRESS_POLL_MS`] so their status and trials stay current; the table's controls choose the
//! comparison (see [`crate::picker::backtests::job_table`]).

use eval_compare_core::api::{ChronicleJob, JobStatus};
use eval_compare_core::client::{ApiError, ApiKey, ClientConfig, TrajectoryClient};
use gloo_timers::future::TimeoutFuture;
use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::components::api_error::ApiErrorPanel;
use crate::components::loading::Loading;
use crate::picker::backtests::job_list::{read_jobs_page, STATUS_FILTERS};
use crate::picker::backtests::job_table::JobChooser;
use crate::picker::page_shell::{over_source_settings, PickerShell};
use crate::picker::run_chooser::PROGRESS_POLL_MS;
use crate::route::{ReportPage, Route};
use crate::state::async_load::spawn_scoped;
use crate::state::url::use_url_state;
use crate::transport::FetchTransport;

/// The job picker, reading the API and key of the source settings in context.
#[component]
pub fn BacktestsPage() -> impl IntoView {
    over_source_settings(|base_url, api_key| view! { <BacktestsView base_url api_key/> })
}

/// The job picker over the API at `base_url`.
#[component]
pub fn BacktestsView(
    /// Base URL of the API.
    #[prop(into)]
    base_url: String,
    /// The key to send, if any.
    #[prop(optional_no_strip)]
    api_key: Option<ApiKey>,
) -> impl IntoView {
    view! {
        <PickerShell
            current=Route::Report(ReportPage::Backtests)
            heading="Compare Chronicle backtests"
            base_url
            api_key
            content=|config, base_url| view! { <JobsLoader config base_url/> }.into_any()
        >
            "Open a compare-mode job to see its agents against its first one, or mark a baseline "
            "job and the jobs on the same task suite to compare with it, then Compare. Jobs on "
            "another task suite cannot be added; another version of the same suite can, and the "
            "report's comparability audit flags it."
        </PickerShell>
    }
}

/// Where the list of jobs stands.
#[derive(Debug, Clone, PartialEq)]
enum ListState {
    /// A page is being read.
    Loading,
    /// The pages read so far; `next` is where the list continues.
    Ready { next: Option<String> },
    /// The page at `cursor` failed.
    Failed {
        error: ApiError,
        cursor: Option<String>,
    },
}

/// The status filter, the jobs read so far with the chooser, and "Show more jobs", loading or
/// the failure with Retry.
#[component]
fn JobsLoader(config: ClientConfig, base_url: String) -> impl IntoView {
    let url = use_url_state();
    let jobs = RwSignal::new(Vec::<ChronicleJob>::new());
    let state = RwSignal::new(ListState::Loading);
    let status = RwSignal::new(None::<JobStatus>);
    // Answers to an older filter are dropped.
    let generation = StoredValue::new(0u64);
    let config = StoredValue::new(config);
    let read = move |cursor: Option<String>| {
        let mine = generation.get_value();
        state.set(ListState::Loading);
        let client = TrajectoryClient::new(config.get_value(), FetchTransport::default());
        let filter = status.get_untracked();
        spawn_local(async move {
            let result = read_jobs_page(&client, filter.as_ref(), cursor.clone()).await;
            if generation.try_get_value() != Some(mine) {
                return;
            }
            match result {
                Ok(page) => {
                    // A job listed again (the list moved between pages) keeps its first row.
                    jobs.try_update(|jobs| {
                        for job in page.jobs {
                            if !jobs.iter().any(|known| known.id == job.id) {
                                jobs.push(job);
                            }
                        }
                    });
                    state.try_set(ListState::Ready { next: page.next });
                }
                Err(error) => {
                    state.try_set(ListState::Failed { error, cursor });
                }
            }
        });
    };
    read(None);
    spawn_scoped(follow_running(config.get_value(), jobs));
    let choose_status = move |event| {
        let value = event_target_value(&event);
        let chosen = (!value.is_empty()).then(|| JobStatus::from(value.as_str()));
        generation.update_value(|generation| *generation += 1);
        status.set(chosen);
        jobs.set(Vec::new());
        read(None);
    };
    let options = STATUS_FILTERS
        .iter()
        .map(|status| {
            let name = status.as_str().to_owned();
            view! { <option value=name.clone()>{name.clone()}</option> }
        })
        .collect_view();
    let footer = move || match state.get() {
        ListState::Loading => view! { <Loading label="Loading backtest jobs…"/> }.into_any(),
        ListState::Failed { error, cursor } => {
            let retry = Callback::new(move |()| read(cursor.clone()));
            view! { <ApiErrorPanel error base_url=base_url.clone() on_retry=retry/> }.into_any()
        }
        ListState::Ready { next: Some(cursor) } => view! {
            <p class="jobs-more">
                <button
                    class="button button-secondary"
                    type="button"
                    on:click=move |_| read(Some(cursor.clone()))
                >
                    "Show more jobs"
                </button>
            </p>
        }
        .into_any(),
        ListState::Ready { next: None } => ().into_any(),
    };
    let empty = move || {
        (state.with(|state| matches!(state, ListState::Ready { .. })) && jobs.with(Vec::is_empty))
            .then(|| {
                let text = match status.get() {
                    Some(status) => format!("No backtest job is {}.", status.as_str()),
                    None => "No backtest jobs yet.".to_owned(),
                };
                view! { <p class="empty-state">{text}</p> }
            })
    };
    view! {
        <div class="picker-controls">
            <label class="field">
                <span class="field-label">"Status"</span>
                <select on:change=choose_status>
                    <option value="">"all"</option>
                    {options}
                </select>
            </label>
        </div>
        {empty}
        <Show when=move || jobs.with(|jobs| !jobs.is_empty())>
            <JobChooser jobs url/>
        </Show>
        {footer}
    }
}

/// Every [`PROGRESS_POLL_MS`], retrieves the listed jobs still queued or running and puts the
/// answer in their row (status, trials finished); a failed retrieval is tried at the next tick.
/// Ends with the page.
async fn follow_running(config: ClientConfig, jobs: RwSignal<Vec<ChronicleJob>>) {
    let client = TrajectoryClient::new(config, FetchTransport::default());
    loop {
        TimeoutFuture::new(PROGRESS_POLL_MS).await;
        let Some(running) = jobs.try_with_untracked(|jobs| {
            jobs.iter()
                .filter(|job| matches!(job.status, Some(JobStatus::Queued | JobStatus::Running)))
                .map(|job| job.id.clone())
                .collect::<Vec<_>>()
        }) else {
            return;
        };
        for id in running {
            let Ok(latest) = client.chronicle_job(&id).await else {
                continue;
            };
            let still_there = jobs.try_update(|jobs| {
                if let Some(row) = jobs.iter_mut().find(|job| job.id == latest.id) {
                    *row = latest;
                }
            });
            if still_there.is_none() {
                return;
            }
        }
    }
}
