//! `eval-compare export` and `report --server` against the demo server started in-process:
//! the exported folders give the same report as the API, the key is sent and never shown,
//! and failures exit 4 (or 2) with messages that say what failed.
#![allow(clippy::unwrap_used)]

mod common;

use std::path::Path;

use common::{eval_compare, files_of, run, DemoServer, KEY_ENV};
use serde_json::Value;

const KEY: &str = "demo-KEY-5f3a9c1e77";

/// GETs a JSON document from the demo API.
fn get_json(url: &str, key: Option<&str>) -> Value {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let mut request = reqwest::Client::new().get(url);
        if let Some(key) = key {
            request = request.header("X-API-Key", key);
        }
        let response = request.send().await.unwrap();
        assert!(
            response.status().is_success(),
            "{url}: {}",
            response.status()
        );
        serde_json::from_slice(&response.bytes().await.unwrap()).unwrap()
    })
}

/// A completed baseline (no checkpoint step) and two completed checkpoints of the same
/// benchmark version (the newest completed checkpoint's), discovered through the API (the
/// agent's runs on several benchmarks, all on one page of 200).
fn discover_runs(server: &DemoServer, key: Option<&str>) -> (String, Vec<String>) {
    let agents = get_json(&format!("{}/api/v1/agents", server.url), key);
    let agent = agents["items"][0]["agent_id"].as_str().unwrap().to_owned();
    let runs = get_json(
        &format!(
            "{}/api/v1/agents/{agent}/evaluation-runs?limit=200",
            server.url
        ),
        key,
    );
    assert_eq!(runs["has_more"], false);
    let runs = runs["items"].as_array().unwrap();
    let completed = |run: &&Value| run["status"] == "completed";
    let checkpoints: Vec<&Value> = runs
        .iter()
        .filter(completed)
        .filter(|run| run["step"].is_i64())
        .collect();
    let bench = &checkpoints[0]["bench_id"];
    let checkpoints: Vec<&Value> = checkpoints
        .into_iter()
        .filter(|run| &run["bench_id"] == bench)
        .collect();
    let baseline = runs
        .iter()
        .filter(completed)
        .find(|run| run["step"].is_null() && &run["bench_id"] == bench)
        .unwrap();
    let id = |run: &Value| run["eval_run_id"].as_str().unwrap().to_owned();
    (
        id(baseline),
        checkpoints.iter().take(2).map(|run| id(run)).collect(),
    )
}

/// A report's JSON with the runs' source labels ("api" or "files") removed, and its audit: the
/// API's resolves settings from the training run and the evaluation defaults, which a folder
/// does not hold (checked on their own).
fn without_sources(stdout: &str) -> Value {
    let mut json: Value = serde_json::from_str(stdout).unwrap();
    json["sources"] = Value::Null;
    json["audit"] = Value::Null;
    for run in json["runs"].as_array_mut().unwrap() {
        run["source"] = Value::Null;
    }
    json
}

fn export(server: &DemoServer, run_id: &str, dir: &Path) -> common::Run {
    run(eval_compare()
        .args(["export", "--server", &server.url, run_id])
        .arg(dir))
}

#[test]
fn a_report_from_exported_folders_equals_the_report_from_the_api() {
    let server = DemoServer::start(None, &[]);
    let (baseline, candidates) = discover_runs(&server, None);
    assert_eq!(candidates.len(), 2);
    let dir = tempfile::tempdir().unwrap();
    let mut folders = Vec::new();
    for run_id in std::iter::once(&baseline).chain(&candidates) {
        let folder = dir.path().join(run_id);
        let exported = export(&server, run_id, &folder);
        assert_eq!(exported.code, 0, "{}", exported.stderr);
        for list in ["trajectory-rewards", "trajectories", "tasks"] {
            assert!(
                exported.stderr.contains(&format!("{list}: "))
                    && exported.stderr.contains(" pages\n"),
                "no progress for {list}: {}",
                exported.stderr
            );
        }
        let trajectories: Value =
            serde_json::from_slice(&std::fs::read(folder.join("trajectories.json")).unwrap())
                .unwrap();
        assert!(
            trajectories.as_array().unwrap().len() > 200,
            "a multi-page list"
        );
        folders.push(folder);
    }
    let settings = [
        "--format",
        "json",
        "--resamples",
        "500",
        "--allow-incomparable",
    ];
    let from_files = run(eval_compare().arg("report").args(settings).args(&folders));
    assert_eq!(from_files.code, 0, "{}", from_files.stderr);
    let from_api = run(eval_compare()
        .args(["report", "--server", &server.url])
        .args(settings)
        .arg(&baseline)
        .args(&candidates));
    assert_eq!(from_api.code, 0, "{}", from_api.stderr);
    assert!(from_api
        .stderr
        .contains(&format!("{baseline}: trajectories: ")));
    let (files_json, api_json) = (
        without_sources(&from_files.stdout),
        without_sources(&from_api.stdout),
    );
    assert_eq!(files_json["candidates"].as_array().unwrap().len(), 2);
    assert!(
        files_json["candidates"][0]["primary"]["n"]
            .as_u64()
            .unwrap()
            > 100
    );
    assert_eq!(files_json, api_json);
    let api_report: Value = serde_json::from_str(&from_api.stdout).unwrap();
    let sources: Vec<&Value> = api_report["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|run| &run["source"])
        .collect();
    assert_eq!(sources, ["api", "api", "api"]);
    // The platform's own progression of the checkpoints' training run sits beside ours, read
    // from the API and kept by the export (platform-progression.json).
    let platform = &api_report["progression"]["platform"];
    assert!(platform["error"].is_null(), "{platform}");
    let steps = platform["steps"].as_array().unwrap();
    assert!(
        steps
            .iter()
            .filter(|s| s["platform_mean"].is_number())
            .count()
            >= 2
            && steps.iter().any(|s| s["held_out"].is_number()),
        "{platform}"
    );
    assert!(folders
        .iter()
        .skip(1)
        .all(|folder| folder.join("platform-progression.json").is_file()));
    // Every setting of every run read from the API resolved, and from the exported folders too:
    // they keep the training run and the evaluation defaults the export read.
    let resolved = |report: &Value| -> Vec<usize> {
        report["audit"]["settings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|run| {
                run["settings"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter(|s| s["resolution"]["status"] == "resolved")
                    .count()
            })
            .collect()
    };
    assert_eq!(resolved(&api_report), [10, 10, 10]);
    let files_report: Value = serde_json::from_str(&from_files.stdout).unwrap();
    assert_eq!(resolved(&files_report), [10, 10, 10]);
}

#[test]
fn the_audit_compares_effective_settings_naming_where_each_came_from() {
    let server = DemoServer::start(None, &[]);
    let report = |baseline: &str, candidate: &str| -> Value {
        let out = run(eval_compare()
            .args(["report", "--server", &server.url, "--format", "json"])
            .args(["--resamples", "0", "--allow-incomparable"])
            .args([baseline, candidate]));
        assert!(out.code == 0 || out.code == 1, "{}", out.stderr);
        serde_json::from_str(&out.stdout).unwrap()
    };
    let findings = |report: &Value| -> Vec<(String, String)> {
        report["audit"]["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| {
                (
                    f["code"].as_str().unwrap().to_owned(),
                    f["message"].as_str().unwrap().to_owned(),
                )
            })
            .collect()
    };
    // The default comparison: the checkpoint inherits nothing that differs.
    let agreed = findings(&report("eval_base_v2", "eval_ckpt_s400"));
    assert!(
        agreed
            .iter()
            .all(|(code, _)| !code.ends_with("_DIFFERS") && code != "SETTINGS_UNRESOLVED"),
        "{agreed:?}"
    );
    // The failed first attempt at step 200 left its settings to its training run and the
    // defaults: it sampled like the baseline but ran with the default execution timeout.
    let inherited = report("eval_base_v2", "eval_ckpt_s200_failed");
    let codes = findings(&inherited);
    let timeout = codes
        .iter()
        .find(|(code, _)| code == "EXECUTION_TIMEOUT_DIFFERS")
        .unwrap_or_else(|| panic!("{codes:?}"));
    assert!(
        timeout
            .1
            .contains("1800 (recorded, `execution_timeout_seconds`)")
            && timeout
                .1
                .contains("7200 (evaluation default, `execution_timeout_seconds`)"),
        "{}",
        timeout.1
    );
    assert!(!codes.iter().any(|(code, _)| code == "TEMPERATURE_DIFFERS"));
    let temperature = &inherited["audit"]["settings"][1]["settings"][0]["resolution"];
    assert_eq!(temperature["source"], "training_run");
    assert_eq!(temperature["option"], "evaluation_temperature");
    // The sampling experiment sampled at the evaluation defaults.
    let hot = findings(&report("eval_base_v2", "eval_base_v2_hot"));
    let (_, message) = hot
        .iter()
        .find(|(code, _)| code == "TEMPERATURE_DIFFERS")
        .unwrap();
    assert!(
        message.contains("1.0 (evaluation default, `temperature`)"),
        "{message}"
    );
}

#[test]
fn the_key_from_the_environment_is_sent_and_never_shown() {
    let server = DemoServer::start(Some(KEY), &[]);
    let (baseline, candidates) = discover_runs(&server, Some(KEY));
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("exported");
    let exported = run(eval_compare()
        .env(KEY_ENV, KEY)
        .args(["export", "--server", &server.url, &baseline])
        .arg(&folder));
    assert_eq!(exported.code, 0, "{}", exported.stderr);
    let reported = run(eval_compare()
        .env(KEY_ENV, KEY)
        .args([
            "report",
            "--resamples",
            "0",
            "--allow-incomparable",
            "--format",
            "json",
        ])
        .args(["--server", &server.url, &baseline, &candidates[0]]));
    assert_eq!(reported.code, 0, "{}", reported.stderr);
    for output in [&exported, &reported] {
        assert!(!output.stdout.contains(KEY) && !output.stderr.contains(KEY));
    }
    for (name, bytes) in files_of(&folder) {
        let text = String::from_utf8(bytes).unwrap();
        assert!(!text.contains(KEY), "{name} holds the key");
    }
}

#[test]
fn a_wrong_or_missing_key_exits_4_with_a_clear_message() {
    let server = DemoServer::start(Some(KEY), &[]);
    let dir = tempfile::tempdir().unwrap();
    let wrong = "wrong-key-0000";
    let refused = run(eval_compare().env(KEY_ENV, wrong).args([
        "report",
        "--server",
        &server.url,
        "run_a",
        "run_b",
    ]));
    assert_eq!(refused.code, 4, "{}", refused.stderr);
    assert!(
        refused.stderr.contains("could not read run run_a"),
        "{}",
        refused.stderr
    );
    assert!(
        refused.stderr.contains("the API key was refused"),
        "{}",
        refused.stderr
    );
    assert!(
        refused
            .stderr
            .contains("check the key in TRAJECTORY_API_KEY"),
        "{}",
        refused.stderr
    );
    assert!(!refused.stderr.contains(wrong) && !refused.stderr.contains(KEY));

    let missing = run(eval_compare()
        .args(["export", "--server", &server.url, "run_a"])
        .arg(dir.path().join("out")));
    assert_eq!(missing.code, 4, "{}", missing.stderr);
    assert!(
        missing.stderr.contains("no API key was sent")
            && missing.stderr.contains("set TRAJECTORY_API_KEY")
            && missing.stderr.matches("was sent").count() == 1,
        "{}",
        missing.stderr
    );
    assert!(!dir.path().join("out").exists());

    let unusable = run(eval_compare()
        .env(KEY_ENV, "two words")
        .args(["export", "--server", &server.url, "run_a"])
        .arg(dir.path().join("out")));
    assert_eq!(unusable.code, 2, "{}", unusable.stderr);
    assert!(unusable.stderr.contains("TRAJECTORY_API_KEY"));
    assert!(!unusable.stderr.contains("two words"));
}

#[test]
fn a_page_failing_mid_list_fails_the_export_and_writes_nothing() {
    let healthy = DemoServer::start(None, &[]);
    let (baseline, _) = discover_runs(&healthy, None);
    // Every request with a cursor to the trajectories list is refused: page 2 fails.
    let faulty = DemoServer::start(None, &["bad-cursor:path=/api/v1/trajectories"]);
    let dir = tempfile::tempdir().unwrap();

    let fresh = dir.path().join("fresh");
    let failed = export(&faulty, &baseline, &fresh);
    assert_eq!(failed.code, 4, "{}", failed.stderr);
    let expected = format!("could not read trajectories of run {baseline} (GET /api/v1/trajectories?eval_run_id={baseline}): page 2 failed (1 page with 200 items read before it)");
    assert!(failed.stderr.contains(&expected), "{}", failed.stderr);
    assert!(
        failed.stderr.contains("invalid_cursor"),
        "{}",
        failed.stderr
    );
    assert!(
        failed
            .stderr
            .contains("trajectories: FAILED after 200 items in 1 page"),
        "{}",
        failed.stderr
    );
    assert!(!fresh.exists(), "nothing is written");

    // An earlier export in the same folder is left as it was.
    let kept = dir.path().join("kept");
    assert_eq!(export(&healthy, &baseline, &kept).code, 0);
    let before = files_of(&kept);
    // run, rewards, trajectories, tasks, the evaluation defaults (a base-model run has no
    // training run), its billing row and its rollout statistics.
    assert_eq!(before.len(), 7, "{before:?}");
    assert_eq!(export(&faulty, &baseline, &kept).code, 4);
    assert_eq!(files_of(&kept), before);

    // The same failure stops a report from the API.
    let report = run(eval_compare().args(["report", "--server", &faulty.url, &baseline, "other"]));
    assert_eq!(report.code, 4, "{}", report.stderr);
    assert_eq!(report.stdout, "");
}

#[test]
fn an_unreachable_server_and_an_unknown_run_exit_4() {
    let closed = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    let unreachable = run(eval_compare().args([
        "report",
        "--retries",
        "0",
        "--server",
        &format!("http://{closed}"),
        "a",
        "b",
    ]));
    assert_eq!(unreachable.code, 4, "{}", unreachable.stderr);
    assert!(
        unreachable.stderr.contains("could not reach the API"),
        "{}",
        unreachable.stderr
    );

    let server = DemoServer::start(None, &[]);
    let dir = tempfile::tempdir().unwrap();
    let unknown = export(&server, "eval_no_such_run", &dir.path().join("x"));
    assert_eq!(unknown.code, 4, "{}", unknown.stderr);
    assert!(
        unknown
            .stderr
            .contains("could not read run eval_no_such_run"),
        "{}",
        unknown.stderr
    );
    assert!(unknown.stderr.contains("HTTP 404"), "{}", unknown.stderr);
}

#[test]
fn a_bad_server_url_or_run_id_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    let bad_url = run(eval_compare()
        .args(["export", "--server", "localhost:8080", "run_a"])
        .arg(dir.path()));
    assert_eq!(bad_url.code, 2, "{}", bad_url.stderr);
    assert!(bad_url.stderr.contains("--server"), "{}", bad_url.stderr);
    let server = DemoServer::start(None, &[]);
    let bad_id = export(&server, "..", &dir.path().join("x"));
    assert_eq!(bad_id.code, 2, "{}", bad_id.stderr);
}

#[test]
fn a_run_id_with_a_control_character_is_refused_and_shown_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let server = DemoServer::start(None, &[]);
    for id in ["eval_\u{1b}]0;pwned\u{7}", " ", &"x".repeat(300)] {
        let refused = export(&server, id, &dir.path().join("x"));
        assert_eq!(refused.code, 2, "{}", refused.stderr);
        assert!(
            refused.stderr.contains("cannot be compared"),
            "{}",
            refused.stderr
        );
        assert!(
            !refused.stderr.contains(['\u{1b}', '\u{7}']),
            "{:?}",
            refused.stderr
        );
    }
    let shown = export(&server, "eval_\u{1b}[2J", &dir.path().join("x"));
    assert!(
        shown.stderr.contains(
            "run id `eval_\\u{1B}[2J` cannot be compared: contains control characters (the first is U+001B)"
        ),
        "{}",
        shown.stderr
    );
    assert!(!dir.path().join("x").exists());
}
