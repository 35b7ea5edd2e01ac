//! The comparability audit of Chronicle runs: suite and version, task subsets, extra scorers,
//! environment, job status, trials listed twice, and the platform's own results beside the
//! trials.

#![allow(clippy::unwrap_used)]

use eval_compare_core::api::{ChronicleJob, ChronicleTrial, SuiteEvalRun};
use eval_compare_core::audit::{audit, platform_checks, Audit, Finding, Severity};
use eval_compare_core::model::{PassState, RunIdx, RunSet, RunSetBuilder};
use serde_json::{json, Value};

fn job(id: &str, agents: &[&str], more: Value) -> ChronicleJob {
    let mut value = json!({
        "id": id, "status": "succeeded", "mode": "suite", "agents": agents,
        "task_suite_id": "suite_1", "task_suite_version": "3",
    });
    for (key, field) in more.as_object().unwrap() {
        value[key] = field.clone();
    }
    serde_json::from_value(value).unwrap()
}

fn trial(id: &str, agent: &str, task: &str, passed: bool) -> ChronicleTrial {
    serde_json::from_value(json!({"id": id, "agent": agent, "task_id": task, "status": "succeeded",
        "scores": [{"name": "state", "score": if passed { 1.0 } else { 0.0 }, "threshold": 1.0, "passed": passed}]}))
    .unwrap()
}

/// Trials of `agent` on tasks a, b, c: passing all but `fails`.
fn trials(prefix: &str, agent: &str, fails: &[&str]) -> Vec<ChronicleTrial> {
    ["a", "b", "c"]
        .iter()
        .map(|task| {
            trial(
                &format!("{prefix}{task}"),
                agent,
                task,
                !fails.contains(task),
            )
        })
        .collect()
}

/// Two suite-mode jobs, the second changed by `more`, compared as baseline and candidate.
fn two_jobs(more: Value, cand_fails: &[&str]) -> (RunSet, Audit) {
    let base = job("job_1", &["agent@1"], json!({}));
    let cand = job("job_2", &["agent@2"], more);
    let mut builder = RunSetBuilder::new();
    builder
        .add_chronicle_job(&base, &trials("b", "agent@1", &[]), None)
        .unwrap();
    builder
        .add_chronicle_job(&cand, &trials("c", "agent@2", cand_fails), None)
        .unwrap();
    let set = builder.build();
    let report = audit(&set, RunIdx(0), &[RunIdx(1)]).unwrap();
    (set, report)
}

fn find<'a>(report: &'a Audit, code: &str) -> Option<&'a Finding> {
    report.findings.iter().find(|finding| finding.code == code)
}

fn codes(report: &Audit) -> Vec<&str> {
    report.findings.iter().map(|f| f.code.as_str()).collect()
}

#[test]
fn same_suite_and_settings_with_failing_tasks_is_clean() {
    let (_, report) = two_jobs(json!({}), &["b"]);
    assert_eq!(codes(&report), Vec::<&str>::new(), "{report:?}");
    assert_eq!(report.verdict, Severity::Info);
}

#[test]
fn a_compare_job_has_nothing_to_say_about_itself() {
    let compare = job("job_c", &["agent@1", "agent@2"], json!({"mode": "compare"}));
    let mut all = trials("x", "agent@1", &[]);
    all.extend(trials("y", "agent@2", &["a"]));
    let mut builder = RunSetBuilder::new();
    let runs = builder.add_chronicle_job(&compare, &all, None).unwrap();
    let report = audit(&builder.build(), runs[0], &runs[1..]).unwrap();
    assert!(report.findings.is_empty(), "{report:?}");
}

#[test]
fn another_suite_or_version_blocks() {
    let (_, report) = two_jobs(json!({"task_suite_id": "suite_2"}), &[]);
    let found = find(&report, "TASK_SUITE_DIFFERS").unwrap();
    assert_eq!(found.severity, Severity::Blocking);
    assert!(found.message.contains("suite_1") && found.message.contains("suite_2"));
    assert!(
        find(&report, "BENCHMARK_VERSION_DIFFERS").is_none(),
        "one finding, not two"
    );
    assert_eq!(report.verdict, Severity::Blocking);

    let (_, report) = two_jobs(json!({"task_suite_version": "4"}), &[]);
    let found = find(&report, "SUITE_VERSION_DIFFERS").unwrap();
    assert_eq!(found.severity, Severity::Blocking);
    assert!(found.message.contains("version 3") && found.message.contains("version 4"));

    let (_, report) = two_jobs(json!({"task_suite_version": null}), &[]);
    let found = find(&report, "SUITE_VERSION_UNKNOWN").unwrap();
    assert_eq!(found.severity, Severity::Caution);
    assert!(found.message.contains("job_2/agent@2") || found.message.contains("agent@2"));

    let (_, report) = two_jobs(json!({"task_suite_id": null}), &[]);
    assert_eq!(
        find(&report, "TASK_SUITE_UNKNOWN").unwrap().severity,
        Severity::Caution
    );
}

#[test]
fn task_subsets_scorers_and_environment_differ() {
    let (_, report) = two_jobs(json!({"tasks": ["a", "b"]}), &[]);
    let found = find(&report, "TASK_SUBSETS_DIFFER").unwrap();
    assert_eq!(found.severity, Severity::Caution);
    assert!(
        found.message.contains("subset of 2 tasks"),
        "{}",
        found.message
    );

    let base = job("job_1", &["agent@1"], json!({"tasks": ["a", "b", "c"]}));
    let cand = job("job_2", &["agent@2"], json!({"tasks": ["b", "c", "d"]}));
    let mut builder = RunSetBuilder::new();
    builder
        .add_chronicle_job(&base, &trials("b", "agent@1", &[]), None)
        .unwrap();
    builder
        .add_chronicle_job(&cand, &trials("c", "agent@2", &[]), None)
        .unwrap();
    let report = audit(&builder.build(), RunIdx(0), &[RunIdx(1)]).unwrap();
    let found = find(&report, "TASK_SUBSETS_DIFFER").unwrap();
    assert!(
        found.message.contains("1 tasks only in") && found.message.contains("(of 4)"),
        "{}",
        found.message
    );
    assert_eq!(found.severity, Severity::Caution);

    let (_, report) = two_jobs(json!({"tasks": ["c", "b", "a"]}), &[]);
    // The same tasks in another order against a whole suite: still a subset against none.
    assert!(find(&report, "TASK_SUBSETS_DIFFER").is_some());

    let (_, report) = two_jobs(json!({"scorers": ["tone", "lint"]}), &[]);
    let found = find(&report, "EXTRA_SCORERS_DIFFER").unwrap();
    assert_eq!(found.severity, Severity::Caution);
    assert!(
        found.message.contains("none") && found.message.contains("lint, tone"),
        "{}",
        found.message
    );

    let (_, report) = two_jobs(json!({"environment_version_id": "env_9"}), &[]);
    let found = find(&report, "ENVIRONMENT_DIFFERS").unwrap();
    assert_eq!(found.severity, Severity::Caution);
    assert!(found.message.contains("env_9"));
    assert_eq!(report.verdict, Severity::Caution);
}

#[test]
fn the_same_scorers_in_another_order_do_not_differ() {
    let base = job("job_1", &["agent@1"], json!({"scorers": ["lint", "tone"]}));
    let cand = job("job_2", &["agent@2"], json!({"scorers": ["tone", "lint"]}));
    let mut builder = RunSetBuilder::new();
    builder
        .add_chronicle_job(&base, &trials("b", "agent@1", &[]), None)
        .unwrap();
    builder
        .add_chronicle_job(&cand, &trials("c", "agent@2", &[]), None)
        .unwrap();
    let report = audit(&builder.build(), RunIdx(0), &[RunIdx(1)]).unwrap();
    assert!(report.findings.is_empty(), "{report:?}");
}

#[test]
fn failed_cancelled_and_running_jobs_are_lifecycle_findings() {
    let (_, report) = two_jobs(
        json!({"status": "failed", "error": "runtime unavailable"}),
        &[],
    );
    let found = find(&report, "RUN_FAILED").unwrap();
    assert_eq!(found.severity, Severity::Caution);
    assert_eq!(found.runs, vec![RunIdx(1)]);
    assert!(
        found.message.contains("job job_2") && found.message.contains("runtime unavailable"),
        "{}",
        found.message
    );
    let (_, report) = two_jobs(json!({"status": "cancelled"}), &[]);
    assert!(find(&report, "RUN_CANCELLED")
        .unwrap()
        .message
        .contains("finished trials keep"));
    let (_, report) = two_jobs(json!({"status": "running"}), &[]);
    let running = find(&report, "RUN_NOT_FINISHED").unwrap();
    assert!(
        running.message.contains("as trials finish") && !running.message.contains("trajector"),
        "{}",
        running.message
    );
}

#[test]
fn trials_listed_twice_are_a_caution() {
    let base = job("job_1", &["agent@1"], json!({}));
    let mut listed = trials("b", "agent@1", &[]);
    listed.push(listed[0].clone());
    let cand = job("job_2", &["agent@2"], json!({}));
    let mut builder = RunSetBuilder::new();
    builder.add_chronicle_job(&base, &listed, None).unwrap();
    builder
        .add_chronicle_job(&cand, &trials("c", "agent@2", &[]), None)
        .unwrap();
    let report = audit(&builder.build(), RunIdx(0), &[RunIdx(1)]).unwrap();
    let found = find(&report, "DUPLICATE_TRIALS").unwrap();
    assert_eq!(found.runs, vec![RunIdx(0)]);
    assert!(found.message.contains("1 trials"));
}

fn results(job_id: &str, pass_rate: Option<f64>, tasks: Value) -> SuiteEvalRun {
    serde_json::from_value(
        json!({"job_id": job_id, "status": "succeeded", "pass_rate": pass_rate,
        "task_results": tasks}),
    )
    .unwrap()
}

/// A compare job of two agents: agent@2 fails task b, so b fails for the job.
fn compare_with(results: &SuiteEvalRun) -> (RunSet, Vec<RunIdx>) {
    let compare = job("job_c", &["agent@1", "agent@2"], json!({"mode": "compare"}));
    let mut all = trials("x", "agent@1", &[]);
    all.extend(trials("y", "agent@2", &["b"]));
    let mut builder = RunSetBuilder::new();
    let runs = builder
        .add_chronicle_job(&compare, &all, Some(results))
        .unwrap();
    (builder.build(), runs)
}

#[test]
fn platform_results_that_agree_are_said_to() {
    let agreeing = results(
        "job_c",
        Some(2.0 / 3.0),
        json!([{"task_id": "a", "passed": true}, {"task_id": "b", "passed": false, "failed_scorers": ["state"]},
               {"task_id": "c", "passed": true}]),
    );
    let (set, runs) = compare_with(&agreeing);
    let report = audit(&set, runs[0], &runs[1..]).unwrap();
    let found = find(&report, "PLATFORM_RESULTS_AGREE").unwrap();
    assert_eq!(found.severity, Severity::Info);
    assert_eq!(found.runs, runs);
    assert!(
        found.message.contains("3 tasks") && found.message.contains("0.667"),
        "{}",
        found.message
    );
    let checks = platform_checks(&set, &runs).unwrap();
    assert_eq!(checks.len(), 1, "one check per job, not per agent");
    assert!(checks[0].agrees());
    assert_eq!((checks[0].computed_tasks, checks[0].platform_tasks), (3, 3));
}

#[test]
fn platform_results_that_disagree_are_a_finding_never_resolved() {
    // The platform says b passed (the trials say it failed) and does not list c.
    let differing = results(
        "job_c",
        Some(1.0),
        json!([{"task_id": "a", "passed": true}, {"task_id": "b", "passed": true}]),
    );
    let (set, runs) = compare_with(&differing);
    let report = audit(&set, runs[0], &runs[1..]).unwrap();
    let found = find(&report, "PLATFORM_RESULTS_DIFFER").unwrap();
    assert_eq!(found.severity, Severity::Caution);
    assert!(
        found.message.contains("on 2 of 3 tasks")
            && found
                .message
                .contains("task b: the platform says passed, the trials failed")
            && found
                .message
                .contains("pass rate: the platform 1.000, the trials 0.667"),
        "{}",
        found.message
    );
    assert!(find(&report, "PLATFORM_RESULTS_AGREE").is_none());
    let check = &platform_checks(&set, &runs).unwrap()[0];
    assert_eq!(check.agreeing_tasks, 1);
    let states: Vec<(&str, PassState, PassState)> = check
        .disagreements
        .iter()
        .map(|d| (d.task_id.as_str(), d.platform, d.computed))
        .collect();
    assert_eq!(
        states,
        [
            ("b", PassState::Passed, PassState::Failed),
            ("c", PassState::Missing, PassState::Passed)
        ]
    );
    assert_eq!(check.disagreements[0].computed_failed_scorers, ["state"]);
    // The report's own numbers stay the trials': nothing was taken from the platform.
    assert_eq!(
        set.run(runs[1]).unwrap().totals().task_mean,
        Some(2.0 / 3.0)
    );
}

#[test]
fn a_task_the_platform_lists_without_a_verdict_or_that_has_no_trial_differs() {
    let odd = results(
        "job_c",
        Some(2.0 / 3.0),
        json!([{"task_id": "a", "passed": null}, {"task_id": "b", "passed": false},
               {"task_id": "c", "passed": true}, {"task_id": "ghost", "passed": true}]),
    );
    let (set, runs) = compare_with(&odd);
    let check = &platform_checks(&set, &runs).unwrap()[0];
    let states: Vec<(&str, PassState, PassState)> = check
        .disagreements
        .iter()
        .map(|d| (d.task_id.as_str(), d.platform, d.computed))
        .collect();
    assert_eq!(
        states,
        [
            ("a", PassState::Unstated, PassState::Passed),
            ("ghost", PassState::Passed, PassState::Missing)
        ]
    );
    assert!(check.pass_rate_agrees);
    assert!(!check.agrees());
}

#[test]
fn jobs_without_results_have_no_platform_check() {
    let (set, report) = two_jobs(json!({}), &[]);
    assert!(platform_checks(&set, &[RunIdx(0), RunIdx(1)])
        .unwrap()
        .is_empty());
    assert!(find(&report, "PLATFORM_RESULTS_AGREE").is_none());
}

#[test]
fn the_report_shows_the_platform_beside_the_trials_in_json_and_markdown() {
    use eval_compare_core::report::{build_report, ReportSettings};
    let differing = results(
        "job_c",
        Some(1.0),
        json!([{"task_id": "a", "passed": true}, {"task_id": "b", "passed": true},
               {"task_id": "c", "passed": true}]),
    );
    let (set, runs) = compare_with(&differing);
    let settings = ReportSettings {
        resamples: 0,
        ..ReportSettings::default()
    };
    let report = build_report(&set, runs[0], &runs[1..], &settings).unwrap();
    assert_eq!(report.format_version, 4);
    let json: Value = serde_json::from_str(&report.to_json()).unwrap();
    assert_eq!(json["platform"][0]["job_id"], "job_c");
    assert_eq!(json["platform"][0]["disagreements"][0]["task_id"], "b");
    assert_eq!(
        json["platform"][0]["disagreements"][0]["platform"],
        "passed"
    );
    assert_eq!(
        json["platform"][0]["disagreements"][0]["computed"],
        "failed"
    );
    assert_eq!(json["runs"][1]["chronicle"]["platform_pass_rate"], 1.0);
    assert_eq!(json["runs"][1]["task_scoring"], "all_samples_pass");
    let markdown = report.to_markdown();
    assert!(
        markdown.contains("## Platform results beside the trials")
            && markdown.contains("| `b` | passed | failed |  | state |")
            && markdown.contains("2 agree, 1 differ; the pass rates differ"),
        "{markdown}"
    );
}

#[test]
fn untrusted_names_in_the_chronicle_sections_stay_text() {
    use eval_compare_core::report::{build_report, ReportSettings};
    let hostile = job(
        "job_h",
        &["<img src=x>@1", "b|c@2"],
        json!({"scorers": ["<script>alert(1)</script>"], "environment_version_id": "[x](http://e)"}),
    );
    let mut all = trials("x", "<img src=x>@1", &[]);
    all.extend(trials("y", "b|c@2", &["a"]));
    let mut builder = RunSetBuilder::new();
    let runs = builder.add_chronicle_job(&hostile, &all, None).unwrap();
    let set = builder.build();
    let settings = ReportSettings {
        resamples: 0,
        ..ReportSettings::default()
    };
    let markdown = build_report(&set, runs[0], &runs[1..], &settings)
        .unwrap()
        .to_markdown();
    // The jobs section (ids elsewhere are code spans, shown literally).
    let section = markdown
        .split("## Chronicle jobs")
        .nth(1)
        .and_then(|rest| rest.split("\n## ").next())
        .unwrap();
    assert!(section.contains("&lt;img src=x&gt;@1"), "{section}");
    assert!(!section.contains("<img"), "{section}");
    assert!(!section.contains("<script>"), "{section}");
    assert!(
        section.contains("\\[x\\](http://e)"),
        "a link's brackets are escaped: {section}"
    );
    assert!(!section.contains(" b|c"), "{section}");
    // Every row keeps its 12 columns.
    for row in section.lines().filter(|line| line.starts_with("| ")) {
        assert_eq!(row.matches(" | ").count(), 11, "{row}");
    }
}
