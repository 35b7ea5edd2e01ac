//! The scorecard page's link: every link round-trips, the rule and settings travel, and no
//! query string panics or smuggles a key.
#![allow(clippy::unwrap_used)]

use eval_compare_core::scorecard::{scorecard_address, settings_of, Correction, Rule};
use eval_compare_core::view_state::{ScorecardLink, ViewState, RESAMPLES_RANGE};
use proptest::prelude::*;

fn id() -> impl Strategy<Value = String> {
    "[^\\p{Cc}]{1,30}"
        .prop_map(|s| s.trim().to_owned())
        .prop_filter("non-empty", |s| !s.is_empty())
}

fn distinct_keys<T>(items: Vec<(String, T)>) -> Vec<(String, T)> {
    let mut seen: Vec<String> = Vec::new();
    items
        .into_iter()
        .filter(|(key, _)| {
            let fresh = !seen.contains(key);
            seen.push(key.clone());
            fresh
        })
        .collect()
}

fn link() -> impl Strategy<Value = ScorecardLink> {
    (
        proptest::option::of(id()),
        proptest::option::of(id()),
        proptest::collection::vec((id(), id()), 0..4),
        proptest::collection::vec(id(), 0..4),
        proptest::collection::vec((id(), 0u16..=1000), 0..4),
        any::<bool>(),
        (any::<u64>(), RESAMPLES_RANGE, 50u8..=99),
    )
        .prop_map(
            |(agent, training_run, baselines, primary, guardrails, uncorrected, (seed, b, ci))| {
                let mut unique_primary: Vec<String> = Vec::new();
                for bench in primary {
                    if !unique_primary.contains(&bench) {
                        unique_primary.push(bench);
                    }
                }
                ScorecardLink {
                    agent,
                    training_run,
                    baselines: distinct_keys(baselines),
                    primary: unique_primary,
                    guardrails: distinct_keys(guardrails),
                    uncorrected,
                    settings: ViewState {
                        seed,
                        resamples: b,
                        confidence_percent: ci,
                        ..ViewState::default()
                    },
                }
            },
        )
}

proptest! {
    #[test]
    fn every_link_round_trips(link in link()) {
        let query = link.to_query();
        let parsed = ScorecardLink::from_query(&query);
        prop_assert!(parsed.issues.is_empty(), "{query}: {:?}", parsed.issues);
        prop_assert_eq!(&parsed.link, &link);
        prop_assert_eq!(parsed.link.to_query(), query);
        // The rule survives its trip through the link.
        let rule = Rule::from_link(&link);
        let mut again = ScorecardLink::default();
        rule.write_to(&mut again).unwrap();
        prop_assert_eq!(Rule::from_link(&again), rule);
    }

    #[test]
    fn no_query_panics(query in "\\PC{0,200}") {
        let _ = ScorecardLink::from_query(&query);
    }
}

#[test]
fn a_link_is_short_readable_and_carries_the_settings() {
    let link = ScorecardLink {
        training_run: Some("tr 1".to_owned()),
        baselines: vec![("bench:a".to_owned(), "er,1".to_owned())],
        primary: vec!["x".to_owned(), "y".to_owned()],
        guardrails: vec![("z".to_owned(), 15)],
        uncorrected: true,
        settings: ViewState::from_query("seed=7&ci=90&target=3").state,
        ..ScorecardLink::default()
    };
    let query = link.to_query();
    assert_eq!(
        query,
        "training=tr%201&baselines=bench%3Aa:er%2C1&primary=x,y&guardrails=z:1.5&correction=none&seed=7&ci=90&target=3"
    );
    let settings = settings_of(&link);
    assert_eq!(settings.seed, 7);
    assert!((settings.level - 0.9).abs() < 1e-12);
    let rule = Rule::from_link(&link);
    assert_eq!(rule.correction, Correction::None);
    assert!((rule.guardrails[0].margin_points - 1.5).abs() < 1e-12);
    assert_eq!(
        scorecard_address("http://h:8080/", &ScorecardLink::default()),
        "http://h:8080/scorecard"
    );
    assert_eq!(ScorecardLink::from_query("").link, ScorecardLink::default());
}

#[test]
fn bad_values_are_dropped_with_a_reason_and_keys_never_read() {
    let parsed = ScorecardLink::from_query(
        "training=t&api_key=secret&guardrails=z:-1&correction=bonferroni&cand=x&primary=a&primary=b",
    );
    assert_eq!(parsed.link.training_run.as_deref(), Some("t"));
    assert_eq!(parsed.link.primary, ["a"]);
    assert!(parsed.link.guardrails.is_empty());
    let params: Vec<&str> = parsed.issues.iter().map(|i| i.param.as_str()).collect();
    assert_eq!(
        params,
        ["api_key", "guardrails", "correction", "cand", "primary"]
    );
    assert!(parsed.issues[0].reason.contains("never read from links"));
    assert!(!format!("{:?}", parsed.link).contains("secret"));
    // A margin a link cannot hold exactly gives no link.
    let rule = Rule {
        guardrails: vec![eval_compare_core::scorecard::Guardrail {
            bench_id: "z".to_owned(),
            margin_points: 1.25,
        }],
        ..Rule::default()
    };
    assert_eq!(rule.write_to(&mut ScorecardLink::default()), None);
}
