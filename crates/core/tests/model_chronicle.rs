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

/// A job of `agents` on `suite_1`, with extra fields from `more`.
fn job(id: &str, agents: &[&str], more: serde_json::Value) -> ChronicleJob {
    let mut value = json!({
        "id": id, "name": format!("job {id}"), "status": "succeeded", "mode": "compare",
        "agents": agents, "task_suite_id": "suite_1", "task_suite_version": "3",
    });
    if let (Some(target), Some(extra)) = (value.as_object_mut(), more.as_object()) {
        for (key, field) in extra {
            target.insert(key.clone(), field.clone());
        }
    }
    serde_json::from_value(value).unwrap()
}

/// A trial with one thresholded scorer `state` (passed or not) and one measuring scorer `tone`.
fn scored(id: &str, agent: &str, task: &str, passed: bool, tone: f64) -> ChronicleTrial {
    trial(
        json!({"id": id, "agent": agent, "task_id": task, "status": "succeeded", "error": null,
        "scores": [
            {"name": "state", "score": if passed { 1.0 } else { 0.0 }, "threshold": 1.0, "passed": passed},
            {"name": "tone", "score": tone, "threshold": null, "passed": null}
        ]}),
    )
}

#[test]
fn a_null_score_is_no_score_and_an_errored_trial_is_failed() {
    // Status says succeeded, but the trial carries an error: it is failed, whatever its scores.
    let errored = trial(
        json!({"id": "1", "agent": "a@1", "task_id": "t", "status": "succeeded",
        "error": {"code": "sandbox_lost"},
        "scores": [{"name": "state", "score": null, "threshold": 1.0, "passed": false}]}),
    );
    assert_eq!(errored.reward(), None);
    assert_eq!(
        errored.class(errored.reward().is_some()),
        OutcomeClass::Failed
    );
    assert_eq!(
        errored.error_text().as_deref(),
        Some(r#"{"code":"sandbox_lost"}"#)
    );
    // An empty error is no error.
    let clean = trial(
        json!({"id": "2", "agent": "a@1", "status": "succeeded", "error": "",
        "scores": [{"name": "state", "score": 1.0, "threshold": 1.0, "passed": true}]}),
    );
    assert_eq!(clean.class(true), OutcomeClass::Graded);

    let job = job("job_n", &["a@1", "b@1"], json!({}));
    let trials = vec![
        scored("t1", "a@1", "x", true, 0.5),
        scored("t2", "b@1", "x", true, 0.5),
        scored("t3", "a@1", "y", true, 0.5),
        errored.clone(),
    ];
    let mut trials = trials;
    trials[3].agent = "b@1".into();
    trials[3].task_id = Some("y".into());
    let mut builder = RunSetBuilder::new();
    let runs = builder.add_chronicle_job(&job, &trials, None).unwrap();
    let set = builder.build();
    let ledger = eval_compare_core::coverage::coverage(&set, runs[0], &[runs[1]]).unwrap();
    assert_eq!(ledger.runs[1].samples.failed, 1);
    assert_eq!(ledger.runs[1].tasks_by_class.failed, 1);
    assert_eq!(
        ledger.runs[1].samples_valid, 1,
        "the failed trial has no value"
    );
    // Its null score never became 0: the candidate's only scored task is x.
    let paired = set.paired(runs[0], runs[1], Analysis::Primary).unwrap();
    assert_eq!(paired.len(), 1);
    let failed = set
        .run(runs[1])
        .unwrap()
        .trajectories()
        .find(|t| t.id == "1")
        .unwrap();
    assert_eq!(failed.components.unwrap()[0].value, None);
}

#[test]
fn unknown_statuses_and_scorers_are_kept_by_name() {
    let job = job("job_u", &["a@1"], json!({}));
    let odd = trial(
        json!({"id": "1", "agent": "a@1", "task_id": "t", "status": "quarantined",
        "scores": [{"name": "✨ vibes/v2", "score": 0.3, "threshold": null}]}),
    );
    let mut builder = RunSetBuilder::new();
    let runs = builder.add_chronicle_job(&job, &[odd], None).unwrap();
    let set = builder.build();
    let run = set.run(runs[0]).unwrap();
    let kept = run.trajectories().next().unwrap();
    assert_eq!(kept.class, OutcomeClass::Other);
    assert_eq!(kept.ending, Some("quarantined"));
    assert_eq!(kept.components.unwrap()[0].name, "✨ vibes/v2");
    assert_eq!(run.component_means()[0].name, "✨ vibes/v2");
    assert_eq!(run.totals().by_class.other, 1);
    // Shown: the coverage ledger names the status, the report the scorer.
    let ledger = eval_compare_core::coverage::coverage(&set, runs[0], &[]).unwrap();
    let unknown = ledger
        .warnings
        .iter()
        .find(|w| w.code == "UNKNOWN_ENDINGS")
        .unwrap();
    assert!(
        unknown.message.contains("quarantined ×1"),
        "{}",
        unknown.message
    );
}

#[test]
fn a_task_failing_in_one_of_several_trials_fails_and_mcnemar_applies() {
    use eval_compare_core::report::{build_report, ReportSettings};
    let job = job("job_m", &["base@1", "cand@2"], json!({}));
    let mut trials = Vec::new();
    // Three trials per agent and task; the candidate fails task "b" in one of three.
    for (t, task) in ["a", "b", "c", "d"].iter().enumerate() {
        for k in 0..3 {
            let base_passes = *task != "d";
            trials.push(scored(
                &format!("b{t}{k}"),
                "base@1",
                task,
                base_passes,
                0.5,
            ));
            let cand_passes = !(*task == "b" && k == 1);
            trials.push(scored(
                &format!("c{t}{k}"),
                "cand@2",
                task,
                cand_passes,
                0.7,
            ));
        }
    }
    let mut builder = RunSetBuilder::new();
    let runs = builder.add_chronicle_job(&job, &trials, None).unwrap();
    let set = builder.build();
    let cand = set.run(runs[1]).unwrap();
    assert_eq!(
        cand.info().task_scoring,
        eval_compare_core::model::TaskScoring::AllSamplesPass
    );
    let b = set.find_task("b").unwrap();
    let stats = cand.stats_of(b).unwrap();
    assert_eq!(
        stats.primary.mean(),
        Some(0.0),
        "two passes of three fail the task"
    );
    assert_eq!(stats.primary.count(), 1, "one outcome per task and run");
    assert_eq!(stats.included_samples, 3);
    assert_eq!(stats.samples(), 3);
    assert_eq!(cand.totals().task_mean, Some(0.75));
    assert_eq!(cand.totals().included, 12);

    let report = build_report(&set, runs[0], &[runs[1]], &ReportSettings::default()).unwrap();
    let primary = &report.candidates[0].primary;
    let mcnemar = primary
        .mcnemar
        .as_ref()
        .expect("binary, one outcome per task")
        .as_ref()
        .unwrap();
    // Base passes a, b, c; the candidate a, c, d: b lost, d won.
    assert_eq!((mcnemar.baseline_only, mcnemar.candidate_only), (1, 1));
    let row = report.tasks.iter().find(|row| row.task_id == "b").unwrap();
    assert_eq!(
        (
            row.cells[1].mean,
            row.cells[1].included,
            row.cells[1].samples
        ),
        (Some(0.0), 3, 3)
    );
    assert_eq!(
        report.runs[1].chronicle.as_ref().unwrap().pass_rate,
        Some(0.75)
    );
}

#[test]
fn a_scorer_without_threshold_gets_its_own_paired_delta() {
    use eval_compare_core::report::{build_report, ReportSettings};
    let job = job("job_c", &["base@1", "cand@2"], json!({}));
    let tones = [(0.2, 0.5), (0.4, 0.6), (0.6, 0.9), (0.5, 0.5)];
    let mut trials = Vec::new();
    for (t, (base, cand)) in tones.iter().enumerate() {
        let task = format!("task{t}");
        trials.push(scored(&format!("b{t}"), "base@1", &task, true, *base));
        trials.push(scored(&format!("c{t}"), "cand@2", &task, true, *cand));
    }
    // A candidate trial whose tone scorer produced nothing: that task has no tone value there.
    trials.push(trial(
        json!({"id": "c9", "agent": "cand@2", "task_id": "task9", "status": "succeeded",
        "scores": [{"name": "state", "score": 1.0, "threshold": 1.0, "passed": true},
                   {"name": "tone", "score": null, "threshold": null}]}),
    ));
    trials.push(scored("b9", "base@1", "task9", true, 0.1));
    let mut builder = RunSetBuilder::new();
    let runs = builder.add_chronicle_job(&job, &trials, None).unwrap();
    let set = builder.build();
    let report = build_report(&set, runs[0], &[runs[1]], &ReportSettings::default()).unwrap();
    let components = &report.candidates[0].components;
    let names: Vec<&str> = components.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["state", "tone"]);
    let tone = &components[1];
    assert_eq!(tone.threshold, None);
    assert_eq!((tone.baseline_tasks, tone.candidate_tasks), (5, 4));
    let estimate = tone.estimate.as_ref().unwrap();
    assert_eq!(estimate.n, 4, "the null tone is left out, not 0");
    assert!((estimate.delta - 0.2).abs() < 1e-9, "{}", estimate.delta);
    assert!((estimate.baseline_mean - 0.425).abs() < 1e-12);
    assert!(estimate.t_interval.is_ok());
    assert_eq!(components[0].threshold, Some(1.0));
    let markdown = report.to_markdown();
    assert!(
        markdown.contains("| tone | — | — (measures only) | 5 / 4 / 4 |"),
        "{markdown}"
    );
    assert!(markdown.contains("## Chronicle jobs"), "{markdown}");
}

#[test]
fn a_job_keeps_its_settings_and_counts_duplicate_trials_once() {
    let job = job(
        "job_d",
        &["a@1", "b@1"],
        json!({"tasks": ["x", "y"], "scorers": ["lint"], "environment_version_id": "env_7",
               "total_trials": 4, "completed_trials": 3, "status": "failed", "error": "runtime lost"}),
    );
    let trials = vec![
        scored("t1", "a@1", "x", true, 0.1),
        scored("t1", "a@1", "x", false, 0.9),
        scored("t2", "b@1", "x", true, 0.1),
    ];
    let mut builder = RunSetBuilder::new();
    let runs = builder.add_chronicle_job(&job, &trials, None).unwrap();
    let set = builder.build();
    let info = set.run(runs[0]).unwrap().info();
    let chronicle = info.chronicle.as_ref().unwrap();
    assert_eq!(chronicle.duplicate_trials, 1);
    assert_eq!(set.run(runs[0]).unwrap().trajectory_count(), 1);
    assert_eq!(
        set.run(runs[0])
            .unwrap()
            .trajectories()
            .next()
            .unwrap()
            .reward,
        Some(1.0),
        "the first listing is used"
    );
    assert_eq!(
        chronicle.tasks.as_deref(),
        Some(&["x".to_owned(), "y".to_owned()][..])
    );
    assert_eq!(chronicle.scorers, ["lint"]);
    assert_eq!(chronicle.environment_version_id.as_deref(), Some("env_7"));
    assert_eq!(chronicle.task_suite_version.as_deref(), Some("3"));
    assert_eq!(info.failure.as_deref(), Some("runtime lost"));
    assert_eq!(info.status.as_deref(), Some("failed"));
    assert_eq!(info.total_rollouts, Some(2), "4 trials over 2 agents");
    assert_eq!(
        set.run(runs[1])
            .unwrap()
            .info()
            .chronicle
            .as_ref()
            .unwrap()
            .agent_position,
        1
    );
}

#[test]
fn results_of_another_job_are_refused() {
    use eval_compare_core::api::SuiteEvalRun;
    let job = job("job_r", &["a@1"], json!({}));
    let results: SuiteEvalRun = serde_json::from_value(
        json!({"job_id": "job_other", "pass_rate": 1.0, "task_results": []}),
    )
    .unwrap();
    let error = RunSetBuilder::new()
        .add_chronicle_job(&job, &[], Some(&results))
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "the results given for job `job_r` are those of job `job_other`"
    );
}

#[test]
fn the_guide_rule_covers_every_agent_and_waits_for_unfinished_trials() {
    use eval_compare_core::model::{guide_pass_rate, guide_task_results, PassState};
    let job = job("job_g", &["a@1", "b@1"], json!({}));
    let mut running = scored("t5", "b@1", "z", true, 0.1);
    running.status = Some("running".into());
    running.scores.clear();
    let failed_empty = trial(
        json!({"id": "t6", "agent": "a@1", "task_id": "w", "status": "failed",
        "error": "boom", "scores": [{"name": "state", "score": null, "threshold": 1.0, "passed": null}]}),
    );
    let trials = vec![
        scored("t1", "a@1", "x", true, 0.1),
        scored("t2", "b@1", "x", false, 0.1),
        scored("t3", "a@1", "y", true, 0.1),
        scored("t4", "b@1", "y", true, 0.1),
        running,
        failed_empty,
    ];
    let mut builder = RunSetBuilder::new();
    let runs = builder.add_chronicle_job(&job, &trials, None).unwrap();
    let set = builder.build();
    let results = guide_task_results(&set, &runs).unwrap();
    let by_task = |id: &str| {
        results
            .iter()
            .find(|r| set.task(r.task).unwrap().id == id)
            .unwrap()
    };
    assert_eq!(
        by_task("x").state,
        PassState::Failed,
        "b@1 missed in its trial"
    );
    assert_eq!(by_task("x").failed_scorers, ["state"]);
    assert_eq!(by_task("x").trials, 2);
    assert_eq!(by_task("y").state, PassState::Passed);
    assert_eq!(by_task("z").state, PassState::Unfinished);
    assert_eq!(
        by_task("w").state,
        PassState::Failed,
        "a null score never passes"
    );
    assert_eq!(guide_pass_rate(&results), Some(1.0 / 3.0));
    // One agent alone: task x passes for a@1.
    let alone = guide_task_results(&set, &runs[..1]).unwrap();
    assert_eq!(alone[0].state, PassState::Passed);
}

#[test]
fn the_same_agent_in_two_jobs_is_named_by_its_job_too() {
    let job = |id: &str| -> ChronicleJob {
        serde_json::from_value(json!({"id": id, "agents": ["coder@1"], "task_suite_id": "s"}))
            .unwrap()
    };
    let trials = |prefix: &str| {
        vec![trial(
            json!({"id": format!("{prefix}1"), "agent": "coder@1", "task_id": "t1",
            "status": "succeeded", "scores": [{"name": "tests", "score": 1.0, "threshold": 1.0}]}),
        )]
    };
    let mut builder = RunSetBuilder::new();
    builder
        .add_chronicle_job(&job("j1"), &trials("a"), None)
        .unwrap();
    builder
        .add_chronicle_job(&job("j2"), &trials("b"), None)
        .unwrap();
    let mut other: ChronicleJob = job("j3");
    other.agents = vec!["coder@2".to_owned()];
    builder
        .add_chronicle_job(
            &other,
            &[trial(
                json!({"id": "c1", "agent": "coder@2", "task_id": "t1", "status": "succeeded"}),
            )],
            None,
        )
        .unwrap();
    let set = builder.build();
    let names: Vec<&str> = set.runs().iter().map(|run| run.info().name()).collect();
    assert_eq!(names, ["coder@1 · j1", "coder@1 · j2", "coder@2"]);
}

#[test]
fn the_platforms_results_title_the_tasks() {
    let compare = job("job_t", &["agent@1", "agent@2"], json!({}));
    let trials = vec![
        scored("t1", "agent@1", "cf-0083", true, 0.5),
        scored("t2", "agent@2", "cf-0083", false, 0.5),
        scored("t3", "agent@1", "cf-0084", true, 0.5),
        scored("t4", "agent@2", "cf-0084", true, 0.5),
    ];
    let results: eval_compare_core::api::SuiteEvalRun = serde_json::from_value(json!({
        "job_id": "job_t", "status": "succeeded", "pass_rate": 0.5,
        "task_results": [
            {"task_id": "cf-0083", "title": "Fix the off-by-one in paging", "passed": false,
             "failed_scorers": ["state"]},
            {"task_id": "cf-0084", "title": "cf-0084", "passed": true, "failed_scorers": []}
        ]
    }))
    .unwrap();
    let mut builder = RunSetBuilder::new();
    builder
        .add_chronicle_job(&compare, &trials, Some(&results))
        .unwrap();
    let set = builder.build();
    let label = |id: &str| {
        set.find_task(id)
            .and_then(|index| set.task(index))
            .and_then(|task| task.label.clone())
    };
    assert_eq!(
        label("cf-0083").as_deref(),
        Some("Fix the off-by-one in paging")
    );
    // A title that is only the id names nothing more.
    assert_eq!(label("cf-0084"), None);
}
