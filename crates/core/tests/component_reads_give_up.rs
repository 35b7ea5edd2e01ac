//! A read of reward components gives up when the API has stopped answering: after ten
//! trajectories in a row failed (a 429 storm), or when the whole read's deadline passes (the API
//! hangs). What was read stays, the stop says why, and reading again continues.

#![allow(clippy::unwrap_used)]

use std::cell::Cell;

use eval_compare_core::client::{ClientConfig, TrajectoryClient};
use eval_compare_core::load::{
    load_components, ComponentReadLimits, ComponentStopCause, LoadEvent, LoadStore,
    COMPONENT_CONCURRENCY, FAILURES_IN_A_ROW,
};
use eval_compare_core::testing::bodies::{error_body, trajectory_detail_body, SERVER_FAILURE};
use eval_compare_core::testing::scripted::yield_now;
use eval_compare_core::testing::{ScriptedTransport, NEVER};
use futures::executor::block_on;
use futures::future::{select, Either};

const WANTED: usize = 400;
const ANSWERED: usize = 20;
const DETAIL: &str = "include_reward_components=true";

fn ids() -> Vec<String> {
    (1..=WANTED).map(|n| format!("x{n}")).collect()
}

/// The first [`ANSWERED`] requests for components are answered, every later one gets `then`.
fn script(transport: &ScriptedTransport, then: (u16, String)) {
    let body = trajectory_detail_body("x", "t1", &[("tests", 1.0, 1.0)]);
    let mut answers = vec![(200, body); ANSWERED];
    answers.push(then);
    transport.route(DETAIL, answers);
}

/// A client with the default retry policy (two retries), over `transport`.
fn client(transport: &ScriptedTransport) -> TrajectoryClient<ScriptedTransport> {
    TrajectoryClient::new(
        ClientConfig::new("http://api.test").unwrap(),
        transport.clone(),
    )
}

fn quiet(_: LoadEvent<'_>) {}

#[test]
fn a_429_storm_stops_the_read_after_ten_failures_in_a_row() {
    let transport = ScriptedTransport::default();
    let busy = error_body("rate_limit_error", "rate_limited", "slow down", None);
    script(&transport, (429, busy));
    let client = client(&transport);
    let store = LoadStore::new();
    let targets = ids();
    let limits = ComponentReadLimits::for_reads(WANTED);
    let stop = block_on(load_components(&client, &store, &targets, &limits, &quiet)).unwrap();
    assert_eq!(
        stop.to_string(),
        "stopped after 10 reads in a row failed (HTTP 429 Too Many Requests); 20 of 400 read"
    );
    assert!(matches!(
        stop.cause,
        ComponentStopCause::FailuresInARow(10, _)
    ));
    // Before: every one of the 380 others was tried three times (1,160 requests). Now: the
    // ten that failed and the reads in flight beside them, three attempts each at most.
    let sent = transport.count(DETAIL);
    let most = ANSWERED + 3 * (FAILURES_IN_A_ROW + COMPONENT_CONCURRENCY);
    assert!(sent <= most, "{sent} requests (at most {most})");
    let progress = store.component_progress(&targets);
    assert_eq!((progress.read, progress.pending), (ANSWERED, 0));
    assert!(progress.failed >= FAILURES_IN_A_ROW);
    assert_eq!(progress.stopped.as_ref(), Some(&stop));

    // Reading again continues with what is not read (the storm goes on: it stops again).
    let before = transport.request_count();
    let again = block_on(load_components(&client, &store, &targets, &limits, &quiet)).unwrap();
    assert_eq!(again.read, ANSWERED);
    assert!(transport.request_count() - before <= 3 * (FAILURES_IN_A_ROW + COMPONENT_CONCURRENCY));
}

#[test]
fn a_503_storm_stops_the_read_and_a_success_starts_the_count_over() {
    let transport = ScriptedTransport::default();
    let body = trajectory_detail_body("x", "t1", &[("tests", 1.0, 1.0)]);
    // Retries off: nine failures, one success, then failures only.
    let mut answers = vec![(503, SERVER_FAILURE.to_owned()); 9];
    answers.push((200, body));
    answers.push((503, SERVER_FAILURE.to_owned()));
    transport.route(DETAIL, answers);
    let client = eval_compare_core::testing::scripted::client_over(&transport);
    let store = LoadStore::new();
    let targets = ids();
    let limits = ComponentReadLimits {
        concurrency: 1,
        ..ComponentReadLimits::for_reads(WANTED)
    };
    let stop = block_on(load_components(&client, &store, &targets, &limits, &quiet)).unwrap();
    assert_eq!(
        stop.to_string(),
        "stopped after 10 reads in a row failed (HTTP 503 Service Unavailable); 1 of 400 read"
    );
    assert_eq!(transport.count(DETAIL), 20);
}

#[test]
fn a_hanging_api_stops_the_read_at_its_deadline() {
    let transport = ScriptedTransport::default();
    script(&transport, (NEVER, String::new()));
    transport.advance_clock_on_sleep();
    let client = client(&transport);
    let store = LoadStore::new();
    let targets = ids();
    let limits = ComponentReadLimits {
        deadline_ms: 60_000,
        ..ComponentReadLimits::for_reads(WANTED)
    };
    let moved = Cell::new(0);
    let notify = |_: LoadEvent<'_>| moved.set(moved.get() + 1);
    let load = std::pin::pin!(load_components(&client, &store, &targets, &limits, &notify));
    // The deadline's sleep takes 600 turns; before, the read never ended.
    let stuck = Box::pin(async {
        for _ in 0..5_000 {
            yield_now().await;
        }
    });
    let stop = match block_on(select(load, stuck)) {
        Either::Left((stop, _)) => stop.unwrap(),
        Either::Right(_) => panic!("the read did not give up"),
    };
    assert_eq!(stop.cause, ComponentStopCause::Deadline(60_000));
    assert_eq!(
        stop.to_string(),
        "stopped when the whole read's deadline of 1 min passed; 20 of 400 read"
    );
    // The 20 answered, then six that hang; nothing else went out.
    assert_eq!(transport.count(DETAIL), ANSWERED + COMPONENT_CONCURRENCY);
    let progress = store.component_progress(&targets);
    assert_eq!(
        (progress.read, progress.failed, progress.pending),
        (ANSWERED, 0, 0)
    );
    assert_eq!(progress.not_read(), WANTED - ANSWERED);
    assert!(moved.get() > ANSWERED, "the stop is told");
}
