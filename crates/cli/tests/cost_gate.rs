//! `eval-compare report --max-cost-increase PERCENT` against the demo server started
//! in-process: step 400 costs more per attempted task than the baseline, so a limit below its
//! increase fails the gate (exit 14) and one above passes (exit 0), each saying what it
//! compared; a key that may not read billing makes the cost unavailable (never 0) and the gate
//! refuses (exit 15), naming why.
#![allow(clippy::unwrap_used)]

mod common;

use common::{eval_compare, run, DemoServer, KEY_ENV};
use serde_json::Value;

const KEY: &str = "demo-KEY-5f3a9c1e77";
const NO_BILLING_KEY: &str = "demo-NOBILL-81b2c4d6e0";
const BASELINE: &str = "eval_base_v2";
const STEP_400: &str = "eval_ckpt_s400";

fn report(server: &DemoServer, key: &str, flags: &[&str]) -> common::Run {
    run(eval_compare()
        .env(KEY_ENV, key)
        .args(["report", "--server", &server.url, "--format", "json"])
        .args(["--resamples", "0", "--allow-incomparable"])
        .args(flags)
        .args([BASELINE, STEP_400]))
}

#[test]
fn the_cost_gate_fails_above_the_limit_passes_below_and_refuses_without_billing() {
    let server = DemoServer::start_with_billing_key(Some(KEY), Some(NO_BILLING_KEY), &[]);

    let open = report(&server, KEY, &["--max-cost-increase", "1000"]);
    assert_eq!(open.code, 0, "{}", open.stderr);
    let json: Value = serde_json::from_str(&open.stdout).unwrap();
    let delta = &json["cost"]["candidates"][0]["per_attempted_task"]["Ok"];
    let relative = delta["relative"].as_f64().unwrap();
    assert!(
        relative > 0.0,
        "step 400 takes more turns, so it costs more: {delta}"
    );
    assert!(
        delta["baseline"].as_f64().unwrap() > 0.0,
        "a known cost is never 0: {delta}"
    );
    assert!(
        open.stderr
            .contains("cost within the limit of +1000.0% per attempted task"),
        "{}",
        open.stderr
    );

    let below = format!("{}", (relative * 100.0 / 2.0).max(0.1));
    let failed = report(&server, KEY, &["--max-cost-increase", &below]);
    assert_eq!(failed.code, 14, "{}", failed.stderr);
    assert!(
        failed.stderr.contains("cost above the limit of")
            && failed.stderr.contains("Cost per attempted task:"),
        "{}",
        failed.stderr
    );
    assert_eq!(
        serde_json::from_str::<Value>(&failed.stdout).unwrap()["cost"],
        json["cost"],
        "the report is written the same whether the gate fails or not"
    );

    let refused = report(&server, NO_BILLING_KEY, &["--max-cost-increase", "1000"]);
    assert_eq!(refused.code, 15, "{}", refused.stderr);
    assert!(
        refused
            .stderr
            .contains("not judged against --max-cost-increase: cost unavailable: the API key may not read billing"),
        "{}",
        refused.stderr
    );
    assert!(
        !refused.stderr.contains(NO_BILLING_KEY),
        "the key is never shown"
    );
    let json: Value = serde_json::from_str(&refused.stdout).unwrap();
    assert_eq!(
        json["cost"]["runs"][0]["cost"]["unavailable"]["kind"], "forbidden",
        "{}",
        json["cost"]["runs"][0]
    );

    let without_gate = report(&server, NO_BILLING_KEY, &[]);
    assert_eq!(without_gate.code, 0, "{}", without_gate.stderr);
}
