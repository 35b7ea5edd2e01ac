//! Checkpoints against each other, the tasks' paths across them and the pass threshold, on a
//! hand-made training run with continuous rewards: the step-against-step verdict is the report's
//! own verdict of the same pair, the paths follow the rule, the threshold makes pass@k appear
//! and leaves a report without it unchanged, and the report with the threshold set equals a
//! committed golden markdown.
//!
//! Regenerate after an intended change:
//! `UPDATE_GOLDEN=1 cargo test -p eval-compare-core --test report_checkpoints`.
#![allow(clippy::unwrap_used)]

use eval_compare_core::model::{
    CheckpointInfo, OutcomeClass, RunIdx, RunInfo, RunSet, RunSetBuilder, SourceKind, TaskInput,
    TrajectoryFlags, TrajectoryInput,
};
use eval_compare_core::report::{build_report, classify, PathKind, ReportSettings, StepState};
use proptest::prelude::*;

const GOLDEN_MARKDOWN: &str = "tests/data/report_golden_checkpoints_threshold.md";
const TASKS: usize = 40;
const SAMPLES: usize = 4;

/// A reward in [0, 1] for run `run`, task `task`, sample `sample`: a deterministic spread whose
/// level moves with the run (step 300 regresses on the tasks from 30 on).
fn reward(run: usize, task: usize, sample: usize) -> f64 {
    let base = ((task * 37 + sample * 11) % 100) as f64 / 100.0;
    let shift = match run {
        0 => 0.0,
        1 => 0.10,
        2 => 0.20,
        _ if task >= 30 => -0.35,
        _ => 0.15,
    };
    let wobble = ((task * 7 + sample * 3 + run * 5) % 9) as f64 / 100.0;
    (base + shift + wobble - 0.04).clamp(0.0, 1.0)
}

fn checkpoint_set() -> RunSet {
    let mut builder = RunSetBuilder::new();
    for task in 0..TASKS {
        builder
            .add_task(TaskInput {
                id: format!("t{task:02}"),
                label: Some(format!("Task {task}")),
                ..TaskInput::default()
            })
            .unwrap();
    }
    for (run, step) in [None, Some(100), Some(200), Some(300)]
        .into_iter()
        .enumerate()
    {
        let id = step.map_or("base".to_owned(), |s| format!("ckpt_{s}"));
        let index = builder
            .add_run(RunInfo {
                id: id.clone(),
                bench_id: Some("bench_v1".into()),
                checkpoint: CheckpointInfo {
                    step,
                    training_run_id: step.map(|_| "train_1".into()),
                    parent_checkpoint_id: None,
                },
                status: Some("completed".into()),
                source: SourceKind::Files,
                ..RunInfo::default()
            })
            .unwrap();
        for task in 0..TASKS {
            for sample in 0..SAMPLES {
                builder
                    .add_trajectory(
                        index,
                        TrajectoryInput {
                            id: &format!("{id}-{task}-{sample}"),
                            task: Some(&format!("t{task:02}")),
                            class: OutcomeClass::Graded,
                            reward: Some(reward(run, task, sample)),
                            ending: None,
                            flags: TrajectoryFlags::default(),
                            created: None,
                            components: None,
                        },
                    )
                    .unwrap();
            }
        }
    }
    builder.build()
}

fn settings() -> ReportSettings {
    ReportSettings {
        resamples: 200,
        seed: 5,
        ..ReportSettings::default()
    }
}

#[test]
fn a_step_against_the_previous_one_is_the_reports_own_verdict_of_that_pair() {
    let set = checkpoint_set();
    let report = build_report(&set, RunIdx(0), &[RunIdx(1), RunIdx(2)], &settings()).unwrap();
    let checkpoints = report.checkpoints.as_ref().unwrap();
    assert_eq!(checkpoints.versus_previous.len(), 1);
    let step = &checkpoints.versus_previous[0];
    assert_eq!((step.step, step.against_step), (200, 100));
    // Step 100 as the baseline, step 200 its one candidate: Holm over one test is the test.
    let pair = build_report(&set, RunIdx(1), &[RunIdx(2)], &settings()).unwrap();
    let candidate = &pair.candidates[0];
    assert_eq!(step.verdict, candidate.verdict);
    assert_eq!(step.p_holm, candidate.p_holm);
    assert_eq!(step.n, candidate.primary.n);
    assert_eq!(
        step.delta.as_ref().ok(),
        candidate.primary.estimate.as_ref().ok().map(|e| &e.delta)
    );
}

#[test]
fn the_chosen_step_is_compared_with_every_other_and_paths_follow_the_rule() {
    let set = checkpoint_set();
    let chosen = ReportSettings {
        versus_step: Some(100),
        ..settings()
    };
    let candidates = [RunIdx(3), RunIdx(1), RunIdx(2)];
    let report = build_report(&set, RunIdx(0), &candidates, &chosen).unwrap();
    let checkpoints = report.checkpoints.as_ref().unwrap();
    let pairs: Vec<(i64, i64)> = checkpoints
        .versus_previous
        .iter()
        .map(|c| (c.step, c.against_step))
        .collect();
    assert_eq!(pairs, [(200, 100), (300, 200)]);
    assert_eq!(checkpoints.versus_step, Some(100));
    let chosen_pairs: Vec<(i64, i64)> = checkpoints
        .versus_chosen
        .iter()
        .map(|c| (c.step, c.against_step))
        .collect();
    assert_eq!(chosen_pairs, [(200, 100), (300, 100)]);
    for path in &checkpoints.paths {
        let row = &report.tasks[path.task];
        if let PathKind::RegressedFrom { step: 300 } = path.kind {
            // The candidates are in the order 300, 100, 200: the first delta is step 300's.
            assert!(row.deltas[0].unwrap() < 0.0, "{}", row.task_id);
        }
    }
    let regressed = checkpoints
        .paths
        .iter()
        .filter(|p| p.kind == PathKind::RegressedFrom { step: 300 })
        .count();
    assert!(
        regressed >= 5,
        "the tasks from 30 on regress at 300: {regressed}"
    );
    // A step no checkpoint has picks nothing.
    let missing = ReportSettings {
        versus_step: Some(150),
        ..settings()
    };
    let none = build_report(&set, RunIdx(0), &candidates, &missing).unwrap();
    let none = none.checkpoints.unwrap();
    assert_eq!((none.versus_step, none.versus_chosen.len()), (None, 0));
}

#[test]
fn a_pass_threshold_makes_pass_at_k_exist_and_unset_changes_nothing() {
    let set = checkpoint_set();
    let plain = build_report(&set, RunIdx(0), &[RunIdx(1), RunIdx(2)], &settings()).unwrap();
    assert!(
        plain.candidates[0].primary.pass_at_k.is_empty(),
        "continuous: no pass@k"
    );
    assert!(!plain.runs[0].binary);
    let explicit_none = ReportSettings {
        pass_threshold: None,
        ..settings()
    };
    let again = build_report(&set, RunIdx(0), &[RunIdx(1), RunIdx(2)], &explicit_none).unwrap();
    assert_eq!(plain.to_json(), again.to_json());
    assert!(!plain.to_json().contains("pass_threshold"));
    let thresholded = build_report(
        &set,
        RunIdx(0),
        &[RunIdx(1), RunIdx(2)],
        &ReportSettings {
            pass_threshold: Some(0.5),
            ..settings()
        },
    )
    .unwrap();
    assert!(thresholded.runs.iter().all(|run| run.binary));
    let pass_k: Vec<u64> = thresholded.candidates[0]
        .primary
        .pass_at_k
        .iter()
        .map(|p| p.k)
        .collect();
    assert_eq!(pass_k, [1], "k = 1 only: 4 samples per task, k of 1, 5, 10");
    assert!(thresholded.to_json().contains("\"pass_threshold\": 0.5"));
    let markdown = thresholded.to_markdown();
    assert!(
        markdown.contains("a valid reward of at least 0.500 passes"),
        "{markdown}"
    );
    assert!(thresholded.to_html(None).contains("id=\"pass-threshold\""));
    let bad = ReportSettings {
        pass_threshold: Some(0.0),
        ..settings()
    };
    assert!(build_report(&set, RunIdx(0), &[RunIdx(1)], &bad).is_err());
}

#[test]
fn the_thresholded_checkpoint_report_equals_the_golden_markdown() {
    let set = checkpoint_set();
    let report = build_report(
        &set,
        RunIdx(0),
        &[RunIdx(1), RunIdx(2), RunIdx(3)],
        &ReportSettings {
            pass_threshold: Some(0.6),
            versus_step: Some(100),
            ..settings()
        },
    )
    .unwrap();
    let text = report.to_markdown();
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(GOLDEN_MARKDOWN);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, &text).unwrap();
    }
    let expected = std::fs::read_to_string(&path).unwrap();
    assert!(
        text == expected,
        "the markdown differs from {GOLDEN_MARKDOWN}:\n{text}"
    );
}

fn states() -> impl Strategy<Value = Vec<(i64, StepState)>> {
    proptest::collection::vec(
        prop_oneof![
            Just(StepState::Better),
            Just(StepState::Same),
            Just(StepState::Worse)
        ],
        0..8,
    )
    .prop_map(|states| {
        states
            .into_iter()
            .enumerate()
            .map(|(i, s)| (100 * (i as i64 + 1), s))
            .collect()
    })
}

fn mirror(steps: &[(i64, StepState)]) -> Vec<(i64, StepState)> {
    steps
        .iter()
        .map(|&(step, s)| {
            let s = match s {
                StepState::Better => StepState::Worse,
                StepState::Worse => StepState::Better,
                StepState::Same => StepState::Same,
            };
            (step, s)
        })
        .collect()
}

proptest! {
    #[test]
    fn paths_are_classified_by_the_rule(steps in states()) {
        let kind = classify(&steps);
        let changes = steps.windows(2).filter(|w| w[0].1 != w[1].1).count();
        prop_assert_eq!(kind.is_none(), changes == 0);
        // Swapping better and worse mirrors the kind.
        prop_assert_eq!(classify(&mirror(&steps)), kind.map(PathKind::mirrored));
        match kind {
            Some(PathKind::RegressedFrom { step }) => {
                for &(at, state) in &steps {
                    prop_assert_eq!(at >= step, state == StepState::Worse);
                }
            }
            Some(PathKind::FixedThenLost { fixed, lost }) => {
                prop_assert!(fixed < lost);
                for &(at, state) in &steps {
                    prop_assert_eq!(at >= fixed && at < lost, state == StepState::Better);
                    prop_assert!(state != StepState::Worse);
                }
            }
            Some(PathKind::Flipping { changes: c }) => prop_assert_eq!(c, changes),
            _ => {}
        }
    }
}
