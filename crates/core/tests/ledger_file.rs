//! The reviewer's ledger file: what is read, what is refused (naming the entry and the field),
//! and the round trip of writing it back.
#![allow(clippy::unwrap_used)]

use eval_compare_core::ledger::{
    Action, Entry, Ledger, LedgerError, Reason, Target, MAX_LEDGER_BYTES, MAX_LEDGER_ENTRIES,
};
use proptest::prelude::*;

fn parse(text: &str) -> Result<Ledger, LedgerError> {
    Ledger::parse(text.as_bytes())
}

fn error(text: &str) -> String {
    parse(text).unwrap_err().to_string()
}

#[test]
fn the_issues_example_reads_with_every_field() {
    let ledger = parse(
        r#"{"version": 1, "entries": [
            {"task_id": "django-1", "action": "leave_out", "reason": "infrastructure_error",
             "note": "sandbox died", "at": "2026-12-05T12:00:00Z"},
            {"trajectory_id": "tr-9", "action": "count_as_failure", "reason": "grader_error"}]}"#,
    )
    .unwrap();
    assert_eq!(
        ledger.entries,
        [
            Entry {
                target: Target::Task("django-1".into()),
                action: Action::LeaveOut,
                reason: Reason::InfrastructureError,
                note: Some("sandbox died".into()),
                at: Some("2026-12-05T12:00:00Z".into()),
            },
            Entry {
                target: Target::Trajectory("tr-9".into()),
                action: Action::CountAsFailure,
                reason: Reason::GraderError,
                note: None,
                at: None,
            }
        ]
    );
    assert!(parse(r#"{"version": 1, "entries": []}"#)
        .unwrap()
        .is_empty());
}

#[test]
fn every_reason_and_action_is_read_by_its_name() {
    for reason in Reason::ALL {
        for action in Action::ALL {
            let text = format!(
                r#"{{"version": 1, "entries": [{{"task_id": "t", "action": "{}", "reason": "{}"}}]}}"#,
                action.name(),
                reason.name()
            );
            let entry = &parse(&text).unwrap().entries[0];
            assert_eq!((entry.action, entry.reason), (action, reason));
        }
    }
}

#[test]
fn an_entry_without_a_reason_or_with_an_unknown_one_is_refused_by_index_id_and_field() {
    let ok = r#"{"task_id": "a", "action": "leave_out", "reason": "duplicate"}"#;
    let file = |bad: &str| format!(r#"{{"version": 1, "entries": [{ok}, {bad}]}}"#);
    assert_eq!(
        error(&file(r#"{"task_id": "t-2", "action": "leave_out"}"#)),
        "ledger entry 1 (`t-2`), field `reason`: is missing; one of broken_task, grader_error, \
         infrastructure_error, contamination, duplicate, other"
    );
    assert_eq!(
        error(&file(
            r#"{"task_id": "t-2", "action": "leave_out", "reason": "flaky"}"#
        )),
        "ledger entry 1 (`t-2`), field `reason`: `flaky` is not one of broken_task, \
         grader_error, infrastructure_error, contamination, duplicate, other"
    );
    assert_eq!(
        error(&file(
            r#"{"trajectory_id": "tr", "action": "drop", "reason": "other"}"#
        )),
        "ledger entry 1 (`tr`), field `action`: `drop` is not one of leave_out, count_as_failure, note"
    );
    assert_eq!(
        error(&file(r#"{"action": "leave_out", "reason": "other"}"#)),
        "ledger entry 1, field `task_id`: is missing: an entry names a task_id or a trajectory_id"
    );
    assert_eq!(
        error(&file(
            r#"{"task_id": "a", "trajectory_id": "b", "action": "leave_out", "reason": "other"}"#
        )),
        "ledger entry 1 (`a`), field `trajectory_id`: stands beside task_id; an entry names one of them"
    );
    assert_eq!(
        error(&file(
            r#"{"task_id": "a", "action": "leave_out", "reason": "other", "at": "yesterday"}"#
        )),
        "ledger entry 1 (`a`), field `at`: `yesterday` is not an RFC 3339 time such as \
         2026-12-05T12:00:00Z"
    );
    for time in [
        "2026-12-05 12:00:00Z",
        "2026-12-05T12:00:00",
        " 2026-12-05T12:00:00Z",
        "2026-13-05T12:00:00Z",
    ] {
        let text = file(&format!(
            r#"{{"task_id": "a", "action": "leave_out", "reason": "other", "at": "{time}"}}"#
        ));
        assert!(error(&text).contains("field `at`"), "{time}");
    }
    for time in ["2026-12-05T12:00:00.5+02:00", "2026-12-05t12:00:00z"] {
        let text = file(&format!(
            r#"{{"task_id": "a", "action": "leave_out", "reason": "other", "at": "{time}"}}"#
        ));
        assert!(parse(&text).is_ok(), "{time}");
    }
    assert_eq!(
        error(&file(
            r#"{"task_id": "a", "action": "leave_out", "reason": "other", "note": 3}"#
        )),
        "ledger entry 1 (`a`), field `note`: is a number, not text"
    );
    assert_eq!(
        error(&file(
            r#"{"task_id": "a", "action": "leave_out", "reason": "other", "who": "me"}"#
        )),
        "ledger entry 1 (`a`), field `who`: unknown field; an entry has task_id, \
         trajectory_id, action, reason, note, at"
    );
    assert_eq!(
        error(&file(
            r#"{"task_id": " a", "action": "leave_out", "reason": "other"}"#
        )),
        "ledger entry 1 (` a`), field `task_id`: starts or ends with white space"
    );
    assert_eq!(error(&file("7")), "ledger entry 1: is not a JSON object");
    let long_note = format!(
        r#"{{"task_id": "a", "action": "leave_out", "reason": "other", "note": "{}"}}"#,
        "x".repeat(5000)
    );
    assert_eq!(
        error(&file(&long_note)),
        "ledger entry 1 (`a`), field `note`: is 5000 bytes; at most 4096"
    );
}

#[test]
fn a_malformed_file_gives_its_line_and_column_and_the_top_level_is_checked() {
    match parse("{\"version\": 1,\n \"entries\": [\n  {\"task_id\": }]}") {
        Err(LedgerError::Json { line, column, .. }) => assert_eq!((line, column), (3, 15)),
        other => panic!("{other:?}"),
    }
    assert_eq!(
        error(r#"{"version": 2, "entries": []}"#),
        "the ledger's `version` is 2; this reader knows version 1"
    );
    assert_eq!(
        error(r#"{"entries": []}"#),
        "the ledger's `version` is missing"
    );
    assert_eq!(
        error(r#"{"version": 1}"#),
        "the ledger's `entries` is missing"
    );
    assert_eq!(
        error(r#"{"version": 1, "entries": {}}"#),
        "the ledger's `entries` is not a list"
    );
    assert_eq!(
        error(r#"{"version": 1, "entries": [], "extra": 1}"#),
        "the ledger's `extra` is not a field of a ledger (it has `version` and `entries`)"
    );
    assert_eq!(
        error("[]"),
        "the ledger's `version` is missing: the ledger is not a JSON object"
    );
}

#[test]
fn the_caps_refuse_a_huge_file_and_too_many_entries_without_panicking() {
    let huge = vec![b' '; MAX_LEDGER_BYTES + 1];
    assert!(matches!(
        Ledger::parse(&huge),
        Err(LedgerError::TooLarge { .. })
    ));
    let entry = r#"{"task_id":"a","action":"leave_out","reason":"other"}"#;
    let many = format!(
        r#"{{"version":1,"entries":[{}]}}"#,
        vec![entry; MAX_LEDGER_ENTRIES + 1].join(",")
    );
    assert_eq!(
        Ledger::parse(many.as_bytes()),
        Err(LedgerError::TooManyEntries {
            count: MAX_LEDGER_ENTRIES + 1
        })
    );
    // Deep nesting is an error, not a stack overflow.
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    assert!(matches!(
        Ledger::parse(deep.as_bytes()),
        Err(LedgerError::Json { .. })
    ));
}

fn id() -> impl Strategy<Value = String> {
    "[A-Za-z0-9_./:-][A-Za-z0-9 _./:é-]{0,30}[A-Za-z0-9]?"
        .prop_filter("an id has no white space at its ends", |id| id.trim() == id)
}

fn entry() -> impl Strategy<Value = Entry> {
    (
        prop::bool::ANY,
        id(),
        prop::sample::select(Action::ALL.to_vec()),
        prop::sample::select(Reason::ALL.to_vec()),
        prop::option::of("[^\u{0}-\u{1f}]{0,40}|\"\\\\\n\t"),
        prop::option::of((0i64..4_000_000_000).prop_map(eval_compare_core::model::rfc3339_utc)),
    )
        .prop_map(|(task, id, action, reason, note, at)| Entry {
            target: if task {
                Target::Task(id)
            } else {
                Target::Trajectory(id)
            },
            action,
            reason,
            note,
            at,
        })
}

proptest! {
    #[test]
    fn a_written_ledger_reads_back_the_same(entries in prop::collection::vec(entry(), 0..20)) {
        let ledger = Ledger { entries };
        let text = ledger.to_json();
        prop_assert_eq!(Ledger::parse(text.as_bytes()).unwrap(), ledger.clone());
        // The entries in a report's JSON read back too.
        let json = serde_json::to_string(&ledger.entries).unwrap();
        let back: Vec<Entry> = serde_json::from_str(&json).unwrap();
        prop_assert_eq!(back, ledger.entries);
    }

    #[test]
    fn any_bytes_are_read_or_refused_without_panicking(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        let _ = Ledger::parse(&bytes);
    }
}
