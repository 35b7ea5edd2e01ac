//! The demo's Chronicle jobs: every field the guide names, filled as a platform would, and data
//! that shows every case a reader must handle (suite versions, task subsets, extra scorers,
//! comparisons of several agents, errored, cancelled and queued work).
#![allow(clippy::unwrap_used)]

mod common;

use common::{client, demo, get_error, get_json, start, strings, walk_chronicle};
use eval_compare_core::api::{ChronicleJob, ChronicleTrial, JobStatus, SuiteEvalRun};
use eval_compare_server::dataset::DEFAULT_SEED;
use serde_json::Value;

async fn job(c: &reqwest::Client, b: &str, id: &str) -> ChronicleJob {
    serde_json::from_value(get_json(c, b, &format!("/v1/backtests/jobs/{id}"), 200).await).unwrap()
}

async fn trials(c: &reqwest::Client, b: &str, id: &str) -> Vec<ChronicleTrial> {
    walk_chronicle(c, b, &format!("/v1/backtests/jobs/{id}/trials"), 100)
        .await
        .into_iter()
        .map(|t| serde_json::from_value(t).unwrap())
        .collect()
}

async fn results(c: &reqwest::Client, b: &str, id: &str) -> SuiteEvalRun {
    let page = get_json(
        c,
        b,
        &format!("/v1/task-suites/suite_codefix_smoke/eval-runs?job_id={id}"),
        200,
    )
    .await;
    serde_json::from_value(page["items"][0].clone()).unwrap()
}

fn score_names(trial: &ChronicleTrial) -> Vec<&str> {
    trial.scores.iter().map(|s| s.name.as_str()).collect()
}

#[tokio::test]
async fn every_job_fills_the_fields_of_the_guide() {
    let server = start(demo(2)).await;
    let (c, b) = (client(), server.base.as_str());
    let jobs = walk_chronicle(&c, b, "/v1/backtests/jobs", 100).await;
    for raw in &jobs {
        for field in [
            "id",
            "name",
            "status",
            "mode",
            "agents",
            "completed_trials",
            "total_trials",
            "task_suite_id",
            "task_suite_version",
            "tasks",
            "scorers",
            "environment_version_id",
            "concurrency",
            "created_at",
            "error",
        ] {
            assert!(raw.get(field).is_some(), "{field} missing in {raw}");
        }
        let job: ChronicleJob = serde_json::from_value(raw.clone()).unwrap();
        let created = job.created_at.as_deref().unwrap();
        assert!(
            created.len() == 20 && created.ends_with('Z') && created.as_bytes()[10] == b'T',
            "{created}"
        );
        assert!((1..=32).contains(&job.concurrency.unwrap()), "{raw}");
        assert!((1..=8).contains(&job.agents.len()), "{raw}");
        assert!(job.total_trials.unwrap() <= 200, "{raw}");
        assert!(job.environment_version_id.unwrap().starts_with("envver_"));
        assert_eq!(job.task_suite_id.as_deref(), Some("suite_codefix_smoke"));
        let failed = job.status == Some(JobStatus::Failed);
        assert_eq!(job.error.is_some(), failed, "{raw}");
    }
    let base = job(&c, b, "job_base").await;
    assert_eq!(base.task_suite_version.as_deref(), Some("v3"));
    assert_eq!((base.tasks, base.scorers.len()), (None, 0));
    let failed = job(&c, b, "job_s200_failed").await;
    assert!(failed
        .error
        .unwrap()
        .as_str()
        .unwrap()
        .contains("sandbox runtime"));
}

#[tokio::test]
async fn a_job_on_the_older_suite_version_has_other_tasks_scorers_and_environment() {
    let server = start(demo(2)).await;
    let (c, b) = (client(), server.base.as_str());
    let old = job(&c, b, "job_base_suite_v2").await;
    let current = job(&c, b, "job_base").await;
    assert_eq!(old.task_suite_version.as_deref(), Some("v2"));
    assert_ne!(old.environment_version_id, current.environment_version_id);
    assert!(old.created_at < current.created_at, "launched before v3");
    let (old_trials, current_trials) = (
        trials(&c, b, &old.id).await,
        trials(&c, b, "job_base").await,
    );
    assert_eq!((old_trials.len(), current_trials.len()), (45, 51));
    let current_tasks: Vec<_> = current_trials.iter().map(|t| t.task_id.clone()).collect();
    assert!(old_trials
        .iter()
        .all(|t| current_tasks.contains(&t.task_id)));
    assert_eq!(
        score_names(&old_trials[0]),
        ["tests_passed", "patch_applies"]
    );
    assert_eq!(
        score_names(&current_trials[0]),
        ["tests_passed", "patch_applies", "lint_score"]
    );
    assert!(
        old_trials.iter().all(|t| t.id.ends_with("_2")),
        "its own trials"
    );
}

#[tokio::test]
async fn a_subset_job_lists_its_tasks_and_scores_its_extra_scorer() {
    let server = start(demo(2)).await;
    let (c, b) = (client(), server.base.as_str());
    let quick = job(&c, b, "job_s300_quick").await;
    assert_eq!(quick.scorers, ["diff_lines"]);
    let tasks = quick.tasks.unwrap();
    assert_eq!((tasks.len(), quick.total_trials), (17, Some(17)));
    let trials = trials(&c, b, "job_s300_quick").await;
    let trial_tasks: Vec<String> = trials.iter().filter_map(|t| t.task_id.clone()).collect();
    assert_eq!(trial_tasks, tasks);
    for trial in &trials {
        assert_eq!(
            score_names(trial),
            ["tests_passed", "patch_applies", "lint_score", "diff_lines"]
        );
        let diff = &trial.scores[3];
        assert_eq!(diff.threshold, None);
        let graded = trial.scores[0].score.is_some();
        assert_eq!(diff.score.is_some(), graded, "{trial:?}");
    }
    let results = results(&c, b, "job_s300_quick").await;
    assert_eq!(results.task_results.len(), 17);
    assert!(results.task_results.iter().all(|r| !r
        .failed_scorers
        .iter()
        .any(|s| s == "diff_lines" || s == "lint_score")));
}

#[tokio::test]
async fn a_comparison_of_three_agents_splits_trials_per_agent_and_pools_task_results() {
    let server = start(demo(DEFAULT_SEED)).await;
    let (c, b) = (client(), server.base.as_str());
    let compare = job(&c, b, "job_compare_base_s200_s400").await;
    assert_eq!(
        compare.agents,
        [
            "demo-coder@base",
            "demo-coder@step-200",
            "demo-coder@step-400"
        ]
    );
    let trials = trials(&c, b, "job_compare_base_s200_s400").await;
    assert_eq!(trials.len(), 153);
    let agents: Vec<&str> = trials.iter().map(|t| t.agent.as_str()).collect();
    assert!(agents[..51].iter().all(|a| *a == "demo-coder@base"));
    assert!(agents[102..].iter().all(|a| *a == "demo-coder@step-400"));
    let results = results(&c, b, "job_compare_base_s200_s400").await;
    assert_eq!(results.task_results.len(), 51);
    let passes = |trial: &ChronicleTrial| {
        trial
            .scores
            .iter()
            .filter(|s| s.threshold.is_some())
            .all(|s| s.passed == Some(true))
    };
    let mut mixed = 0;
    for result in &results.task_results {
        let of_task: Vec<bool> = trials
            .iter()
            .filter(|t| t.task_id.as_deref() == Some(result.task_id.as_str()))
            .map(passes)
            .collect();
        assert_eq!(of_task.len(), 3);
        assert_eq!(
            result.passed,
            Some(of_task.iter().all(|p| *p)),
            "{result:?}"
        );
        if of_task.contains(&true) && of_task.contains(&false) {
            mixed += 1;
            assert_eq!(result.passed, Some(false));
            assert!(!result.failed_scorers.is_empty());
        }
    }
    assert!(
        mixed >= 5,
        "tasks one agent passes and another fails: {mixed}"
    );
}

#[tokio::test]
async fn the_default_demo_shows_every_case_of_the_guide() {
    let server = start(demo(DEFAULT_SEED)).await;
    let (c, b) = (client(), server.base.as_str());
    let jobs = walk_chronicle(&c, b, "/v1/backtests/jobs", 100).await;
    let statuses = strings(&jobs, "status");
    for status in ["queued", "running", "succeeded", "failed", "cancelled"] {
        assert!(statuses.contains(&status), "{status} missing");
    }
    // In the baseline-vs-step-400 comparison, a task one agent passes and the other fails.
    let compare = trials(&c, b, "job_compare_base_s400").await;
    let passes = |t: &ChronicleTrial| t.scores[..2].iter().all(|s| s.passed == Some(true));
    let mixed = compare[..51]
        .iter()
        .zip(&compare[51..])
        .filter(|(x, y)| x.task_id == y.task_id && passes(x) != passes(y))
        .count();
    assert!(mixed > 0);
    // Errored trials: status failed, an error message, no score at all (null, never zero).
    let mut errored = 0;
    for id in ["job_base", "job_s100", "job_s200", "job_s300", "job_s400"] {
        for trial in trials(&c, b, id).await {
            if trial.status.as_deref() == Some("failed") {
                errored += 1;
                assert!(!trial.error.as_ref().unwrap().as_str().unwrap().is_empty());
                assert!(trial
                    .scores
                    .iter()
                    .all(|s| s.score.is_none() && s.passed == Some(false)));
            }
        }
    }
    assert!(errored > 0, "no errored trial");
    // A scorer without a threshold.
    assert!(compare[0].scores.iter().any(|s| s.threshold.is_none()));
}

#[tokio::test]
async fn a_cancelled_job_keeps_finished_trials_and_a_queued_one_has_none_yet() {
    let server = start(demo(2)).await;
    let (c, b) = (client(), server.base.as_str());
    let cancelled = job(&c, b, "job_s300_cancelled").await;
    assert_eq!(cancelled.status, Some(JobStatus::Cancelled));
    assert_eq!(cancelled.error, None, "a cancellation is not an error");
    let trials = trials(&c, b, "job_s300_cancelled").await;
    let count = |status: &str| {
        trials
            .iter()
            .filter(|t| t.status.as_deref() == Some(status))
            .count()
    };
    assert!(
        count("succeeded") > 5 && count("cancelled") > 20,
        "{trials:?}"
    );
    assert_eq!(cancelled.completed_trials, Some(51));
    for trial in trials
        .iter()
        .filter(|t| t.status.as_deref() == Some("cancelled"))
    {
        assert!(trial.scores.iter().all(|s| s.score.is_none()));
    }
    let queued = job(&c, b, "job_s500_rerun").await;
    assert_eq!(queued.status, Some(JobStatus::Queued));
    assert_eq!(
        (queued.completed_trials, queued.total_trials),
        (Some(0), Some(51))
    );
    let page = get_json(&c, b, "/v1/backtests/jobs/job_s500_rerun/trials", 200).await;
    assert_eq!(page["items"], Value::Array(Vec::new()));
    assert_eq!(page["has_next_page"], false);
    get_error(
        &c,
        b,
        "/v1/backtests/jobs/job_s500_rerun/trials/trial_s500_cf-0001_1",
        400,
        "unknown_id",
    )
    .await;
    let results = results(&c, b, "job_s500_rerun").await;
    assert!(results.task_results.is_empty() && results.pass_rate.is_none());
    let only = walk_chronicle(&c, b, "/v1/backtests/jobs?status=queued", 10).await;
    assert_eq!(strings(&only, "id"), ["job_s500_rerun"]);
}
