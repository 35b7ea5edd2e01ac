//! Property tests of the URL codec: every state round-trips, and no query string panics.
use eval_compare_core::ledger::{Action, Entry, Ledger, Reason, Target};
use eval_compare_core::view_state::*;
use proptest::prelude::*;

fn id() -> impl Strategy<Value = String> {
    // Printable text (no control characters), trimmed, non-empty: what an identifier can be.
    "[^\\p{Cc}]{1,40}"
        .prop_map(|s| s.trim().to_owned())
        .prop_filter("non-empty", |s| !s.is_empty())
}

fn unique(mut ids: Vec<String>) -> Vec<String> {
    let mut seen = Vec::new();
    ids.retain(|c| {
        let fresh = !seen.contains(c);
        seen.push(c.clone());
        fresh
    });
    ids
}

fn state() -> impl Strategy<Value = ViewState> {
    (
        (proptest::option::of(id()), proptest::option::of(id())),
        proptest::collection::vec(id(), 0..5),
        0usize..5,
        proptest::sample::select(RowFilter::ALL.to_vec()),
        proptest::option::of(id()),
        (
            proptest::sample::select(SortKey::ALL.to_vec()),
            any::<bool>(),
        ),
        (any::<u64>(), RESAMPLES_RANGE, 50u8..=99, any::<bool>()),
        proptest::option::of(ledger()),
    )
        .prop_map(
            |(
                (agent, baseline),
                candidates,
                focus,
                filter,
                task,
                (key, descending),
                (seed, resamples, ci, sens),
                ledger,
            )| {
                let candidates = unique(candidates);
                let focus = if candidates.is_empty() {
                    0
                } else {
                    focus % candidates.len()
                };
                ViewState {
                    agent,
                    bench: None,
                    baseline,
                    candidates,
                    focus,
                    filter,
                    category: task.clone(),
                    search: task.clone(),
                    sort: Sort { key, descending },
                    attempts: task.iter().cloned().collect(),
                    task,
                    seed,
                    resamples,
                    confidence_percent: ci,
                    analysis: if sens {
                        AnalysisMode::Sensitivity
                    } else {
                        AnalysisMode::Primary
                    },
                    target_tenths: 1 + (seed % 1000) as u16,
                    project_samples: (seed % 3 != 0).then_some(1 + (seed % 10_000) as u32),
                    snapshot: (seed % 4 != 0).then(|| snapshot_of(seed)),
                    as_of: seed % 8 == 1,
                    ledger: ledger.map(|l| l.to_link_text()),
                    pass_thousandths: (seed % 5 != 1).then_some(1 + (seed % 1000) as u16),
                    versus_step: (seed % 6 != 1).then_some((seed % 1_000_000) as i64),
                }
            },
        )
}

/// A reviewer's ledger of 1 to 6 entries: every kind, action and reason, notes of any
/// printable text (`~`, `,`, `%` and non-ASCII included) and times in either form.
fn ledger() -> impl Strategy<Value = Ledger> {
    let entry = (
        id(),
        any::<bool>(),
        proptest::sample::select(Action::ALL.to_vec()),
        proptest::sample::select(Reason::ALL.to_vec()),
        proptest::option::of("[^\\p{Cc}]{1,30}|a~b,c%d"),
        proptest::option::of(prop_oneof![
            (0i64..4_000_000_000).prop_map(eval_compare_core::model::rfc3339_utc),
            Just("2026-12-05T13:00:00+01:00".to_owned()),
        ]),
    )
        .prop_map(|(id, task, action, reason, note, at)| Entry {
            target: if task {
                Target::Task(id)
            } else {
                Target::Trajectory(id)
            },
            action,
            reason,
            note,
            at,
        });
    proptest::collection::vec(entry, 1..6).prop_map(|entries| Ledger { entries })
}

proptest! {
    #[test]
    fn every_ledger_round_trips_through_a_link(ledger in ledger()) {
        let state = ViewState { ledger: Some(ledger.to_link_text()), ..ViewState::default() };
        let parsed = ViewState::from_query(&state.to_query());
        prop_assert!(parsed.issues.is_empty(), "{:?}", parsed.issues);
        let text = parsed.state.ledger.expect("the ledger is read");
        prop_assert_eq!(Ledger::from_link_text(&text), Ok(ledger));
    }

    #[test]
    fn arbitrary_ledger_texts_never_panic(text in ".{0,200}") {
        let _ = Ledger::from_link_text(&text);
    }

    #[test]
    fn every_state_round_trips(s in state()) {
        let q = s.to_query();
        let parsed = ViewState::from_query(&q);
        prop_assert!(parsed.issues.is_empty(), "{:?} from {}", parsed.issues, q);
        prop_assert_eq!(parsed.state, s);
    }

    #[test]
    fn arbitrary_queries_never_panic_and_keep_bounds(q in ".{0,300}") {
        let parsed = ViewState::from_query(&q);
        prop_assert!(parsed.state.candidates.len() <= MAX_CANDIDATES);
        prop_assert!(parsed.state.focus == 0 || parsed.state.focus < parsed.state.candidates.len());
        prop_assert!(RESAMPLES_RANGE.contains(&parsed.state.resamples));
    }
}

/// A link snapshot derived from `seed`: every part present or not, Δ of either sign or none.
fn snapshot_of(seed: u64) -> eval_compare_core::view_state::LinkSnapshot {
    use eval_compare_core::view_state::{HeadlineThen, LinkSnapshot, MAX_LINK_TIME};
    let taken = (seed % MAX_LINK_TIME as u64) as i64;
    LinkSnapshot {
        taken,
        // `asof` needs `seen`: present whenever as_of is (seed % 8 == 1 is odd).
        seen: (seed % 2 == 1).then_some(taken / 2),
        then: (0..seed % 4)
            .map(|i| HeadlineThen {
                delta_tenths: (i != 2).then_some((seed % 2001) as i32 - 1000 + i as i32),
                tasks: (seed % 100_000) as u32 + i as u32,
            })
            .collect(),
    }
}
