//! The demo's Chronicle read paths: jobs, trials, one trial, and the suite's results.
#![allow(clippy::unwrap_used)]

mod common;

use common::{all_distinct, client, demo, get_error, get_json, start, strings, walk_chronicle};
use eval_compare_core::api::{ChronicleJob, ChronicleTrial, JobMode, JobStatus};

#[tokio::test]
async fn jobs_are_paged_newest_first_and_map_onto_runs() {
    let server = start(demo(2)).await;
    let (c, b) = (client(), server.base.as_str());
    let jobs = walk_chronicle(&c, b, "/v1/backtests/jobs", 2).await;
    assert_eq!(jobs.len(), 14);
    assert!(all_distinct(&strings(&jobs, "id")));
    assert_eq!(
        strings(&jobs[..2], "id"),
        ["job_s500_rerun", "job_s500"],
        "newest first"
    );
    let created = strings(&jobs, "created_at");
    assert!(created.windows(2).all(|w| w[0] >= w[1]), "{created:?}");
    let page = get_json(&c, b, "/v1/backtests/jobs?limit=4", 200).await;
    assert_eq!(
        (page["limit"].as_u64(), page["has_next_page"].as_bool()),
        (Some(4), Some(true))
    );
    let default = get_json(&c, b, "/v1/backtests/jobs", 200).await;
    assert_eq!(default["limit"], 20);

    let compare: ChronicleJob = serde_json::from_value(
        get_json(&c, b, "/v1/backtests/jobs/job_compare_base_s400", 200).await,
    )
    .unwrap();
    assert_eq!(compare.mode, Some(JobMode::Compare));
    assert_eq!(compare.agents, ["demo-coder@base", "demo-coder@step-400"]);
    assert_eq!(
        (compare.completed_trials, compare.total_trials),
        (Some(102), Some(102))
    );
    assert_eq!(compare.status, Some(JobStatus::Succeeded));
    let running = get_json(&c, b, "/v1/backtests/jobs/job_s500", 200).await;
    assert_eq!(running["status"], "running");
    assert!(running["completed_trials"].as_u64() < running["total_trials"].as_u64());
    let failed = get_json(&c, b, "/v1/backtests/jobs/job_s200_failed", 200).await;
    assert_eq!(failed["status"], "failed");
    let only_failed = walk_chronicle(&c, b, "/v1/backtests/jobs?status=failed", 20).await;
    assert_eq!(strings(&only_failed, "id"), ["job_s200_failed"]);
    let unknown = get_error(&c, b, "/v1/backtests/jobs/job_nope", 400, "unknown_id").await;
    assert_eq!(unknown["error"]["param"], "jobId");
    assert!(unknown["error"]["message"]
        .as_str()
        .unwrap()
        .contains("job_nope"));
    for path in [
        "/v1/backtests/jobs/job_nope/trials",
        "/v1/backtests/jobs/job_nope/trials/trial_basev2_cf-0001",
        "/v1/backtests/jobs/job_nope/stream",
    ] {
        get_error(&c, b, path, 400, "unknown_id").await;
    }
    get_error(&c, b, "/v1/backtests/nothing", 404, "resource_not_found").await;
    get_error(
        &c,
        b,
        "/v1/backtests/jobs?limit=101",
        422,
        "validation_error",
    )
    .await;
    get_error(
        &c,
        b,
        "/v1/backtests/jobs?cursor=zzz",
        400,
        "invalid_cursor",
    )
    .await;
}

#[tokio::test]
async fn trials_scores_and_details() {
    let server = start(demo(2)).await;
    let (c, b) = (client(), server.base.as_str());
    let trials = walk_chronicle(&c, b, "/v1/backtests/jobs/job_compare_base_s400/trials", 7).await;
    assert_eq!(trials.len(), 102);
    assert!(all_distinct(&strings(&trials, "id")));
    let agents = strings(&trials, "agent");
    assert!(
        agents[..51].iter().all(|a| *a == "demo-coder@base"),
        "baseline first"
    );
    for trial in &trials {
        let parsed: ChronicleTrial = serde_json::from_value(trial.clone()).unwrap();
        assert_eq!(parsed.scores.len(), 3);
        let status = parsed.status.as_deref().unwrap();
        if status == "failed" {
            assert!(parsed.error.is_some() && parsed.scores.iter().all(|s| s.score.is_none()));
        }
        for score in &parsed.scores {
            if let (Some(s), Some(t)) = (score.score, score.threshold) {
                assert_eq!(score.passed, Some(s >= t));
            }
        }
    }
    let lint = &trials[0]["scores"][2];
    assert_eq!(
        (lint["name"].as_str(), lint["threshold"].is_null()),
        (Some("lint_score"), true)
    );

    let id = trials[0]["id"].as_str().unwrap();
    let detail = get_json(
        &c,
        b,
        &format!("/v1/backtests/jobs/job_compare_base_s400/trials/{id}"),
        200,
    )
    .await;
    assert_eq!(detail["id"], id);
    assert!(detail["instruction"]
        .as_str()
        .unwrap()
        .contains("Repository"));
    let kinds: Vec<&str> = detail["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds[0], "setup");
    assert!(kinds.contains(&"agent"));
    get_error(
        &c,
        b,
        "/v1/backtests/jobs/job_base/trials/trial_nope",
        400,
        "unknown_id",
    )
    .await;
}

#[tokio::test]
async fn suite_results_pass_a_task_only_when_every_thresholded_scorer_passed() {
    let server = start(demo(2)).await;
    let (c, b) = (client(), server.base.as_str());
    let runs = walk_chronicle(&c, b, "/v1/task-suites/suite_codefix_smoke/eval-runs", 3).await;
    assert_eq!(runs.len(), 14);
    let one = get_json(
        &c,
        b,
        "/v1/task-suites/suite_codefix_smoke/eval-runs?job_id=job_s400",
        200,
    )
    .await;
    let run = &one["items"][0];
    let results = run["task_results"].as_array().unwrap();
    assert_eq!(results.len(), 51);
    let trials = walk_chronicle(&c, b, "/v1/backtests/jobs/job_s400/trials", 100).await;
    for result in results {
        let trial = trials
            .iter()
            .find(|t| t["task_id"] == result["task_id"])
            .unwrap();
        let passed = trial["scores"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|s| s["threshold"].is_number())
            .all(|s| s["passed"] == true);
        assert_eq!(result["passed"].as_bool(), Some(passed), "{result}");
        assert_eq!(
            result["failed_scorers"].as_array().unwrap().is_empty(),
            passed
        );
    }
    let rate = results.iter().filter(|r| r["passed"] == true).count() as f64 / 51.0;
    assert!((run["pass_rate"].as_f64().unwrap() - rate).abs() < 1e-12);
    get_error(
        &c,
        b,
        "/v1/task-suites/suite_nope/eval-runs",
        400,
        "unknown_id",
    )
    .await;
    let unknown = get_error(
        &c,
        b,
        "/v1/task-suites/suite_codefix_smoke/eval-runs?job_id=job_nope",
        400,
        "unknown_id",
    )
    .await;
    assert_eq!(unknown["error"]["param"], "job_id");
}
