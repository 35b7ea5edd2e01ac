//! The loading panel of a comparison: per run (or Chronicle job), its record and lists with
//! pages and items read, Cancel while loading, and for whatever stopped: which run, which list,
//! why, and Retry. Beside it, for Chronicle: which jobs are live and how far they are, and the
//! jobs that have no trials yet.

use eval_compare_core::api::{ChronicleJob, JobStatus};
use eval_compare_core::client::ApiError;
use eval_compare_core::text::visible;
use leptos::prelude::*;

use crate::components::api_error::{is_access_refused, EnterKeyButton};
use crate::components::stat_text::{count, plural};
use crate::failure::explain;
use crate::report::panels::load_stopped::stopped_note;
use eval_compare_core::load::{ItemsRead, ListKind, ListProgress, LoadPace, Phase, RunProgress};

use crate::state::loader::{LiveMode, REFRESH_MS};
use crate::state::report::now_ms;

/// Whether a progress entry is a Chronicle job's (its one list is the trials).
fn is_job(run: &RunProgress) -> bool {
    run.lists.iter().any(|list| list.kind == ListKind::Trials)
}

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
    view! {
        <Show when=visible>
            <section class="panel load-panel" aria-labelledby="load-title">
                <div class="load-head">
                    <h3 id="load-title" class="panel-title">
                        {move || {
                            let jobs = progress.with(|runs| runs.iter().any(is_job));
                            match (loading.get(), jobs) {
                                (true, true) => "Loading the jobs…",
                                (true, false) => "Loading the runs…",
                                (false, _) if !only_missing() => "Loading stopped early",
                                (false, true) => "This link names a job that does not exist",
                                (false, false) => "This link names a run that does not exist",
                            }
                        }}
                    </h3>
                    <div class="button-row">
                        {move || {
                            refused().then(|| view! { <EnterKeyButton/> })
                        }}
                        {move || {
                            if loading.get() {
                                view! {
                                    <button
                                        class="button button-secondary"
                                        type="button"
                                        on:click=move |_| on_cancel.run(())
                                    >
                                        "Cancel"
                                    </button>
                                }
                                    .into_any()
                            } else if only_missing() {
                                ().into_any()
                            } else {
                                view! {
                                    <button
                                        class="button"
                                        type="button"
                                        on:click=move |_| on_retry.run(())
                                    >
                                        "Retry"
                                    </button>
                                }
                                    .into_any()
                            }
                        }}
                    </div>
                </div>
                {move || pace_text().map(|text| view! { <p class="load-pace">{text}</p> })}
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

/// What stopped for one run: (what, error).
fn failures(run: &RunProgress) -> Vec<(String, ApiError)> {
    let mut out = Vec::new();
    if let Phase::Failed(error) = &run.record {
        let what = if is_job(run) { "the job" } else { "the run" };
        out.push((what.to_owned(), error.clone()));
    }
    for list in &run.lists {
        if let Phase::Failed(error) = &list.phase {
            out.push((list.kind.label().to_owned(), error.clone()));
        }
    }
    out
}

/// One run: name, progress of its lists, and its failures explained.
#[component]
fn RunLoadView(run: RunProgress, base_url: String) -> impl IntoView {
    let title = run.name.clone().unwrap_or_else(|| run.run_id.clone());
    let (thing, units) = if is_job(&run) {
        ("job", "trials")
    } else {
        ("run", "rollouts")
    };
    let record = match &run.record {
        Phase::Waiting | Phase::Loading => Some(format!("reading the {thing}…")),
        Phase::Cancelled => Some(format!("cancelled before the {thing} was read")),
        // Said once, by the failure below.
        Phase::Failed(error) if error.is_not_found() => None,
        Phase::Failed(_) => Some(format!("the {thing} could not be read")),
        Phase::Complete => None,
    };
    let rollouts = run.rollouts.map(|(done, total)| {
        format!(
            "running: {} of {} {units} finished",
            count(done.max(0) as u64),
            count(total.max(0) as u64)
        )
    });
    let failed = failures(&run)
        .into_iter()
        .map(|(what, error)| {
            if error.is_not_found() && matches!(run.record, Phase::Failed(_)) {
                return view! {
                    <div class="load-failure load-missing" role="alert">
                        <p class="error-title">{missing_line(thing, &run.run_id, &base_url)}</p>
                        <p class="error-hint">"Check the link, or choose the runs to compare."</p>
                    </div>
                }
                .into_any();
            }
            let explanation = explain(&error, &base_url);
            view! {
                <div class="load-failure" role="alert">
                    <p class="error-context">{format!("{title} — {what}")}</p>
                    <p class="error-title">{explanation.title}</p>
                    <p class="error-message">{explanation.message}</p>
                    <p class="error-hint">{explanation.hint}</p>
                </div>
            }
            .into_any()
        })
        .collect_view();
    let refresh_error = run.refresh_error.clone().map(|error| {
        view! {
            <p class="run-detail">
                {format!("The last refresh failed ({error}); showing the previous data, trying again shortly.")}
            </p>
        }
    });
    let lists = (run.record == Phase::Complete).then(|| {
        run.lists
            .iter()
            .map(|list| view! { <ListLoadView list=list.clone()/> })
            .collect_view()
    });
    view! {
        <div class="load-run" data-run-id=run.run_id.clone()>
            <p class="load-run-title">
                <span class="run-name">{title.clone()}</span>
                <span class="run-id">{visible(&run.run_id).into_owned()}</span>
            </p>
            {record.map(|text| view! { <p class="muted">{text}</p> })}
            {rollouts.map(|text| view! { <p class="run-detail">{text}</p> })}
            <ul class="load-lists">{lists}</ul>
            {failed}
            {refresh_error}
        </div>
    }
}

/// What a record the API says does not exist reads as: once, naming the id and the API.
pub fn missing_line(thing: &str, id: &str, base_url: &str) -> String {
    format!(
        "No {thing} `{}` at {base_url}: the link names a {thing} that does not exist, or no \
         longer does.",
        visible(id)
    )
}

/// While Trajectory runs of the comparison are still executing: each one's finished and
/// planned rollouts and how many are outstanding, when the runs were last checked, and that
/// the numbers below move.
#[component]
pub fn LiveRunsNotice(
    /// Progress of each run of the comparison.
    #[prop(into)]
    progress: Signal<Vec<RunProgress>>,
    /// When the runs were last read or checked (`Date.now()`, ms).
    #[prop(into)]
    checked_at: Signal<Option<f64>>,
) -> impl IntoView {
    move || {
        let lines: Vec<String> =
            progress.with(|runs| runs.iter().filter_map(live_run_line).collect());
        if lines.is_empty() {
            return None;
        }
        Some(view! {
            <section class="notice notice-info live-jobs live-runs" role="status" aria-live="polite">
                <p class="live-jobs-title">
                    <span class="live-dot" aria-hidden="true"></span>
                    <strong>"Live"</strong>
                    {format!(" — {}", checked_text(checked_at.get(), REFRESH_MS / 1_000))}
                </p>
                <ul class="live-jobs-list">
                    {lines.into_iter().map(|line| view! { <li>{line}</li> }).collect_view()}
                </ul>
                <p class="muted">
                    "The numbers below are provisional: trajectories not finished yet are counted "
                    "as such in the coverage ledger, and the verdict is marked provisional."
                </p>
            </section>
        })
    }
}

/// "Checkpoint step 500 (eval_ckpt_s500): running · 581 of 1,612 rollouts finished, 1,031
/// outstanding", for a run still executing.
pub fn live_run_line(run: &RunProgress) -> Option<String> {
    if !run.running {
        return None;
    }
    let id = visible(&run.run_id);
    let label = match run.name.as_deref().filter(|name| !name.trim().is_empty()) {
        Some(name) if name != run.run_id => format!("{} ({id})", visible(name)),
        _ => id.into_owned(),
    };
    Some(match run.rollouts {
        Some((done, total)) => {
            let (done, total) = (done.max(0) as u64, total.max(0) as u64);
            format!(
                "{label}: running · {} of {} rollouts finished, {} outstanding",
                count(done),
                count(total),
                count(total.saturating_sub(done))
            )
        }
        None => format!("{label}: running"),
    })
}

/// When the runs were checked, as a UTC clock time, and how often they are.
pub fn checked_text(checked_at_ms: Option<f64>, every_secs: u32) -> String {
    match checked_at_ms {
        Some(ms) => format!(
            "last checked at {}, again every {every_secs} s; the report updates as trajectories finish.",
            clock_utc(ms)
        ),
        None => format!("checked every {every_secs} s; the report updates as trajectories finish."),
    }
}

/// A time since the epoch (ms) as its UTC clock time, `15:04:05 UTC`.
pub fn clock_utc(ms: f64) -> String {
    let secs = (ms.max(0.0) / 1_000.0).floor() as u64 % 86_400;
    format!(
        "{:02}:{:02}:{:02} UTC",
        secs / 3_600,
        secs / 60 % 60,
        secs % 60
    )
}

/// While Chronicle jobs of the comparison are queued or running: each one's status and trials
/// finished of those scheduled, how it is watched (its progress stream, or polling), and that
/// the numbers below are partial.
#[component]
pub fn LiveJobsNotice(
    /// The comparison's jobs as last read.
    #[prop(into)]
    jobs: Signal<Vec<ChronicleJob>>,
    /// How the running jobs are watched (`None` when none is).
    #[prop(into)]
    mode: Signal<Option<LiveMode>>,
) -> impl IntoView {
    let live = move || {
        jobs.with(|jobs| {
            jobs.iter()
                .filter(|job| matches!(job.status, Some(JobStatus::Queued | JobStatus::Running)))
                .map(live_line)
                .collect::<Vec<_>>()
        })
    };
    move || {
        let lines = live();
        if lines.is_empty() {
            return None;
        }
        let how = match mode.get() {
            Some(LiveMode::Streaming) => "following its progress stream".to_owned(),
            Some(LiveMode::Polling) | None => {
                format!("checking every {} s or less often", REFRESH_MS / 1_000)
            }
            Some(LiveMode::Stopped(why)) => {
                return Some(view! {
                    <section class="notice notice-caution live-jobs" role="status">
                        <p class="live-jobs-stopped">
                            <strong>"Not followed any more"</strong>
                            {format!(
                                " — {why}. Reload the page to follow it again, or check the job \
                                 on the platform."
                            )}
                        </p>
                        <ul class="live-jobs-list">
                            {lines.into_iter().map(|line| view! { <li>{line}</li> }).collect_view()}
                        </ul>
                    </section>
                }
                .into_any());
            }
        };
        Some(view! {
            <section class="notice notice-info live-jobs" role="status" aria-live="polite">
                <p class="live-jobs-title">
                    <span class="live-dot" aria-hidden="true"></span>
                    <strong>"Live"</strong>
                    {format!(" — {how}; the report updates as trials finish.")}
                </p>
                <ul class="live-jobs-list">
                    {lines.into_iter().map(|line| view! { <li>{line}</li> }).collect_view()}
                </ul>
                <p class="muted">
                    "The numbers below are partial: trials not finished yet are counted as such "
                    "in the coverage ledger."
                </p>
            </section>
        }
        .into_any())
    }
}

/// "Job NAME (id): running · 12 of 40 trials finished (30%)".
pub fn live_line(job: &ChronicleJob) -> String {
    let id = visible(&job.id);
    let label = match job.name.as_deref().filter(|name| !name.trim().is_empty()) {
        Some(name) => format!("Job {} ({id})", visible(name)),
        None => format!("Job {id}"),
    };
    let status = job.status.as_ref().map_or("unknown", JobStatus::as_str);
    let status = visible(status);
    match (job.completed_trials, job.total_trials) {
        (Some(done), Some(total)) => {
            let percent = i64::try_from(done)
                .ok()
                .zip(i64::try_from(total).ok())
                .and_then(|(done, total)| crate::format::percent_done(done, total))
                .map(|percent| format!(" ({percent:.0}%)"))
                .unwrap_or_default();
            format!(
                "{label}: {status} · {} of {} trials finished{percent}",
                count(done),
                count(total)
            )
        }
        (Some(done), None) => format!("{label}: {status} · {} trials finished", count(done)),
        _ => format!("{label}: {status}"),
    }
}

/// Instead of an empty report: the jobs that have no trials yet, each with its status.
#[component]
pub fn JobsWithoutTrials(
    /// The jobs whose trials were read and are none.
    #[prop(into)]
    jobs: Signal<Vec<ChronicleJob>>,
) -> impl IntoView {
    move || {
        jobs.with(|jobs| {
            (!jobs.is_empty()).then(|| {
                let items = jobs
                    .iter()
                    .map(|job| view! { <li>{no_trials_line(job)}</li> })
                    .collect_view();
                view! {
                    <section class="notice notice-caution no-trials" role="status">
                        <ul class="no-trials-list">{items}</ul>
                        <p class="muted">
                            "There is nothing to compare until trials finish; a running job is "
                            "followed and the report appears as they do."
                        </p>
                    </section>
                }
            })
        })
    }
}

/// "Job X has no trials yet; inspect its status: queued (0 of 40 trials finished)."
pub fn no_trials_line(job: &ChronicleJob) -> String {
    let status = job.status.as_ref().map_or("unknown", JobStatus::as_str);
    let trials = match (job.completed_trials, job.total_trials) {
        (Some(done), Some(total)) => {
            format!(" ({} of {} trials finished)", count(done), count(total))
        }
        (None, Some(total)) => format!(" ({} trials scheduled)", count(total)),
        _ => String::new(),
    };
    format!(
        "Job {} has no trials yet; inspect its status: {}{trials}.",
        visible(&job.id),
        visible(status)
    )
}

/// The bar of one list's progress.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ListBar {
    /// `value` of `max` read.
    Measured {
        /// Items read (all of them once complete).
        value: f64,
        /// Items there are.
        max: f64,
    },
    /// Loading, how much there is unknown.
    Indeterminate,
    /// Stopped with an unknown total: no bar.
    Hidden,
}

/// One list's progress in words, "N pages · M items · state", and its bar: full once complete,
/// items of the known total, indeterminate while loading an unknown total, none once stopped.
pub fn list_line(list: &ListProgress) -> (String, ListBar) {
    let state = match &list.phase {
        Phase::Waiting => "waiting",
        Phase::Loading => "loading",
        Phase::Complete => "done",
        Phase::Failed(_) => "stopped: a page failed",
        Phase::Cancelled => "stopped: cancelled",
    };
    let items = match list.total {
        Some(total) if list.kind != ListKind::Tasks => {
            format!("{} of at most {}", count(list.items as u64), count(total))
        }
        _ => count(list.items as u64),
    };
    let text = format!(
        "{} · {items} items · {state}",
        plural(u64::from(list.pages), "page", "pages")
    );
    let bar = match (&list.phase, list.total) {
        (Phase::Complete, _) => ListBar::Measured {
            value: 1.0,
            max: 1.0,
        },
        (_, Some(total)) if total > 0 => ListBar::Measured {
            value: (list.items as f64).min(total as f64),
            max: total as f64,
        },
        (Phase::Waiting | Phase::Loading, _) => ListBar::Indeterminate,
        _ => ListBar::Hidden,
    };
    (text, bar)
}

/// The whole load in a line: the share of the runs' items (the jobs' trials when `jobs`) read
/// and, once the pace is known, the time left at that pace. The lengths are upper bounds (a
/// run's planned rollouts), so the share never says more than was read; it reaches 100% only
/// once everything is.
pub fn pace_line(items: ItemsRead, left_ms: Option<f64>, jobs: bool) -> String {
    let percent = (items.share() * 100.0).floor().clamp(0.0, 100.0);
    let what = if jobs {
        "the jobs' trials"
    } else {
        "the runs' items"
    };
    let read = format!("{percent:.0}% of {what} read");
    match left_ms {
        Some(ms) => format!("{read} · {}", time_left(ms)),
        None => read,
    }
}

/// An estimate of the time left, as coarse as an estimate is: "a few seconds left", "about
/// 25 s left" (in steps of 5 s, rounded up), "about 3 min left", "about 2 h left".
pub fn time_left(ms: f64) -> String {
    let seconds = (ms / 1_000.0).max(0.0);
    if seconds < 10.0 {
        "a few seconds left".to_owned()
    } else if seconds < 60.0 {
        format!("about {:.0} s left", (seconds / 5.0).ceil() * 5.0)
    } else if seconds < 90.0 * 60.0 {
        format!("about {:.0} min left", (seconds / 60.0).round().max(1.0))
    } else {
        format!("about {:.0} h left", (seconds / 3_600.0).round())
    }
}

/// One list: a bar (items of the known total, full once complete) and "N pages · M items".
#[component]
fn ListLoadView(list: ListProgress) -> impl IntoView {
    let (text, bar) = list_line(&list);
    let label = format!("{}: {text}", list.kind.label());
    view! {
        <li class="load-list">
            <span class="load-list-name">{list.kind.label()}</span>
            {match bar {
                ListBar::Measured { value, max } => {
                    view! { <progress max=max value=value aria-label=label.clone()></progress> }
                        .into_any()
                }
                ListBar::Indeterminate => {
                    view! { <progress aria-label=label.clone()></progress> }.into_any()
                }
                ListBar::Hidden => view! { <span class="load-list-bar-none"></span> }.into_any(),
            }}
            <span class="load-list-text">{text}</span>
        </li>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn items(read: u64, planned: u64) -> ItemsRead {
        ItemsRead { read, planned }
    }

    #[test]
    fn the_pace_line_says_the_share_read_and_the_time_left() {
        let third = items(583_000, 1_612_000);
        assert_eq!(pace_line(third, None, false), "36% of the runs' items read");
        assert_eq!(
            pace_line(third, Some(17_400.0), false),
            "36% of the runs' items read · about 20 s left"
        );
        assert_eq!(
            pace_line(third, Some(17_400.0), true),
            "36% of the jobs' trials read · about 20 s left"
        );
        // 99.9% is not yet 100%.
        assert_eq!(
            pace_line(items(999, 1_000), Some(10.0), false),
            "99% of the runs' items read · a few seconds left"
        );
        assert_eq!(
            pace_line(items(1_000, 1_000), Some(0.0), false),
            "100% of the runs' items read · a few seconds left"
        );
    }

    #[test]
    fn time_left_is_coarse() {
        assert_eq!(time_left(-5.0), "a few seconds left");
        assert_eq!(time_left(9_999.0), "a few seconds left");
        assert_eq!(time_left(10_000.0), "about 10 s left");
        assert_eq!(time_left(10_001.0), "about 15 s left");
        assert_eq!(time_left(59_999.0), "about 60 s left");
        assert_eq!(time_left(60_000.0), "about 1 min left");
        assert_eq!(time_left(149_000.0), "about 2 min left");
        assert_eq!(time_left(89.0 * 60_000.0), "about 89 min left");
        assert_eq!(time_left(90.0 * 60_000.0), "about 2 h left");
        assert_eq!(time_left(10.0 * 3_600_000.0), "about 10 h left");
    }

    fn list(kind: ListKind, items: usize, total: Option<u64>, phase: Phase) -> ListProgress {
        ListProgress {
            kind,
            pages: 2,
            items,
            total,
            phase,
        }
    }

    #[test]
    fn a_running_run_says_what_is_outstanding_and_when_it_was_checked() {
        let run = RunProgress {
            run_id: "eval_ckpt_s500".to_owned(),
            name: Some("Checkpoint step 500".to_owned()),
            record: Phase::Complete,
            running: true,
            rollouts: Some((581, 1612)),
            lists: Vec::new(),
            settings_reads: Vec::new(),
            refresh_error: None,
        };
        assert_eq!(
            live_run_line(&run).as_deref(),
            Some(
                "Checkpoint step 500 (eval_ckpt_s500): running · 581 of 1,612 rollouts \
                 finished, 1,031 outstanding"
            )
        );
        let done = RunProgress {
            running: false,
            ..run.clone()
        };
        assert_eq!(live_run_line(&done), None);
        // 2026-12-01T15:04:05.900Z
        assert_eq!(clock_utc(1_796_137_445_900.0), "15:04:05 UTC");
        assert_eq!(
            checked_text(Some(1_796_137_445_900.0), 10),
            "last checked at 15:04:05 UTC, again every 10 s; the report updates as trajectories finish."
        );
        assert!(checked_text(None, 10).starts_with("checked every 10 s"));
    }

    #[test]
    fn a_missing_record_is_named_once_with_its_api() {
        assert_eq!(
            missing_line("run", "eval_nope\u{7}", "http://127.0.0.1:8080"),
            "No run `eval_nope\\u{7}` at http://127.0.0.1:8080: the link names a run that does not \
             exist, or no longer does."
        );
    }

    #[test]
    fn a_known_total_is_measured_and_a_complete_list_is_full() {
        let (text, bar) = list_line(&list(ListKind::Rewards, 150, Some(400), Phase::Loading));
        assert_eq!(text, "2 pages · 150 of at most 400 items · loading");
        assert_eq!(
            bar,
            ListBar::Measured {
                value: 150.0,
                max: 400.0
            }
        );
        let (text, bar) = list_line(&list(ListKind::Rewards, 380, Some(400), Phase::Complete));
        assert_eq!(text, "2 pages · 380 of at most 400 items · done");
        assert_eq!(
            bar,
            ListBar::Measured {
                value: 1.0,
                max: 1.0
            }
        );
    }

    #[test]
    fn tasks_have_no_total_and_an_unknown_one_is_indeterminate_then_hidden() {
        let (text, bar) = list_line(&list(ListKind::Tasks, 1_200, Some(400), Phase::Waiting));
        assert_eq!(text, "2 pages · 1,200 items · waiting");
        assert_eq!(
            bar,
            ListBar::Measured {
                value: 400.0,
                max: 400.0
            },
            "the bar is capped at the total"
        );
        let (_, bar) = list_line(&list(ListKind::Rewards, 10, None, Phase::Loading));
        assert_eq!(bar, ListBar::Indeterminate);
        let (text, bar) = list_line(&list(ListKind::Rewards, 10, None, Phase::Cancelled));
        assert_eq!(text, "2 pages · 10 items · stopped: cancelled");
        assert_eq!(bar, ListBar::Hidden);
    }
}
