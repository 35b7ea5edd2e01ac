//! `eval-compare scorecard` against the demo server: each cell equals its pair's report byte
//! for byte, the deployability gate follows the rule, and the scorecard from exported run
//! folders equals the one from the API.
#![allow(clippy::unwrap_used)]

mod common;

use std::path::Path;

use common::{eval_compare, run, DemoServer};
use serde_json::Value;

const TRAINING: &str = "train_codefix_grpo";

fn scorecard(server: &DemoServer, flags: &[&str]) -> common::Run {
    run(eval_compare()
        .args([
            "scorecard",
            "--server",
            &server.url,
            "--training-run",
            TRAINING,
        ])
        .args(["--resamples", "200"])
        .args(flags))
}

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap()
}

fn compact(value: &Value) -> String {
    serde_json::to_string(value).unwrap()
}

fn compared(card: &Value) -> Vec<&Value> {
    card["cells"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|cell| cell["state"] == "compared")
        .collect()
}

/// The compared cells whose runs are all finished (a running run moves between two reads).
fn finished(card: &Value) -> Vec<&Value> {
    compared(card)
        .into_iter()
        .filter(|cell| cell["verdict"]["provisional"] == false)
        .collect()
}

#[test]
fn each_cell_is_its_pairs_report_byte_for_byte() {
    let server = DemoServer::start(None, &[]);
    let out = scorecard(&server, &["--format", "json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let card = json(&out.stdout);
    assert!(card["rows"].as_array().unwrap().len() >= 4);
    assert!(card["cells"]
        .as_array()
        .unwrap()
        .iter()
        .any(|cell| cell["state"] == "missing"));
    let cells = compared(&card);
    // A cell with a running run moves between two reads (the demo's run goes on), so the
    // finished ones are compared: the first, and one whose numbers are partial (a failed run).
    assert!(cells
        .iter()
        .any(|cell| cell["verdict"]["provisional"] == true));
    let partial = cells
        .iter()
        .find(|cell| cell["verdict"]["partial"] == true && cell["verdict"]["provisional"] == false)
        .unwrap();
    for cell in [cells[0], *partial] {
        let report = run(eval_compare().args([
            "report",
            "--server",
            &server.url,
            cell["baseline_run_id"].as_str().unwrap(),
            cell["candidate_run_id"].as_str().unwrap(),
            "--format",
            "json",
            "--resamples",
            "200",
        ]));
        assert_eq!(report.code, 0, "{}", report.stderr);
        let report = json(&report.stdout);
        assert_eq!(
            compact(&cell["primary"]),
            compact(&report["candidates"][0]["primary"])
        );
        assert_eq!(
            compact(&cell["verdict"]),
            compact(&report["candidates"][0]["verdict"])
        );
        assert_eq!(compact(&cell["coverage"]), compact(&report["coverage"]));
    }
}

#[test]
fn the_deployability_gate_follows_the_rule() {
    let server = DemoServer::start(None, &[]);
    let rule = [
        "--primary",
        "bench_codefix_v2",
        "--guardrail",
        "bench_sqlfix_v1=2",
    ];
    let card = scorecard(&server, &[&rule[..], &["--format", "json"]].concat());
    let card = json(&card.stdout);
    let outcome = |step: i64| {
        card["columns"]
            .as_array()
            .unwrap()
            .iter()
            .find(|column| column["step"] == step)
            .unwrap()["outcome"]["outcome"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    assert_eq!(outcome(200), "meets");
    assert_eq!(card["recommended"]["step"], 200);
    let gate = |step: &str| {
        scorecard(
            &server,
            &[&rule[..], &["--fail-unless-deployable", step, "--quiet"]].concat(),
        )
    };
    assert_eq!(gate("200").code, 0);
    assert_eq!(outcome(300), "fails");
    let fails = gate("300");
    assert_eq!(fails.code, 12, "{}", fails.stderr);
    assert!(
        fails.stderr.contains("step 300 is not deployable: fails: "),
        "{}",
        fails.stderr
    );
    // Step 500's codefix evaluation is still running: the gate refuses to judge it.
    let running = gate("500");
    assert_eq!(running.code, 11, "{}", running.stderr);
    assert!(
        running.stderr.contains("bench_codefix_v2"),
        "{}",
        running.stderr
    );
    assert_eq!(gate("123").code, 2);
    let no_rule = scorecard(&server, &["--fail-unless-deployable", "200"]);
    assert_eq!(no_rule.code, 2, "{}", no_rule.stderr);
    let unknown = scorecard(&server, &["--primary", "bench_nope_v1"]);
    assert_eq!(unknown.code, 2, "{}", unknown.stderr);
    assert!(
        unknown
            .stderr
            .contains("--primary bench_nope_v1: training run train_codefix_grpo has no evaluation"),
        "{}",
        unknown.stderr
    );
}

#[test]
fn the_scorecard_from_exported_folders_equals_the_one_from_the_api() {
    let server = DemoServer::start(None, &[]);
    let flags = ["--format", "json", "--primary", "bench_codefix_v2"];
    let from_api = scorecard(&server, &flags);
    assert_eq!(from_api.code, 0, "{}", from_api.stderr);
    let from_api = json(&from_api.stdout);
    let dir = tempfile::tempdir().unwrap();
    let mut ids: Vec<&str> = Vec::new();
    for cell in compared(&from_api) {
        for key in ["baseline_run_id", "candidate_run_id"] {
            let id = cell[key].as_str().unwrap();
            if !ids.contains(&id) {
                ids.push(id);
            }
        }
    }
    for id in &ids {
        let exported = run(eval_compare()
            .args(["export", "--server", &server.url, id, "--quiet"])
            .arg(dir.path().join(id)));
        assert_eq!(exported.code, 0, "{}", exported.stderr);
    }
    let from_folders = run(eval_compare()
        .args(["scorecard", "--folders"])
        .arg(dir.path())
        .args(["--resamples", "200"])
        .args(flags));
    assert_eq!(from_folders.code, 0, "{}", from_folders.stderr);
    let from_folders = json(&from_folders.stdout);
    assert_eq!(from_folders["training_run_id"], TRAINING);
    let api_cells = finished(&from_api);
    let folder_cells = finished(&from_folders);
    assert_eq!(api_cells.len(), folder_cells.len());
    for (a, f) in api_cells.iter().zip(&folder_cells) {
        for key in [
            "bench_id",
            "step",
            "baseline_run_id",
            "candidate_run_id",
            "primary",
            "verdict",
            "coverage",
        ] {
            assert_eq!(
                compact(&a[key]),
                compact(&f[key]),
                "{key} of {}",
                a["candidate_run_id"]
            );
        }
    }
    let steps_without_running = |card: &Value| -> Vec<String> {
        card["columns"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|column| !compact(&column["outcome"]).contains("still running"))
            .map(compact)
            .collect()
    };
    assert_eq!(
        steps_without_running(&from_api),
        steps_without_running(&from_folders)
    );
    assert!(Path::new(&dir.path().join(ids[0]))
        .join("run.json")
        .is_file());
}
