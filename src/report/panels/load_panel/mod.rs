//! The loading panel of a comparison: per run (or Chronicle job), its record and lists with
//! pages and items read, Cancel while loading, and for whatever stopped: which run, which list,
//! why, and Retry. Beside it, for Chronicle: which jobs are live and how far they are, and the
//! jobs that have no trials yet.
//!
//! [`LoadPanel`] lays out the load: [`run_load`] (one run or job, its failures explained) and
//! [`list_load`] (one list's bar). [`live_runs`] and [`live_jobs`] are the notices while runs
//! or jobs still execute (their frame: [`live_notice`]), [`no_trials`] the jobs with nothing to
//! compare yet. [`words`] makes every sentence from the core's progress, tested natively.

pub mod list_load;
pub mod live_jobs;
pub mod live_notice;
pub mod live_runs;
pub mod no_trials;
pub mod run_load;
pub mod words;

use eval_compare_core::client::ApiError;
use eval_compare_core::load::{ItemsRead, LoadPace, RunProgress};
use leptos::prelude::*;

use crate::components::api_error::{is_access_refused, EnterKeyButton};
use crate::components::button::ActionButton;
use crate::state::loader::use_loader;
use crate::state::report::now_ms;
pub use live_jobs::LiveJobsNotice;
pub use live_runs::LiveRunsNotice;
pub use no_trials::JobsWithoutTrials;
use run_load::RunLoadView;
use words::{failures, is_job, load_title, pace_line, source_line, stopped_note};

/// Shown while the runs load, and afterwards as long as something stopped early (the report
/// below then uses what was read). Hidden once everything is read.
#[component]
pub fn LoadPanel(
    /// Progress of each run of the comparison, baseline first.
    #[prop(into)]
    progress: Signal<Vec<RunProgress>>,
    /// Whether a load is in progress.
    #[prop(into)]
    loading: Signal<bool>,
    /// Which load: a new number for each one started (another comparison, a Retry), so each
    /// has a pace of its own.
    #[prop(into)]
    load: Signal<u64>,
    /// Stops loading (what was read is kept).
    on_cancel: Callback<()>,
    /// Resumes whatever stopped, from where it stopped.
    on_retry: Callback<()>,
    /// The API address, named in connection failures.
    #[prop(into)]
    base_url: Signal<String>,
) -> impl IntoView {
    let stopped = move || progress.with(|runs| runs.iter().any(RunProgress::has_stopped));
    let refused = move || {
        progress.with(|runs| {
            runs.iter()
                .flat_map(failures)
                .any(|(_, error)| is_access_refused(&error))
        })
    };
    // Only ids the API says do not exist stopped: asking again does not help.
    let only_missing = move || {
        progress.with(|runs| {
            let failures: Vec<(String, ApiError)> = runs.iter().flat_map(failures).collect();
            !failures.is_empty() && failures.iter().all(|(_, error)| error.is_not_found())
        })
    };
    let visible = move || loading.get() || stopped();
    // The pace of the load numbered first: a load with another number starts a new one.
    let pace = StoredValue::new((0, LoadPace::new()));
    let pace_text = move || {
        if !loading.get() {
            return None;
        }
        let load = load.get();
        let (items, jobs) =
            progress.with(|runs| Some((ItemsRead::of(runs)?, runs.iter().any(is_job))))?;
        let left = pace
            .try_update_value(|(paced, pace)| {
                if *paced != load {
                    *paced = load;
                    *pace = LoadPace::new();
                }
                pace.time_left_ms(now_ms(), items)
            })
            .flatten();
        Some(pace_line(items, left, jobs))
    };
    let title = move || {
        let jobs = progress.with(|runs| runs.iter().any(is_job));
        let now_loading = loading.get();
        load_title(now_loading, jobs, !now_loading && only_missing())
    };
    view! {
        <Show when=visible>
            <section class="panel load-panel" aria-labelledby="load-title">
                <div class="load-head">
                    <h3 id="load-title" class="panel-title">{title}</h3>
                    <div class="button-row">
                        {move || {
                            refused().then(|| view! { <EnterKeyButton/> })
                        }}
                        {move || {
                            if loading.get() {
                                view! {
                                    <ActionButton secondary=true on_click=on_cancel>
                                        "Cancel"
                                    </ActionButton>
                                }
                                    .into_any()
                            } else if only_missing() {
                                ().into_any()
                            } else {
                                view! { <ActionButton on_click=on_retry>"Retry"</ActionButton> }
                                    .into_any()
                            }
                        }}
                    </div>
                </div>
                {move || pace_text().map(|text| view! { <p class="load-pace">{text}</p> })}
                {move || {
                    let source = source_line(use_loader().list_source());
                    loading.get().then(|| view! { <p class="load-source muted">{source}</p> })
                }}
                {move || {
                    (!loading.get() && stopped() && !only_missing())
                        .then(|| {
                            view! {
                                <p class="muted">{progress.with(|runs| stopped_note(runs))}</p>
                            }
                        })
                }}
                <div class="load-runs">
                    {move || {
                        progress
                            .get()
                            .into_iter()
                            .map(|run| view! { <RunLoadView run base_url=base_url.get()/> })
                            .collect_view()
                    }}
                </div>
            </section>
        </Show>
    }
}
