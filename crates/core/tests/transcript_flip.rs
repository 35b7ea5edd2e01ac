//! The flip table of a task across samples (which passed, failed, errored) and the pair of
//! samples shown side by side first.

#![allow(clippy::unwrap_used)]

use eval_compare_core::model::{
    OutcomeClass, RunIdx, RunInfo, RunSet, RunSetBuilder, SourceKind, TrajectoryFlags,
    TrajectoryInput,
};
use eval_compare_core::transcript::{
    default_pair, flip_table, Direction, Flip, FlipSide, OutcomeCounts, PairReason, SampleOutcome,
    SamplePair,
};

use OutcomeClass::{Cancelled, CutOff, Failed, Graded, Unfinished};

/// A set of runs on task `t`, each run's samples given as (class, reward).
fn set_of(runs: &[&[(OutcomeClass, Option<f64>)]]) -> (RunSet, Vec<RunIdx>) {
    let mut builder = RunSetBuilder::new();
    let mut indices = Vec::new();
    let ids: Vec<Vec<String>> = runs
        .iter()
        .enumerate()
        .map(|(r, samples)| (0..samples.len()).map(|s| format!("r{r}s{s}")).collect())
        .collect();
    for (r, samples) in runs.iter().enumerate() {
        let run = builder
            .add_run(RunInfo {
                id: format!("run{r}"),
                source: SourceKind::Files,
                ..RunInfo::default()
            })
            .unwrap();
        indices.push(run);
        for (s, &(class, reward)) in samples.iter().enumerate() {
            builder
                .add_trajectory(
                    run,
                    TrajectoryInput {
                        id: &ids[r][s],
                        task: Some("t"),
                        class,
                        reward,
                        ending: Some("ENV_DONE"),
                        flags: TrajectoryFlags::NONE,
                        created: None,
                        components: None,
                    },
                )
                .unwrap();
        }
    }
    (builder.build(), indices)
}

fn sides(runs: &[&[(OutcomeClass, Option<f64>)]]) -> Vec<FlipSide> {
    let (set, indices) = set_of(runs);
    let task = set.find_task("t").unwrap();
    flip_table(&set, task, &indices).unwrap().sides
}

#[test]
fn each_sample_is_passed_partial_failed_errored_or_not_scored() {
    let table = sides(&[&[
        (Graded, Some(1.0)),
        (Graded, Some(0.4)),
        (Graded, Some(0.0)),
        (CutOff, None),
        (Failed, Some(1.0)),
        (Cancelled, None),
        (Unfinished, None),
        (Graded, Some(f64::NAN)),
    ]]);
    let outcomes: Vec<SampleOutcome> = table[0].samples.iter().map(|s| s.outcome).collect();
    use SampleOutcome as O;
    assert_eq!(
        outcomes,
        [
            O::Passed,
            O::Partial,
            O::Failed,
            O::Failed,
            O::Errored,
            O::NotScored,
            O::NotScored,
            O::NotScored
        ]
    );
    assert_eq!(
        table[0].counts,
        OutcomeCounts {
            passed: 1,
            partial: 1,
            failed: 2,
            errored: 1,
            not_scored: 3
        }
    );
    assert_eq!(table[0].counts.scored(), 4);
    assert_eq!(table[0].samples[4].trajectory_id, "r0s4");
    assert_eq!(table[0].position_of("r0s2"), Some(2));
    assert_eq!(O::Errored.label(), "errored");
}

#[test]
fn the_flip_says_whether_a_regression_is_consistent() {
    let pass = (Graded, Some(1.0));
    let fail = (Graded, Some(0.0));
    let error = (Failed, None);
    let flip = |b: &[(OutcomeClass, Option<f64>)], c: &[(OutcomeClass, Option<f64>)]| {
        let s = sides(&[b, c]);
        Flip::between(&s[0], &s[1])
    };
    assert_eq!(
        flip(&[pass, pass, error], &[fail, fail]),
        Flip::ConsistentRegression
    );
    assert_eq!(flip(&[fail], &[pass, pass]), Flip::ConsistentImprovement);
    assert_eq!(flip(&[pass, fail], &[fail, fail]), Flip::Mixed);
    assert_eq!(flip(&[pass], &[pass]), Flip::Unchanged);
    assert_eq!(flip(&[fail], &[fail, fail]), Flip::Unchanged);
    assert_eq!(flip(&[pass], &[error]), Flip::NotComparable);
    assert_eq!(flip(&[], &[pass]), Flip::NotComparable);
}

#[test]
fn on_a_regression_a_passed_baseline_sample_is_shown_beside_a_failed_candidate_sample() {
    let s = sides(&[
        &[
            (Graded, Some(0.0)),
            (Graded, Some(1.0)),
            (Graded, Some(1.0)),
        ],
        &[(Failed, None), (Graded, Some(0.5)), (Graded, Some(0.0))],
    ]);
    assert_eq!(
        default_pair(&s[0], &s[1], Direction::Regression),
        Some(SamplePair {
            baseline: 1,
            candidate: 2,
            reason: PairReason::PassedBesideFailed
        })
    );
    // Without a graded failure, a partial one; without that, an errored one.
    let s = sides(&[
        &[(Graded, Some(1.0))],
        &[(Failed, None), (Graded, Some(0.5))],
    ]);
    assert_eq!(
        default_pair(&s[0], &s[1], Direction::Regression)
            .unwrap()
            .candidate,
        1
    );
    let s = sides(&[&[(Graded, Some(1.0))], &[(Cancelled, None), (Failed, None)]]);
    assert_eq!(
        default_pair(&s[0], &s[1], Direction::Regression)
            .unwrap()
            .candidate,
        1
    );
}

#[test]
fn on_an_improvement_the_pair_is_the_other_way_round() {
    let s = sides(&[
        &[(Graded, Some(1.0)), (Graded, Some(0.0))],
        &[(Graded, Some(0.0)), (Graded, Some(1.0))],
    ]);
    assert_eq!(
        default_pair(&s[0], &s[1], Direction::Improvement),
        Some(SamplePair {
            baseline: 1,
            candidate: 1,
            reason: PairReason::FailedBesidePassed
        })
    );
}

#[test]
fn otherwise_the_first_pair_with_different_outcomes_else_the_first_samples() {
    let pass = (Graded, Some(1.0));
    let fail = (Graded, Some(0.0));
    let pair = |b: &[(OutcomeClass, Option<f64>)], c: &[(OutcomeClass, Option<f64>)], d| {
        let s = sides(&[b, c]);
        default_pair(&s[0], &s[1], d).map(|p| (p.baseline, p.candidate, p.reason))
    };
    use PairReason::*;
    assert_eq!(
        pair(&[pass, fail], &[pass, pass, fail], Direction::Neither),
        Some((0, 2, DifferentOutcomes))
    );
    // Every candidate sample the same as the first baseline sample: the first baseline sample
    // that differs.
    assert_eq!(
        pair(&[pass, pass, fail], &[pass, pass], Direction::Neither),
        Some((2, 0, DifferentOutcomes))
    );
    // A regression with no passed baseline sample falls back to the same rule.
    assert_eq!(
        pair(&[fail, (Failed, None)], &[fail], Direction::Regression),
        Some((1, 0, DifferentOutcomes))
    );
    assert_eq!(
        pair(&[pass, pass], &[pass], Direction::Regression),
        Some((0, 0, FirstSamples))
    );
    assert_eq!(pair(&[], &[pass], Direction::Regression), None);
    assert_eq!(pair(&[pass], &[], Direction::Neither), None);
}

#[test]
fn the_direction_comes_from_the_tasks_delta() {
    assert_eq!(Direction::of_delta(Some(-0.5)), Direction::Regression);
    assert_eq!(Direction::of_delta(Some(0.25)), Direction::Improvement);
    assert_eq!(Direction::of_delta(Some(0.0)), Direction::Neither);
    assert_eq!(Direction::of_delta(None), Direction::Neither);
}

#[test]
fn an_unknown_run_is_an_error_and_a_task_without_samples_has_empty_sides() {
    let (set, indices) = set_of(&[&[(Graded, Some(1.0))]]);
    assert!(flip_table(&set, 0, &[RunIdx(7)]).is_err());
    let table = flip_table(&set, 99, &indices).unwrap();
    assert!(table.sides[0].samples.is_empty());
}
