//! The task table's effort columns: sorting by the focused candidate's turns and ending, the
//! "hit the turn limit" and "timed out" filters, and their names in the URL.
#![allow(clippy::unwrap_used)]

use eval_compare_core::model::{
    OutcomeClass, RunIdx, RunInfo, RunSetBuilder, SourceKind, TrajectoryFlags, TrajectoryInput,
};
use eval_compare_core::report::{build_report, visible_rows, Report, ReportSettings};
use eval_compare_core::view_state::{RowFilter, Sort, SortKey, ViewState};

use OutcomeClass::{CutOff, Graded};

/// One trajectory: (task, class, reward, ending, steps).
type Row<'a> = (&'a str, OutcomeClass, Option<f64>, &'a str, Option<i64>);

fn add_run(builder: &mut RunSetBuilder, id: &str, rows: &[Row<'_>]) -> RunIdx {
    let run = builder
        .add_run(RunInfo {
            id: id.into(),
            status: Some("completed".into()),
            source: SourceKind::Files,
            ..RunInfo::default()
        })
        .unwrap();
    for (i, &(task, class, reward, ending, steps)) in rows.iter().enumerate() {
        let id = format!("{id}-{i}");
        let input = TrajectoryInput {
            id: &id,
            task: Some(task),
            class,
            reward,
            ending: Some(ending),
            flags: TrajectoryFlags::NONE,
            created: None,
            components: None,
        };
        builder
            .add_trajectory_with_steps(run, input, steps)
            .unwrap();
    }
    run
}

/// Four tasks: the candidate hits the turn limit on b, times out on c, and has no step count
/// on d.
fn report() -> Report {
    let mut builder = RunSetBuilder::new();
    let base = add_run(
        &mut builder,
        "base",
        &[
            ("a", Graded, Some(1.0), "ENV_DONE", Some(10)),
            ("b", Graded, Some(0.0), "ENV_DONE", Some(20)),
            ("c", Graded, Some(1.0), "ENV_DONE", Some(30)),
            ("d", Graded, Some(1.0), "ENV_DONE", Some(5)),
        ],
    );
    let cand = add_run(
        &mut builder,
        "cand",
        &[
            ("a", Graded, Some(1.0), "ENV_DONE", Some(45)),
            ("b", CutOff, None, "MAX_STEPS", Some(50)),
            ("b", Graded, Some(0.0), "ENV_DONE", Some(30)),
            ("c", Graded, Some(0.0), "TIMEOUT", Some(12)),
            ("d", Graded, Some(1.0), "AGENT_DONE", None),
        ],
    );
    let settings = ReportSettings {
        resamples: 0,
        ..ReportSettings::default()
    };
    build_report(&builder.build(), base, &[cand], &settings).unwrap()
}

fn shown(report: &Report, view: &ViewState) -> Vec<String> {
    visible_rows(report, view)
        .into_iter()
        .map(|row| report.tasks[row].task_id.clone())
        .collect()
}

fn sorted(key: SortKey, descending: bool) -> ViewState {
    ViewState {
        sort: Sort { key, descending },
        ..ViewState::default()
    }
}

#[test]
fn the_turn_limit_and_timeout_filters_keep_the_candidates_tasks() {
    let report = report();
    let filtered = |filter| {
        shown(
            &report,
            &ViewState {
                filter,
                ..ViewState::default()
            },
        )
    };
    assert_eq!(filtered(RowFilter::TurnLimit), ["b"]);
    assert_eq!(filtered(RowFilter::Timeout), ["c"]);
}

#[test]
fn sorting_by_turns_puts_tasks_without_turns_last() {
    let report = report();
    // Candidate turns: a 45, b 40 (the turn-limit attempt counts: its task scores 0), c 12, d none.
    assert_eq!(
        shown(&report, &sorted(SortKey::Turns, false)),
        ["c", "b", "a", "d"]
    );
    assert_eq!(
        shown(&report, &sorted(SortKey::Turns, true)),
        ["d", "a", "b", "c"]
    );
}

#[test]
fn sorting_by_ending_orders_the_candidates_most_frequent_ending() {
    let report = report();
    // b ties ENV_DONE and MAX_STEPS: the first by name.
    assert_eq!(
        shown(&report, &sorted(SortKey::Ending, false)),
        ["d", "a", "b", "c"]
    );
}

#[test]
fn the_effort_sort_and_filters_round_trip_through_the_url() {
    for q in [
        "base=b&cand=c&filter=turn_limit&sort=-turns",
        "base=b&cand=c&filter=timeout&sort=ending",
    ] {
        let parsed = ViewState::from_query(q);
        assert!(parsed.issues.is_empty(), "{q}: {:?}", parsed.issues);
        assert_eq!(parsed.state.to_query(), q);
    }
    let parsed = ViewState::from_query("filter=turn_limit&sort=-turns");
    assert_eq!(parsed.state.filter, RowFilter::TurnLimit);
    assert_eq!(parsed.state.sort, sorted(SortKey::Turns, true).sort);
}
