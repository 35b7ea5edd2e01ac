//! `report --chronicle --trial-details` against the demo server: every counted trial's detail
//! is read and the report pairs the steps and durations per task (without the flag the report
//! has none); a 429 storm on the trial details stops the read after ten failures in a row, in
//! the core's words, exit 4.
#![allow(clippy::unwrap_used)]

mod common;

use common::{eval_compare, run, DemoServer, Run};

/// The demo's compare-mode job of the baseline and step 400.
const JOB: &str = "job_compare_base_s400";

fn report(server: &DemoServer, extra: &[&str]) -> Run {
    run(eval_compare()
        .args(["report", "--server", &server.url, "--chronicle", "-q"])
        .args(["--resamples", "0", "--format", "json"])
        .args(extra)
        .arg(JOB))
}

#[test]
fn the_trials_details_are_read_and_paired_per_task() {
    let server = DemoServer::start(None, &[]);
    let without = report(&server, &[]);
    assert_eq!(without.code, 0, "{}", without.stderr);
    let plain: serde_json::Value = serde_json::from_str(&without.stdout).unwrap();
    assert!(plain.get("trial_effort").is_none(), "not read, not shown");

    let with = report(&server, &["--trial-details"]);
    assert_eq!(with.code, 0, "{}", with.stderr);
    let report: serde_json::Value = serde_json::from_str(&with.stdout).unwrap();
    let section = &report["trial_effort"];
    for run in section["runs"].as_array().unwrap() {
        assert!(run["counted"].as_u64().unwrap() > 0);
        assert_eq!(run["read"], run["counted"], "every counted trial read");
        assert!(run["mean_steps"].as_f64().unwrap() > 1.0);
    }
    let steps = &section["candidates"][0]["steps"];
    assert!(
        steps["estimate"]["Ok"]["n"].as_u64().unwrap() >= 10,
        "{steps}"
    );
    assert!(steps["relative"]["Ok"]["ratio"].is_f64(), "{steps}");
    let duration = &section["candidates"][0]["duration"];
    assert!(duration["estimate"]["Ok"]["delta"].is_f64(), "{duration}");
}

#[test]
fn a_429_storm_on_the_details_stops_the_read() {
    let server = DemoServer::start(
        None,
        &["429:path=/v1/backtests/jobs/job_compare_base_s400/trials/:from=6"],
    );
    let outcome = report(&server, &["--trial-details", "--retries", "0"]);
    assert_eq!(outcome.code, 4, "{}", outcome.stderr);
    assert!(
        outcome
            .stderr
            .contains("could not read the trials' details: stopped after 10 reads in a row failed (HTTP 429 Too Many Requests); 5 of "),
        "{}",
        outcome.stderr
    );
    assert!(outcome.stdout.is_empty());
}
