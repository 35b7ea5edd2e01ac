//! Building a run set, per-task aggregates and pairing.

#![allow(clippy::unwrap_used)]

use eval_compare_core::model::{
    effective_reward, Analysis, Category, Effective, ModelError, OutcomeClass, RewardComponent,
    RunIdx, RunInfo, RunOptions, RunSet, RunSetBuilder, SideCoverage, TaskInput, TrajectoryFlags,
    TrajectoryInput,
};

fn info(id: &str) -> RunInfo {
    RunInfo {
        id: id.to_owned(),
        source: eval_compare_core::model::SourceKind::Files,
        ..RunInfo::default()
    }
}

fn traj<'a>(
    id: &'a str,
    task: Option<&'a str>,
    class: OutcomeClass,
    reward: Option<f64>,
) -> TrajectoryInput<'a> {
    TrajectoryInput {
        id,
        task,
        class,
        reward,
        ending: Some("ENV_DONE"),
        flags: TrajectoryFlags::NONE,
        created: None,
        components: None,
    }
}

/// Baseline and candidate over tasks a..f:
/// - a: both scored (base 1,0 ; cand 1,1)
/// - b: base scored 0.5 ; cand only failed
/// - c: base only; cand absent
/// - d: cand only (cut-off without reward → 0 by rule)
/// - e: both scored, base has an invalid reward next to a valid one
/// - f: listed, attempted by nobody
///
/// Plus one candidate trajectory without a task.
fn two_runs() -> (RunSet, RunIdx, RunIdx) {
    use OutcomeClass::*;
    let mut builder = RunSetBuilder::new();
    for id in ["a", "b", "c", "d", "e", "f"] {
        builder
            .add_task(TaskInput {
                id: id.to_owned(),
                label: Some(format!("Task {id}")),
                split: Some("test".to_owned()),
                categories: vec![Category {
                    id: format!("repo:{}", if id < "c" { "x" } else { "y" }),
                    label: "repo".to_owned(),
                }],
            })
            .unwrap();
    }
    let base = builder.add_run(info("base")).unwrap();
    let cand = builder.add_run(info("cand")).unwrap();
    let base_rows = [
        traj("b1", Some("a"), Graded, Some(1.0)),
        traj("b2", Some("a"), Graded, Some(0.0)),
        traj("b3", Some("b"), Graded, Some(0.5)),
        traj("b4", Some("c"), Graded, Some(1.0)),
        traj("b5", Some("e"), Graded, Some(f64::NAN)),
        traj("b6", Some("e"), Graded, Some(1.0)),
    ];
    let cand_rows = [
        traj("c1", Some("a"), Graded, Some(1.0)),
        traj("c2", Some("a"), Graded, Some(1.0)),
        traj("c3", Some("b"), Failed, None),
        traj("c4", Some("d"), CutOff, None),
        traj("c5", Some("e"), Graded, Some(0.0)),
        traj("c6", None, Graded, Some(1.0)),
    ];
    // Add interleaved, so grouping by task is exercised.
    for (b, c) in base_rows.into_iter().zip(cand_rows) {
        builder.add_trajectory(cand, c).unwrap();
        builder.add_trajectory(base, b).unwrap();
    }
    (builder.build(), base, cand)
}

#[test]
fn tasks_are_interned_once_and_keep_their_listing() {
    let (set, _, _) = two_runs();
    assert_eq!(set.tasks().len(), 6);
    let a = set.find_task("a").unwrap();
    let task = set.task(a).unwrap();
    assert_eq!(task.name(), "Task a");
    assert!(task.listed);
    assert_eq!(set.categories().len(), 2);
    assert_eq!(
        set.categories()[task.cluster().unwrap() as usize].id,
        "repo:x"
    );
    assert_eq!(set.find_task("zzz"), None);
}

#[test]
fn trajectories_are_grouped_by_task_with_the_taskless_last() {
    let (set, _, cand) = two_runs();
    let run = set.run(cand).unwrap();
    let ids: Vec<&str> = run.trajectories().map(|t| t.id).collect();
    assert_eq!(ids, ["c1", "c2", "c3", "c4", "c5", "c6"]);
    let a: Vec<&str> = run
        .trajectories_of_task(set.find_task("a").unwrap())
        .map(|t| t.id)
        .collect();
    assert_eq!(a, ["c1", "c2"]);
    let without: Vec<&str> = run.trajectories_without_task().map(|t| t.id).collect();
    assert_eq!(without, ["c6"]);
    assert_eq!(run.trajectories_of_task(9999).count(), 0);
    let first = run.trajectory(0).unwrap();
    assert_eq!(first.ending, Some("ENV_DONE"));
    assert!(run.trajectory(6).is_none());
}

#[test]
fn per_task_aggregates_use_included_samples_only() {
    let (set, base, cand) = two_runs();
    let base_run = set.run(base).unwrap();
    let e = base_run.stats_of(set.find_task("e").unwrap()).unwrap();
    assert_eq!(e.samples(), 2);
    assert_eq!(e.invalid_rewards, 1);
    assert_eq!(e.primary.count(), 1);
    assert_eq!(e.primary.mean(), Some(1.0));
    assert_eq!(e.primary.variance(), None);
    let a = base_run.stats_of(set.find_task("a").unwrap()).unwrap();
    assert_eq!(a.primary.mean(), Some(0.5));
    assert_eq!(a.primary.variance(), Some(0.5));
    assert_eq!(a.primary_passes, 1);

    let cand_run = set.run(cand).unwrap();
    let d = cand_run.stats_of(set.find_task("d").unwrap()).unwrap();
    assert_eq!(d.zero_by_platform_rule, 1);
    assert_eq!(d.primary.mean(), Some(0.0));
    let b = cand_run.stats_of(set.find_task("b").unwrap()).unwrap();
    assert_eq!(b.by_class.failed, 1);
    assert_eq!(b.primary.mean(), None);
    assert_eq!(b.sensitivity.mean(), Some(0.0));
}

#[test]
fn run_totals_count_every_trajectory() {
    let (set, base, cand) = two_runs();
    let totals = set.run(cand).unwrap().totals();
    assert_eq!(totals.trajectories, 6);
    assert_eq!(totals.by_class.graded, 4);
    assert_eq!(totals.by_class.failed, 1);
    assert_eq!(totals.by_class.cut_off, 1);
    assert_eq!(totals.without_task, 1);
    assert_eq!(totals.included, 5);
    assert_eq!(totals.zero_by_platform_rule, 1);
    assert_eq!(totals.tasks_attempted, 4);
    assert_eq!(totals.tasks_scored, 3);
    assert!(totals.binary);
    // Task means a=1, d=0, e=0.
    assert_eq!(totals.task_mean, Some(1.0 / 3.0));

    let base_totals = set.run(base).unwrap().totals();
    assert_eq!(base_totals.invalid_rewards, 1);
    assert!(!base_totals.binary, "0.5 on task b is not binary");
}

#[test]
fn primary_pairing_keeps_tasks_scored_on_both_sides() {
    let (set, base, cand) = two_runs();
    let paired = set.paired(base, cand, Analysis::Primary).unwrap();
    assert_eq!(set.paired_count(base, cand).unwrap(), paired.len());
    assert_eq!(set.paired_count(cand, base).unwrap(), paired.len());
    let names: Vec<&str> = paired
        .task_idx
        .iter()
        .map(|&t| set.task(t).unwrap().id.as_str())
        .collect();
    assert_eq!(names, ["a", "e"]);
    assert_eq!(paired.base, [0.5, 1.0]);
    assert_eq!(paired.cand, [1.0, 0.0]);
    assert_eq!(paired.base_k, [2, 1]);
    assert_eq!(paired.cand_k, [2, 1]);
    assert_eq!(paired.base_var, [Some(0.5), None]);
    assert_eq!(paired.cand_var, [Some(0.0), None]);
    assert_eq!(paired.base_passes, [1, 1]);
    assert_eq!(paired.cand_passes, [2, 0]);
    assert_eq!(paired.cluster.len(), 2);
    assert_ne!(paired.cluster[0], paired.cluster[1]);
    assert!(paired.base_binary && paired.cand_binary);

    let left: Vec<(&str, SideCoverage, SideCoverage)> = paired
        .left_out
        .iter()
        .map(|l| (set.task(l.task).unwrap().id.as_str(), l.base, l.cand))
        .collect();
    assert_eq!(
        left,
        [
            (
                "b",
                SideCoverage::Scored { mean: 0.5, k: 1 },
                SideCoverage::NotScored { samples: 1 }
            ),
            (
                "c",
                SideCoverage::Scored { mean: 1.0, k: 1 },
                SideCoverage::Absent
            ),
            (
                "d",
                SideCoverage::Absent,
                SideCoverage::Scored { mean: 0.0, k: 1 }
            ),
        ]
    );
}

#[test]
fn sensitivity_pairs_the_union_with_absent_and_failed_as_zero() {
    let (set, base, cand) = two_runs();
    let paired = set.paired(base, cand, Analysis::Sensitivity).unwrap();
    let names: Vec<&str> = paired
        .task_idx
        .iter()
        .map(|&t| set.task(t).unwrap().id.as_str())
        .collect();
    assert_eq!(names, ["a", "b", "c", "d", "e"]);
    assert_eq!(paired.base, [0.5, 0.5, 1.0, 0.0, 1.0]);
    assert_eq!(paired.cand, [1.0, 0.0, 0.0, 0.0, 0.0]);
    assert_eq!(paired.base_k, [2, 1, 1, 0, 1]);
    assert_eq!(paired.cand_k, [2, 1, 0, 1, 1]);
    assert!(paired.left_out.is_empty());
    assert!(!paired.base_binary, "base has 0.5 on b");
    assert!(paired.cand_binary);
}

#[test]
fn unknown_runs_and_duplicates_are_errors_not_panics() {
    let (mut set, base, _) = two_runs();
    assert_eq!(
        set.paired(base, RunIdx(7), Analysis::Primary),
        Err(ModelError::UnknownRun(RunIdx(7)))
    );
    let mut builder = RunSetBuilder::new();
    builder.add_run(info("x")).unwrap();
    assert_eq!(
        builder.add_run(info("x")),
        Err(ModelError::DuplicateRun("x".to_owned()))
    );
    assert!(builder
        .add_trajectory(RunIdx(3), traj("t", None, OutcomeClass::Graded, Some(1.0)))
        .is_err());
    assert!(set
        .attach_components(base, None, "missing", Vec::new())
        .is_err());
}

fn component(name: &str, value: f64, weight: f64, range: (f64, f64)) -> RewardComponent {
    RewardComponent {
        name: name.to_owned(),
        value: Some(value),
        scaled_value: None,
        weight: Some(weight),
        score_range: Some(range),
        threshold: None,
        passed: None,
        explanation: None,
    }
}

#[test]
fn components_attach_later_and_recompute_the_effective_reward() {
    let (mut set, base, _) = two_runs();
    let task = set.find_task("a");
    let parts = vec![
        component("tests", 8.0, 3.0, (0.0, 10.0)),
        component("style", 1.0, 1.0, (0.0, 1.0)),
        component("info", 50.0, 0.0, (0.0, 100.0)),
    ];
    set.attach_components(base, task, "b2", parts.clone())
        .unwrap();
    let run = set.run(base).unwrap();
    let stored = run.trajectories().find(|t| t.id == "b2").unwrap();
    assert_eq!(stored.components, Some(parts.as_slice()));
    // (3·0.8 + 1·1) / 4 = 0.85; the weight-0 component does not count.
    let reward = effective_reward(&parts).unwrap();
    assert!((reward - 0.85).abs() < 1e-12);
    // Out-of-range values are clamped to the bounds.
    assert_eq!(
        effective_reward(&[component("x", 20.0, 1.0, (0.0, 10.0))]),
        Some(1.0)
    );
    // Nothing weighted, or a weighted part without a value: cannot be recomputed.
    assert_eq!(
        effective_reward(&[component("x", 1.0, 0.0, (0.0, 1.0))]),
        None
    );
    let mut missing = component("x", 1.0, 1.0, (0.0, 1.0));
    missing.value = None;
    assert_eq!(effective_reward(&[missing]), None);
    assert_eq!(
        effective_reward(&[component("x", 1.0, 1.0, (1.0, 1.0))]),
        None
    );
}

#[test]
fn evaluation_overrides_win_over_run_settings() {
    let options = RunOptions {
        temperature: Some(0.7),
        evaluation_temperature: Some(1.0),
        top_p: Some(0.9),
        reasoning_effort: Some("high".to_owned()),
        ..RunOptions::default()
    };
    let effective = options.effective();
    assert_eq!(effective.temperature, Effective::EvaluationOverride(1.0));
    assert_eq!(effective.top_p, Effective::RunSetting(0.9));
    assert_eq!(effective.top_k, Effective::Default);
    assert_eq!(
        effective.reasoning_effort.value().map(String::as_str),
        Some("high")
    );
}

#[test]
fn flags_combine_and_name_themselves() {
    let flags = TrajectoryFlags::TASK_CONFLICT | TrajectoryFlags::REWARD_MISMATCH;
    assert!(flags.contains(TrajectoryFlags::TASK_CONFLICT));
    assert!(!flags.contains(TrajectoryFlags::REWARD_FROM_METADATA));
    assert_eq!(
        flags.names().collect::<Vec<_>>(),
        ["task_conflict", "reward_mismatch"]
    );
    assert!(TrajectoryFlags::NONE.is_empty());
}

#[test]
fn runs_sharing_a_display_name_are_told_apart_by_their_ids() {
    let mut builder = RunSetBuilder::new();
    let named = |id: &str, name: Option<&str>| RunInfo {
        display_name: name.map(str::to_owned),
        ..info(id)
    };
    let a = builder.add_run(named("eval_a", Some("Step 400"))).unwrap();
    let b = builder.add_run(named("eval_b", Some("Step 400"))).unwrap();
    let c = builder.add_run(named("eval_c", Some("Baseline"))).unwrap();
    let d = builder.add_run(named("eval_d", None)).unwrap();
    let set = builder.build();
    let name = |run| set.run(run).unwrap().info().name().to_owned();
    assert_eq!(name(a), "Step 400 · eval_a");
    assert_eq!(name(b), "Step 400 · eval_b");
    assert_eq!(name(c), "Baseline", "a name of its own is kept");
    assert_eq!(name(d), "eval_d");
}

/// Three runs over tasks t0..t9 (the first in task order, the others not, one row without a
/// task, a task list), as a fresh builder each time.
fn three_run_builder() -> RunSetBuilder {
    let mut builder = RunSetBuilder::new();
    builder
        .add_task(TaskInput {
            id: "t3".to_owned(),
            label: Some("Task 3".to_owned()),
            split: None,
            categories: Vec::new(),
        })
        .unwrap();
    let ids: Vec<String> = (0..60).map(|row| format!("row{row}")).collect();
    for (run, step) in [("r0", 1), ("r1", 7), ("r2", 3)] {
        let index = builder.add_run(info(run)).unwrap();
        for row in 0..20usize {
            let task = format!(
                "t{}",
                if run == "r0" {
                    row / 2
                } else {
                    (row * step) % 10
                }
            );
            let id = &ids[row + 20 * usize::from(run.as_bytes()[1] - b'0')];
            let task = (row != 13).then_some(task.as_str());
            let reward = Some((row % 3) as f64 / 2.0);
            builder
                .add_trajectory(index, traj(id, task, OutcomeClass::Graded, reward))
                .unwrap();
        }
    }
    builder
}

#[test]
fn building_on_cores_is_building_step_by_step() {
    let on_cores = format!("{:?}", three_run_builder().build());
    let mut stepwise = three_run_builder().finishing();
    while !stepwise.finish_step(2) {}
    assert_eq!(format!("{:?}", stepwise.build()), on_cores);
    // Part of the way step by step (a run half grouped), the rest on the cores.
    for steps in [1, 3, 5, 9] {
        let mut mixed = three_run_builder().finishing();
        for _ in 0..steps {
            mixed.finish_step(4);
        }
        mixed.finish_on_cores();
        assert_eq!(mixed.rows_done(), 60);
        assert_eq!(
            format!("{:?}", mixed.build()),
            on_cores,
            "after {steps} steps"
        );
    }
}
