//! Reports for the chart tests (the browser tests of `charts.rs` and the native snapshots of
//! `chart_snapshots.rs`), built with the core's `RunSetBuilder` and `build_report` (bootstrap
//! off): every input is fixed, so every chart drawn from them is too.
#![allow(dead_code)] // Each test file uses a subset of these helpers.

use eval_compare_core::model::{
    CheckpointInfo, OutcomeClass, RunInfo, RunSetBuilder, TrajectoryFlags, TrajectoryInput,
};
use eval_compare_core::report::{build_report, Report, ReportSettings};

const G: OutcomeClass = OutcomeClass::Graded;

/// One run: id, checkpoint step, and its trajectories (task, class, reward).
pub struct RunSpec<'a> {
    id: &'a str,
    step: Option<i64>,
    rows: Vec<(String, OutcomeClass, Option<f64>)>,
    status: &'static str,
}

impl RunSpec<'_> {
    /// The same run, still running (its verdict provisional).
    pub fn running(self) -> Self {
        RunSpec {
            status: "running",
            ..self
        }
    }
}

pub fn run<'a>(id: &'a str, step: Option<i64>, rewards: &[Option<f64>]) -> RunSpec<'a> {
    RunSpec {
        id,
        step,
        rows: rewards
            .iter()
            .enumerate()
            .map(|(task, reward)| match reward {
                Some(value) => (format!("t{task}"), G, Some(*value)),
                None => (format!("t{task}"), OutcomeClass::Failed, None),
            })
            .collect(),
        status: "completed",
    }
}

/// The report of the first run (baseline) against the others, bootstrap off.
pub fn report_of(runs: &[RunSpec<'_>]) -> Report {
    let mut builder = RunSetBuilder::new();
    let mut indices = Vec::new();
    for spec in runs {
        let index = builder
            .add_run(RunInfo {
                id: spec.id.into(),
                display_name: Some(spec.id.to_uppercase()),
                bench_id: Some("bench_v1".into()),
                checkpoint: CheckpointInfo {
                    step: spec.step,
                    training_run_id: spec.step.map(|_| "train_1".into()),
                    parent_checkpoint_id: None,
                },
                status: Some(spec.status.into()),
                source: eval_compare_core::model::SourceKind::Files,
                ..RunInfo::default()
            })
            .expect("unique run ids");
        for (i, (task, class, reward)) in spec.rows.iter().enumerate() {
            let id = format!("{}-{i}", spec.id);
            builder
                .add_trajectory(
                    index,
                    TrajectoryInput {
                        id: &id,
                        task: Some(task),
                        class: *class,
                        reward: *reward,
                        ending: None,
                        flags: TrajectoryFlags::default(),
                        created: None,
                        components: None,
                    },
                )
                .expect("a valid trajectory");
        }
        indices.push(index);
    }
    let set = builder.build();
    let settings = ReportSettings {
        resamples: 0,
        ..ReportSettings::default()
    };
    build_report(&set, indices[0], &indices[1..], &settings).expect("a valid comparison")
}

/// Binary single-sample runs: a baseline and two checkpoints over six tasks.
pub fn small_report() -> Report {
    report_of(&[
        run(
            "base",
            None,
            &[
                Some(1.0),
                Some(1.0),
                Some(0.0),
                Some(0.0),
                Some(1.0),
                Some(0.0),
            ],
        ),
        run(
            "ck100",
            Some(100),
            &[
                Some(1.0),
                Some(1.0),
                Some(1.0),
                Some(0.0),
                Some(0.0),
                Some(0.0),
            ],
        ),
        run(
            "ck200",
            Some(200),
            &[Some(1.0), Some(1.0), Some(1.0), Some(1.0), Some(0.0), None],
        ),
    ])
}

/// Continuous rewards on twelve tasks: a baseline and three checkpoints, the last still running.
pub fn progression_with_running() -> Report {
    let rewards = |run: u64, shift: f64| -> Vec<Option<f64>> {
        (0..12)
            .map(|task| {
                let noise = uniform(1000 * run + task) * 0.2;
                Some((uniform(task) * 0.6 + shift + noise).clamp(0.0, 1.0))
            })
            .collect()
    };
    report_of(&[
        run("base", None, &rewards(0, 0.1)),
        run("ck100", Some(100), &rewards(1, 0.05)),
        run("ck200", Some(200), &rewards(2, 0.2)),
        run("ck300", Some(300), &rewards(3, 0.3)).running(),
    ])
}

/// A deterministic uniform number in [0, 1) from a key.
pub fn uniform(key: u64) -> f64 {
    let mut x = key.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0xD1B5_4A32_D192_ED03;
    x ^= x >> 33;
    x = x.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
    x ^= x >> 33;
    (x >> 11) as f64 / (1u64 << 53) as f64
}

/// `small_report` with its task rows replaced by `tasks` rows of continuous means (as a report
/// of a 100,000-task benchmark would carry).
pub fn large_report(tasks: usize) -> Report {
    let mut report = small_report();
    let template = report.tasks[0].clone();
    report.tasks = (0..tasks)
        .map(|i| {
            let base = uniform(i as u64);
            let cand = (base + (uniform(i as u64 + 7_777_777) - 0.4) * 0.3).clamp(0.0, 1.0);
            let mut row = template.clone();
            row.task_id = format!("task-{i}");
            row.cells[0].mean = Some(base);
            row.cells[1].mean = Some(cand);
            row.cells[2].mean = None;
            row.deltas = vec![Some(((cand - base) * 1e9).round() / 1e9), None];
            row
        })
        .collect();
    report
}

/// A real report of `tasks` tasks with continuous rewards in [0, 1] (three decimals): a
/// baseline and two checkpoints of one training run that score a little higher, each task
/// scored once. Above 1,000 tasks its scatter and above 500 its sorted deltas are aggregated.
pub fn continuous_report(tasks: usize) -> Report {
    let rewards = |key: u64, skill: f64| -> Vec<Option<f64>> {
        (0..tasks as u64)
            .map(|task| {
                let noise = (uniform(key + task) - 0.5) * 0.3;
                let reward = (uniform(task) + skill + noise).clamp(0.0, 1.0);
                Some((reward * 1000.0).round() / 1000.0)
            })
            .collect()
    };
    report_of(&[
        run("base", None, &rewards(1_000_000, 0.0)),
        run("ck100", Some(100), &rewards(2_000_000, 0.02)),
        run("ck200", Some(200), &rewards(3_000_000, 0.05)),
    ])
}
