//! `--exclusions FILE` for every source the CLI reads: the Trajectory API and Chronicle jobs
//! from the demo server started in-process (run folders: `ledger_real_data.rs`), and the
//! Chronicle gate, which leaves the ledger's tasks out and prints both verdicts.
#![allow(clippy::unwrap_used)]

mod common;

use std::path::Path;

use common::{eval_compare, run, DemoServer};
use eval_compare_core::ledger::{Action, Entry, Ledger, Reason, Target};
use serde_json::Value;

/// The demo's compare-mode job (baseline vs step 400), finished.
const COMPARE_JOB: &str = "job_compare_base_s400";

/// GETs a JSON document from the demo API.
fn get_json(url: &str) -> Value {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let response = reqwest::get(url).await.unwrap();
        assert!(response.status().is_success(), "{url}");
        serde_json::from_slice(&response.bytes().await.unwrap()).unwrap()
    })
}

/// Two completed runs of one benchmark version, through the API.
fn two_runs(server: &DemoServer) -> [String; 2] {
    let agents = get_json(&format!("{}/api/v1/agents", server.url));
    let agent = agents["items"][0]["agent_id"].as_str().unwrap().to_owned();
    let runs = get_json(&format!(
        "{}/api/v1/agents/{agent}/evaluation-runs",
        server.url
    ));
    let completed: Vec<&Value> = runs["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|run| run["status"] == "completed" && run["step"].is_i64())
        .collect();
    let bench = &completed[0]["bench_id"];
    let mut same = completed.iter().filter(|run| &run["bench_id"] == bench);
    let id = |run: &Value| run["eval_run_id"].as_str().unwrap().to_owned();
    [id(same.next().unwrap()), id(same.next().unwrap())]
}

/// The report's JSON with `args` (and the ledger at `ledger`, when given).
fn report_json(args: &[&str], ledger: Option<&Path>) -> Value {
    let mut command = eval_compare();
    command.arg("report").args(args).args([
        "--format",
        "json",
        "--resamples",
        "0",
        "--allow-incomparable",
    ]);
    if let Some(ledger) = ledger {
        command.arg("--exclusions").arg(ledger);
    }
    let output = run(&mut command);
    assert_eq!(output.code, 0, "{}", output.stderr);
    serde_json::from_str(&output.stdout).unwrap()
}

/// A ledger leaving out the report's first two tasks, counting the third as a failure, and
/// naming a task no run has.
fn ledger_for(report: &Value, dir: &Path) -> std::path::PathBuf {
    let tasks: Vec<String> = report["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .take(3)
        .map(|row| row["task_id"].as_str().unwrap().to_owned())
        .collect();
    let entry = |task: &str, action| Entry {
        target: Target::Task(task.to_owned()),
        action,
        reason: Reason::BrokenTask,
        note: Some("checked by hand".into()),
        at: None,
    };
    let ledger = Ledger {
        entries: vec![
            entry(&tasks[0], Action::LeaveOut),
            entry(&tasks[1], Action::LeaveOut),
            entry(&tasks[2], Action::CountAsFailure),
            entry("no-such-task", Action::LeaveOut),
        ],
    };
    let path = dir.join("ledger.json");
    std::fs::write(&path, ledger.to_json()).unwrap();
    path
}

/// The report with the ledger: its entries, their applying, and two tasks fewer.
fn check(plain: &Value, with: &Value) {
    let applies: Vec<bool> = with["ledger"]["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|line| line["applies"].as_bool().unwrap())
        .collect();
    assert_eq!(applies, [true, true, true, false]);
    assert_eq!(
        with["coverage"]["union_tasks"].as_u64().unwrap(),
        plain["coverage"]["union_tasks"].as_u64().unwrap() - 2
    );
    assert!(with["candidates"][0]["without_ledger"]["verdict"]["decision"].is_string());
    assert_eq!(
        with["candidates"][0]["without_ledger"]["verdict"],
        plain["candidates"][0]["verdict"]
    );
    assert!(plain.get("ledger").is_none());
}

#[test]
fn the_ledger_applies_to_trajectory_api_runs_and_chronicle_jobs_alike() {
    let server = DemoServer::start(None, &[]);
    let dir = tempfile::tempdir().unwrap();
    let [baseline, candidate] = two_runs(&server);
    let api_args = ["--server", &server.url, &baseline, &candidate];
    let plain = report_json(&api_args, None);
    let ledger = ledger_for(&plain, dir.path());
    check(&plain, &report_json(&api_args, Some(&ledger)));

    let job_args = ["--server", &server.url, "--chronicle", COMPARE_JOB];
    let plain = report_json(&job_args, None);
    let ledger = ledger_for(&plain, dir.path());
    check(&plain, &report_json(&job_args, Some(&ledger)));

    // The Chronicle gate leaves the two tasks out and says both verdicts.
    let gated = run(eval_compare()
        .args(["gate", "--server", &server.url, "--chronicle", COMPARE_JOB])
        .args(["--timeout", "30", "--exclusions"])
        .arg(&ledger));
    assert!([0, 10].contains(&gated.code), "{}", gated.stderr);
    let line = gated
        .stderr
        .lines()
        .find(|line| line.contains("reviewer's ledger: with 2 tasks left out: "))
        .unwrap_or_else(|| panic!("{}", gated.stderr));
    assert!(line.contains("; without: "), "{line}");
}
