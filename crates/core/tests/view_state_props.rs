//! Property tests of the URL codec: every state round-trips, and no query string panics.
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
                }
            },
        )
}

proptest! {
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
