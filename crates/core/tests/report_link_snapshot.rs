//! A running comparison's share link: the snapshot it records, the movement a later reader
//! sees, and the numbers "as of" the link (trajectories created after it left out), which
//! equal those the link recorded when no trajectory seen then changed since.
#![allow(clippy::unwrap_used)]

use eval_compare_core::model::{
    OutcomeClass, RunIdx, RunInfo, RunSet, RunSetBuilder, SourceKind, TrajectoryFlags,
    TrajectoryInput,
};
use eval_compare_core::report::{
    build_report, compare_with_link, needs_snapshot, snapshot, task_words, Report, ReportSettings,
};
use eval_compare_core::view_state::ViewState;

/// Task `i` of the candidate is created at second `1000 + i`; the baseline's long before.
fn run_set(candidate_tasks: usize) -> (RunSet, RunIdx, RunIdx) {
    let mut b = RunSetBuilder::new();
    let mut add =
        |id: &str, status: &str, tasks: usize, start: i64, reward: &dyn Fn(usize) -> f64| {
            let run = b
                .add_run(RunInfo {
                    id: id.into(),
                    display_name: Some(id.to_owned()),
                    bench_id: Some("b1".into()),
                    status: Some(status.into()),
                    source: SourceKind::Api,
                    ..RunInfo::default()
                })
                .unwrap();
            for i in 0..tasks {
                b.add_trajectory(
                    run,
                    TrajectoryInput {
                        id: &format!("{id}-{i}"),
                        task: Some(&format!("t{i:03}")),
                        class: OutcomeClass::Graded,
                        reward: Some(reward(i)),
                        ending: None,
                        flags: TrajectoryFlags::default(),
                        created: Some(start + i as i64),
                        components: None,
                    },
                )
                .unwrap();
            }
            run
        };
    let base = add("base", "completed", 200, 10, &|i| f64::from((i % 2) as u8));
    let cand = add("Step 500", "running", candidate_tasks, 1000, &|i| {
        f64::from(u8::from(i % 2 == 1 || i % 5 == 0))
    });
    (b.build(), base, cand)
}

fn report(set: &RunSet, base: RunIdx, cand: RunIdx) -> Report {
    let settings = ReportSettings {
        resamples: 0,
        ..ReportSettings::default()
    };
    build_report(set, base, &[cand], &settings).unwrap()
}

#[test]
fn a_later_reader_sees_the_movement_and_can_see_the_numbers_as_of_the_link() {
    // The link is taken when the candidate had reached 120 tasks.
    let (early, base, cand) = run_set(120);
    let then = report(&early, base, cand);
    assert!(needs_snapshot(&then));
    let seen = early.newest_created(&[base, cand]);
    assert_eq!(seen, Some(1000 + 119));
    let link = snapshot(&then, 1_796_146_805, seen);
    assert_eq!(link.then[0].tasks, 120);
    // The snapshot survives the URL.
    let view = ViewState {
        baseline: Some("base".into()),
        candidates: vec!["Step 500".into()],
        snapshot: Some(link.clone()),
        ..ViewState::default()
    };
    let read = ViewState::from_query(&view.to_query());
    assert!(read.issues.is_empty(), "{:?}", read.issues);
    assert_eq!(read.state.snapshot.as_ref(), Some(&link));

    // Later: 160 tasks. The numbers moved, and the sentence says by how much.
    let (later, base, cand) = run_set(160);
    let now = report(&later, base, cand);
    let comparison = compare_with_link(&now, &link);
    assert!(comparison.moved());
    let sentence = comparison.sentence(task_words(&now));
    assert!(
        sentence.starts_with(
            "Numbers have moved since this link was taken at 2026-12-01T17:40:05Z: Step 500: Δ "
        ) && sentence.ends_with(", 120 → 160 paired tasks."),
        "{sentence}"
    );

    // As of the link's `seen` time, the later data give the numbers the link recorded.
    let (as_of, summary) = later.as_of(seen.unwrap());
    assert_eq!(summary.left_out, 40);
    assert_eq!(summary.without_time, 0);
    let back_then = report(&as_of, base, cand);
    let comparison = compare_with_link(&back_then, &link);
    assert!(!comparison.moved(), "{:?}", comparison);
    assert_eq!(
        back_then.candidates[0]
            .primary
            .estimate
            .as_ref()
            .unwrap()
            .delta,
        then.candidates[0].primary.estimate.as_ref().unwrap().delta
    );
}

#[test]
fn a_finished_comparison_records_no_snapshot() {
    let (set, base, cand) = run_set(200);
    let mut report = report(&set, base, cand);
    assert!(needs_snapshot(&report));
    report.candidates[0].verdict.provisional = false;
    assert!(!needs_snapshot(&report));
}
