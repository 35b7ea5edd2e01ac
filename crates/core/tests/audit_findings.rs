//! The comparability audit: every finding, its severity, runs and message, and the verdict.

#![allow(clippy::unwrap_used)]

use eval_compare_core::api::OptionDefault;
use eval_compare_core::audit::{audit, Audit, Severity};
use eval_compare_core::model::{
    CheckpointInfo, EvaluationDefaults, ListedDefault, Lookup, OutcomeClass, RunIdx, RunInfo,
    RunOptions, RunSet, RunSetBuilder, TaskSelection, TrajectoryFlags, TrajectoryInput,
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
                            created: None,
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

/// Evaluation defaults listing these options (number defaults; `None`: computed).
fn defaults(entries: &[(&str, Option<f64>)]) -> Lookup<EvaluationDefaults> {
    Lookup::Read(EvaluationDefaults {
        bench_id: "bench_v1".to_owned(),
        base_model: "org/model-7b".to_owned(),
        options: entries
            .iter()
            .map(|(key, default)| {
                let listed = ListedDefault {
                    default: default.map(OptionDefault::Number),
                    computed: default.is_none(),
                };
                ((*key).to_owned(), listed)
            })
            .collect(),
    })
}

/// The defaults of every setting the audit compares.
fn every_default() -> Lookup<EvaluationDefaults> {
    defaults(&[
        ("temperature", Some(1.0)),
        ("top_p", Some(1.0)),
        ("top_k", Some(-1.0)),
        ("evaluation_samples_per_task", Some(1.0)),
        ("max_output_tokens_per_step", Some(8192.0)),
        ("max_total_tokens_per_trajectory", Some(262_144.0)),
        ("max_turns_per_trajectory", Some(125.0)),
        ("execution_timeout_seconds", Some(7200.0)),
        ("evaluation_collection_timeout_seconds", Some(7200.0)),
    ])
}

/// Both runs with `every_default()` read and a fixed reasoning effort recorded.
fn audit_with_defaults(change: impl FnOnce(&mut RunInfo)) -> Audit {
    let mut base = baseline_info();
    base.settings_inputs.defaults = every_default();
    base.options.reasoning_effort = Some("low".to_owned());
    let mut cand = RunInfo {
        id: "cand".to_owned(),
        display_name: Some("step 400".to_owned()),
        ..base.clone()
    };
    change(&mut cand);
    let (set, b, c) = set_of(base, cand, &TASKS, &TASKS, (2, 2));
    audit(&set, b, &[c]).unwrap()
}

#[test]
fn effective_sampling_settings_are_compared() {
    // The candidate's evaluation override changes the effective temperature.
    let report = audit_of(candidate(|c| c.options.evaluation_temperature = Some(1.0)));
    let (severity, message) = only(&report, "TEMPERATURE_DIFFERS");
    assert_eq!(severity, Severity::Caution);
    assert_eq!(
        message,
        "Temperature differs: baseline 0.7 (recorded, `temperature`), step 400 1.0 (recorded, `evaluation_temperature`) — sampling settings change scores independently of the model."
    );
    // An override equal to the run setting changes nothing.
    let report = audit_of(candidate(|c| c.options.evaluation_temperature = Some(0.7)));
    assert!(report.findings.is_empty(), "{:?}", codes(&report));

    let report = audit_of(candidate(|c| {
        c.options.top_p = Some(0.9);
        c.options.evaluation_top_k = Some(40);
        c.options.evaluation_reasoning_effort = Some("high".to_owned());
    }));
    // The baseline records none of them and read no defaults: they cannot be compared.
    let (severity, message) = only(&report, "SETTINGS_UNRESOLVED");
    assert_eq!(severity, Severity::Caution);
    assert_eq!(
        message,
        "Settings that could not be resolved, so their effective values cannot be compared — baseline: top_p, top_k, Reasoning effort (not recorded, and the evaluation defaults were not read)."
    );
    assert!(!codes(&report).contains(&"TOP_P_DIFFERS"));
}

#[test]
fn a_setting_not_recorded_is_compared_on_its_evaluation_default() {
    // The default is what the candidate ran with: 1.0, not "unknown".
    let report = audit_with_defaults(|c| c.options.temperature = None);
    let (severity, message) = only(&report, "TEMPERATURE_DIFFERS");
    assert_eq!(severity, Severity::Caution);
    assert!(
        message.contains("baseline 0.7 (recorded, `temperature`), step 400 1.0 (evaluation default, `temperature`)"),
        "{message}"
    );
    // A recorded value equal to the default is the same setting.
    let report = audit_with_defaults(|c| {
        c.options.temperature = None;
        c.settings_inputs.defaults = defaults(&[("temperature", Some(0.7))]);
    });
    assert!(
        !codes(&report).contains(&"TEMPERATURE_DIFFERS"),
        "{:?}",
        codes(&report)
    );
    // The defaults of both runs' model and version resolve every other setting alike.
    let report = audit_with_defaults(|_| {});
    assert!(report.findings.is_empty(), "{:?}", report.findings);
    let json = serde_json::to_value(&report).unwrap();
    assert_eq!(json["settings"][1]["settings"][1]["setting"], "top_p");
    assert_eq!(
        json["settings"][1]["settings"][1]["resolution"],
        serde_json::json!({"status": "resolved", "value": 1.0, "source": "evaluation_default", "option": "top_p"})
    );
}

#[test]
fn a_checkpoint_is_compared_on_its_training_runs_settings() {
    let checkpoint = CheckpointInfo {
        step: Some(400),
        training_run_id: Some("tr_1".to_owned()),
        parent_checkpoint_id: None,
    };
    // Training samples at 1.0, its held-out evaluation at 0.7: the checkpoint's evaluation
    // inherits the override, so it matches the baseline.
    let inherits = |c: &mut RunInfo| {
        c.checkpoint = checkpoint.clone();
        c.options.temperature = None;
        c.settings_inputs.training_run = Lookup::Read(RunOptions {
            temperature: Some(1.0),
            evaluation_temperature: Some(0.7),
            max_turns_per_trajectory: Some(30),
            ..RunOptions::default()
        });
    };
    let report = audit_with_defaults(inherits);
    assert!(
        !codes(&report).contains(&"TEMPERATURE_DIFFERS"),
        "{:?}",
        codes(&report)
    );
    // Recorded by the evaluation, the turn limit wins over the training run's.
    assert!(
        !codes(&report).contains(&"MAX_TURNS_DIFFERS"),
        "{:?}",
        codes(&report)
    );
    let report = audit_with_defaults(|c| {
        inherits(c);
        c.options.max_turns_per_trajectory = None;
    });
    let (_, message) = only(&report, "MAX_TURNS_DIFFERS");
    assert!(
        message.contains("step 400 30 (training run, `max_turns_per_trajectory`)"),
        "{message}"
    );
    // A training run that could not be read: its checkpoint's unrecorded settings are not
    // guessed from the defaults.
    let report = audit_with_defaults(|c| {
        inherits(c);
        c.settings_inputs.training_run = Lookup::Failed("HTTP 404 not found".to_owned());
    });
    let (severity, message) = only(&report, "SETTINGS_UNRESOLVED");
    assert_eq!(severity, Severity::Caution);
    assert!(
        message.contains("step 400: Temperature, top_p, top_k, Max output tokens per step, Max total tokens per trajectory, Execution timeout (s), Evaluation collection timeout (s) (not recorded, and the training run's options could not be read: HTTP 404 not found)"),
        "{message}"
    );
}

#[test]
fn settings_unresolved_on_both_sides_are_worth_knowing() {
    // Other models, no defaults read: top_p is unknown on both sides (Info, nothing known).
    let report = audit_of(candidate(|c| {
        c.base_model = Some("org/other-70b".to_owned())
    }));
    let (severity, message) = only(&report, "SETTINGS_UNRESOLVED");
    assert_eq!(severity, Severity::Info);
    assert!(message.contains("baseline: top_p"), "{message}");
    assert!(message.contains("; step 400: top_p"), "{message}");
    // One model on one version, both base-model runs: the same defaults applied to both.
    let report = audit_of(candidate(|_| {}));
    assert!(!codes(&report).contains(&"SETTINGS_UNRESOLVED"));
}

#[test]
fn limit_differences_are_cautions() {
    let report = audit_with_defaults(|c| {
        c.options.samples_per_task = Some(8);
        c.options.max_output_tokens_per_step = Some(4096);
        c.options.max_total_tokens_per_trajectory = Some(100_000);
        c.options.max_turns_per_trajectory = Some(250);
        c.options.execution_timeout_seconds = Some(600);
        c.options.evaluation_collection_timeout_seconds = Some(3600.0);
    });
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
    assert!(
        turns.contains("baseline 50 (recorded, `max_turns_per_trajectory`), step 400 250 (recorded, `max_turns_per_trajectory`)"),
        "{turns}"
    );
    let (_, collection) = only(&report, "COLLECTION_TIMEOUT_DIFFERS");
    assert!(
        collection.contains("baseline 7200.0 (evaluation default, `evaluation_collection_timeout_seconds`), step 400 3600.0 (recorded"),
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
