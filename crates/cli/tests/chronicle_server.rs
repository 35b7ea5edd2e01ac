//! `eval-compare report --chronicle`, `export --chronicle` and `gate` against the demo server
//! started in-process: the agents of a compare-mode job are the runs of the report, its folder
//! holds the job as the API gives it, and the gate's exit code follows the platform's results.
#![allow(clippy::unwrap_used)]

mod common;

use common::{eval_compare, run, DemoServer};
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
        assert!(
            response.status().is_success(),
            "{url}: {}",
            response.status()
        );
        serde_json::from_slice(&response.bytes().await.unwrap()).unwrap()
    })
}

#[test]
fn a_compare_job_reports_its_baseline_and_candidate_as_json() {
    let server = DemoServer::start(None, &[]);
    let job = get_json(&format!("{}/v1/backtests/jobs/{COMPARE_JOB}", server.url));
    let reported = run(eval_compare().args([
        "report",
        "--server",
        &server.url,
        "--chronicle",
        COMPARE_JOB,
        "--format",
        "json",
        "--resamples",
        "200",
        "--allow-incomparable",
    ]));
    assert_eq!(reported.code, 0, "{}", reported.stderr);
    assert!(
        reported
            .stderr
            .contains(&format!("{COMPARE_JOB}: trials: ")),
        "{}",
        reported.stderr
    );
    let report: Value = serde_json::from_str(&reported.stdout).unwrap();
    let runs: Vec<(String, String)> = report["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|run| {
            (
                run["id"].as_str().unwrap().to_owned(),
                run["role"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let agents: Vec<&str> = job["agents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|agent| agent.as_str().unwrap())
        .collect();
    assert_eq!(agents.len(), 2);
    assert_eq!(
        runs,
        [
            (
                format!("{COMPARE_JOB}/{}", agents[0]),
                "baseline".to_owned()
            ),
            (
                format!("{COMPARE_JOB}/{}", agents[1]),
                "candidate".to_owned()
            ),
        ]
    );
    assert_eq!(report["candidates"].as_array().unwrap().len(), 1);
}

#[test]
fn export_writes_the_jobs_folder() {
    let server = DemoServer::start(None, &[]);
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("job");
    let exported = run(eval_compare()
        .args([
            "export",
            "--server",
            &server.url,
            "--chronicle",
            COMPARE_JOB,
        ])
        .arg(&folder));
    assert_eq!(exported.code, 0, "{}", exported.stderr);
    let read = |name: &str| -> Value {
        serde_json::from_slice(&std::fs::read(folder.join(name)).unwrap()).unwrap()
    };
    let job = read("job.json");
    assert_eq!(job["id"], COMPARE_JOB);
    let trials = read("trials.json");
    assert_eq!(
        trials.as_array().unwrap().len() as u64,
        job["total_trials"].as_u64().unwrap()
    );
    assert!(trials.as_array().unwrap().len() > 20, "more than one page");
    assert_eq!(read("results.json")["job_id"], COMPARE_JOB);

    // The folder alone is the comparison: the same numbers as read from the API.
    let from_folder = run(eval_compare()
        .args(["report", "--format", "json", "-q"])
        .arg(&folder));
    assert_eq!(from_folder.code, 0, "{}", from_folder.stderr);
    let from_api = run(eval_compare().args([
        "report",
        "--server",
        &server.url,
        "--chronicle",
        COMPARE_JOB,
        "--format",
        "json",
        "-q",
    ]));
    assert_eq!(from_api.code, 0, "{}", from_api.stderr);
    let (mut folder_report, mut api_report): (Value, Value) = (
        serde_json::from_str(&from_folder.stdout).unwrap(),
        serde_json::from_str(&from_api.stdout).unwrap(),
    );
    assert_eq!(folder_report["sources"], serde_json::json!(["files"]));
    assert_eq!(api_report["sources"], serde_json::json!(["chronicle"]));
    for report in [&mut folder_report, &mut api_report] {
        report["sources"] = Value::Null;
        for run in report["runs"].as_array_mut().unwrap() {
            run["source"] = Value::Null;
        }
    }
    assert_eq!(
        folder_report, api_report,
        "the folder's report is the API's"
    );
}

#[test]
fn the_gate_follows_the_platforms_results_and_the_jobs_status() {
    let server = DemoServer::start(None, &[]);
    let results = get_json(&format!(
        "{}/v1/task-suites/suite_codefix_smoke/eval-runs?job_id={COMPARE_JOB}",
        server.url
    ));
    let tasks = results["items"][0]["task_results"].as_array().unwrap();
    assert!(!tasks.is_empty());
    let failing: Vec<&str> = tasks
        .iter()
        .filter(|task| task["passed"] != true)
        .map(|task| task["task_id"].as_str().unwrap())
        .collect();
    let gated = run(eval_compare().args([
        "gate",
        "--server",
        &server.url,
        "--chronicle",
        COMPARE_JOB,
        "--timeout",
        "30",
    ]));
    if failing.is_empty() {
        assert_eq!(gated.code, 0, "{}", gated.stderr);
        assert_eq!(gated.stdout, "Every task passed\n");
    } else {
        assert_eq!(gated.code, 10, "{}", gated.stderr);
        assert!(gated.stdout.is_empty(), "{}", gated.stdout);
        for task in failing {
            assert!(
                gated.stderr.contains(&format!("task {task} ")),
                "{task} not listed: {}",
                gated.stderr
            );
        }
    }

    // Every other demo job by its status: failed or cancelled exit 8, a running one times out.
    let jobs = get_json(&format!("{}/v1/backtests/jobs?limit=100", server.url));
    let mut checked = 0;
    for job in jobs["items"].as_array().unwrap() {
        let id = job["id"].as_str().unwrap();
        let expected = match job["status"].as_str().unwrap() {
            "failed" | "cancelled" => 8,
            "running" | "queued" => 7,
            _ => continue,
        };
        let gated = run(eval_compare().args([
            "gate",
            "--server",
            &server.url,
            "--chronicle",
            id,
            "--timeout",
            "1",
            "--poll",
            "1",
        ]));
        assert_eq!(gated.code, expected, "{id}: {}", gated.stderr);
        if expected == 7 {
            assert!(
                gated.stderr.contains("it goes on on the server"),
                "{}",
                gated.stderr
            );
        }
        checked += 1;
    }
    assert!(checked > 0, "no failed or running job in the demo");
}
