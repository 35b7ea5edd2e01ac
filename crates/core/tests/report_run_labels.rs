//! Every run of a report has a label of its own: runs named alike ("Step 200" twice) are told
//! apart in the summaries, and so in every title, card, table and report made from them.

#![allow(clippy::unwrap_used)]

use eval_compare_core::model::{
    CheckpointInfo, OutcomeClass, RunInfo, RunSetBuilder, TrajectoryFlags, TrajectoryInput,
};
use eval_compare_core::report::{build_report, Report, ReportSettings};

fn run(id: &str, name: Option<&str>, step: Option<i64>) -> RunInfo {
    RunInfo {
        id: id.to_owned(),
        display_name: name.map(str::to_owned),
        checkpoint: CheckpointInfo {
            step,
            ..CheckpointInfo::default()
        },
        status: Some("completed".to_owned()),
        ..RunInfo::default()
    }
}

/// The report of the first run against the others, each with a few graded tasks.
fn report_of(runs: Vec<RunInfo>) -> Report {
    let mut builder = RunSetBuilder::new();
    let indices: Vec<_> = runs
        .into_iter()
        .map(|info| builder.add_run(info).unwrap())
        .collect();
    for &index in &indices {
        for task in 0..6 {
            let id = format!("{}-{task}", index.0);
            let name = format!("t{task}");
            builder
                .add_trajectory(
                    index,
                    TrajectoryInput {
                        id: &id,
                        task: Some(&name),
                        class: OutcomeClass::Graded,
                        reward: Some(f64::from(u8::from(task % 2 == 0))),
                        ending: Some("ENV_DONE"),
                        flags: TrajectoryFlags::NONE,
                        created: None,
                        components: None,
                    },
                )
                .unwrap();
        }
    }
    let set = builder.build();
    build_report(&set, indices[0], &indices[1..], &ReportSettings::default()).unwrap()
}

fn labels(report: &Report) -> Vec<&str> {
    report.runs.iter().map(|run| run.name.as_str()).collect()
}

#[test]
fn two_checkpoints_of_one_step_are_told_apart_by_their_names() {
    let report = report_of(vec![
        run("eval_base_v2", Some("Base model v2"), None),
        run("eval_ckpt_s200", Some("Checkpoint step 200"), Some(200)),
        run(
            "eval_ckpt_s200_failed",
            Some("Checkpoint step 200 (first attempt)"),
            Some(200),
        ),
        run("eval_ckpt_s400", Some("Checkpoint step 400"), Some(400)),
    ]);
    assert_eq!(
        labels(&report),
        [
            "Base model v2",
            "Step 200 · eval_ckpt_s200",
            "Step 200 (first attempt)",
            "Step 400",
        ]
    );
    let markdown = report.to_markdown();
    assert!(markdown.contains("Step 200 (first attempt)"), "{markdown}");
    assert!(markdown.contains("Step 200 · eval_ckpt_s200"), "{markdown}");
}

#[test]
fn labels_with_nothing_shared_in_their_names_get_the_run_id() {
    let report = report_of(vec![
        run("base", Some("Step 200"), None),
        run("ckpt", Some("Checkpoint 200"), Some(200)),
        run("other", None, Some(200)),
    ]);
    assert_eq!(
        labels(&report),
        ["Step 200 · base", "Step 200 · ckpt", "Step 200 · other"]
    );
}

#[test]
fn a_label_equal_to_another_runs_id_is_numbered() {
    let report = report_of(vec![
        run("Step 300 · b", Some("Step 300 · b"), None),
        run("b", Some("x"), Some(300)),
        run("c", Some("y"), Some(300)),
    ]);
    let labels = labels(&report);
    for (i, label) in labels.iter().enumerate() {
        assert!(!labels[..i].contains(label), "{labels:?}");
    }
}
