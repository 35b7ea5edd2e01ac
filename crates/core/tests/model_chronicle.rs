//! Chronicle jobs and trials onto the model.

#![allow(clippy::unwrap_used)]

use eval_compare_core::api::{ChronicleJob, ChronicleTrial, ChronicleTrialPage};
use eval_compare_core::model::{Analysis, OutcomeClass, RunSetBuilder};
use serde_json::json;

fn trial(value: serde_json::Value) -> ChronicleTrial {
    serde_json::from_value(value).unwrap()
}

#[test]
fn thresholded_scorers_make_a_binary_reward() {
    let passed = trial(
        json!({"id": "1", "agent": "a@1", "task_id": "t", "status": "succeeded", "scores": [
            {"name": "state", "score": 1.0, "threshold": 1.0, "passed": true},
            {"name": "tone", "score": 0.4, "threshold": null, "passed": true}
        ]}),
    );
    assert_eq!(passed.reward(), Some(1.0));
    let failed = trial(
        json!({"id": "2", "agent": "a@1", "task_id": "t", "status": "succeeded", "scores": [
            {"name": "state", "score": 1.0, "threshold": 1.0, "passed": true},
            {"name": "handoff", "score": 0.0, "threshold": 0.5, "passed": false}
        ]}),
    );
    assert_eq!(failed.reward(), Some(0.0));
    // `passed` missing: decided from score and threshold.
    let inferred = trial(json!({"id": "3", "agent": "a@1", "scores": [
        {"name": "state", "score": 0.7, "threshold": 0.5}
    ]}));
    assert_eq!(inferred.reward(), Some(1.0));
    // A thresholded scorer that produced nothing: no reward, not zero.
    let missing = trial(
        json!({"id": "4", "agent": "a@1", "status": "failed", "error": "sandbox died",
        "scores": [{"name": "state", "score": null, "threshold": 1.0, "passed": false}]}),
    );
    assert_eq!(missing.reward(), None);
}

#[test]
fn informative_scorers_alone_average_and_null_is_not_zero() {
    let mean = trial(json!({"id": "1", "agent": "a@1", "scores": [
        {"name": "x", "score": 0.2}, {"name": "y", "score": 0.6}
    ]}));
    assert!((mean.reward().unwrap() - 0.4).abs() < 1e-12);
    let partial = trial(json!({"id": "2", "agent": "a@1", "scores": [
        {"name": "x", "score": 0.2}, {"name": "y", "score": null}
    ]}));
    assert_eq!(partial.reward(), None);
    assert_eq!(trial(json!({"id": "3", "agent": "a@1"})).reward(), None);
}

#[test]
fn trial_status_classes() {
    let with = |status: Option<&str>, error: Option<&str>| {
        trial(json!({"id": "1", "agent": "a@1", "status": status, "error": error}))
    };
    assert_eq!(
        with(Some("succeeded"), None).class(true),
        OutcomeClass::Graded
    );
    assert_eq!(
        with(Some("succeeded"), None).class(false),
        OutcomeClass::Ungraded
    );
    assert_eq!(
        with(Some("failed"), Some("boom")).class(false),
        OutcomeClass::Failed
    );
    assert_eq!(
        with(Some("cancelled"), None).class(false),
        OutcomeClass::Cancelled
    );
    assert_eq!(
        with(Some("queued"), None).class(false),
        OutcomeClass::Unfinished
    );
    assert_eq!(
        with(Some("running"), None).class(true),
        OutcomeClass::Unfinished
    );
    assert_eq!(with(None, Some("boom")).class(false), OutcomeClass::Failed);
    assert_eq!(with(None, None).class(true), OutcomeClass::Other);
    assert_eq!(with(Some("paused"), None).class(true), OutcomeClass::Other);
}

#[test]
fn a_compare_job_becomes_one_run_per_agent_baseline_first() {
    let job: ChronicleJob = serde_json::from_value(json!({
        "id": "job_1", "name": "Handoff prompt v2", "status": "succeeded", "mode": "compare",
        "agents": ["billing-agent@1.0.0", "billing-agent@1.1.0"],
        "completed_trials": 5, "total_trials": 5, "task_suite_id": "suite_9"
    }))
    .unwrap();
    let page: ChronicleTrialPage = serde_json::from_value(json!({"items": [
        {"id": "t1", "agent": "billing-agent@1.0.0", "task_id": "a", "status": "succeeded", "error": null,
         "scores": [{"name": "state", "score": 1.0, "threshold": 1.0, "passed": true}]},
        {"id": "t2", "agent": "billing-agent@1.1.0", "task_id": "a", "status": "succeeded", "error": null,
         "scores": [{"name": "state", "score": 0.0, "threshold": 1.0, "passed": false}]},
        {"id": "t3", "agent": "billing-agent@1.0.0", "task_id": "b", "status": "succeeded", "error": null,
         "scores": [{"name": "state", "score": 1.0, "threshold": 1.0, "passed": true}]},
        {"id": "t4", "agent": "billing-agent@1.1.0", "task_id": "b", "status": "failed", "error": "timeout",
         "scores": [{"name": "state", "score": null, "threshold": 1.0, "passed": false}]},
        {"id": "t5", "agent": "other-agent@2", "task_id": "a", "status": "succeeded",
         "scores": [{"name": "state", "score": 1.0, "threshold": 1.0, "passed": true}]}
    ], "has_next_page": false, "limit": 100})).unwrap();
    let mut builder = RunSetBuilder::new();
    let runs = builder.add_chronicle_job(&job, &page.items, None).unwrap();
    let set = builder.build();
    assert_eq!(
        runs.len(),
        3,
        "two job agents plus one seen only on a trial"
    );
    let base = set.run(runs[0]).unwrap();
    assert_eq!(base.info().id, "job_1/billing-agent@1.0.0");
    assert_eq!(base.info().name(), "billing-agent@1.0.0");
    assert_eq!(base.info().base_model.as_deref(), Some("billing-agent"));
    assert_eq!(base.info().bench_id.as_deref(), Some("suite_9"));
    assert_eq!(
        base.info().source,
        eval_compare_core::model::SourceKind::Chronicle
    );
    assert_eq!(set.run(runs[2]).unwrap().info().name(), "other-agent@2");

    let cand = set.run(runs[1]).unwrap();
    let failed = cand.trajectories().find(|t| t.id == "t4").unwrap();
    assert_eq!(
        (failed.class, failed.reward, failed.ending),
        (OutcomeClass::Failed, None, Some("failed"))
    );
    let parts = failed.components.unwrap();
    assert_eq!(
        (parts[0].name.as_str(), parts[0].value, parts[0].threshold),
        ("state", None, Some(1.0))
    );

    let paired = set.paired(runs[0], runs[1], Analysis::Primary).unwrap();
    assert_eq!(paired.len(), 1);
    assert_eq!((paired.base[0], paired.cand[0]), (1.0, 0.0));
    assert_eq!(paired.left_out.len(), 1);
    let sensitivity = set.paired(runs[0], runs[1], Analysis::Sensitivity).unwrap();
    assert_eq!(sensitivity.cand, [0.0, 0.0]);
}
