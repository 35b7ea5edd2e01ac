//! The ledger in a link (the view's `ledger` parameter): its form pinned, malformed entries
//! refused naming the entry and the field, its characters checked when the link is read, and
//! the link's length limit.
use eval_compare_core::ledger::{
    settle_link_ledger, Action, Entry, Ledger, LedgerError, Reason, Target,
};
use eval_compare_core::view_state::{ViewState, MAX_QUERY_LEN};

fn entry(target: Target, action: Action, reason: Reason) -> Entry {
    Entry {
        target,
        action,
        reason,
        note: None,
        at: None,
    }
}

#[test]
fn the_form_is_short_and_pinned() {
    let ledger = Ledger {
        entries: vec![
            Entry {
                note: Some("flaky docker, 3~4 tries".into()),
                at: Some("2026-12-05T12:00:00Z".into()),
                ..entry(
                    Target::Task("django-123".into()),
                    Action::LeaveOut,
                    Reason::InfrastructureError,
                )
            },
            Entry {
                at: Some("2026-12-05T13:00:00+01:00".into()),
                ..entry(
                    Target::Trajectory("traj 9".into()),
                    Action::CountAsFailure,
                    Reason::Other,
                )
            },
            entry(
                Target::Task("t1".into()),
                Action::LeaveOut,
                Reason::BrokenTask,
            ),
        ],
    };
    let text = ledger.to_link_text();
    assert_eq!(
        text,
        "to2~django-123~flaky%20docker%2C%203%7E4%20tries~1796472000,\
         af5~traj%209~~2026-12-05T13%3A00%3A00%2B01%3A00,to0~t1"
    );
    assert_eq!(Ledger::from_link_text(&text), Ok(ledger.clone()));
    let view = ViewState {
        ledger: Some(text.clone()),
        ..ViewState::default()
    };
    let query = view.to_query();
    assert_eq!(query, format!("ledger={text}"));
    let parsed = ViewState::from_query(&query);
    assert!(parsed.issues.is_empty(), "{:?}", parsed.issues);
    assert_eq!(parsed.state, view);
}

fn refused(text: &str) -> (usize, String, String) {
    match Ledger::from_link_text(text) {
        Err(LedgerError::Entry {
            index,
            field,
            problem,
            ..
        }) => (index, field, problem),
        other => panic!("{text}: {other:?}"),
    }
}

#[test]
fn a_malformed_entry_is_refused_naming_the_entry_and_the_field() {
    assert_eq!(refused("to2~a,xo2~b").0, 1);
    assert_eq!(refused("to2~a,xo2~b").1, "code");
    assert_eq!(refused("tx2~a").1, "action");
    assert_eq!(refused("to9~a").1, "reason");
    assert_eq!(refused("to~a").1, "code");
    assert_eq!(refused("to2").1, "task_id");
    assert_eq!(refused("to2~%20a").1, "task_id");
    assert_eq!(refused("to2~a~%ZZ").1, "note");
    assert_eq!(refused("to2~a~~yesterday").1, "at");
    assert_eq!(refused("to2~a~n~1~more").1, "");
    let message = Ledger::from_link_text("to2~ok,to2~b~~yesterday")
        .expect_err("entry 1's `at` is not a time")
        .to_string();
    assert!(
        message.contains("ledger entry 1 (`b`), field `at`"),
        "{message}"
    );
}

#[test]
fn a_link_ledger_with_foreign_characters_is_ignored_with_a_notice() {
    let parsed = ViewState::from_query("base=a&cand=b&ledger=to2~a<script>");
    assert_eq!(parsed.state.ledger, None);
    assert_eq!(parsed.state.baseline.as_deref(), Some("a"));
    assert_eq!(parsed.issues.len(), 1);
    assert_eq!(parsed.issues[0].param, "ledger");
    let empty = ViewState::from_query("ledger=");
    assert_eq!(empty.state.ledger, None);
    assert_eq!(empty.issues[0].param, "ledger");
}

#[test]
fn a_ledger_over_the_query_limit_is_not_read() {
    let entries = (0..MAX_QUERY_LEN / 10)
        .map(|i| {
            entry(
                Target::Task(format!("task-{i:05}")),
                Action::LeaveOut,
                Reason::Duplicate,
            )
        })
        .collect();
    let text = Ledger { entries }.to_link_text();
    let query = format!("base=a&cand=b&ledger={text}");
    assert!(query.len() > MAX_QUERY_LEN);
    let parsed = ViewState::from_query(&query);
    assert_eq!(parsed.state.ledger, None);
    assert_eq!(parsed.issues[0].param, "(query)");
}

#[test]
fn a_links_ledger_that_does_not_read_is_dropped_with_a_notice() {
    let mut parsed = ViewState::from_query("base=a&cand=b&ledger=to2~a,to9~b");
    assert!(parsed.issues.is_empty());
    assert_eq!(settle_link_ledger(&mut parsed), Ledger::default());
    assert_eq!(parsed.state.ledger, None);
    assert_eq!(parsed.issues[0].param, "ledger");
    assert!(
        parsed.issues[0]
            .reason
            .contains("ledger entry 1 (`b`), field `reason`"),
        "{}",
        parsed.issues[0].reason
    );
    let mut good = ViewState::from_query("base=a&cand=b&ledger=to2~a");
    assert_eq!(settle_link_ledger(&mut good).entries.len(), 1);
    assert!(good.issues.is_empty());
    assert!(good.state.ledger.is_some());
}

#[test]
fn a_reports_share_link_carries_its_ledger() {
    use eval_compare_core::model::{
        OutcomeClass, RunIdx, RunInfo, RunSetBuilder, SourceKind, TrajectoryFlags, TrajectoryInput,
    };
    use eval_compare_core::report::{build_report_with_ledger, ReportSettings};
    use eval_compare_core::share_link::report_view;

    let mut builder = RunSetBuilder::new();
    for (r, id) in ["base", "cand"].into_iter().enumerate() {
        let run = builder
            .add_run(RunInfo {
                id: id.into(),
                source: SourceKind::Files,
                ..RunInfo::default()
            })
            .expect("a run");
        for task in 0..6 {
            let trajectory = format!("{id}-{task}");
            let task = format!("t{task}");
            builder
                .add_trajectory(
                    run,
                    TrajectoryInput {
                        id: &trajectory,
                        task: Some(&task),
                        class: OutcomeClass::Graded,
                        reward: Some(((task.len() + r) % 2) as f64),
                        ending: Some("ENV_DONE"),
                        flags: TrajectoryFlags::default(),
                        created: None,
                        components: None,
                    },
                )
                .expect("a trajectory");
        }
    }
    let set = builder.build();
    let ledger = Ledger {
        entries: vec![entry(
            Target::Task("t1".into()),
            Action::LeaveOut,
            Reason::BrokenTask,
        )],
    };
    let report = build_report_with_ledger(
        &set,
        RunIdx(0),
        &[RunIdx(1)],
        &ReportSettings::default(),
        &ledger,
    )
    .expect("a report");
    let view = report_view(&report).expect("a link");
    assert_eq!(view.ledger, Some(ledger.to_link_text()));
}
