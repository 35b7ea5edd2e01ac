//! `eval-compare export` keeps a run's cost and effort as the API gives them: `billing.json`
//! (the run's row of the billing list) and `rollout-statistics.json`, equal to the API's
//! answers; a run billing does not list gets no `billing.json`, and the export says why.
#![allow(clippy::unwrap_used)]

mod common;

use common::{eval_compare, run, DemoServer};
use serde_json::Value;

fn get_json(url: &str) -> Value {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let response = reqwest::Client::new().get(url).send().await.unwrap();
        assert!(response.status().is_success(), "{url}");
        serde_json::from_slice(&response.bytes().await.unwrap()).unwrap()
    })
}

fn read_json(path: &std::path::Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

#[test]
fn export_writes_the_billing_row_and_rollout_statistics_beside_the_run() {
    let server = DemoServer::start(None, &[]);
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("s400");
    let exported = run(eval_compare()
        .args(["export", "--server", &server.url, "eval_ckpt_s400"])
        .arg(&folder));
    assert_eq!(exported.code, 0, "{}", exported.stderr);
    let billing = get_json(&format!(
        "{}/api/v1/billing/usage/runs?limit=50&sort=launch_at&order=asc",
        server.url
    ));
    let row = billing["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|row| row["run_id"] == "eval_ckpt_s400")
        .cloned()
        .unwrap();
    assert_eq!(read_json(&folder.join("billing.json")), row);
    let statistics = get_json(&format!(
        "{}/api/v1/eval/eval_ckpt_s400/rollout-statistics",
        server.url
    ));
    assert_eq!(
        read_json(&folder.join("rollout-statistics.json")),
        statistics
    );

    let old = dir.path().join("base-v1");
    let exported = run(eval_compare()
        .args(["export", "--server", &server.url, "eval_base_v1"])
        .arg(&old));
    assert_eq!(exported.code, 0, "{}", exported.stderr);
    assert!(
        !old.join("billing.json").exists(),
        "not listed: no billing row"
    );
    assert!(old.join("rollout-statistics.json").exists());
    assert!(
        exported
            .stderr
            .contains("the run's cost is unavailable: billing lists no cost for this run"),
        "{}",
        exported.stderr
    );
}
