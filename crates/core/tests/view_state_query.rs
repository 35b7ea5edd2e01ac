//! The URL codec of the view state: what `to_query` writes (pinned byte for byte), what
//! `from_query` reads back, and the values it refuses with a reason.

#![allow(clippy::unwrap_used)]

use eval_compare_core::view_state::*;

#[test]
fn default_state_is_an_empty_query() {
    assert_eq!(ViewState::default().to_query(), "");
    assert_eq!(ViewState::from_query("").state, ViewState::default());
}

#[test]
fn readable_query_round_trips() {
    let q = "base=er_base&cand=er_s100,er_s200&filter=regressions&sort=-task&seed=7&ci=90";
    let parsed = ViewState::from_query(q);
    assert!(parsed.issues.is_empty(), "{:?}", parsed.issues);
    assert_eq!(parsed.state.candidates, vec!["er_s100", "er_s200"]);
    assert_eq!(
        parsed.state.sort,
        Sort {
            key: SortKey::Task,
            descending: true
        }
    );
    assert_eq!(parsed.state.to_query(), q);
}

#[test]
fn target_delta_and_k_prime_round_trip_and_bad_values_are_issues() {
    let q = "base=b&cand=c&target=2.5&kprime=20";
    let parsed = ViewState::from_query(q);
    assert!(parsed.issues.is_empty(), "{:?}", parsed.issues);
    assert_eq!(parsed.state.target_tenths, 25);
    assert!((parsed.state.target_delta() - 0.025).abs() < 1e-15);
    assert_eq!(parsed.state.project_samples, Some(20));
    assert_eq!(parsed.state.to_query(), q);
    // The default target (2 points) and the automatic K′ are not written.
    assert_eq!(ViewState::from_query("target=2").state.to_query(), "");
    for bad in [
        "target=0",
        "target=-1",
        "target=2.55",
        "target=1e3",
        "target=100.1",
        "target=.",
        "target=",
        "target=abc",
        "kprime=0",
        "kprime=-3",
        "kprime=10001",
        "kprime=2.5",
    ] {
        let parsed = ViewState::from_query(bad);
        assert_eq!(parsed.issues.len(), 1, "{bad}: {:?}", parsed.issues);
        assert_eq!(parsed.state, ViewState::default(), "{bad}");
    }
    assert_eq!(parse_tenths(".5"), Some(5));
    assert_eq!(parse_tenths("100"), Some(1000));
    assert_eq!(parse_tenths("99999999"), None);
    assert_eq!(tenths_text(5), "0.5");
    assert_eq!(tenths_text(1000), "100");
}

#[test]
fn a_running_comparisons_link_snapshot_round_trips() {
    let q = "base=b&cand=c1,c2&taken=1796146805&seen=1791970200&then=13.7~361,-0.4~12&asof=1";
    let parsed = ViewState::from_query(q);
    assert!(parsed.issues.is_empty(), "{:?}", parsed.issues);
    let snapshot = parsed.state.snapshot.clone().unwrap();
    assert_eq!(snapshot.taken, 1_796_146_805);
    assert_eq!(snapshot.seen, Some(1_791_970_200));
    assert_eq!(
        snapshot.then,
        [
            HeadlineThen {
                delta_tenths: Some(137),
                tasks: 361
            },
            HeadlineThen {
                delta_tenths: Some(-4),
                tasks: 12
            }
        ]
    );
    assert!(parsed.state.as_of);
    assert_eq!(parsed.state.to_query(), q);
    // No Δ then: `~n`.
    let none = ViewState::from_query("taken=5&then=~0");
    assert!(none.issues.is_empty(), "{:?}", none.issues);
    assert_eq!(none.state.to_query(), "taken=5&then=~0");
}

#[test]
fn bad_snapshot_parts_are_issues_not_crashes() {
    for (bad, issues) in [
        ("taken=-5", 1),
        ("taken=1e9", 1),
        ("taken=253402300800", 1),
        ("taken=5&then=13.75~3", 1),
        ("taken=5&then=13~3", 1),
        ("taken=5&then=1.0~-3", 1),
        ("taken=5&then=1.0", 1),
        ("taken=5&asof=yes", 1),
        ("then=1.0~3", 1),
        ("seen=7", 1),
        ("taken=5&asof=1", 1),
        ("taken=x&seen=7", 2),
    ] {
        let parsed = ViewState::from_query(bad);
        assert_eq!(parsed.issues.len(), issues, "{bad}: {:?}", parsed.issues);
        assert!(!parsed.state.as_of, "{bad}");
    }
    assert_eq!(ViewState::from_query("then=1.0~3").state.snapshot, None);
}

#[test]
fn ids_with_commas_and_unicode_survive() {
    let state = ViewState {
        baseline: Some("a b&c=d".into()),
        candidates: vec!["x,y".into(), "é/ü".into()],
        search: Some("50% done".into()),
        ..ViewState::default()
    };
    let parsed = ViewState::from_query(&state.to_query());
    assert!(parsed.issues.is_empty());
    assert_eq!(parsed.state, state);
}

#[test]
fn attempts_round_trip_beside_the_task() {
    for attempts in [vec!["trj_a"], vec!["trj_basev2_cf-0282_0", "trj,s400 é"]] {
        let state = ViewState {
            baseline: Some("b".into()),
            candidates: vec!["c".into()],
            task: Some("cf-0282".into()),
            attempts: attempts.iter().map(|a| a.to_string()).collect(),
            ..ViewState::default()
        };
        let query = state.to_query();
        assert!(query.contains("&attempts="), "{query}");
        let parsed = ViewState::from_query(&query);
        assert!(parsed.issues.is_empty(), "{:?}", parsed.issues);
        assert_eq!(parsed.state, state);
    }
    let parsed = ViewState::from_query("task=t&attempts=x,y");
    assert_eq!(parsed.state.attempts, vec!["x", "y"]);
    assert_eq!(parsed.state.to_query(), "task=t&attempts=x,y");
}

#[test]
fn bad_attempts_are_ignored_with_a_reason() {
    for query in [
        "attempts=a,b,c",
        "attempts=",
        "attempts=a,,b",
        "attempts=%00x",
        "attempts=a,%ZZ",
    ] {
        let parsed = ViewState::from_query(query);
        assert!(parsed.state.attempts.is_empty(), "{query}");
        assert_eq!(parsed.issues.len(), 1, "{query}");
        assert_eq!(parsed.issues[0].param, "attempts", "{query}");
    }
    let long = "x".repeat(MAX_ID_LEN + 1);
    let parsed = ViewState::from_query(&format!("attempts=a,{long}"));
    assert!(parsed.state.attempts.is_empty());
    assert_eq!(parsed.issues.len(), 1);
}

#[test]
fn api_keys_in_links_are_refused() {
    let parsed = ViewState::from_query("api_key=sk-123&X-API-Key=sk-456&base=r1");
    assert_eq!(parsed.state.baseline.as_deref(), Some("r1"));
    assert_eq!(parsed.issues.len(), 2);
    assert!(parsed.issues.iter().all(|i| !i.to_string().contains("sk-")));
}

#[test]
fn hostile_values_are_ignored_with_reasons() {
    let parsed = ViewState::from_query(
        "base=%E0%A4&cand=%ZZ&filter=<script>&B=0&ci=100&seed=-1&focus=9&task=%00x&zzz=1",
    );
    assert_eq!(parsed.state, ViewState::default());
    assert_eq!(parsed.issues.len(), 9, "{:?}", parsed.issues);
}

#[test]
fn ids_follow_one_rule_with_a_reason() {
    let reason = |query: &str| {
        let parsed = ViewState::from_query(query);
        assert_eq!(parsed.state, ViewState::default(), "{query}");
        assert_eq!(parsed.issues.len(), 1, "{query}: {:?}", parsed.issues);
        parsed.issues[0].to_string()
    };
    assert_eq!(reason("base="), "ignored `base`: empty value");
    assert_eq!(reason("base=%20"), "ignored `base`: only white space");
    assert_eq!(reason("base=+%09+"), "ignored `base`: only white space");
    assert_eq!(
        reason("base=er_1%20"),
        "ignored `base`: starts or ends with white space"
    );
    assert_eq!(
        reason("cand=a,%1B%5B2J"),
        "ignored `cand`: contains control characters (the first is U+001B)"
    );
    assert_eq!(
        reason(&format!("base={}", "a".repeat(MAX_ID_LEN + 1))),
        "ignored `base`: longer than 256 characters (257)"
    );
    // The longest id, and ids with invisible (not control) characters, are accepted.
    let longest = "é".repeat(MAX_ID_LEN);
    for id in [longest.as_str(), "er_\u{202E}1", "a b"] {
        assert_eq!(check_id(id), Ok(()));
        let state = ViewState {
            baseline: Some(id.to_owned()),
            candidates: vec!["other".to_owned()],
            ..ViewState::default()
        };
        let parsed = ViewState::from_query(&state.to_query());
        assert!(parsed.issues.is_empty(), "{:?}", parsed.issues);
        assert_eq!(parsed.state, state);
    }
}

#[test]
fn focus_beyond_candidates_falls_back() {
    let parsed = ViewState::from_query("cand=a,b&focus=2");
    assert_eq!(parsed.state.focus, 0);
    assert_eq!(parsed.issues.len(), 1);
}

#[test]
fn oversized_queries_are_refused_whole() {
    let huge = format!("q={}", "a".repeat(MAX_QUERY_LEN));
    let parsed = ViewState::from_query(&huge);
    assert_eq!(parsed.state, ViewState::default());
    assert_eq!(parsed.issues.len(), 1);
}

#[test]
fn repeated_params_keep_the_first() {
    let parsed = ViewState::from_query("?base=a&base=b");
    assert_eq!(parsed.state.baseline.as_deref(), Some("a"));
    assert_eq!(parsed.issues.len(), 1);
}

#[test]
fn too_many_candidates_are_refused() {
    let many: Vec<String> = (0..=MAX_CANDIDATES).map(|i| format!("r{i}")).collect();
    let parsed = ViewState::from_query(&format!("cand={}", many.join(",")));
    assert!(parsed.state.candidates.is_empty());
    assert_eq!(parsed.issues.len(), 1);
}
