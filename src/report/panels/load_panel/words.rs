//! What the load panel and the live notices say: plain functions over the core's load progress
//! and the Chronicle job records, tested natively.

use eval_compare_core::api::{ChronicleJob, JobStatus};
use eval_compare_core::client::ApiError;
use eval_compare_core::load::{ItemsRead, ListKind, ListProgress, ListSource, Phase, RunProgress};
use eval_compare_core::text::visible;

use crate::components::stat_text::{count, plural};

/// Whether a progress entry is a Chronicle job's (its one list is the trials).
pub fn is_job(run: &RunProgress) -> bool {
    run.lists.iter().any(|list| list.kind == ListKind::Trials)
}

/// "job" or "run": what one progress entry reads.
pub fn thing(run: &RunProgress) -> &'static str {
    if is_job(run) {
        "job"
    } else {
        "run"
    }
}

/// What stopped for one run: (what, error), its record first, then its lists.
pub fn failures(run: &RunProgress) -> Vec<(String, ApiError)> {
    let mut out = Vec::new();
    if let Phase::Failed(error) = &run.record {
        out.push((format!("the {}", thing(run)), error.clone()));
    }
    for list in &run.lists {
        if let Phase::Failed(error) = &list.phase {
            out.push((list.kind.label().to_owned(), error.clone()));
        }
    }
    out
}

/// The panel's title: what loads, or that the load stopped, or (`only_missing`: every failure
/// is a record the API says does not exist) that the link names a run or job that does not.
pub fn load_title(loading: bool, jobs: bool, only_missing: bool) -> &'static str {
    match (loading, jobs) {
        (true, true) => "Loading the jobs…",
        (true, false) => "Loading the runs…",
        (false, _) if !only_missing => "Loading stopped early",
        (false, true) => "This link names a job that does not exist",
        (false, false) => "This link names a run that does not exist",
    }
}

/// The note under a stopped load: what happens to what was read, and what Retry does.
pub fn stopped_note(runs: &[RunProgress]) -> &'static str {
    let read_any = runs
        .iter()
        .any(|run| run.lists.iter().any(|list| list.items > 0));
    if read_any {
        "What was read is kept: the report uses it, and the coverage ledger marks these runs as \
         incomplete. Retry continues each list from where it stopped."
    } else {
        "Nothing was read, so there is no report yet. Retry reads the runs from the start."
    }
}

/// Where one run's (or job's) record stands, unless it was read or its failure says it.
pub fn record_line(run: &RunProgress) -> Option<String> {
    let thing = thing(run);
    match &run.record {
        Phase::Waiting | Phase::Loading => Some(format!("reading the {thing}…")),
        Phase::Cancelled => Some(format!("cancelled before the {thing} was read")),
        // Said once, by the failure below.
        Phase::Failed(error) if error.is_not_found() => None,
        Phase::Failed(_) => Some(format!("the {thing} could not be read")),
        Phase::Complete => None,
    }
}

/// "running: 581 of 1,612 rollouts finished" (trials for a job), for a run still executing.
pub fn rollouts_line(run: &RunProgress) -> Option<String> {
    let units = if is_job(run) { "trials" } else { "rollouts" };
    run.rollouts.map(|(done, total)| {
        format!(
            "running: {} of {} {units} finished",
            count(done.max(0) as u64),
            count(total.max(0) as u64)
        )
    })
}

/// What a failed refresh of a run still executing says: the previous data stay.
pub fn refresh_error_line(error: &ApiError) -> String {
    format!("The last refresh failed ({error}); showing the previous data, trying again shortly.")
}

/// What a record the API says does not exist reads as: once, naming the id and the API.
pub fn missing_line(thing: &str, id: &str, base_url: &str) -> String {
    format!(
        "No {thing} `{}` at {base_url}: the link names a {thing} that does not exist, or no \
         longer does.",
        visible(id)
    )
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

/// How the lists are read, under the pace line: streamed whole by our server, or the API's
/// pages one by one.
pub fn source_line(source: ListSource) -> String {
    format!("Lists: {}.", source.describe())
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

#[cfg(test)]
mod tests {
    use eval_compare_core::client::HttpError;

    use super::*;

    fn items(read: u64, planned: u64) -> ItemsRead {
        ItemsRead { read, planned }
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

    fn run(lists: Vec<ListProgress>, record: Phase) -> RunProgress {
        RunProgress {
            run_id: "eval_base_v2".to_owned(),
            name: None,
            record,
            running: false,
            rollouts: None,
            lists,
            settings_reads: Vec::new(),
            refresh_error: None,
        }
    }

    fn http(status: u16, message: &str) -> Phase {
        Phase::Failed(ApiError::from(HttpError {
            service: Default::default(),
            status,
            code: None,
            error_type: None,
            message: message.to_owned(),
            param: None,
            request_id: None,
            retry_after_ms: None,
            key_sent: false,
        }))
    }

    fn refused() -> Phase {
        http(401, "missing or invalid API key")
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
        assert_eq!(
            rollouts_line(&run).as_deref(),
            Some("running: 581 of 1,612 rollouts finished")
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
        let missing = run(Vec::new(), http(404, "no such run"));
        assert_eq!(record_line(&missing), None, "the failure says it");
        assert_eq!(
            load_title(false, false, true),
            "This link names a run that does not exist"
        );
        assert_eq!(
            load_title(false, true, true),
            "This link names a job that does not exist"
        );
    }

    #[test]
    fn the_title_says_what_loads_or_that_it_stopped() {
        assert_eq!(load_title(true, false, false), "Loading the runs…");
        assert_eq!(load_title(true, true, true), "Loading the jobs…");
        assert_eq!(load_title(false, true, false), "Loading stopped early");
    }

    #[test]
    fn a_record_says_where_it_stands_until_it_is_read() {
        assert_eq!(
            record_line(&run(Vec::new(), Phase::Loading)).as_deref(),
            Some("reading the run…")
        );
        let trials = list(ListKind::Trials, 0, None, Phase::Waiting);
        assert_eq!(
            record_line(&run(vec![trials], Phase::Cancelled)).as_deref(),
            Some("cancelled before the job was read")
        );
        assert_eq!(
            record_line(&run(Vec::new(), refused())).as_deref(),
            Some("the run could not be read")
        );
        assert_eq!(record_line(&run(Vec::new(), Phase::Complete)), None);
    }

    #[test]
    fn failures_name_the_record_then_each_list_that_stopped() {
        let lists = vec![
            list(ListKind::Trials, 3, Some(40), refused()),
            list(ListKind::Tasks, 0, None, Phase::Cancelled),
        ];
        let job = run(lists, refused());
        assert!(is_job(&job));
        let named: Vec<String> = failures(&job).into_iter().map(|(what, _)| what).collect();
        assert_eq!(
            named,
            ["the job".to_owned(), ListKind::Trials.label().to_owned()]
        );
        let rewards = list(ListKind::Rewards, 10, None, Phase::Complete);
        let fine = run(vec![rewards], Phase::Complete);
        assert!(!is_job(&fine));
        assert!(failures(&fine).is_empty());
        let Phase::Failed(error) = http(503, "overloaded") else {
            unreachable!("http() makes a failure")
        };
        let line = refresh_error_line(&error);
        assert!(line.starts_with("The last refresh failed ("), "{line}");
        assert!(line.contains("overloaded"), "{line}");
        assert!(
            line.ends_with("); showing the previous data, trying again shortly."),
            "{line}"
        );
    }

    #[test]
    fn a_load_refused_before_anything_was_read_keeps_nothing() {
        let note = stopped_note(&[run(Vec::new(), refused()), run(Vec::new(), refused())]);
        assert!(note.starts_with("Nothing was read"), "{note}");
        assert!(!note.contains("kept"), "{note}");
    }

    #[test]
    fn a_load_that_read_items_keeps_them() {
        let list = ListProgress {
            kind: ListKind::Rewards,
            pages: 1,
            items: 200,
            total: Some(400),
            phase: refused(),
        };
        let note = stopped_note(&[run(vec![list], Phase::Complete), run(Vec::new(), refused())]);
        assert!(note.starts_with("What was read is kept"), "{note}");
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

    #[test]
    fn the_panel_says_how_the_lists_are_read() {
        assert_eq!(
            source_line(ListSource::ServerStream),
            "Lists: streamed whole by the server."
        );
        assert_eq!(
            source_line(ListSource::ContractPages),
            "Lists: read page by page from the API."
        );
    }
}
