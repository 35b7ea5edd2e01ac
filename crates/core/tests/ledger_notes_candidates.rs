//! The reviewer's notes (entries whose action is `note`: in the file, the link and the
//! reports, changing no figure) and the ledger's one-click candidates (tasks whose attempts in
//! one run all failed or all ended without a submission, tasks no run graded, tasks the
//! benchmark's list does not have), with the preview of setting a group aside computed by the
//! same report.
#![allow(clippy::unwrap_used)]

use eval_compare_core::ledger::{
    apply, ledger_candidates, with_entries, Action, CandidateKind, Entry, Ledger, Reason, Target,
};
use eval_compare_core::model::{
    OutcomeClass, RunIdx, RunInfo, RunSet, RunSetBuilder, SourceKind, TaskInput, TrajectoryFlags,
    TrajectoryInput,
};
use eval_compare_core::report::{
    build_report, build_report_with_ledger, ledger_intro, ledger_verdicts, ReportSettings,
};

/// (task, trajectory id, class, reward) rows of one run.
type Rows<'a> = &'a [(&'a str, &'a str, OutcomeClass, Option<f64>)];

fn add_run(b: &mut RunSetBuilder, id: &str, rows: Rows<'_>) {
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
    for &(task, trajectory, class, reward) in rows {
        b.add_trajectory(
            run,
            TrajectoryInput {
                id: trajectory,
                task: Some(task),
                class,
                reward,
                ending: None,
                flags: TrajectoryFlags::default(),
                created: None,
                components: None,
            },
        )
        .unwrap();
    }
}

use OutcomeClass::{Failed, Graded, ModelEnding, Ungraded};

/// Ten tasks on the list (`l0`–`l9`) and one only attempted (`gone`). The baseline's attempts
/// on l1 failed; the candidate's on l2 failed (one of its two on l3 did); the candidate ended
/// l4 without a submission; neither run graded l5; `gone` is not on the list.
fn set() -> RunSet {
    let mut b = RunSetBuilder::new();
    for i in 0..10 {
        b.add_task(TaskInput {
            id: format!("l{i}"),
            ..TaskInput::default()
        })
        .unwrap();
    }
    let mut base = vec![
        ("l1", "b1", Failed, None),
        ("l5", "b5", Ungraded, None),
        ("gone", "bg", Graded, Some(1.0)),
    ];
    let mut cand = vec![
        ("l2", "c2", Failed, None),
        ("l3", "c3a", Failed, None),
        ("l3", "c3b", Graded, Some(1.0)),
        ("l4", "c4", ModelEnding, None),
        ("l5", "c5", Failed, None),
        ("gone", "cg", Graded, Some(0.0)),
    ];
    let ids: Vec<(String, String, String)> = (0..10)
        .filter(|i| ![1, 5].contains(i))
        .map(|i| (format!("l{i}"), format!("b{i}"), format!("c{i}")))
        .collect();
    for (task, b_id, c_id) in &ids {
        base.push((task, b_id, Graded, Some(0.0)));
        if !["l2", "l3", "l4"].contains(&task.as_str()) {
            cand.push((task, c_id, Graded, Some(1.0)));
        }
    }
    add_run(&mut b, "base", &base);
    add_run(&mut b, "cand", &cand);
    b.build()
}

const BOTH: [RunIdx; 2] = [RunIdx(0), RunIdx(1)];

fn settings() -> ReportSettings {
    ReportSettings {
        resamples: 100,
        ..ReportSettings::default()
    }
}

fn note(target: Target) -> Entry {
    Entry {
        target,
        action: Action::Note,
        reason: Reason::Other,
        note: Some("grader flaky on <b>this</b>, see ~log, 100%".into()),
        at: Some("2026-12-05T12:00:00Z".into()),
    }
}

#[test]
fn a_note_reads_from_the_file_and_the_link_and_changes_no_figure() {
    let file = br#"{"version": 1, "entries": [
        {"task_id": "l6", "action": "note", "reason": "other", "note": "looks odd"},
        {"trajectory_id": "c7", "action": "note", "reason": "grader_error"},
        {"task_id": "nowhere", "action": "note", "reason": "duplicate", "note": "n"}]}"#;
    let ledger = Ledger::parse(file).unwrap();
    assert_eq!(ledger.entries[0].action, Action::Note);
    assert_eq!(Ledger::parse(ledger.to_json().as_bytes()).unwrap(), ledger);
    let link = ledger.to_link_text();
    assert!(
        link.starts_with("tn5~l6~looks%20odd,an1~c7,tn4~nowhere~n"),
        "{link}"
    );
    assert_eq!(Ledger::from_link_text(&link).unwrap(), ledger);
    // A link's action code is `o`, `f` or `n`; another is refused naming the field.
    let error = Ledger::from_link_text("tx5~l6").unwrap_err().to_string();
    assert!(
        error.contains("field `action`") && error.contains("`n` (a note)"),
        "{error}"
    );
    // An unknown action in a file names the three.
    let error = Ledger::parse(
        br#"{"version": 1, "entries": [{"task_id": "a", "action": "zero", "reason": "other"}]}"#,
    )
    .unwrap_err()
    .to_string();
    assert!(
        error.ends_with("`zero` is not one of leave_out, count_as_failure, note"),
        "{error}"
    );

    let set = set();
    let applied = apply(&set, &BOTH, &ledger).unwrap();
    assert_eq!(applied.effects.applies, [true, true, false]);
    assert_eq!(applied.effects.tasks, 0);
    assert!(applied.effects.runs.iter().all(|(_, s)| s.tasks == 0));
    let plain = build_report(&set, RunIdx(0), &[RunIdx(1)], &settings()).unwrap();
    let noted =
        build_report_with_ledger(&set, RunIdx(0), &[RunIdx(1)], &settings(), &ledger).unwrap();
    assert_eq!(noted.candidates[0].primary, plain.candidates[0].primary);
    assert_eq!(noted.tasks, plain.tasks);
    let intro = ledger_intro(noted.ledger.as_ref().unwrap());
    assert!(
        intro.contains(" 3 entries are only a note (changing no figure).")
            && intro.contains("1 entry does not apply"),
        "{intro}"
    );
    let markdown = noted.to_markdown();
    assert!(markdown.contains("| note only |"), "{markdown}");
    assert!(markdown.contains("looks odd"), "{markdown}");
    let html = noted.to_html(None);
    assert!(html.contains("note only"), "{html}");
}

#[test]
fn a_note_beside_a_set_aside_entry_leaves_its_action_alone() {
    let set = set();
    let ledger = Ledger {
        entries: vec![
            note(Target::Task("l6".into())),
            Entry {
                action: Action::LeaveOut,
                ..note(Target::Task("l6".into()))
            },
            note(Target::Trajectory("c8".into())),
        ],
    };
    let applied = apply(&set, &BOTH, &ledger).unwrap();
    assert_eq!(applied.effects.applies, [true, true, true]);
    assert_eq!(applied.effects.tasks, 1);
    let l6 = applied.set.find_task("l6").unwrap();
    for run in BOTH {
        let run = applied.set.run(run).unwrap();
        assert_eq!(run.trajectories_of_task(l6).count(), 0);
    }
    let c8 = applied.set.find_task("l8").unwrap();
    let kept: Vec<_> = applied
        .set
        .run(RunIdx(1))
        .unwrap()
        .trajectories_of_task(c8)
        .map(|t| (t.id.to_owned(), t.reward))
        .collect();
    assert_eq!(kept, [("c8".to_owned(), Some(1.0))]);
}

#[test]
fn the_candidates_come_in_groups_by_what_their_tasks_share() {
    let set = set();
    let groups = ledger_candidates(&set, &BOTH, &Ledger::default());
    let kinds: Vec<_> = groups.iter().map(|g| (g.kind, g.tasks.clone())).collect();
    let ids = |list: &[&str]| list.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
    assert_eq!(
        kinds,
        [
            (CandidateKind::ExecutionFailures, ids(&["l1", "l2", "l5"])),
            (CandidateKind::NoSubmission, ids(&["l4"])),
            // l1: the baseline's attempt failed and the candidate has none.
            (CandidateKind::NeverGraded, ids(&["l1", "l5"])),
            (CandidateKind::NotListed, ids(&["gone"])),
        ]
    );
    // l1 qualifies in the baseline, l2 and l5 in the candidate.
    assert_eq!(groups[0].per_run, [(RunIdx(0), 1), (RunIdx(1), 2)]);
    // Only the baseline (of the two runs compared) is asked: its own failures only.
    let alone = ledger_candidates(&set, &[RunIdx(0)], &Ledger::default());
    assert_eq!(alone[0].tasks, ids(&["l1"]));

    // A task the ledger sets aside is not offered again; one with only a note is.
    let ledger = Ledger {
        entries: vec![
            Entry {
                action: Action::CountAsFailure,
                ..note(Target::Task("l1".into()))
            },
            note(Target::Task("l2".into())),
        ],
    };
    let groups = ledger_candidates(&set, &BOTH, &ledger);
    assert_eq!(groups[0].tasks, ids(&["l2", "l5"]));

    // Without a task list, nothing is "not listed"; with every task set aside, nothing is
    // offered.
    let mut b = RunSetBuilder::new();
    add_run(&mut b, "solo", &[("x", "x1", Graded, Some(1.0))]);
    assert!(ledger_candidates(&b.build(), &[RunIdx(0)], &Ledger::default()).is_empty());
}

#[test]
fn a_groups_preview_is_the_report_with_its_entries_added() {
    let set = set();
    let groups = ledger_candidates(&set, &BOTH, &Ledger::default());
    let failures = &groups[0];
    let entries = failures.entries(
        Action::LeaveOut,
        failures.kind.reason(),
        Some("2026-12-05T12:00:00Z"),
    );
    assert_eq!(entries.len(), 3);
    assert!(entries
        .iter()
        .all(|e| e.reason == Reason::InfrastructureError
            && e.note.as_deref() == Some(CandidateKind::ExecutionFailures.note())));
    let ledger = with_entries(&Ledger::default(), entries);
    let preview =
        build_report_with_ledger(&set, RunIdx(0), &[RunIdx(1)], &settings(), &ledger).unwrap();
    assert_eq!(preview.ledger.as_ref().unwrap().tasks_set_aside, 3);
    let words = ledger_verdicts(&preview, &preview.candidates[0]).unwrap();
    assert!(words.starts_with("With 3 tasks set aside: "), "{words}");
    assert!(words.contains("; without: "), "{words}");
    let plain = build_report(&set, RunIdx(0), &[RunIdx(1)], &settings()).unwrap();
    assert_eq!(
        preview.candidates[0]
            .without_ledger
            .as_ref()
            .unwrap()
            .verdict,
        plain.candidates[0].verdict
    );
    assert_eq!(preview.coverage.union_tasks, plain.coverage.union_tasks - 3);
}

#[test]
fn a_link_writes_a_repeated_note_and_time_once() {
    let shared = |id: &str| Entry {
        target: Target::Task(id.into()),
        action: Action::LeaveOut,
        reason: Reason::InfrastructureError,
        note: Some("every attempt failed".into()),
        at: Some("2026-12-05T12:00:00Z".into()),
    };
    let dot = Entry {
        note: Some(".".into()),
        at: Some("2026-12-05T13:00:00+01:00".into()),
        ..shared("d")
    };
    let ledger = Ledger {
        entries: vec![shared("a"), shared("b"), dot.clone(), dot, shared("e")],
    };
    let link = ledger.to_link_text();
    assert_eq!(
        link,
        "to2~a~every%20attempt%20failed~1796472000,to2~b~.~.,\
         to2~d~%2E~2026-12-05T13%3A00%3A00%2B01%3A00,to2~d~.~.,\
         to2~e~every%20attempt%20failed~1796472000"
    );
    assert_eq!(Ledger::from_link_text(&link).unwrap(), ledger);
    // `.` with nothing before to repeat is refused, naming the entry and the field.
    let error = Ledger::from_link_text("to2~a~.").unwrap_err().to_string();
    assert!(
        error.starts_with("ledger entry 0 (`a`), field `note`: is `.`"),
        "{error}"
    );
    let error = Ledger::from_link_text("to2~a,to2~b~~.")
        .unwrap_err()
        .to_string();
    assert!(
        error.starts_with("ledger entry 1 (`b`), field `at`: is `.`"),
        "{error}"
    );
}
