//! A transcript from a step's messages: roles (unknown ones by name), content as text and
//! parts (unknown part types kept), tool calls with their arguments, tool results linked to
//! their calls, reasoning, finish reasons and token counts; hostile content kept as the text it
//! is; long content cut for display on character boundaries.

#![allow(clippy::unwrap_used)]

use eval_compare_core::api::Step;
use eval_compare_core::transcript::{
    default_excerpt, excerpt, CallLink, ContentBlock, Role, Transcript, DEFAULT_EXCERPT_CHARS,
};
use serde_json::{json, Value};

fn transcript(messages: Value) -> Transcript {
    let step: Step =
        serde_json::from_value(json!({"step_index": 0, "messages": messages})).unwrap();
    Transcript::from_last_step("tj_1", 1, &step, false)
}

#[test]
fn each_message_becomes_a_turn_with_every_field_kept() {
    let t = transcript(json!([
        {"message_id": 1, "role": "system", "content": "You fix bugs."},
        {"message_id": 2, "role": "user", "content": [
            {"type": "text", "text": "Fix"}, {"type": "image", "artifact_id": "art_1"},
            {"type": "audio", "url": "https://evil.test/a.mp3"}, {"type": "text", "text": "it."}]},
        {"message_id": 3, "role": "assistant", "content": "Looking.", "reasoning": "Hmm.",
            "tool_calls": "[{\"id\":\"c1\",\"type\":\"function\",\"function\":{\"name\":\"open\",\"arguments\":\"{\\\"path\\\":\\\"a.py\\\"}\"}},{\"id\":\"c2\",\"type\":\"function\",\"function\":{\"name\":\"ls\",\"arguments\":\"{}\"}}]",
            "finish_reason": "tool_calls", "prompt_tokens": 120, "completion_tokens": 30},
        {"message_id": 4, "role": "critic", "content": "note"},
        {"message_id": 5}
    ]));
    let roles: Vec<&str> = t.turns.iter().map(|turn| turn.role.label()).collect();
    assert_eq!(roles, ["system", "user", "assistant", "critic", "no role"]);
    assert_eq!(t.turns[3].role, Role::Other("critic".to_owned()));
    let user = &t.turns[1];
    assert_eq!(user.text(), "Fix\nit.");
    assert_eq!(
        user.content[1],
        ContentBlock::Image {
            artifact_id: "art_1".to_owned()
        }
    );
    match &user.content[2] {
        ContentBlock::Other { kind, json } => {
            assert_eq!(kind.as_deref(), Some("audio"));
            assert!(json.contains("https://evil.test/a.mp3"));
        }
        other => panic!("{other:?}"),
    }
    let assistant = &t.turns[2];
    assert!(assistant.is_assistant());
    assert_eq!(assistant.reasoning.as_deref(), Some("Hmm."));
    assert_eq!(assistant.finish_reason.as_deref(), Some("tool_calls"));
    assert_eq!(
        (assistant.prompt_tokens, assistant.completion_tokens),
        (Some(120), Some(30))
    );
    let names: Vec<_> = assistant
        .tool_calls
        .calls
        .iter()
        .map(|call| call.name.as_deref().unwrap())
        .collect();
    assert_eq!(names, ["open", "ls"]);
    assert_eq!(
        assistant.tool_calls.calls[0].arguments.display(),
        "{\n  \"path\": \"a.py\"\n}"
    );
    assert!(t.turns[4].content.is_empty());
}

#[test]
fn tool_results_link_to_their_call_by_id_else_by_position() {
    let calls = |ids: &[&str]| {
        let calls: Vec<Value> = ids
            .iter()
            .map(|id| json!({"id": id, "name": "run", "arguments": {}}))
            .collect();
        Value::Array(calls).to_string()
    };
    let t = transcript(json!([
        {"message_id": 1, "role": "assistant", "tool_calls": calls(&["a", "b"])},
        // Answers b first, by id; then a plain result answers the first call not answered: a.
        {"message_id": 2, "role": "tool", "tool_response": "{\"id\":\"b\",\"response\":\"B\"}"},
        {"message_id": 3, "role": "tool", "tool_response": "A?"},
        // A third result has no call left.
        {"message_id": 4, "role": "tool", "tool_response": "extra"},
        {"message_id": 5, "role": "assistant", "tool_calls": calls(&["c"])},
        // An id of an earlier turn's call still links to it.
        {"message_id": 6, "role": "tool", "tool_response": "{\"tool_call_id\":\"a\",\"content\":\"A\"}"},
        // A tool message whose output is in its content: the call c, not answered yet.
        {"message_id": 7, "role": "tool", "content": "C"},
        {"message_id": 8, "role": "tool", "content": "D"},
    ]));
    let links: Vec<Option<CallLink>> = t.turns.iter().map(|turn| turn.answers).collect();
    assert_eq!(
        links,
        [
            None,
            Some(CallLink::ById { turn: 0, call: 1 }),
            Some(CallLink::ByPosition { turn: 0, call: 0 }),
            Some(CallLink::Unlinked),
            None,
            Some(CallLink::ById { turn: 0, call: 0 }),
            Some(CallLink::ByPosition { turn: 4, call: 0 }),
            Some(CallLink::Unlinked),
        ]
    );
    assert_eq!(
        t.turns[1].tool_response.as_ref().unwrap().output.as_deref(),
        Some("B")
    );
    assert_eq!(t.turns[6].text(), "C");
    assert!(t.turns[6].is_tool_result());
}

/// One malformed part (a text part with no text, a bare string, null, a `type` that is not a
/// string) does not take the transcript with it: it is kept as unreadable, with why, and the
/// message's other parts and the other messages are read.
#[test]
fn a_malformed_content_part_is_unreadable_and_the_rest_is_read() {
    let t = transcript(json!([
        {"message_id": 1, "role": "user", "content": [
            {"type": "text", "text": "Fix"}, {"type": "text"}, "bare", null,
            {"type": 7, "text": "x"}, {"type": "image", "artifact_id": 3},
            {"type": "text", "text": "it."}]},
        {"message_id": 2, "role": "assistant", "content": "Done."},
    ]));
    let user = &t.turns[0];
    assert_eq!(user.text(), "Fix\nit.");
    let unreadable: Vec<(&str, &str)> = user
        .content
        .iter()
        .filter_map(|block| match block {
            ContentBlock::Unreadable { problem, json } => Some((problem.as_str(), json.as_str())),
            _ => None,
        })
        .collect();
    assert_eq!(
        unreadable,
        [
            ("a text part needs a string `text`", r#"{"type":"text"}"#),
            ("a content part must be an object", r#""bare""#),
            ("a content part must be an object", "null"),
            (
                "a content part's `type` must be a string",
                r#"{"text":"x","type":7}"#
            ),
            (
                "an image part needs a string `artifact_id`",
                r#"{"artifact_id":3,"type":"image"}"#
            ),
        ]
    );
    assert_eq!(user.content.len(), 7);
    assert_eq!(t.turns[1].text(), "Done.");
}

#[test]
fn hostile_content_is_kept_as_the_text_it_is() {
    let hostile =
        "<script>alert(1)</script><img src=x onerror=alert(2)>\u{1b}[2J\u{202e}\u{0}&amp;";
    let t = transcript(json!([
        {"message_id": 1, "role": "<b>boss</b>", "content": hostile, "reasoning": hostile,
            "tool_calls": hostile, "finish_reason": hostile},
        {"message_id": 2, "role": "tool", "tool_response": hostile},
    ]));
    let turn = &t.turns[0];
    assert_eq!(turn.role.label(), "<b>boss</b>");
    assert_eq!(turn.text(), hostile);
    assert_eq!(turn.reasoning.as_deref(), Some(hostile));
    assert_eq!(turn.finish_reason.as_deref(), Some(hostile));
    assert_eq!(turn.tool_calls.unreadable.as_deref(), Some(hostile));
    assert_eq!(
        t.turns[1].tool_response.as_ref().unwrap().output.as_deref(),
        Some(hostile)
    );
}

#[test]
fn a_megabyte_of_output_is_cut_for_display_with_its_size_known() {
    let long = "ü".repeat(1 << 20);
    let t = transcript(json!([{"message_id": 1, "role": "assistant", "content": long}]));
    let text = t.turns[0].text();
    let cut = default_excerpt(&text);
    assert!(cut.is_cut());
    assert_eq!(cut.shown.chars().count(), DEFAULT_EXCERPT_CHARS);
    assert_eq!(cut.total_chars, 1 << 20);
    assert_eq!(cut.total_bytes, 2 << 20);
    assert_eq!(cut.hidden_chars(), (1 << 20) - DEFAULT_EXCERPT_CHARS);
    let lines = "line\n".repeat(500);
    let cut = excerpt(&lines, usize::MAX, 3);
    assert_eq!(cut.shown, "line\nline\nline");
    assert_eq!(cut.total_lines, 500);
}

#[test]
fn a_trajectory_without_steps_has_no_turn() {
    let t = Transcript::no_steps("tj_9");
    assert!(t.failed_before_first_call());
    assert_eq!(t.trajectory_id, "tj_9");
    assert_eq!(t.assistant_turns().count(), 0);
}

proptest::proptest! {
    #[test]
    fn an_excerpt_is_a_prefix_within_its_limits_that_knows_the_whole(
        text in "(\\PC|\n){0,300}",
        max_chars in 0usize..200,
        max_lines in 0usize..20,
    ) {
        let cut = excerpt(&text, max_chars, max_lines);
        proptest::prop_assert!(text.starts_with(cut.shown));
        proptest::prop_assert!(cut.shown.chars().count() <= max_chars);
        proptest::prop_assert!(cut.shown.lines().count() <= max_lines.max(1));
        proptest::prop_assert_eq!(cut.total_chars, text.chars().count());
        proptest::prop_assert_eq!(cut.total_bytes, text.len());
        proptest::prop_assert_eq!(cut.is_cut(), cut.shown.len() < text.len());
        proptest::prop_assert_eq!(cut.hidden_chars(), text[cut.shown.len()..].chars().count());
        // Within both limits, nothing is cut.
        if text.chars().count() <= max_chars && text.lines().count() <= max_lines.max(1) {
            proptest::prop_assert!(!cut.is_cut());
        }
    }
}
