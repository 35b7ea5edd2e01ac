//! Two attempts side by side: units, the first divergence (what is compared and how it is
//! normalized), the alignment of the rest (LCS, paired by index beyond its cap), and
//! properties: identical transcripts never diverge, a transcript aligned with itself pairs
//! every unit, the divergence lies within the shorter side, and it is symmetric (the
//! divergence mirrored, as many units matched either way).

#![allow(clippy::unwrap_used)]

use eval_compare_core::api::Step;
use eval_compare_core::transcript::{
    align, divergence, units, AlignedRow, DivergenceKind, MatchMethod, SideBySide, Transcript,
};
use proptest::prelude::*;
use serde_json::{json, Value};

/// A message of a test transcript.
#[derive(Debug, Clone, PartialEq)]
enum Spec {
    User(&'static str),
    /// Text and calls `(name, arguments)`.
    Assistant(&'static str, Vec<(&'static str, &'static str)>),
    Tool(&'static str),
}

fn message(id: usize, spec: &Spec) -> Value {
    match spec {
        Spec::User(text) => json!({"message_id": id, "role": "user", "content": text}),
        Spec::Assistant(text, calls) => {
            let calls: Vec<Value> = calls
                .iter()
                .enumerate()
                .map(|(k, (name, arguments))| {
                    json!({"id": format!("call_{id}_{k}"), "type": "function",
                        "function": {"name": name, "arguments": arguments}})
                })
                .collect();
            let mut message = json!({"message_id": id, "role": "assistant", "content": text,
                "reasoning": format!("thinking {id}"), "prompt_tokens": id});
            if !calls.is_empty() {
                message["tool_calls"] = Value::String(Value::Array(calls).to_string());
            }
            message
        }
        Spec::Tool(output) => json!({"message_id": id, "role": "tool", "tool_response": output}),
    }
}

fn transcript(specs: &[Spec]) -> Transcript {
    let messages: Vec<Value> = specs
        .iter()
        .enumerate()
        .map(|(i, s)| message(i, s))
        .collect();
    let step: Step =
        serde_json::from_value(json!({"step_index": 0, "messages": messages})).unwrap();
    Transcript::from_last_step("tj", 1, &step, false)
}

use Spec::{Assistant as A, Tool as T, User as U};

fn call(name: &'static str, arguments: &'static str) -> Vec<(&'static str, &'static str)> {
    vec![(name, arguments)]
}

#[test]
fn an_assistant_turn_and_the_tool_results_after_it_are_one_unit() {
    let t = transcript(&[
        U("fix"),
        A("", call("run", "{}")),
        T("1 failed"),
        T("more"),
        U("hint"),
        T("orphan"),
        A("done", vec![]),
    ]);
    let found: Vec<(std::ops::Range<usize>, Option<usize>)> = units(&t)
        .into_iter()
        .map(|u| (u.turns, u.exchange))
        .collect();
    assert_eq!(
        found,
        [
            (0..1, None),
            (1..4, Some(0)),
            (4..5, None),
            (5..6, None),
            (6..7, Some(1))
        ]
    );
}

fn baseline() -> Vec<Spec> {
    vec![
        U("Fix the cache."),
        A("", call("run_tests", r#"{"path": "tests"}"#)),
        T("1 failed"),
        A("", call("open_file", r#"{"path": "src/cache.py"}"#)),
        T("def get(): ..."),
        A("", call("edit_file", r#"{"find": "1", "replace": "0"}"#)),
        T("edited"),
        A("", call("run_tests", r#"{"path": "tests"}"#)),
        T("all passed"),
        A("Done.", call("submit", "{}")),
    ]
}

#[test]
fn the_first_exchange_with_other_calls_is_the_divergence_and_the_rest_realigns() {
    let mut candidate = baseline();
    candidate[3] = A("", call("open_file", r#"{"path": "src/other.py"}"#));
    candidate.insert(5, A("Let me look again.", call("grep", r#"{"q": "get"}"#)));
    candidate.insert(6, T("src/cache.py:3"));
    let view = align(&transcript(&baseline()), &transcript(&candidate));
    let found = view.divergence.unwrap();
    assert_eq!(found.exchange, 1);
    assert_eq!(found.kind, DivergenceKind::ToolCalls);
    assert_eq!((found.left_unit, found.right_unit), (Some(2), Some(2)));
    let row = |left, right, same| AlignedRow { left, right, same };
    assert_eq!(
        view.rows,
        [
            row(Some(0), Some(0), true),
            row(Some(1), Some(1), true),
            row(Some(2), Some(2), false),
            row(None, Some(3), false),
            row(Some(3), Some(4), true),
            row(Some(4), Some(5), true),
            row(Some(5), Some(6), true),
        ]
    );
    assert_eq!(view.divergence_row, Some(2));
    assert_eq!(view.method, MatchMethod::Lcs);
}

#[test]
fn whitespace_key_order_call_ids_reasoning_and_tool_output_do_not_count_as_divergence() {
    let mut candidate = baseline();
    candidate[1] = A("  \n", call("run_tests ", "{ \"path\" :\n \"tests\" }"));
    candidate[2] = T("2 failed");
    candidate[5] = A("", call("edit_file", r#"{"replace": "0", "find": "1"}"#));
    candidate[9] = A("\tDone.\n", call("submit", "{}"));
    let (left, right) = (transcript(&baseline()), transcript(&candidate));
    assert_eq!(divergence(&left, &right), None);
    assert!(align(&left, &right).rows.iter().all(|row| row.same));
}

#[test]
fn other_text_with_the_same_calls_diverges_on_text_and_an_ending_side_is_named() {
    let mut candidate = baseline();
    candidate[9] = A("Submitting.", call("submit", "{}"));
    let found = divergence(&transcript(&baseline()), &transcript(&candidate)).unwrap();
    assert_eq!((found.exchange, found.kind), (4, DivergenceKind::Text));
    candidate[9] = A("Submitting.", call("submit", r#"{"x": 1}"#));
    let found = divergence(&transcript(&baseline()), &transcript(&candidate)).unwrap();
    assert_eq!(found.kind, DivergenceKind::TextAndToolCalls);
    let shorter = &baseline()[..5];
    let found = divergence(&transcript(shorter), &transcript(&baseline())).unwrap();
    assert_eq!(found.exchange, 2);
    assert_eq!(found.kind, DivergenceKind::LeftEnded);
    assert_eq!((found.left_unit, found.right_unit), (None, Some(3)));
    let view = align(&transcript(shorter), &transcript(&baseline()));
    assert_eq!(view.rows[view.divergence_row.unwrap()].left, None);
    let mirrored = divergence(&transcript(&baseline()), &transcript(shorter)).unwrap();
    assert_eq!(mirrored.kind, DivergenceKind::RightEnded);
}

#[test]
fn thousands_of_different_turns_beyond_the_cap_are_paired_by_index() {
    let names: Vec<&'static str> = (0..3_000)
        .map(|i| &*Box::leak(format!("tool_{i}").into_boxed_str()))
        .collect();
    let left: Vec<Spec> = names.iter().map(|n| A("", call(n, "{}"))).collect();
    let right: Vec<Spec> = names.iter().rev().map(|n| A("", call(n, "{}"))).collect();
    let view = align(&transcript(&left), &transcript(&right));
    assert_eq!(view.method, MatchMethod::IndexPairs);
    assert_eq!(view.divergence.unwrap().exchange, 0);
    assert_eq!(view.rows.len(), 3_000);
    assert!(view
        .rows
        .iter()
        .enumerate()
        .all(|(i, row)| row.left == Some(i) && row.right == Some(i)));
    // The same transcripts with a long common prefix and suffix stay on the LCS.
    let mut near = left.clone();
    near[1_500] = A("changed", vec![]);
    let view = align(&transcript(&left), &transcript(&near));
    assert_eq!(view.method, MatchMethod::Lcs);
    assert_eq!(view.rows.iter().filter(|row| !row.same).count(), 1);
}

// ---- properties ----

fn spec() -> impl Strategy<Value = Spec> {
    let text = prop::sample::select(vec!["", "ok", " ok ", "other"]);
    let name = prop::sample::select(vec!["run", "ls"]);
    let arguments = prop::sample::select(vec!["{}", r#"{"a": 1}"#, r#"{ "a":1 }"#, "raw"]);
    prop_oneof![
        1 => prop::sample::select(vec!["task", "hint"]).prop_map(Spec::User),
        4 => (text, prop::collection::vec((name, arguments), 0..3))
            .prop_map(|(text, calls)| Spec::Assistant(text, calls)),
        2 => prop::sample::select(vec!["out", "err"]).prop_map(Spec::Tool),
    ]
}

fn specs() -> impl Strategy<Value = Vec<Spec>> {
    prop::collection::vec(spec(), 0..24)
}

/// The test's own reading of an exchange: trimmed text, calls with whitespace-free arguments.
fn oracle_exchanges(specs: &[Spec]) -> Vec<(String, Vec<(String, String)>)> {
    specs
        .iter()
        .filter_map(|spec| match spec {
            Spec::Assistant(text, calls) => Some((
                text.trim().to_owned(),
                calls
                    .iter()
                    .map(|(n, a)| (n.to_string(), a.replace(' ', "")))
                    .collect(),
            )),
            _ => None,
        })
        .collect()
}

/// Every unit of each side appears once, in order.
fn covers_every_unit(view: &SideBySide) -> bool {
    let side = |pick: fn(&AlignedRow) -> Option<usize>, count: usize| {
        let seen: Vec<usize> = view.rows.iter().filter_map(pick).collect();
        seen == (0..count).collect::<Vec<_>>()
    };
    side(|row| row.left, view.left_units.len()) && side(|row| row.right, view.right_units.len())
}

proptest! {
    #[test]
    fn a_transcript_aligned_with_itself_pairs_every_unit(a in specs()) {
        let t = transcript(&a);
        let view = align(&t, &t);
        prop_assert_eq!(view.divergence, None);
        prop_assert_eq!(view.rows.len(), view.left_units.len());
        for (i, row) in view.rows.iter().enumerate() {
            prop_assert_eq!(*row, AlignedRow { left: Some(i), right: Some(i), same: true });
        }
    }

    #[test]
    fn the_divergence_is_the_first_differing_exchange_within_the_shorter_side(
        a in specs(),
        b in specs(),
    ) {
        let (left, right) = (transcript(&a), transcript(&b));
        let (ea, eb) = (oracle_exchanges(&a), oracle_exchanges(&b));
        let expected = (0..ea.len().max(eb.len())).find(|&k| ea.get(k) != eb.get(k));
        let view = align(&left, &right);
        prop_assert_eq!(view.divergence.map(|d| d.exchange), expected);
        if let Some(found) = view.divergence {
            prop_assert!(found.exchange <= ea.len().min(eb.len()));
            let row = view.rows[view.divergence_row.unwrap()];
            prop_assert_eq!((row.left, row.right, row.same), (found.left_unit, found.right_unit, false));
        }
        prop_assert!(covers_every_unit(&view));
        prop_assert_eq!(view.method, MatchMethod::Lcs);
    }

    #[test]
    fn divergence_and_alignment_are_symmetric(a in specs(), b in specs()) {
        let (left, right) = (transcript(&a), transcript(&b));
        let (ab, ba) = (align(&left, &right), align(&right, &left));
        let mirror = |kind| match kind {
            DivergenceKind::LeftEnded => DivergenceKind::RightEnded,
            DivergenceKind::RightEnded => DivergenceKind::LeftEnded,
            other => other,
        };
        prop_assert_eq!(
            ab.divergence.map(|d| (d.exchange, d.left_unit, d.right_unit, mirror(d.kind))),
            ba.divergence.map(|d| (d.exchange, d.right_unit, d.left_unit, d.kind))
        );
        // The rows may differ where several longest common subsequences exist, but not how
        // many units are matched.
        let same = |view: &SideBySide| view.rows.iter().filter(|row| row.same).count();
        prop_assert_eq!(same(&ab), same(&ba));
        prop_assert!(covers_every_unit(&ba));
    }

    #[test]
    fn identical_transcripts_never_diverge(a in specs()) {
        prop_assert_eq!(divergence(&transcript(&a), &transcript(&a.clone())), None);
    }
}
