//! Fuzzing the view-state codec with hostile text, beside `view_state_props.rs` (which
//! round-trips states of printable ids up to 40 characters and feeds any text up to 300).
//! Here: ids made of the URL's own separators (`&`, `=`, `%`, `+`, `,`, `#`, `?`), quotes and
//! angle brackets, spaces inside, accents, emoji, combining, right-to-left and zero-width
//! characters, up to the length limit; query strings built from the page's parameters and
//! credential-like ones, spelled in every case and encoding, with broken escapes.
//! Properties: every valid state round-trips; no query panics or yields a state out of bounds;
//! a credential-like parameter never reaches the state, its link or its messages.
//! `PROPTEST_CASES` sets the number of cases (README.md, "Fuzzing").
#![allow(clippy::unwrap_used)]

use eval_compare_core::view_state::*;
use proptest::prelude::*;

/// Characters that break naive URL codecs and naive renderers.
const HOSTILE: &[char] = &[
    '&',
    '=',
    '%',
    '+',
    ',',
    '#',
    '?',
    '/',
    '\\',
    ';',
    ':',
    '@',
    '"',
    '\'',
    '<',
    '>',
    '`',
    ' ',
    '~',
    '.',
    '-',
    '_',
    '*',
    '(',
    ')',
    '[',
    ']',
    '{',
    '}',
    '|',
    '^',
    '$',
    '!',
    'é',
    'ü',
    'ß',
    '中',
    '日',
    '😀',
    '🏳',
    '\u{0301}',
    '\u{200b}',
    '\u{200d}',
    '\u{202e}',
    '\u{2066}',
    '\u{feff}',
    '\u{00a0}',
    '\u{2028}',
    '\u{fffd}',
    '\u{10ffff}',
];

/// A valid identifier: printable (no control character), trimmed, non-empty, at most
/// [`MAX_ID_LEN`] characters, mixing letters with [`HOSTILE`] characters.
fn hostile_id() -> impl Strategy<Value = String> {
    let character = prop_oneof![
        3 => proptest::char::range('a', 'z'),
        3 => proptest::sample::select(HOSTILE),
        1 => any::<char>().prop_map(|c| if c.is_control() { '?' } else { c }),
    ];
    let length = prop_oneof![4 => 1usize..24, 1 => 200usize..=MAX_ID_LEN];
    length
        .prop_flat_map(move |n| proptest::collection::vec(character.clone(), n))
        .prop_map(|chars| chars.into_iter().collect::<String>().trim().to_owned())
        .prop_filter("non-empty", |id| !id.is_empty())
}

fn unique(ids: Vec<String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for id in ids {
        if !out.contains(&id) {
            out.push(id);
        }
    }
    out
}

fn hostile_state() -> impl Strategy<Value = ViewState> {
    (
        proptest::collection::vec(proptest::option::of(hostile_id()), 6),
        proptest::collection::vec(hostile_id(), 0..=MAX_CANDIDATES),
        (
            0usize..MAX_CANDIDATES,
            proptest::sample::select(RowFilter::ALL.to_vec()),
        ),
        (
            proptest::sample::select(SortKey::ALL.to_vec()),
            any::<bool>(),
        ),
        (any::<u64>(), RESAMPLES_RANGE, 50u8..=99, any::<bool>()),
        proptest::collection::vec(hostile_id(), 0..=MAX_ATTEMPTS),
    )
        .prop_map(
            |(
                texts,
                candidates,
                (focus, filter),
                (key, descending),
                (seed, b, ci, sens),
                attempts,
            )| {
                let candidates = unique(candidates);
                let focus = if candidates.is_empty() {
                    0
                } else {
                    focus % candidates.len()
                };
                ViewState {
                    agent: texts[0].clone(),
                    bench: texts[1].clone(),
                    baseline: texts[2].clone(),
                    candidates,
                    focus,
                    filter,
                    category: texts[3].clone(),
                    search: texts[4].clone(),
                    sort: Sort { key, descending },
                    task: texts[5].clone(),
                    attempts,
                    seed,
                    resamples: b,
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
                    ledger: None,
                    pass_thousandths: (seed % 5 != 0).then_some(1 + (seed % 1000) as u16),
                    versus_step: (seed % 7 != 0).then_some((seed % 100_000) as i64),
                }
            },
        )
}

/// Names that carry a credential, in the spellings a hand-made link might use.
const SECRET_NAMES: &[&str] = &[
    "api_key",
    "apikey",
    "API_KEY",
    "Api-Key",
    "x-api-key",
    "X-API-KEY",
    "X_Api_Key",
    "key",
    "KEY",
    "token",
    "Token",
    "secret",
    "password",
    "auth",
    "Authorization",
    "api%5Fkey",
    "%61pi_key",
    "%74oken",
    "api+key",
    "api.key",
    "apikey%20",
    "access_token",
];

/// The page's own parameter names, and near misses.
const PARAM_NAMES: &[&str] = &[
    "agent",
    "bench",
    "base",
    "cand",
    "focus",
    "filter",
    "cat",
    "q",
    "sort",
    "task",
    "seed",
    "B",
    "ci",
    "analysis",
    "b",
    "Base",
    "cand%5B%5D",
    "",
    "=",
    "%",
    "%zz",
];

/// Values: plain, encoded, broken escapes, huge numbers, every separator.
fn raw_value() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z0-9,._-]{0,12}",
        hostile_id().prop_map(|id| encode_component(&id)),
        hostile_id(),
        proptest::sample::select(
            &[
                "%",
                "%2",
                "%zz",
                "%E0%A4",
                "%C0%AF",
                "%00",
                "%0A",
                "%7F",
                "%ED%A0%80",
                "%F4%90%80%80",
                "+",
                "-",
                "-delta",
                "99999999999999999999999",
                "-1",
                "1e3",
                "0x10",
                ",,,",
                "%2C",
                "a,%ZZ",
                "NaN",
                "sensitivity",
                "failed",
            ][..]
        )
        .prop_map(str::to_owned),
    ]
}

/// One `name=value` (or a bare name, or a lone separator).
fn pair() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => (proptest::sample::select(PARAM_NAMES), raw_value())
            .prop_map(|(name, value)| format!("{name}={value}")),
        1 => proptest::sample::select(PARAM_NAMES).prop_map(str::to_owned),
        1 => proptest::sample::select(&["", "&", "=", "==", "?", "#"][..]).prop_map(str::to_owned),
    ]
}

/// A query mixing the page's parameters with credentials carrying `marker`.
fn query_with_secrets() -> impl Strategy<Value = (String, String)> {
    (
        proptest::collection::vec(pair(), 0..12),
        proptest::collection::vec((proptest::sample::select(SECRET_NAMES), 0usize..12), 1..4),
        "[A-Za-z0-9]{12,24}",
        any::<bool>(),
    )
        .prop_map(|(mut pairs, secrets, tail, leading)| {
            let marker = format!("sk-fuzz{tail}");
            for (name, at) in secrets {
                let at = at.min(pairs.len());
                pairs.insert(at, format!("{name}={marker}"));
            }
            let query = pairs.join("&");
            (if leading { format!("?{query}") } else { query }, marker)
        })
}

/// The bounds every parsed state keeps.
fn assert_in_bounds(parsed: &ParsedViewState) -> Result<(), TestCaseError> {
    let state = &parsed.state;
    prop_assert!(state.candidates.len() <= MAX_CANDIDATES);
    prop_assert!(state.focus == 0 || state.focus < state.candidates.len());
    prop_assert!(RESAMPLES_RANGE.contains(&state.resamples));
    prop_assert!((50..=99).contains(&state.confidence_percent));
    let texts = [
        &state.agent,
        &state.bench,
        &state.baseline,
        &state.category,
        &state.search,
        &state.task,
    ];
    for text in texts.into_iter().flatten().chain(&state.candidates) {
        prop_assert!(text.chars().count() <= MAX_ID_LEN, "{text:?}");
        prop_assert!(!text.chars().any(char::is_control), "{text:?}");
    }
    for issue in &parsed.issues {
        prop_assert!(!issue.to_string().chars().any(char::is_control), "{issue}");
    }
    // What was read writes a link that reads back to the same state, without complaint.
    let again = ViewState::from_query(&state.to_query());
    prop_assert_eq!(&again.state, state);
    Ok(())
}

#[test]
fn whitespace_only_ids_are_refused_not_read_as_empty() {
    // Found by `arbitrary_queries_keep_bounds` (`agent=+`): a value of spaces was trimmed to an
    // empty id, kept, and then written as `agent=`, which reads back as nothing.
    for query in [
        "agent=+",
        "base=%20",
        "cand=a,%20%20,b",
        "task=%C2%A0",
        "bench=+%E2%80%A8",
    ] {
        let parsed = ViewState::from_query(query);
        assert_eq!(parsed.issues.len(), 1, "{query}: {:?}", parsed.issues);
        let state = parsed.state;
        let texts = [&state.agent, &state.baseline, &state.task, &state.bench];
        assert!(
            texts.iter().all(|text| text.is_none()),
            "{query}: {state:?}"
        );
        assert!(state.candidates.is_empty(), "{query}: {state:?}");
    }
}

proptest! {
    /// Every valid state, however hostile its text, survives its own link.
    #[test]
    fn hostile_states_round_trip(state in hostile_state()) {
        let query = state.to_query();
        prop_assert!(query.is_ascii(), "{query}");
        prop_assert!(!query.contains(['#', ' ', '+']), "{query}");
        let parsed = ViewState::from_query(&query);
        prop_assert!(parsed.issues.is_empty(), "{:?} from {}", parsed.issues, query);
        prop_assert_eq!(parsed.state, state);
    }

    /// Queries of the page's parameters, credentials among them: never a panic, the bounds
    /// kept, and the credential nowhere: not in the state, its link or a message.
    #[test]
    fn credentials_in_queries_are_never_kept((query, marker) in query_with_secrets()) {
        let parsed = ViewState::from_query(&query);
        assert_in_bounds(&parsed)?;
        prop_assert!(!format!("{:?}", parsed.state).contains(&marker), "{query}");
        prop_assert!(!parsed.state.to_query().contains(&marker), "{query}");
        for issue in &parsed.issues {
            prop_assert!(!issue.to_string().contains(&marker), "{issue} from {query}");
        }
    }

    /// Arbitrary text and arbitrary bytes read as text (lossily): never a panic, bounds kept.
    #[test]
    fn arbitrary_queries_keep_bounds(
        query in prop_oneof![
            proptest::collection::vec(pair(), 0..24).prop_map(|pairs| pairs.join("&")),
            proptest::collection::vec(any::<u8>(), 0..600)
                .prop_map(|bytes| String::from_utf8_lossy(&bytes).into_owned()),
            ".{0,600}",
        ]
    ) {
        assert_in_bounds(&ViewState::from_query(&query))?;
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
