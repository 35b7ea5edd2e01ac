//! The demo's progress stream, `GET /v1/backtests/jobs/{jobId}/stream`: `run_finished` at once
//! for an ended job, a replay after `Last-Event-ID`, and live events as the running evaluation's
//! wall-clock schedule moves (whatever the speed of the machine: only ordering and totals are
//! checked, never timing).
#![allow(clippy::unwrap_used)]

mod common;

use std::time::Duration;

use common::sse::{open_stream, read_sse, SseEnd, SseEvent};
use common::{client, demo, demo_running, get_error, get_json, start};
use eval_compare_core::api::{JobEventData, JobEventKind};
use eval_compare_server::demo_key::ApiKey;
use eval_compare_server::Mode;

const WITHIN: Duration = Duration::from_secs(30);

fn data(event: &SseEvent) -> JobEventData {
    serde_json::from_value(event.data.clone()).unwrap()
}

fn is_run_finished(events: &[SseEvent]) -> bool {
    events.last().is_some_and(|e| e.event == "run_finished")
}

/// Ids follow each other from `first`; trial events name their trial, agent and task;
/// `completed_trials` never goes down, and counts the `trial_finished` events.
fn assert_well_formed(events: &[SseEvent], first: u64, job_id: &str, total: u64) {
    let mut completed = None;
    for (i, event) in events.iter().enumerate() {
        assert_eq!(event.id, Some(first + i as u64), "{event:?}");
        let kind = JobEventKind::from(event.event.as_str());
        assert!(!matches!(kind, JobEventKind::Other(_)), "{event:?}");
        let d = data(event);
        assert_eq!(d.job_id.as_deref(), Some(job_id));
        assert_eq!(d.total_trials, Some(total));
        let now = d.completed_trials.unwrap();
        if let Some(before) = completed {
            let step = u64::from(kind == JobEventKind::TrialFinished);
            if kind != JobEventKind::RunFinished {
                assert_eq!(now, before + step, "{event:?}");
            }
        }
        completed = Some(now);
        if kind != JobEventKind::RunFinished {
            assert!(d.trial_id.is_some() && d.agent.is_some() && d.task_id.is_some());
            let status = d.status.unwrap();
            match kind {
                JobEventKind::TrialStarted => assert_eq!(status, "running"),
                _ => assert!(["succeeded", "failed", "cancelled"].contains(&status.as_str())),
            }
        }
    }
}

#[tokio::test]
async fn an_ended_job_sends_run_finished_at_once_and_closes() {
    let server = start(demo(2)).await;
    let (c, b) = (client(), server.base.as_str());
    for (id, status, total) in [
        ("job_s400", "succeeded", 51),
        ("job_s200_failed", "failed", 51),
        ("job_s300_cancelled", "cancelled", 51),
        ("job_compare_base_s200_s400", "succeeded", 153),
    ] {
        let mut response =
            open_stream(&c, b, &format!("/v1/backtests/jobs/{id}/stream"), None).await;
        assert_eq!(response.headers()["cache-control"], "no-cache");
        let read = read_sse(&mut response, |_| false, WITHIN).await;
        assert_eq!(read.end, SseEnd::Closed, "{id}");
        assert_eq!(read.events.len(), 1, "{id}: {:?}", read.events);
        let event = &read.events[0];
        assert_eq!(event.event, "run_finished");
        let d = data(event);
        assert_eq!(d.status.as_deref(), Some(status));
        assert_eq!(
            (d.completed_trials, d.total_trials),
            (Some(total), Some(total))
        );
        assert_eq!((d.trial_id, d.agent, d.task_id), (None, None, None));
        let job = get_json(&c, b, &format!("/v1/backtests/jobs/{id}"), 200).await;
        assert_eq!(job["status"], status);
    }
}

#[tokio::test]
async fn last_event_id_replays_the_events_after_it() {
    let server = start(demo(2)).await;
    let (c, b) = (client(), server.base.as_str());
    let path = "/v1/backtests/jobs/job_s400/stream";
    let mut response = open_stream(&c, b, path, Some("0")).await;
    let all = read_sse(&mut response, |_| false, WITHIN).await;
    assert_eq!(all.end, SseEnd::Closed);
    assert_eq!(
        all.events.len(),
        2 * 51 + 1,
        "every trial started and finished"
    );
    assert_well_formed(&all.events, 1, "job_s400", 51);
    assert!(is_run_finished(&all.events));
    let trials = common::walk_chronicle(&c, b, "/v1/backtests/jobs/job_s400/trials", 100).await;
    for trial in &trials {
        let of_trial: Vec<&SseEvent> = all
            .events
            .iter()
            .filter(|e| e.data["trial_id"] == trial["id"])
            .collect();
        assert_eq!(
            (of_trial[0].event.as_str(), of_trial[1].event.as_str()),
            ("trial_started", "trial_finished")
        );
        assert_eq!(of_trial[1].data["status"], trial["status"]);
    }
    let mut response = open_stream(&c, b, path, Some("100")).await;
    let tail = read_sse(&mut response, |_| false, WITHIN).await;
    assert_eq!(tail.events, all.events[100..]);
    let mut response = open_stream(&c, b, path, Some("103")).await;
    let none = read_sse(&mut response, |_| false, WITHIN).await;
    assert_eq!((none.events.len(), none.end), (0, SseEnd::Closed));

    // A failed job: the trials it never started finish, cancelled, before run_finished.
    let path = "/v1/backtests/jobs/job_s200_failed/stream";
    let mut response = open_stream(&c, b, path, Some("0")).await;
    let failed = read_sse(&mut response, |_| false, WITHIN).await;
    assert_well_formed(&failed.events, 1, "job_s200_failed", 51);
    let last = data(failed.events.last().unwrap());
    assert_eq!(
        (last.status.as_deref(), last.completed_trials),
        (Some("failed"), Some(51))
    );
    let before_last = data(&failed.events[failed.events.len() - 2]);
    assert_eq!(before_last.status.as_deref(), Some("cancelled"));

    let error = c
        .get(format!("{b}{path}"))
        .header("last-event-id", "soon")
        .send()
        .await
        .unwrap();
    assert_eq!(error.status().as_u16(), 400);
    let body: serde_json::Value = error.json().await.unwrap();
    assert_eq!(body["error"]["param"], "Last-Event-ID");
}

#[tokio::test]
async fn a_running_job_streams_trials_as_they_start_and_finish() {
    // The running evaluation takes a minute: a few events arrive within seconds.
    let server = start(demo_running(2, 60)).await;
    let (c, b) = (client(), server.base.as_str());
    let path = "/v1/backtests/jobs/job_s500/stream";
    let mut response = open_stream(&c, b, path, None).await;
    let live = read_sse(&mut response, |events| events.len() >= 3, WITHIN).await;
    drop(response);
    assert_eq!(live.end, SseEnd::Stopped);
    let first = live.events[0].id.unwrap();
    assert!(first > 1, "nothing from before the connection is sent");
    assert_well_formed(&live.events, first, "job_s500", 51);
    assert!(!is_run_finished(&live.events));
    let job = get_json(&c, b, "/v1/backtests/jobs/job_s500", 200).await;
    let seen = data(&live.events[2]).completed_trials.unwrap();
    assert!(
        job["completed_trials"].as_u64().unwrap() >= seen,
        "retrieve is the truth: {job}"
    );
    assert_eq!(job["status"], "running");

    // A reconnection after the last id seen gets what it missed, then what follows.
    let last = live.events[2].id.unwrap().to_string();
    let mut response = open_stream(&c, b, path, Some(&last)).await;
    let resumed = read_sse(&mut response, |events| !events.is_empty(), WITHIN).await;
    assert_eq!(resumed.events[0].id, Some(first + 3));
    // The same events from the start of the connection, replayed.
    let before = (first - 1).to_string();
    let mut response = open_stream(&c, b, path, Some(&before)).await;
    let replayed = read_sse(&mut response, |events| events.len() >= 3, WITHIN).await;
    assert_eq!(replayed.events[..3], live.events[..]);
}

#[tokio::test]
async fn a_running_job_ends_its_stream_with_run_finished() {
    // The running evaluation finishes two seconds after start-up.
    let server = start(demo_running(2, 2)).await;
    let (c, b) = (client(), server.base.as_str());
    let mut response = open_stream(&c, b, "/v1/backtests/jobs/job_s500/stream", Some("0")).await;
    let read = read_sse(&mut response, |_| false, WITHIN).await;
    assert_eq!(read.end, SseEnd::Closed);
    assert_eq!(read.events.len(), 2 * 51 + 1);
    assert_well_formed(&read.events, 1, "job_s500", 51);
    let last = data(read.events.last().unwrap());
    assert_eq!(
        (last.status.as_deref(), last.completed_trials),
        (Some("succeeded"), Some(51))
    );
    let job = get_json(&c, b, "/v1/backtests/jobs/job_s500", 200).await;
    assert_eq!(
        (job["status"].as_str(), job["completed_trials"].as_u64()),
        (Some("succeeded"), Some(51))
    );
}

#[tokio::test]
async fn the_stream_is_behind_the_demo_key_and_unknown_jobs_answer_400() {
    let mut config = demo(2);
    if let Mode::Demo(demo) = &mut config.mode {
        demo.key = Some(ApiKey::new("s3cret"));
    }
    let server = start(config).await;
    let (c, b) = (client(), server.base.as_str());
    let path = "/v1/backtests/jobs/job_s400/stream";
    let refused = c.get(format!("{b}{path}")).send().await.unwrap();
    assert_eq!(refused.status().as_u16(), 401);
    let mut response = c
        .get(format!("{b}{path}"))
        .header("x-api-key", "s3cret")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 200);
    let read = read_sse(&mut response, |_| false, WITHIN).await;
    assert!(is_run_finished(&read.events));

    let open = start(demo(2)).await;
    get_error(
        &c,
        &open.base,
        "/v1/backtests/jobs/job_nope/stream",
        400,
        "unknown_id",
    )
    .await;
    // A queued job's stream stays open without events.
    let mut response = open_stream(
        &c,
        &open.base,
        "/v1/backtests/jobs/job_s500_rerun/stream",
        None,
    )
    .await;
    let quiet = tokio::time::timeout(Duration::from_millis(800), response.chunk()).await;
    assert!(quiet.is_err(), "a queued job sends nothing: {quiet:?}");
}

#[tokio::test]
async fn the_same_seed_replays_byte_identical_streams() {
    let mut bodies = Vec::new();
    for _ in 0..2 {
        let server = start(demo(11)).await;
        let c = client();
        let mut stream = open_stream(
            &c,
            &server.base,
            "/v1/backtests/jobs/job_compare_base_s200_s400/stream",
            Some("0"),
        )
        .await;
        let read = read_sse(&mut stream, |_| false, WITHIN).await;
        assert_eq!(read.events.len(), 2 * 153 + 1);
        bodies.push(read.raw);
    }
    assert_eq!(bodies[0], bodies[1]);
}
