//! `report --components` against the demo server when the API stops answering: a 429 storm
//! and a hang stop the read after ten trajectories in a row failed, in the core's words (the
//! viewer's too), exit 4; bodies cut off mid-read are asked for again, as the viewer does.
#![allow(clippy::unwrap_used)]

mod common;

use common::{eval_compare, run, DemoServer, Run};

/// Reads of one trajectory's components (the fault's `path=`).
const DETAILS: &str = "path=/api/v1/trajectories/";

fn report_components(server: &DemoServer, extra: &[&str]) -> Run {
    run(eval_compare()
        .args(["report", "--server", &server.url, "--components", "-q"])
        .args(["--resamples", "0"])
        .args(extra)
        .args(["eval_base_v2", "eval_ckpt_s400"]))
}

/// `stopped after … (cause); 20 of N read` with N the comparison's trajectories.
fn stop_message(stderr: &str) -> &str {
    let start = stderr
        .find("could not read the reward components: stopped after 10 reads in a row failed (")
        .unwrap_or_else(|| panic!("no stop message: {stderr}"));
    stderr[start..].lines().next().unwrap()
}

#[test]
fn a_429_storm_stops_the_read_after_ten_failures_in_a_row() {
    let server = DemoServer::start(None, &[&format!("429:{DETAILS}:from=21")]);
    let outcome = report_components(&server, &[]);
    assert_eq!(outcome.code, 4, "{}", outcome.stderr);
    let message = stop_message(&outcome.stderr);
    assert!(
        message.contains("(HTTP 429 Too Many Requests); 20 of "),
        "{message}"
    );
    assert!(outcome.stdout.is_empty());
}

#[test]
fn a_hanging_api_stops_the_read_after_ten_failures_in_a_row() {
    let server = DemoServer::start(None, &[&format!("latency:ms=600000:{DETAILS}:from=21")]);
    let outcome = report_components(&server, &["--request-timeout", "1", "--retries", "0"]);
    assert_eq!(outcome.code, 4, "{}", outcome.stderr);
    let message = stop_message(&outcome.stderr);
    assert!(
        message.contains("(the answer did not complete within the request deadline of 1 s (--request-timeout)); 20 of "),
        "{message}"
    );
}

#[test]
fn bodies_cut_off_mid_read_are_asked_for_again() {
    // Two bodies cut, the 5th and 6th reads: whichever trajectories they were (the reads go 6
    // at a time), none can be cut on all of its 3 tries, so a read that retries a cut body
    // always ends whole, and one that does not always stops (exit 4). `every=9` was a game of
    // chance: over 3,040 reads a few trajectories were cut on all three tries.
    let server = DemoServer::start(
        None,
        &[
            &format!("truncate:{DETAILS}:nth=5"),
            &format!("truncate:{DETAILS}:nth=6"),
        ],
    );
    let outcome = report_components(&server, &["--format", "json"]);
    assert_eq!(outcome.code, 0, "{}", outcome.stderr);
    let report: serde_json::Value = serde_json::from_str(&outcome.stdout).unwrap();
    let components = report["candidates"][0]["components"].as_array().unwrap();
    assert!(!components.is_empty(), "{}", outcome.stdout);
}
