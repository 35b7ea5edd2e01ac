//! The reviewer's ledger applied to a comparison and carried by the report: leaving a task
//! out of every run, counting a task or one attempt as a failure, entries that do not apply,
//! the verdict without the ledger beside the one with it, and the sentences of the markdown
//! and HTML reports.
#![allow(clippy::unwrap_used)]

use eval_compare_core::ledger::{
    apply, failure_trajectory_id, Action, Entry, Ledger, Reason, ReasonCount, SetAside, Target,
};
use eval_compare_core::model::{
    OutcomeClass, RunIdx, RunInfo, RunSet, RunSetBuilder, SourceKind, TrajectoryFlags,
    TrajectoryInput,
};
use eval_compare_core::report::{
    build_report, build_report_with_ledger, ledger_changes, Decision, Report, ReportSettings,
};

/// One attempt: a reward, or a failed trajectory.
#[derive(Clone, Copy)]
enum Outcome {
    Reward(f64),
    Failed,
}

/// A run of (task, trajectory id, outcome) rows.
fn add_run(b: &mut RunSetBuilder, id: &str, rows: &[(String, String, Outcome)]) {
    let run = b
        .add_run(RunInfo {
            id: id.into(),
            display_name: Some(id.to_owned()),
            bench_id: Some("bench".into()),
            status: Some("completed".into()),
            source: SourceKind::Files,
            ..RunInfo::default()
        })
        .unwrap();
    for (task, trajectory, outcome) in rows {
        let (class, reward) = match *outcome {
            Outcome::Reward(r) => (OutcomeClass::Graded, Some(r)),
            Outcome::Failed => (OutcomeClass::Failed, None),
        };
        b.add_trajectory(
            run,
            TrajectoryInput {
                id: trajectory,
                task: Some(task),
                class,
                reward,
                ending: Some(if reward.is_some() {
                    "ENV_DONE"
                } else {
                    "ERROR"
                }),
                flags: TrajectoryFlags::default(),
                created: None,
                components: None,
            },
        )
        .unwrap();
    }
}

/// 60 tasks: on t0–t19 the candidate passes where the baseline fails; on t20–t59 both score
/// alike but for t20–t23, split evenly. The candidate failed t24 (no reward); the baseline
/// has no attempt on t25; the candidate has a second, failed attempt on t26 (`cand-26b`).
fn set() -> RunSet {
    let mut b = RunSetBuilder::new();
    let mut base = Vec::new();
    let mut cand = Vec::new();
    for i in 0..60 {
        let task = format!("t{i}");
        let same = if i % 2 == 0 { 1.0 } else { 0.0 };
        let (x, y) = match i {
            0..=19 => (0.0, 1.0),
            20 | 22 => (1.0, 0.0),
            21 | 23 => (0.0, 1.0),
            _ => (same, same),
        };
        if i != 25 {
            base.push((task.clone(), format!("base-{i}"), Outcome::Reward(x)));
        }
        let outcome = if i == 24 {
            Outcome::Failed
        } else {
            Outcome::Reward(y)
        };
        cand.push((task.clone(), format!("cand-{i}"), outcome));
        if i == 26 {
            cand.push((task, "cand-26b".into(), Outcome::Failed));
        }
    }
    add_run(&mut b, "base", &base);
    add_run(&mut b, "cand", &cand);
    b.build()
}

fn entry(target: Target, action: Action, reason: Reason) -> Entry {
    Entry {
        target,
        action,
        reason,
        note: None,
        at: None,
    }
}

fn task(id: &str) -> Target {
    Target::Task(id.into())
}

fn settings() -> ReportSettings {
    ReportSettings {
        resamples: 200,
        ..ReportSettings::default()
    }
}

fn report(set: &RunSet, ledger: &Ledger) -> Report {
    build_report_with_ledger(set, RunIdx(0), &[RunIdx(1)], &settings(), ledger).unwrap()
}

/// The trajectory ids and rewards of `run` on task `id`.
fn attempts(set: &RunSet, run: usize, id: &str) -> Vec<(String, OutcomeClass, Option<f64>)> {
    let Some(task) = set.find_task(id) else {
        return Vec::new();
    };
    set.run(RunIdx(run))
        .unwrap()
        .trajectories_of_task(task)
        .map(|t| (t.id.to_owned(), t.class, t.reward))
        .collect()
}

#[test]
fn a_task_left_out_is_left_out_of_every_run_and_counted_by_reason() {
    let set = set();
    let ledger = Ledger {
        entries: (0..3)
            .map(|i| {
                entry(
                    task(&format!("t{i}")),
                    Action::LeaveOut,
                    Reason::Contamination,
                )
            })
            .collect(),
    };
    let applied = apply(&set, &[RunIdx(0), RunIdx(1)], &ledger).unwrap();
    for run in 0..2 {
        assert!(attempts(&applied.set, run, "t0").is_empty());
        assert_eq!(attempts(&applied.set, run, "t3").len(), 1);
    }
    // Same tasks, same indices: a task row's index means the same task in both sets.
    assert_eq!(applied.set.tasks(), set.tasks());
    assert_eq!(applied.effects.applies, [true, true, true]);
    assert_eq!(applied.effects.tasks, 3);
    let expected = SetAside {
        tasks: 3,
        left_out: 3,
        counted_as_failure: 0,
        by_reason: vec![ReasonCount {
            reason: Reason::Contamination,
            tasks: 3,
        }],
    };
    assert_eq!(
        applied.effects.runs,
        [(RunIdx(0), expected.clone()), (RunIdx(1), expected.clone())]
    );
    let with = report(&set, &ledger);
    let without = build_report(&set, RunIdx(0), &[RunIdx(1)], &settings()).unwrap();
    assert_eq!(with.coverage.union_tasks, without.coverage.union_tasks - 3);
    assert_eq!(
        with.candidates[0].primary.n,
        without.candidates[0].primary.n - 3
    );
    assert_eq!(with.coverage.runs[1].set_aside, Some(expected));
    assert!(with.tasks.len() < without.tasks.len());
    let json = with.to_json();
    assert!(json.contains("\"set_aside\""), "{json}");
    assert!(json.contains("\"without_ledger\""), "{json}");
}

#[test]
fn a_task_counted_as_a_failure_scores_0_where_it_was_failed_or_missing() {
    let set = set();
    let ledger = Ledger {
        entries: vec![
            entry(
                task("t24"),
                Action::CountAsFailure,
                Reason::InfrastructureError,
            ),
            entry(task("t25"), Action::CountAsFailure, Reason::GraderError),
            // Already scored in both runs: unchanged.
            entry(task("t30"), Action::CountAsFailure, Reason::Other),
        ],
    };
    let applied = apply(&set, &[RunIdx(0), RunIdx(1)], &ledger).unwrap();
    assert_eq!(
        attempts(&applied.set, 1, "t24"),
        [("cand-24".into(), OutcomeClass::Graded, Some(0.0))]
    );
    assert_eq!(
        attempts(&applied.set, 0, "t25"),
        [(
            failure_trajectory_id("t25"),
            OutcomeClass::Graded,
            Some(0.0)
        )]
    );
    assert_eq!(attempts(&applied.set, 0, "t30"), attempts(&set, 0, "t30"));
    assert_eq!(applied.effects.applies, [true, true, true]);
    assert_eq!(applied.effects.tasks, 2);
    let by_run: Vec<u64> = applied
        .effects
        .runs
        .iter()
        .map(|(_, s)| s.counted_as_failure)
        .collect();
    assert_eq!(by_run, [1, 1]);
    let with = report(&set, &ledger);
    let without = build_report(&set, RunIdx(0), &[RunIdx(1)], &settings()).unwrap();
    // Both tasks were left out of the primary analysis; now both are paired.
    assert_eq!(
        with.candidates[0].primary.n,
        without.candidates[0].primary.n + 2
    );
    assert_eq!(with.candidates[0].excluded.total, 0);
}

#[test]
fn a_trajectory_entry_acts_on_that_one_attempt_only() {
    let set = set();
    let one = |id: &str, action| Ledger {
        entries: vec![entry(
            Target::Trajectory(id.into()),
            action,
            Reason::InfrastructureError,
        )],
    };
    let counted = apply(
        &set,
        &[RunIdx(0), RunIdx(1)],
        &one("cand-26b", Action::CountAsFailure),
    )
    .unwrap();
    assert_eq!(
        attempts(&counted.set, 1, "t26"),
        [
            ("cand-26".into(), OutcomeClass::Graded, Some(1.0)),
            ("cand-26b".into(), OutcomeClass::Graded, Some(0.0))
        ]
    );
    assert_eq!(attempts(&counted.set, 0, "t26"), attempts(&set, 0, "t26"));
    let left = apply(
        &set,
        &[RunIdx(0), RunIdx(1)],
        &one("cand-26b", Action::LeaveOut),
    )
    .unwrap();
    assert_eq!(
        attempts(&left.set, 1, "t26"),
        [("cand-26".into(), OutcomeClass::Graded, Some(1.0))]
    );
    assert_eq!(attempts(&left.set, 0, "t26").len(), 1);
    assert_eq!(left.effects.applies, [true]);
    assert_eq!(left.effects.runs[0].1, SetAside::default());
    assert_eq!(left.effects.runs[1].1.left_out, 1);
    // Leaving out wins over counting as a failure, whatever the order.
    let both = Ledger {
        entries: vec![
            entry(task("t26"), Action::CountAsFailure, Reason::Other),
            entry(
                Target::Trajectory("cand-26b".into()),
                Action::LeaveOut,
                Reason::Duplicate,
            ),
        ],
    };
    let applied = apply(&set, &[RunIdx(0), RunIdx(1)], &both).unwrap();
    assert_eq!(attempts(&applied.set, 1, "t26").len(), 1);
}

#[test]
fn entries_that_do_not_apply_are_kept_marked_and_change_nothing() {
    let set = set();
    let ledger = Ledger {
        entries: vec![
            entry(task("nowhere"), Action::LeaveOut, Reason::BrokenTask),
            entry(
                Target::Trajectory("no-such-attempt".into()),
                Action::CountAsFailure,
                Reason::GraderError,
            ),
        ],
    };
    let with = report(&set, &ledger);
    let without = build_report(&set, RunIdx(0), &[RunIdx(1)], &settings()).unwrap();
    let lines = &with.ledger.as_ref().unwrap().entries;
    assert_eq!(lines.len(), 2);
    assert!(lines.iter().all(|line| !line.applies));
    assert_eq!(with.candidates[0].primary, without.candidates[0].primary);
    assert_eq!(with.candidates[0].verdict, without.candidates[0].verdict);
    assert_eq!(ledger_changes(&with), None);
    let markdown = with.to_markdown();
    assert!(
        markdown.contains(
            "2 entries do not apply: no compared run has the task or trajectory they name"
        ),
        "{markdown}"
    );
    assert!(
        markdown.contains("| task `nowhere` | left out | broken task |  |  | does not apply |"),
        "{markdown}"
    );
}

#[test]
fn when_the_ledger_changes_the_verdict_the_report_says_so_first_and_shows_both() {
    let set = set();
    let ledger = Ledger {
        entries: (0..20)
            .map(|i| Entry {
                note: Some("leaked | into <training>".into()),
                at: Some("2026-12-05T12:00:00Z".into()),
                ..entry(
                    task(&format!("t{i}")),
                    Action::LeaveOut,
                    Reason::Contamination,
                )
            })
            .collect(),
    };
    let with = report(&set, &ledger);
    let candidate = &with.candidates[0];
    let without = candidate.without_ledger.as_ref().unwrap();
    assert_eq!(without.verdict.decision, Decision::Better);
    assert_ne!(candidate.verdict.decision, Decision::Better);
    let first = ledger_changes(&with).unwrap();
    assert!(
        first.starts_with(&format!(
            "The reviewer's ledger changes the verdict on cand: {} with 20 tasks set aside, better without",
            candidate.verdict.headline()
        )),
        "{first}"
    );
    let markdown = with.to_markdown();
    let body = markdown.strip_prefix("# Eval comparison\n\n").unwrap();
    assert!(body.starts_with(&format!("**{first}**")), "{markdown}");
    assert!(markdown.contains("; without: better, +"), "{markdown}");
    assert!(markdown.contains("| set aside by reviewer |"), "{markdown}");
    assert!(markdown.contains("| 20 (20 contamination) |"), "{markdown}");
    assert!(
        markdown.contains("leaked \\| into &lt;training&gt;"),
        "{markdown}"
    );
    let html = with.to_html(None);
    assert!(
        html.contains(&format!(
            "<p class=\"lead\"><strong>{}</strong></p>",
            first.replace('\'', "&#39;")
        )),
        "{html}"
    );
    assert!(html.contains("<section id=\"ledger\">"), "{html}");
    assert!(html.contains("leaked | into &lt;training&gt;"), "{html}");
    assert!(html.contains("<td>20 (20 contamination)</td>"), "{html}");
    // The ledger's parts of the JSON read back the same.
    let back: Report = serde_json::from_str(&with.to_json()).unwrap();
    assert_eq!(back.ledger, with.ledger);
    assert_eq!(
        back.candidates[0]
            .without_ledger
            .as_ref()
            .map(|w| w.verdict.decision),
        Some(Decision::Better)
    );
    assert_eq!(
        back.coverage.runs[1].set_aside,
        with.coverage.runs[1].set_aside
    );
}

#[test]
fn without_a_ledger_the_report_has_no_ledger_keys() {
    let set = set();
    let plain = build_report(&set, RunIdx(0), &[RunIdx(1)], &settings()).unwrap();
    let json = plain.to_json();
    for key in ["\"ledger\"", "\"without_ledger\"", "\"set_aside\""] {
        assert!(!json.contains(key), "{key}");
    }
    assert!(!plain.to_markdown().contains("Reviewer's ledger"));
    // An empty ledger changes no figure.
    let empty = report(&set, &Ledger::default());
    assert_eq!(empty.candidates[0].primary, plain.candidates[0].primary);
    assert_eq!(empty.tasks, plain.tasks);
    assert_eq!(empty.ledger.as_ref().unwrap().tasks_set_aside, 0);
}
