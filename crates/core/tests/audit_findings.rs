//! The comparability audit: every finding, its severity, runs and message, and the verdict.

#![allow(clippy::unwrap_used)]

use eval_compare_core::audit::{audit, Audit, Severity};
use eval_compare_core::model::{
    CheckpointInfo, OutcomeClass, RunIdx, RunInfo, RunOptions, RunSet, RunSetBuilder,
    TaskSelection, TrajectoryFlags, TrajectoryInput,
};

fn baseline_info() -> RunInfo {
    RunInfo {
        id: "base".to_owned(),
        display_name: Some("baseline".to_owned()),
        base_model: Some("org/model-7b".to_owned()),
        bench_id: Some("bench_v1".to_owned()),
        options: RunOptions {
            temperature: Some(0.7),
            samples_per_task: Some(2),
            max_turns_per_trajectory: Some(50),
            ..RunOptions::default()
        },
        task_selection: Some(TaskSelection {
            split: "test".to_owned(),
            available: 100,
            selected: 100,
            max_samples: None,
        }),
        status: Some("completed".to_owned()),
        source: eval_compare_core::model::SourceKind::Files,
        ..RunInfo::default()
    }
}

/// Both runs get `samples` trajectories on each of `tasks` (graded 1.0).
fn set_of(
    base: RunInfo,
    cand: RunInfo,
    base_tasks: &[&str],
    cand_tasks: &[&str],
    samples: (u32, u32),
) -> (RunSet, RunIdx, RunIdx) {
    let mut builder = RunSetBuilder::new();
    let b = builder.add_run(base).unwrap();
    let c = builder.add_run(cand).unwrap();
    for (run, tasks, k) in [(b, base_tasks, samples.0), (c, cand_tasks, samples.1)] {
        for task in tasks {
            for sample in 0..k {
                let id = format!("{}-{task}-{sample}", run.0);
                builder
                    .add_trajectory(
                        run,
                        TrajectoryInput {
                            id: &id,
                            task: Some(task),
                            class: OutcomeClass::Graded,
                            reward: Some(1.0),
                            ending: Some("ENV_DONE"),
                            flags: TrajectoryFlags::NONE,
                            components: None,
                        },
                    )
                    .unwrap();
            }
        }
    }
    (builder.build(), b, c)
}

const TASKS: [&str; 4] = ["a", "b", "c", "d"];

fn audit_of(cand: RunInfo) -> Audit {
    let (set, b, c) = set_of(baseline_info(), cand, &TASKS, &TASKS, (2, 2));
    audit(&set, b, &[c]).unwrap()
}

fn candidate(change: impl FnOnce(&mut RunInfo)) -> RunInfo {
    let mut info = RunInfo {
        id: "cand".to_owned(),
        display_name: Some("step 400".to_owned()),
        ..baseline_info()
    };
    change(&mut info);
    info
}

fn codes(audit: &Audit) -> Vec<&str> {
    audit.findings.iter().map(|f| f.code.as_str()).collect()
}

fn only(audit: &Audit, code: &str) -> (Severity, String) {
    let found: Vec<_> = audit.findings.iter().filter(|f| f.code == code).collect();
    assert_eq!(found.len(), 1, "{code} in {:?}", codes(audit));
    (found[0].severity, found[0].message.clone())
}

#[test]
fn identical_runs_have_no_findings() {
    let report = audit_of(candidate(|_| {}));
    assert!(report.findings.is_empty(), "{:?}", report.findings);
    assert_eq!(report.verdict, Severity::Info);
}

#[test]
fn another_benchmark_version_or_split_blocks() {
    let report = audit_of(candidate(|c| c.bench_id = Some("bench_v2".to_owned())));
    let (severity, message) = only(&report, "BENCHMARK_VERSION_DIFFERS");
    assert_eq!(severity, Severity::Blocking);
    assert!(
        message.contains("baseline ran bench_v1, step 400 ran bench_v2"),
        "{message}"
    );
    assert_eq!(report.verdict, Severity::Blocking);
    assert_eq!(report.findings[0].runs, vec![RunIdx(0), RunIdx(1)]);

    let report = audit_of(candidate(|c| c.bench_id = None));
    assert_eq!(
        only(&report, "BENCHMARK_VERSION_UNKNOWN").0,
        Severity::Caution
    );

    let report = audit_of(candidate(|c| {
        if let Some(selection) = c.task_selection.as_mut() {
            selection.split = "all".to_owned();
        }
    }));
    assert_eq!(only(&report, "SPLIT_DIFFERS").0, Severity::Blocking);
}

#[test]
fn task_selection_differences_are_cautions() {
    let report = audit_of(candidate(|c| {
        c.task_selection = Some(TaskSelection {
            split: "test".to_owned(),
            available: 120,
            selected: 50,
            max_samples: Some(50),
        })
    }));
    assert_eq!(only(&report, "AVAILABLE_TASKS_DIFFER").0, Severity::Caution);
    let (severity, message) = only(&report, "TASK_CAP_DIFFERS");
    assert_eq!(severity, Severity::Caution);
    assert!(
        message.contains("baseline none (all tasks), step 400 50"),
        "{message}"
    );
    assert_eq!(only(&report, "SELECTED_TASKS_DIFFER").0, Severity::Caution);
    assert_eq!(report.verdict, Severity::Caution);

    let report = audit_of(candidate(|c| c.task_selection = None));
    assert_eq!(only(&report, "TASK_SELECTION_UNKNOWN").0, Severity::Info);
}

#[test]
fn effective_sampling_settings_are_compared() {
    // The candidate's evaluation override changes the effective temperature.
    let report = audit_of(candidate(|c| c.options.evaluation_temperature = Some(1.0)));
    let (severity, message) = only(&report, "TEMPERATURE_DIFFERS");
    assert_eq!(severity, Severity::Caution);
    assert_eq!(
        message,
        "Temperature differs: baseline 0.7, step 400 1.0 — sampling settings change scores independently of the model."
    );
    // An override equal to the run setting changes nothing.
    let report = audit_of(candidate(|c| c.options.evaluation_temperature = Some(0.7)));
    assert!(report.findings.is_empty(), "{:?}", codes(&report));
    // Not recorded on one side.
    let report = audit_of(candidate(|c| c.options.temperature = None));
    assert!(only(&report, "TEMPERATURE_DIFFERS")
        .1
        .contains("step 400 not recorded (default)"));

    let report = audit_of(candidate(|c| {
        c.options.top_p = Some(0.9);
        c.options.evaluation_top_k = Some(40);
        c.options.evaluation_reasoning_effort = Some("high".to_owned());
    }));
    assert_eq!(only(&report, "TOP_P_DIFFERS").0, Severity::Caution);
    assert_eq!(only(&report, "TOP_K_DIFFERS").0, Severity::Caution);
    let (_, message) = only(&report, "REASONING_EFFORT_DIFFERS");
    assert!(message.contains("step 400 high"), "{message}");
}

#[test]
fn limit_differences_are_cautions() {
    let report = audit_of(candidate(|c| {
        c.options.samples_per_task = Some(8);
        c.options.max_output_tokens_per_step = Some(4096);
        c.options.max_total_tokens_per_trajectory = Some(100_000);
        c.options.max_turns_per_trajectory = Some(250);
        c.options.execution_timeout_seconds = Some(600);
        c.options.evaluation_collection_timeout_seconds = Some(3600.0);
    }));
    for code in [
        "SAMPLES_PER_TASK_DIFFERS",
        "MAX_OUTPUT_TOKENS_PER_STEP_DIFFERS",
        "MAX_TOTAL_TOKENS_DIFFERS",
        "MAX_TURNS_DIFFERS",
        "EXECUTION_TIMEOUT_DIFFERS",
        "COLLECTION_TIMEOUT_DIFFERS",
    ] {
        assert_eq!(only(&report, code).0, Severity::Caution, "{code}");
    }
    let (_, turns) = only(&report, "MAX_TURNS_DIFFERS");
    assert!(turns.contains("baseline 50, step 400 250"), "{turns}");
    let (_, collection) = only(&report, "COLLECTION_TIMEOUT_DIFFERS");
    assert!(
        collection.contains("not recorded (default), step 400 3600.0"),
        "{collection}"
    );
}

#[test]
fn models_and_checkpoints() {
    let report = audit_of(candidate(|c| {
        c.base_model = Some("org/other-70b".to_owned())
    }));
    assert_eq!(only(&report, "BASE_MODEL_DIFFERS").0, Severity::Caution);

    let report = audit_of(candidate(|c| c.base_model = None));
    assert_eq!(only(&report, "BASE_MODEL_UNKNOWN").0, Severity::Info);

    let checkpoint = |step: i64, run: &str| CheckpointInfo {
        step: Some(step),
        training_run_id: Some(run.to_owned()),
        parent_checkpoint_id: Some(format!("{run}-{step}")),
    };
    let report = audit_of(candidate(|c| c.checkpoint = checkpoint(400, "tr_1")));
    let (severity, message) = only(&report, "CHECKPOINT_VS_BASE");
    assert_eq!(severity, Severity::Info);
    assert!(
        message.contains("step 400 of training run tr_1"),
        "{message}"
    );
    assert_eq!(report.verdict, Severity::Info);

    let pair = |b: CheckpointInfo, c: CheckpointInfo| {
        let base = RunInfo {
            checkpoint: b,
            ..baseline_info()
        };
        let (set, bi, ci) = set_of(
            base,
            candidate(|x| x.checkpoint = c),
            &TASKS,
            &TASKS,
            (2, 2),
        );
        audit(&set, bi, &[ci]).unwrap()
    };
    let same_run = pair(checkpoint(100, "tr_1"), checkpoint(400, "tr_1"));
    assert!(only(&same_run, "SAME_TRAINING_RUN")
        .1
        .contains("(step 100)"));
    let same = pair(checkpoint(100, "tr_1"), checkpoint(100, "tr_1"));
    assert_eq!(only(&same, "SAME_CHECKPOINT").0, Severity::Info);
    let different = pair(checkpoint(100, "tr_1"), checkpoint(100, "tr_2"));
    assert_eq!(
        only(&different, "DIFFERENT_TRAINING_RUNS").0,
        Severity::Info
    );
}

#[test]
fn run_status_findings() {
    let cases = [
        (Some("running"), "RUN_NOT_FINISHED", Severity::Caution),
        (Some("pending"), "RUN_NOT_FINISHED", Severity::Caution),
        (Some("queued"), "RUN_NOT_FINISHED", Severity::Caution),
        (Some("failed"), "RUN_FAILED", Severity::Caution),
        (Some("cancelled"), "RUN_CANCELLED", Severity::Caution),
        (Some("paused_by_ops"), "UNKNOWN_STATUS", Severity::Caution),
        (None, "STATUS_UNKNOWN", Severity::Info),
    ];
    for (status, code, severity) in cases {
        let report = audit_of(candidate(|c| {
            c.status = status.map(str::to_owned);
            c.failure = Some("quota: out of credits".to_owned());
        }));
        let found = report.findings.iter().find(|f| f.code == code).unwrap();
        assert_eq!(found.severity, severity, "{code}");
        assert_eq!(
            found.runs,
            vec![RunIdx(1)],
            "status concerns the candidate only"
        );
        if code == "RUN_FAILED" {
            assert!(
                found.message.contains("(quota: out of credits)"),
                "{}",
                found.message
            );
        }
        if code == "UNKNOWN_STATUS" {
            assert!(
                found.message.contains("`paused_by_ops`"),
                "{}",
                found.message
            );
        }
    }
    let report = audit_of(candidate(|c| c.status = Some("succeeded".to_owned())));
    assert!(report.findings.is_empty());
}

#[test]
fn task_sets_and_samples_actually_present() {
    let many: Vec<String> = (0..200).map(|t| format!("t{t}")).collect();
    let many: Vec<&str> = many.iter().map(String::as_str).collect();
    // One task missing of 200: 0.5% → info.
    let (set, b, c) = set_of(
        baseline_info(),
        candidate(|_| {}),
        &many,
        &many[1..],
        (2, 2),
    );
    let report = audit(&set, b, &[c]).unwrap();
    let (severity, message) = only(&report, "TASK_SETS_DIFFER");
    assert_eq!(severity, Severity::Info);
    assert!(
        message.contains("1 tasks only in baseline, 0 only in step 400 (of 200)"),
        "{message}"
    );
    // Ten missing: 5% → caution.
    let (set, b, c) = set_of(
        baseline_info(),
        candidate(|_| {}),
        &many,
        &many[10..],
        (2, 2),
    );
    assert_eq!(
        only(&audit(&set, b, &[c]).unwrap(), "TASK_SETS_DIFFER").0,
        Severity::Caution
    );
    // Disjoint: nothing to compare.
    let (set, b, c) = set_of(
        baseline_info(),
        candidate(|_| {}),
        &["a", "b"],
        &["c", "d"],
        (2, 2),
    );
    let report = audit(&set, b, &[c]).unwrap();
    assert_eq!(only(&report, "NO_PAIRED_TASKS").0, Severity::Blocking);
    assert_eq!(report.verdict, Severity::Blocking);
    // Observed samples per task differ (recorded options equal).
    let (set, b, c) = set_of(baseline_info(), candidate(|_| {}), &TASKS, &TASKS, (2, 5));
    let (severity, message) = only(&audit(&set, b, &[c]).unwrap(), "OBSERVED_SAMPLES_DIFFER");
    assert_eq!(severity, Severity::Caution);
    assert!(
        message.contains("typically 2 for baseline, 5 for step 400"),
        "{message}"
    );
}

#[test]
fn several_candidates_same_run_and_unknown_runs() {
    let mut builder = RunSetBuilder::new();
    let b = builder.add_run(baseline_info()).unwrap();
    let c1 = builder
        .add_run(candidate(|c| c.id = "c1".to_owned()))
        .unwrap();
    let c2 = builder
        .add_run(candidate(|c| {
            c.id = "c2".to_owned();
            c.display_name = Some("step 800".to_owned());
            c.options.temperature = Some(1.0);
        }))
        .unwrap();
    let set = builder.build();
    let report = audit(&set, b, &[c1, c2, b]).unwrap();
    assert_eq!(report.candidates, vec![c1, c2, b]);
    let temperature = only(&report, "TEMPERATURE_DIFFERS");
    assert!(temperature.1.contains("step 800 1.0"));
    assert_eq!(only(&report, "SAME_RUN").0, Severity::Info);
    // No trajectories at all: nothing paired for either candidate.
    assert_eq!(
        report
            .findings
            .iter()
            .filter(|f| f.code == "NO_PAIRED_TASKS")
            .count(),
        2
    );
    assert_eq!(report.with_severity(Severity::Blocking).count(), 2);
    assert!(audit(&set, b, &[RunIdx(42)]).is_err());
    let json = serde_json::to_value(&report).unwrap();
    assert_eq!(json["verdict"], "blocking");
    assert_eq!(json["findings"][0]["code"], "NO_PAIRED_TASKS");
    assert_eq!(json["findings"][0]["severity"], "blocking");
    assert_eq!(json["findings"][0]["runs"], serde_json::json!([0, 1]));
}
