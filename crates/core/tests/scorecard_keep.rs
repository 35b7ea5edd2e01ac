//! A scorecard built again after some runs changed ([`ScorecardBuild::keeping`]): only the
//! comparisons reading a changed run are made again, and the scorecard equals a full build on
//! the new data, whichever runs changed; a baseline chosen by hand makes only its row again;
//! other settings keep nothing.
#![allow(clippy::unwrap_used)]

use std::collections::{BTreeMap, BTreeSet};

use eval_compare_core::model::{
    CheckpointInfo, OutcomeClass, RunInfo, RunOptions, RunSet, RunSetBuilder, SourceKind,
    TaskInput, TrajectoryFlags, TrajectoryInput,
};
use eval_compare_core::report::ReportSettings;
use eval_compare_core::scorecard::{
    build_scorecard, pair_report, plan_scorecard, unchanged, ListedRun, Rule, ScorecardBuild,
    ScorecardPlan,
};
use proptest::prelude::*;

const TRAINING: &str = "train_k";
const TASKS: usize = 40;
const BENCHES: [&str; 3] = ["a", "b", "c"];
const STEPS: [i64; 3] = [100, 200, 300];

/// The runs: per bench a base-model run (bench "a" two, the newer chosen) and one evaluation
/// per step ("c" not at 300).
fn runs() -> Vec<ListedRun> {
    let run = |id: String, bench: &str, step: Option<i64>, day: u32| ListedRun {
        info: RunInfo {
            id,
            bench_id: Some(bench.to_owned()),
            checkpoint: CheckpointInfo {
                step,
                training_run_id: step.map(|_| TRAINING.to_owned()),
                parent_checkpoint_id: None,
            },
            status: Some("completed".to_owned()),
            options: RunOptions {
                temperature: Some(0.7),
                ..RunOptions::default()
            },
            source: SourceKind::Files,
            ..RunInfo::default()
        },
        created_at: format!("2026-10-{day:02}T00:00:00Z"),
    };
    let mut runs = vec![run("a_base_old".into(), "a", None, 1)];
    for bench in BENCHES {
        runs.push(run(format!("{bench}_base"), bench, None, 2));
        for step in STEPS {
            if !(bench == "c" && step == 300) {
                runs.push(run(format!("{bench}_{step}"), bench, Some(step), 10));
            }
        }
    }
    runs
}

/// Task `i`'s reward in run `id` at `version` (a new version: other rewards).
fn reward(id: &str, version: u32, i: usize) -> f64 {
    let seed = id.bytes().map(usize::from).sum::<usize>() + 7 * version as usize;
    let level = 0.2 + 0.6 * ((i * 37 % 41) as f64 / 41.0);
    let noise = 0.3 * (((i * 13 + seed) % 11) as f64 / 11.0 - 0.5);
    (level + noise).clamp(0.0, 1.0)
}

/// The run set of two runs, baseline first, each at its version in `versions`.
fn pair_set(
    versions: &BTreeMap<String, u32>,
    baseline: &str,
    candidate: &str,
) -> Result<RunSet, String> {
    let listed = runs();
    let mut builder = RunSetBuilder::new();
    for i in 0..TASKS {
        builder
            .add_task(TaskInput {
                id: format!("t{i}"),
                label: None,
                split: Some("test".into()),
                categories: Vec::new(),
            })
            .unwrap();
    }
    for id in [baseline, candidate] {
        let info = listed.iter().find(|run| run.info.id == id).unwrap();
        let run = builder
            .add_run(info.info.clone())
            .map_err(|e| e.to_string())?;
        for i in 0..TASKS {
            let trajectory = format!("{id}-{i}");
            let task = format!("t{i}");
            builder
                .add_trajectory(
                    run,
                    TrajectoryInput {
                        id: &trajectory,
                        task: Some(&task),
                        class: OutcomeClass::Graded,
                        reward: Some(reward(id, versions[id], i)),
                        ending: None,
                        flags: TrajectoryFlags::default(),
                        created: None,
                        components: None,
                    },
                )
                .unwrap();
        }
    }
    Ok(builder.build())
}

fn settings() -> ReportSettings {
    ReportSettings {
        resamples: 100,
        ..ReportSettings::default()
    }
}

fn plan(by_hand: &BTreeMap<String, String>) -> ScorecardPlan {
    plan_scorecard(TRAINING, &runs(), by_hand)
}

/// Makes every comparison `build` still has to make on the runs at `versions`; returns the
/// (baseline, candidate) pairs it made.
fn complete(
    build: &mut ScorecardBuild,
    versions: &BTreeMap<String, u32>,
) -> BTreeSet<(String, String)> {
    let mut made = BTreeSet::new();
    while let Some(pair) = build.next_pair().cloned() {
        let set = pair_set(versions, &pair.baseline, &pair.candidate).unwrap();
        let report = pair_report(&set, build.settings()).unwrap();
        build.add_report(pair.cell, Ok(&report));
        made.insert((pair.baseline, pair.candidate));
    }
    while let Some((index, previous)) = build.next_previous_pair() {
        let pair = previous.pair.clone();
        let set = pair_set(versions, &pair.baseline, &pair.candidate).unwrap();
        let report = pair_report(&set, build.settings()).unwrap();
        build.add_previous_report(index, Ok(&report));
        made.insert((pair.baseline, pair.candidate));
    }
    made
}

/// Every run at version 0.
fn first_versions() -> BTreeMap<String, u32> {
    runs().into_iter().map(|run| (run.info.id, 0)).collect()
}

/// The build of every comparison at version 0, done.
fn first_build(plan: ScorecardPlan) -> ScorecardBuild {
    let mut build = ScorecardBuild::new(plan, settings());
    complete(&mut build, &first_versions());
    build
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    #[test]
    fn rebuilding_only_the_changed_runs_equals_a_full_build(
        changed in proptest::collection::btree_set(0usize..13, 0..4)
    ) {
        let ids: Vec<String> = runs().into_iter().map(|run| run.info.id).collect();
        let before = first_versions();
        let mut now = before.clone();
        for index in &changed {
            *now.get_mut(&ids[index % ids.len()]).unwrap() += 1;
        }
        let previous = first_build(plan(&BTreeMap::new()));
        let mut build = ScorecardBuild::keeping(plan(&BTreeMap::new()), settings(), &previous, |run| {
            unchanged(&before, &now, run)
        });
        let made = complete(&mut build, &now);
        // Exactly the comparisons that read a changed run were made again.
        let all: BTreeSet<(String, String)> = build
            .pairs()
            .iter()
            .map(|pair| (pair.baseline.clone(), pair.candidate.clone()))
            .chain(build.previous_pairs().iter().map(|p| (p.pair.baseline.clone(), p.pair.candidate.clone())))
            .collect();
        let touched: BTreeSet<(String, String)> = all
            .into_iter()
            .filter(|(b, c)| before[b] != now[b] || before[c] != now[c])
            .collect();
        prop_assert_eq!(&made, &touched);
        let full = build_scorecard(plan(&BTreeMap::new()), &settings(), &Rule::default(), |b, c| {
            pair_set(&now, b, c)
        });
        prop_assert_eq!(build.scorecard(&Rule::default()), full);
    }
}

#[test]
fn a_baseline_chosen_by_hand_makes_only_its_row_again() {
    let previous = first_build(plan(&BTreeMap::new()));
    let versions = first_versions();
    let by_hand = BTreeMap::from([("a".to_owned(), "a_base_old".to_owned())]);
    let mut build = ScorecardBuild::keeping(plan(&by_hand), settings(), &previous, |run| {
        unchanged(&versions, &versions, run)
    });
    let made = complete(&mut build, &versions);
    let expected: BTreeSet<(String, String)> = STEPS
        .iter()
        .map(|step| ("a_base_old".to_owned(), format!("a_{step}")))
        .collect();
    assert_eq!(made, expected);
    let full = build_scorecard(plan(&by_hand), &settings(), &Rule::default(), |b, c| {
        pair_set(&versions, b, c)
    });
    assert_eq!(build.scorecard(&Rule::default()), full);
}

#[test]
fn other_settings_or_failed_comparisons_are_not_kept() {
    let previous = first_build(plan(&BTreeMap::new()));
    let versions = first_versions();
    let other = ReportSettings {
        resamples: 150,
        ..settings()
    };
    let build = ScorecardBuild::keeping(plan(&BTreeMap::new()), other, &previous, |_| true);
    assert_eq!(build.progress().0, 0);
    // A comparison that failed is made again.
    let mut failed = ScorecardBuild::new(plan(&BTreeMap::new()), settings());
    let pair = failed.next_pair().cloned().unwrap();
    failed.add_report(
        pair.cell,
        Err("the runs were not read completely".to_owned()),
    );
    let mut build = ScorecardBuild::keeping(plan(&BTreeMap::new()), settings(), &failed, |_| true);
    assert_eq!(build.next_pair().unwrap().cell, pair.cell);
    let made = complete(&mut build, &versions);
    assert_eq!(made.len(), build.progress().1);
}
