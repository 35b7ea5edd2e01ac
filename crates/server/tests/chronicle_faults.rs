//! Injected faults on the Chronicle routes: latency, 429, 5xx and truncated bodies as on the
//! Trajectory routes, and broken or hostile progress streams.
#![allow(clippy::unwrap_used)]

mod common;

use std::time::{Duration, Instant};

use common::sse::{open_stream, read_raw, read_sse, SseEnd};
use common::{client, demo, get_error, get_json, start, with_faults};

const WITHIN: Duration = Duration::from_secs(30);

#[tokio::test]
async fn latency_429_and_5xx_apply_to_chronicle_routes() {
    let server = start(with_faults(
        demo(2),
        &[
            "latency:ms=300:path=/v1/task-suites",
            "429:path=/v1/backtests/jobs:nth=1:retry-after=2",
            "5xx:path=/trials:nth=1",
            "5xx:path=/stream:nth=1:status=502",
        ],
    ))
    .await;
    let (c, b) = (client(), server.base.as_str());
    let limited = c
        .get(format!("{b}/v1/backtests/jobs"))
        .send()
        .await
        .unwrap();
    assert_eq!(limited.status().as_u16(), 429);
    assert_eq!(limited.headers()["retry-after"], "2");
    get_json(&c, b, "/v1/backtests/jobs", 200).await;

    let failed = get_error(
        &c,
        b,
        "/v1/backtests/jobs/job_base/trials",
        503,
        "service_unavailable",
    )
    .await;
    assert!(failed["error"]["message"]
        .as_str()
        .unwrap()
        .contains("Injected fault"));
    get_json(&c, b, "/v1/backtests/jobs/job_base/trials", 200).await;
    get_error(
        &c,
        b,
        "/v1/backtests/jobs/job_base/stream",
        502,
        "service_unavailable",
    )
    .await;
    let mut stream = open_stream(&c, b, "/v1/backtests/jobs/job_base/stream", None).await;
    assert_eq!(
        read_sse(&mut stream, |_| false, WITHIN).await.events.len(),
        1
    );

    let started = Instant::now();
    get_json(&c, b, "/v1/task-suites/suite_codefix_smoke/eval-runs", 200).await;
    assert!(started.elapsed() >= Duration::from_millis(300));
}

#[tokio::test]
async fn truncate_cuts_a_json_body_and_a_stream_in_its_first_event() {
    let server = start(with_faults(
        demo(2),
        &["truncate:path=/v1/backtests/jobs/job_base/"],
    ))
    .await;
    let (c, b) = (client(), server.base.as_str());
    let whole = get_json(&c, b, "/v1/backtests/jobs/job_s100/trials?limit=100", 200).await;
    let cut = c
        .get(format!("{b}/v1/backtests/jobs/job_base/trials?limit=100"))
        .send()
        .await
        .unwrap();
    assert_eq!(cut.status().as_u16(), 200);
    let bytes = cut.bytes().await.unwrap();
    assert!(bytes.len() < whole.to_string().len());
    assert!(serde_json::from_slice::<serde_json::Value>(&bytes).is_err());

    let mut stream = open_stream(&c, b, "/v1/backtests/jobs/job_base/stream", None).await;
    let (raw, end) = read_raw(&mut stream, WITHIN).await;
    assert_eq!(end, SseEnd::Broken, "the connection drops");
    let text = String::from_utf8(raw).unwrap();
    assert!(
        text.starts_with("id: ") && !text.contains("\n\n"),
        "{text:?}"
    );
}

#[tokio::test]
async fn a_broken_stream_passes_some_events_then_is_cut_or_spoiled() {
    let server = start(with_faults(
        demo(2),
        &[
            "broken-stream:after=2:path=job_s400",
            "broken-stream:after=3:end=garbage:path=job_s300",
        ],
    ))
    .await;
    let (c, b) = (client(), server.base.as_str());
    let mut cut = open_stream(&c, b, "/v1/backtests/jobs/job_s400/stream", Some("0")).await;
    let read = read_sse(&mut cut, |_| false, WITHIN).await;
    assert_eq!(read.end, SseEnd::Broken);
    assert_eq!(read.events.len(), 2);
    assert!(read.rest.starts_with(b"id: 3\n") && !read.rest.ends_with(b"\n\n"));

    let mut spoiled = open_stream(&c, b, "/v1/backtests/jobs/job_s300/stream", Some("0")).await;
    let (raw, end) = read_raw(&mut spoiled, WITHIN).await;
    assert_eq!(end, SseEnd::Closed);
    let garbage_at = raw
        .windows(2)
        .enumerate()
        .filter(|(_, w)| *w == b"\n\n")
        .nth(2)
        .map(|(i, _)| i + 2)
        .unwrap();
    let (events, garbage) = raw.split_at(garbage_at);
    assert_eq!(
        String::from_utf8_lossy(events).matches("event: ").count(),
        3
    );
    assert!(std::str::from_utf8(garbage).is_err(), "not UTF-8");
    assert!(!String::from_utf8_lossy(garbage).contains("run_finished"));

    // Other jobs' streams and the JSON routes are untouched.
    let mut whole = open_stream(&c, b, "/v1/backtests/jobs/job_s100/stream", Some("0")).await;
    let read = read_sse(&mut whole, |_| false, WITHIN).await;
    assert_eq!((read.events.len(), read.end), (103, SseEnd::Closed));
    get_json(&c, b, "/v1/backtests/jobs/job_s400", 200).await;
}

#[tokio::test]
async fn hostile_streams_contradict_the_record_never_end_an_event_or_flood() {
    let server = start(with_faults(
        demo(2),
        &[
            "contradicting-stream:path=job_s500",
            "endless-event:line-kib=8:path=job_s400",
            "event-flood:path=job_s300",
        ],
    ))
    .await;
    let (c, b) = (client(), server.base.as_str());
    // The running job's stream says it succeeded at once; its record still says running.
    let mut said = open_stream(&c, b, "/v1/backtests/jobs/job_s500/stream", None).await;
    let read = read_sse(&mut said, |_| false, WITHIN).await;
    assert_eq!(read.end, SseEnd::Closed);
    assert_eq!(read.events.len(), 1);
    assert_eq!(read.events[0].event, "run_finished");
    assert_eq!(read.events[0].data["status"], "succeeded");
    assert_eq!(read.events[0].data["job_id"], "job_s500");
    let record = get_json(&c, b, "/v1/backtests/jobs/job_s500", 200).await;
    assert_eq!(record["status"], "running");

    // `data:` lines of 8 KiB and never a blank line: 2 MiB read, no event ended.
    let mut endless = open_stream(&c, b, "/v1/backtests/jobs/job_s400/stream", None).await;
    let mut raw = Vec::new();
    while raw.len() < 2 << 20 {
        raw.extend_from_slice(&endless.chunk().await.unwrap().unwrap());
    }
    assert!(!raw.windows(2).any(|w| w == b"\n\n"));
    assert!(raw.starts_with(b"data: xxx"));
    assert_eq!(raw.iter().position(|b| *b == b'\n'), Some(8 * 1024 - 1));

    // `trial_finished` events for ever.
    let mut flood = open_stream(&c, b, "/v1/backtests/jobs/job_s300/stream", None).await;
    let read = read_sse(&mut flood, |events| events.len() >= 1_000, WITHIN).await;
    assert_eq!(read.end, SseEnd::Stopped);
    assert!(read.events.iter().all(|e| e.event == "trial_finished"));
    // The JSON routes are untouched.
    get_json(&c, b, "/v1/backtests/jobs/job_s300/trials", 200).await;
}
