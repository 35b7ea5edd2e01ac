//! `report --fail-on-regression` on runs that have not finished, against the demo server: a
//! running or failed run is refused with exit 11 unless `--allow-unfinished`, a running run's
//! verdict is marked provisional, and without the regression gate such a run is a warning,
//! never silent.
#![allow(clippy::unwrap_used)]

mod common;

use common::{eval_compare, run, DemoServer};
use serde_json::Value;

/// The demo's runs as listed by the API, newest first, all on one page of 200: (id, status,
/// step, bench).
fn demo_runs(server: &DemoServer) -> Vec<Value> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let get = |url: String| async move {
            let body = reqwest::get(&url).await.unwrap().bytes().await.unwrap();
            serde_json::from_slice::<Value>(&body).unwrap()
        };
        let agents = get(format!("{}/api/v1/agents", server.url)).await;
        let agent = agents["items"][0]["agent_id"].as_str().unwrap().to_owned();
        let runs = get(format!(
            "{}/api/v1/agents/{agent}/evaluation-runs?limit=200",
            server.url
        ))
        .await;
        assert_eq!(runs["has_more"], false);
        runs["items"].as_array().unwrap().clone()
    })
}

/// The id of the demo's first run with this status that is a checkpoint, and the completed
/// base-model baseline on its benchmark version.
fn pair_with_status(runs: &[Value], status: &str) -> (String, String) {
    let candidate = runs
        .iter()
        .find(|run| run["status"] == status && run["step"].is_i64())
        .unwrap_or_else(|| panic!("no {status} checkpoint in the demo"));
    let baseline = runs
        .iter()
        .find(|run| {
            run["status"] == "completed"
                && run["step"].is_null()
                && run["bench_id"] == candidate["bench_id"]
        })
        .unwrap();
    let id = |run: &Value| run["eval_run_id"].as_str().unwrap().to_owned();
    (id(baseline), id(candidate))
}

fn report(server: &DemoServer, baseline: &str, candidate: &str, flags: &[&str]) -> common::Run {
    run(eval_compare()
        .args([
            "report",
            "--server",
            &server.url,
            "--format",
            "json",
            "--resamples",
            "0",
        ])
        .args(["--allow-incomparable"])
        .args(flags)
        .args([baseline, candidate]))
}

#[test]
fn the_regression_gate_refuses_a_running_run_unless_allowed_and_marks_it_provisional() {
    let server = DemoServer::start(None, &[]);
    let runs = demo_runs(&server);
    let (baseline, running) = pair_with_status(&runs, "running");

    // No gate asked for: the report is written, exit 0, and stderr says the run is unfinished.
    let plain = report(&server, &baseline, &running, &[]);
    assert_eq!(plain.code, 0, "{}", plain.stderr);
    assert!(
        plain
            .stderr
            .contains("has not finished: its numbers are partial"),
        "{}",
        plain.stderr
    );
    let json: Value = serde_json::from_str(&plain.stdout).unwrap();
    let verdict = &json["candidates"][0]["verdict"];
    assert_eq!(verdict["provisional"], true, "{verdict}");
    assert!(
        verdict["reasons"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r.as_str().unwrap().contains("is still running")),
        "{verdict}"
    );

    // The regression gate refuses it: exit 11, the report still written.
    let gated = report(&server, &baseline, &running, &["--fail-on-regression"]);
    assert_eq!(gated.code, 11, "{}", gated.stderr);
    assert!(gated.stderr.contains("not finished: "), "{}", gated.stderr);
    assert!(
        gated.stderr.contains("--allow-unfinished"),
        "{}",
        gated.stderr
    );
    // (Its numbers move between two reads: only the mark is compared.)
    let again: Value = serde_json::from_str(&gated.stdout).unwrap();
    assert_eq!(again["candidates"][0]["verdict"]["provisional"], true);

    // Allowed: judged as it stands, by its verdict.
    let allowed = report(
        &server,
        &baseline,
        &running,
        &["--fail-on-regression", "--allow-unfinished"],
    );
    let expected = if verdict["decision"] == "worse" { 6 } else { 0 };
    assert_eq!(allowed.code, expected, "{verdict} {}", allowed.stderr);
}

#[test]
fn the_regression_gate_refuses_a_failed_run() {
    let server = DemoServer::start(None, &[]);
    let runs = demo_runs(&server);
    let (baseline, failed) = pair_with_status(&runs, "failed");
    let gated = report(&server, &baseline, &failed, &["--fail-on-regression"]);
    assert_eq!(gated.code, 11, "{}", gated.stderr);
    assert!(gated.stderr.contains("(failed)"), "{}", gated.stderr);
    let json: Value = serde_json::from_str(&gated.stdout).unwrap();
    assert_eq!(json["candidates"][0]["verdict"]["provisional"], false);
    // Its numbers will not move, but they are partial: marked so.
    assert_eq!(json["candidates"][0]["verdict"]["partial"], true);
    let allowed = report(
        &server,
        &baseline,
        &failed,
        &["--fail-on-regression", "--allow-unfinished"],
    );
    assert_ne!(allowed.code, 11, "{}", allowed.stderr);
}
