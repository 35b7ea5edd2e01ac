//! The Chronicle client and its load against a scripted API: paging with `has_next_page`,
//! errors in Chronicle's words with the key never shown, the progress stream (events, garbage,
//! a disconnect), waiting for a job (stream, polling, timeout), and the job load (resume,
//! first failure, the run set, refresh of a running job).

#![allow(clippy::unwrap_used)]

use eval_compare_core::api::{JobEventKind, JobStatus};
use eval_compare_core::client::{
    ApiKey, ClientConfig, RetryPolicy, StreamEnd, TrajectoryClient, WaitProgress,
};
use eval_compare_core::load::{
    jobs_of, load_jobs, refresh_jobs, ListKind, LoadFailure, LoadStore, Phase,
};
use eval_compare_core::model::SourceKind;
use eval_compare_core::testing::bodies::{
    chronicle_job_body, chronicle_page, chronicle_results_page, chronicle_trial_item, sse_event,
    SERVER_FAILURE,
};
use eval_compare_core::testing::scripted::{client_over, response, with_header, SECRET};
use eval_compare_core::testing::{ScriptedTransport, NEVER};
use futures::executor::block_on;

const BASE: &str = "coder@1";
const CAND: &str = "coder@2";

fn keyed_client(transport: &ScriptedTransport) -> TrajectoryClient<ScriptedTransport> {
    let config = ClientConfig::new("http://api.test")
        .unwrap()
        .with_api_key(ApiKey::new(SECRET).unwrap())
        .with_retry(RetryPolicy {
            max_retries: 0,
            ..RetryPolicy::default()
        });
    TrajectoryClient::new(config, transport.clone())
}

/// A finished compare job `job_1` of two agents on tasks t1, t2: trials in two pages (the
/// second from `second`), results beside.
fn script_job(transport: &ScriptedTransport, second: Vec<(u16, String)>) {
    transport.route("/jobs/job_1/trials?cursor=p2", second);
    transport.route(
        "/jobs/job_1/trials",
        vec![(
            200,
            chronicle_page(
                &[
                    chronicle_trial_item("a1", BASE, "t1", true),
                    chronicle_trial_item("a2", BASE, "t2", false),
                ],
                Some("p2"),
            ),
        )],
    );
    transport.route(
        "/task-suites/suite_1/eval-runs?job_id=job_1",
        vec![(
            200,
            chronicle_results_page("job_1", &[("t1", true), ("t2", false)]),
        )],
    );
    transport.route(
        "/jobs/job_1",
        vec![(
            200,
            chronicle_job_body("job_1", "succeeded", &[BASE, CAND], 4, 4),
        )],
    );
}

fn second_trials_page() -> String {
    chronicle_page(
        &[
            chronicle_trial_item("b1", CAND, "t1", true),
            chronicle_trial_item("b2", CAND, "t2", true),
        ],
        None,
    )
}

fn ids(values: &[&str]) -> Vec<String> {
    values.iter().map(|id| (*id).to_owned()).collect()
}

#[test]
fn a_job_loads_its_trials_page_by_page_and_its_agents_become_runs() {
    let transport = ScriptedTransport::default();
    script_job(&transport, vec![(200, second_trials_page())]);
    let client = client_over(&transport);
    let store = LoadStore::new();
    let jobs = ids(&["job_1"]);
    block_on(load_jobs(&client, &store, &jobs, &|_| {}));
    assert_eq!(store.first_job_failure(&jobs), None);
    assert!(transport
        .urls()
        .iter()
        .any(|url| url.ends_with("/v1/backtests/jobs/job_1/trials?limit=100")));
    let set = store.chronicle_run_set(&jobs).unwrap().unwrap();
    let names: Vec<&str> = set
        .runs()
        .iter()
        .map(|run| run.info().id.as_str())
        .collect();
    assert_eq!(
        names,
        ["job_1/coder@1", "job_1/coder@2"],
        "the baseline first"
    );
    assert!(set
        .runs()
        .iter()
        .all(|run| run.info().source == SourceKind::Chronicle));
    let progress = store.job_progress(&jobs);
    assert_eq!(progress[0].name.as_deref(), Some("job job_1"));
    assert_eq!(progress[0].lists[0].items, 4);
    assert_eq!(progress[0].lists[0].total, Some(4));
}

#[test]
fn a_failed_trial_page_keeps_what_was_read_and_retry_resumes_at_its_cursor() {
    let transport = ScriptedTransport::default();
    script_job(
        &transport,
        vec![
            (503, SERVER_FAILURE.to_owned()),
            (200, second_trials_page()),
        ],
    );
    let client = client_over(&transport);
    let store = LoadStore::new();
    let jobs = ids(&["job_1"]);
    block_on(load_jobs(&client, &store, &jobs, &|_| {}));
    let failure = store.first_job_failure(&jobs).unwrap();
    let LoadFailure::List {
        kind,
        pages_read,
        items,
        phase: Phase::Failed(error),
        ..
    } = failure
    else {
        panic!("expected a list failure, got {failure:?}");
    };
    assert_eq!((kind, pages_read, items), (ListKind::Trials, 1, 2));
    assert!(
        error
            .to_string()
            .contains("evaluation runtime is not available"),
        "{error}"
    );
    // Partial data still makes a run set, marked incomplete.
    let set = store.chronicle_run_set(&jobs).unwrap().unwrap();
    let incomplete = set.runs()[0].info().incomplete_load.clone().unwrap();
    assert!(
        incomplete.contains("trials: 1 page (2 items) read"),
        "{incomplete}"
    );

    let before = transport.request_count();
    block_on(load_jobs(&client, &store, &jobs, &|_| {}));
    assert_eq!(store.first_job_failure(&jobs), None);
    let again = transport.urls_since(before);
    assert_eq!(
        again.len(),
        1,
        "only the failed page is read again: {again:?}"
    );
    assert!(again[0].contains("cursor=p2"));
}

#[test]
fn chronicle_errors_are_in_the_guides_words_and_never_show_the_key() {
    let transport = ScriptedTransport::default();
    let body = format!(
        r#"{{"error":{{"type":"invalid_request_error","code":"unknown_job","message":"no job nope for key {SECRET}","doc_url":"https://docs.test"}}}}"#
    );
    transport.route("/jobs/nope", vec![(400, body)]);
    transport.route("/jobs/sandbox", vec![(403, "forbidden".to_owned())]);
    let client = keyed_client(&transport);
    let error = block_on(client.chronicle_job("nope")).unwrap_err();
    assert!(error.is_not_found());
    let text = error.to_string();
    assert!(text.contains("unknown job"), "{text}");
    assert!(!text.contains(SECRET), "{text}");
    let error = block_on(client.chronicle_job("sandbox")).unwrap_err();
    assert!(error.to_string().contains("no sandbox access"), "{error}");
    assert!(!error.is_not_found());
    // The same status on the Trajectory API keeps its own words.
    transport.route("/api/v1/eval/r", vec![(403, "forbidden".to_owned())]);
    let error = block_on(client.eval_run("r")).unwrap_err();
    assert!(!error.to_string().contains("sandbox"), "{error}");
}

#[test]
fn an_unknown_job_is_a_record_failure_and_no_run_set() {
    let transport = ScriptedTransport::default();
    transport.route("/jobs/job_x", vec![(400, SERVER_FAILURE.to_owned())]);
    let client = client_over(&transport);
    let store = LoadStore::new();
    let jobs = ids(&["job_x"]);
    block_on(load_jobs(&client, &store, &jobs, &|_| {}));
    assert!(matches!(
        store.first_job_failure(&jobs),
        Some(LoadFailure::Record { run_id, phase: Phase::Failed(_) }) if run_id == "job_x"
    ));
    assert!(store.chronicle_run_set(&jobs).is_none());
}

fn stream_body(events: &[(&str, &str)]) -> String {
    events
        .iter()
        .enumerate()
        .map(|(i, (name, data))| sse_event(name, i as u32 + 1, data))
        .collect()
}

#[test]
fn the_stream_hands_over_events_until_run_finished_and_counts_garbage() {
    let transport = ScriptedTransport::default();
    let mut body = String::from(": keep-alive\n\n");
    body.push_str(&stream_body(&[
        (
            "trial_started",
            r#"{"trial_id":"a1","agent":"coder@1","task_id":"t1"}"#,
        ),
        (
            "trial_finished",
            r#"{"trial_id":"a1","status":"succeeded","completed_trials":1,"total_trials":2}"#,
        ),
        ("trial_finished", "not json"),
        ("surprise", r#"{"status":"new"}"#),
        ("run_finished", r#"{"status":"succeeded"}"#),
        ("trial_started", r#"{"trial_id":"late"}"#),
    ]));
    transport.route("/jobs/job_1/stream", vec![(200, body)]);
    let client = client_over(&transport);
    let mut seen = Vec::new();
    let summary = block_on(client.follow_job("job_1", &mut |event| {
        seen.push((event.kind.clone(), event.data.trial_id.clone()));
        true
    }))
    .unwrap();
    assert_eq!(summary.end, StreamEnd::RunFinished);
    assert_eq!(summary.events, 4);
    assert_eq!(summary.unreadable, 1);
    assert!(summary.unreadable_examples[0].contains("not json"));
    assert_eq!(seen[1].0, JobEventKind::TrialFinished);
    assert_eq!(
        seen[2].0,
        JobEventKind::Other("surprise".to_owned()),
        "an unknown event is kept by name"
    );
    assert!(
        !seen
            .iter()
            .any(|(_, trial)| trial.as_deref() == Some("late")),
        "reading stops at run_finished"
    );
    let request = &transport.requests()[0];
    assert_eq!(request.header("accept"), Some("text/event-stream"));
}

#[test]
fn a_stream_that_drops_keeps_its_events_and_says_it_broke() {
    let transport = ScriptedTransport::default();
    let body = stream_body(&[("trial_finished", r#"{"trial_id":"a1"}"#)]) + "event: trial_fin";
    transport.route("/jobs/job_1/stream", vec![(200, body)]);
    transport.break_stream("/jobs/job_1/stream");
    let client = client_over(&transport);
    let mut count = 0;
    let summary = block_on(client.follow_job("job_1", &mut |_| {
        count += 1;
        true
    }))
    .unwrap();
    assert_eq!(count, 1);
    assert!(matches!(summary.end, StreamEnd::Broken(_)), "{summary:?}");
}

#[test]
fn waiting_follows_the_stream_then_retrieves_the_job() {
    let transport = ScriptedTransport::default();
    transport.advance_clock_on_sleep();
    transport.route(
        "/jobs/job_1/stream",
        vec![(
            200,
            stream_body(&[
                (
                    "trial_finished",
                    r#"{"trial_id":"a1","completed_trials":1}"#,
                ),
                ("run_finished", r#"{"status":"succeeded"}"#),
            ]),
        )],
    );
    transport.route(
        "/jobs/job_1",
        vec![
            (200, chronicle_job_body("job_1", "running", &[BASE], 0, 2)),
            (200, chronicle_job_body("job_1", "succeeded", &[BASE], 2, 2)),
        ],
    );
    let client = client_over(&transport);
    let mut events = 0;
    let outcome = block_on(
        client.wait_for_job("job_1", 60_000, 2_000, &mut |progress| {
            if let WaitProgress::Event(_) = progress {
                events += 1;
            }
        }),
    )
    .unwrap();
    assert!(outcome.ended);
    assert_eq!(outcome.job.status, Some(JobStatus::Succeeded));
    assert_eq!((outcome.events, events), (2, 2));
    assert!(outcome.stream_problems.is_empty());
}

#[test]
fn without_a_stream_waiting_polls_and_a_timeout_leaves_the_job_running() {
    let transport = ScriptedTransport::default();
    transport.advance_clock_on_sleep();
    transport.route("/jobs/job_1/stream", vec![(404, SERVER_FAILURE.to_owned())]);
    transport.route(
        "/jobs/job_1",
        vec![(200, chronicle_job_body("job_1", "running", &[BASE], 1, 2))],
    );
    let client = client_over(&transport);
    let outcome = block_on(client.wait_for_job("job_1", 10_000, 3_000, &mut |_| {})).unwrap();
    assert!(!outcome.ended, "the timeout came first");
    assert_eq!(outcome.job.status, Some(JobStatus::Running));
    assert!(outcome.stream_problems[0].contains("could not be read"));
    // The first is the deadline the stream raced (dropped when the stream was refused); then
    // the polls, every 3 s while the backoff's steps (1 s, 2 s, …) are shorter, the last one
    // cut at the deadline.
    let sleeps = transport.sleeps();
    assert_eq!(sleeps[..3], [10_000, 3_000, 3_000], "{sleeps:?}");
    assert!((3_000..=4_000).contains(&sleeps[3]), "{sleeps:?}");
    assert_eq!(sleeps[1..].iter().sum::<u64>(), 10_000, "{sleeps:?}");
}

/// Job reads of `job_1` (its stream's URL contains the job's too).
fn job_reads(transport: &ScriptedTransport) -> usize {
    transport.count("/jobs/job_1") - transport.count("/jobs/job_1/stream")
}

#[test]
fn a_stream_that_keeps_saying_the_job_ended_is_backed_off_then_given_up() {
    // The API contradicts itself: the stream says the job succeeded, the record says running.
    let transport = ScriptedTransport::default();
    transport.advance_clock_on_sleep();
    transport.route(
        "/jobs/job_1/stream",
        vec![(
            200,
            stream_body(&[("run_finished", r#"{"status":"succeeded"}"#)]),
        )],
    );
    transport.route(
        "/jobs/job_1",
        vec![(200, chronicle_job_body("job_1", "running", &[BASE], 1, 2))],
    );
    let client = client_over(&transport);
    let outcome = block_on(client.wait_for_job("job_1", 3_600_000, 5_000, &mut |_| {})).unwrap();
    assert!(!outcome.ended);
    let why = outcome.gave_up.expect("the wait gives up").to_string();
    assert!(
        why.starts_with(
            "job job_1's progress stream said it ended (succeeded), but its record still says \
             it is running, unchanged after 8 reads over "
        ),
        "{why}"
    );
    assert!(why.ends_with(" s: the API contradicts itself"), "{why}");
    // An hour of waiting took 3 streams and 9 reads (before: a read every 5 s, 720 and more).
    assert_eq!(transport.count("/jobs/job_1/stream"), 3);
    assert_eq!(job_reads(&transport), 9, "{:?}", transport.urls());
    // Between them the waits doubled from 1 s, each in the upper half of its step; polls
    // (after the third stream) never came faster than every 5 s.
    let waits: Vec<u64> = transport
        .sleeps()
        .into_iter()
        .filter(|ms| *ms < 600_000)
        .collect();
    let steps = [1, 2, 4, 8, 16, 32, 60].map(|s: u64| s * 1_000);
    assert_eq!(waits.len(), steps.len(), "{waits:?}");
    for (i, (wait, step)) in waits.iter().zip(steps).enumerate() {
        let floor = if i >= 2 { 5_000 } else { 0 };
        assert!(
            (step / 2..=step).contains(wait) || (*wait == floor && step / 2 < floor),
            "{waits:?}"
        );
    }
}

#[test]
fn a_refused_stream_s_retry_after_is_honoured_before_the_next_read() {
    let running = || {
        Ok(response(
            200,
            &chronicle_job_body("job_1", "running", &[BASE], 1, 2),
        ))
    };
    let mut outcomes = vec![
        running(),
        Ok(with_header(
            response(429, SERVER_FAILURE),
            "Retry-After",
            "30",
        )),
    ];
    outcomes.extend((0..10).map(|_| running()));
    let transport = ScriptedTransport::new(outcomes);
    transport.advance_clock_on_sleep();
    let client = client_over(&transport);
    let outcome = block_on(client.wait_for_job("job_1", 33_000, 2_000, &mut |_| {})).unwrap();
    assert!(!outcome.ended);
    let sleeps = transport.sleeps();
    // The stream raced the deadline, then the API's 30 s, then polls every 2 s at the fastest.
    assert_eq!(sleeps[..2], [33_000, 30_000], "{sleeps:?}");
    assert!(sleeps[2..].iter().all(|ms| *ms >= 1_000), "{sleeps:?}");
}

#[test]
fn an_event_that_never_ends_stops_the_stream_with_a_clear_error_and_the_wait_polls() {
    let line = format!("data: {}\n", "x".repeat(64 * 1024));
    // 2 MiB of `data:` lines and no blank line to end the event.
    let body = format!(
        "{}{}",
        stream_body(&[("trial_started", "{}")]),
        line.repeat(32)
    );
    let transport = ScriptedTransport::default();
    transport.route("/jobs/job_1/stream", vec![(200, body)]);
    let client = client_over(&transport);
    let mut events = 0;
    let error = block_on(client.follow_job("job_1", &mut |_| {
        events += 1;
        true
    }))
    .unwrap_err();
    assert_eq!(events, 1);
    assert_eq!(
        error.to_string(),
        "the API's answer broke the contract: an event of the progress stream went on past 1 MiB \
         without the blank line that ends it; reading stopped there (1 events read before)"
    );
    transport.advance_clock_on_sleep();
    transport.route(
        "/jobs/job_1",
        vec![(200, chronicle_job_body("job_1", "running", &[BASE], 1, 2))],
    );
    // A deadline far enough for the scripted stream's 300,000 chunks (a yield each) to come first.
    let outcome = block_on(client.wait_for_job("job_1", 100_000_000, 5_000, &mut |_| {})).unwrap();
    assert_eq!(
        transport.count("/jobs/job_1/stream"),
        2,
        "not followed again"
    );
    assert!(
        outcome.stream_problems[0].contains("went on past 1 MiB"),
        "{:?}",
        outcome.stream_problems
    );
}

#[test]
fn a_quiet_stream_is_left_at_the_deadline() {
    let transport = ScriptedTransport::default();
    transport.advance_clock_on_sleep();
    transport.route("/jobs/job_1/stream", vec![(NEVER, String::new())]);
    transport.route(
        "/jobs/job_1",
        vec![(200, chronicle_job_body("job_1", "queued", &[BASE], 0, 2))],
    );
    let client = client_over(&transport);
    let outcome = block_on(client.wait_for_job("job_1", 5_000, 1_000, &mut |_| {})).unwrap();
    assert!(!outcome.ended);
    assert_eq!(transport.count("/jobs/job_1/stream"), 1);
}

#[test]
fn a_running_job_is_refreshed_when_its_progress_moved() {
    let transport = ScriptedTransport::default();
    transport.route(
        "/jobs/job_1/trials",
        vec![
            (
                200,
                chronicle_page(&[chronicle_trial_item("a1", BASE, "t1", true)], None),
            ),
            (
                200,
                chronicle_page(
                    &[
                        chronicle_trial_item("a1", BASE, "t1", true),
                        chronicle_trial_item("a2", BASE, "t2", false),
                    ],
                    None,
                ),
            ),
        ],
    );
    transport.route(
        "/task-suites/suite_1/eval-runs",
        vec![(200, chronicle_results_page("job_1", &[("t1", true)]))],
    );
    transport.route(
        "/jobs/job_1",
        vec![
            (200, chronicle_job_body("job_1", "running", &[BASE], 1, 2)),
            (200, chronicle_job_body("job_1", "running", &[BASE], 1, 2)),
            (200, chronicle_job_body("job_1", "succeeded", &[BASE], 2, 2)),
        ],
    );
    let client = client_over(&transport);
    let store = LoadStore::new();
    let jobs = ids(&["job_1"]);
    block_on(load_jobs(&client, &store, &jobs, &|_| {}));
    assert!(store.jobs_need_refresh(&jobs));
    assert!(
        !block_on(refresh_jobs(&client, &store, &jobs)),
        "nothing moved"
    );
    assert!(block_on(refresh_jobs(&client, &store, &jobs)));
    assert!(!store.jobs_need_refresh(&jobs));
    assert_eq!(
        store.get_job("job_1").unwrap().trials.borrow().items.len(),
        2
    );
}

#[test]
fn run_ids_name_their_jobs_once_in_order() {
    assert_eq!(
        jobs_of(&ids(&["j1/a@1", "j2/b@1", "j1/a@2", "j3"])),
        ["j1", "j2", "j3"]
    );
}

#[test]
fn a_running_job_whose_results_failed_is_still_refreshed() {
    let transport = ScriptedTransport::default();
    transport.route(
        "/jobs/job_1/trials",
        vec![(
            200,
            chronicle_page(&[chronicle_trial_item("a1", BASE, "t1", true)], None),
        )],
    );
    transport.route(
        "/task-suites/suite_1/eval-runs",
        vec![
            (503, SERVER_FAILURE.to_owned()),
            (200, chronicle_results_page("job_1", &[("t1", true)])),
        ],
    );
    transport.route(
        "/jobs/job_1",
        vec![
            (200, chronicle_job_body("job_1", "running", &[BASE], 1, 2)),
            (200, chronicle_job_body("job_1", "succeeded", &[BASE], 2, 2)),
        ],
    );
    let client = client_over(&transport);
    let store = LoadStore::new();
    let jobs = ids(&["job_1"]);
    block_on(load_jobs(&client, &store, &jobs, &|_| {}));
    assert!(matches!(
        store.first_job_failure(&jobs),
        Some(LoadFailure::Results { .. })
    ));
    assert!(block_on(refresh_jobs(&client, &store, &jobs)));
    assert_eq!(
        store.first_job_failure(&jobs),
        None,
        "the results were read again"
    );
}

#[test]
fn an_unreadable_event_quoting_the_key_is_redacted_before_its_excerpt_is_cut() {
    let transport = ScriptedTransport::default();
    // The key straddles the excerpt's cut (80 characters): cut first, its head would escape.
    let data = format!("{}{SECRET} and more", "x".repeat(70));
    transport.route(
        "/jobs/job_1/stream",
        vec![(200, sse_event("trial_finished", 1, &data))],
    );
    let client = keyed_client(&transport);
    let summary = block_on(client.follow_job("job_1", &mut |_| true)).unwrap();
    assert_eq!(summary.unreadable, 1);
    let quoted = &summary.unreadable_examples[0];
    assert!(quoted.contains("***"), "{quoted}");
    assert!(!quoted.contains(&SECRET[..8]), "{quoted}");
}
