//! Malformed payloads give errors that name the failing field and its position.

#![allow(clippy::unwrap_used)]

use eval_compare_core::api::*;

#[test]
fn wrong_type_names_the_field() {
    let body = br#"{"items": [{"trajectory_id": "a", "reward": 1.0}, {"trajectory_id": "b", "reward": "high"}],
                   "next_cursor": null, "has_more": false, "eval_run_id": "er"}"#;
    let error = decode::<EvalTrajectoryRewardsPage>(body).unwrap_err();
    assert_eq!(error.path, "items[1].reward");
    assert_eq!(error.kind, DecodeErrorKind::Data);
    assert_eq!(error.line, 1);
    assert!(error.column > 0);
    let shown = error.to_string();
    assert!(shown.contains("items[1].reward"), "{shown}");
    assert!(shown.contains("line 1"), "{shown}");
    assert!(!error.message.contains(" at line "), "{}", error.message);
}

#[test]
fn missing_required_field_names_the_object_and_the_field() {
    let body = br#"{"items": [{"reward": 1.0}], "has_more": false, "eval_run_id": "er"}"#;
    let error = decode::<EvalTrajectoryRewardsPage>(body).unwrap_err();
    assert_eq!(error.path, "items[0]");
    assert!(error.message.contains("trajectory_id"), "{}", error.message);
}

#[test]
fn null_where_a_number_is_required_is_an_error_not_zero() {
    let body = br#"{"items": [{"trajectory_id": "a", "reward": null}], "has_more": false, "eval_run_id": "er"}"#;
    let error = decode::<EvalTrajectoryRewardsPage>(body).unwrap_err();
    assert_eq!(error.path, "items[0].reward");
}

#[test]
fn nested_option_field_is_named() {
    let body = br#"{"eval_run_id": "er", "bench_id": "b", "agent_id": null, "display_name": null, "status": null,
                   "options": {"temperature": "warm"}, "created_at": "t", "updated_at": "t"}"#;
    let error = decode::<EvalRun>(body).unwrap_err();
    assert_eq!(error.path, "options.temperature");
}

/// A content part that is not what its kind needs does not take the page with it: it is kept,
/// as received, with why it cannot be read.
#[test]
fn a_bad_content_part_is_kept_as_unreadable() {
    let body = br#"{"items": [{"step_index": 0, "messages": [{"message_id": 1, "content": [{"type": "text", "text": 5}, {"type": "text", "text": "ok"}]}]}],
                   "has_more": false}"#;
    let page = decode::<StepPage>(body).unwrap();
    let Some(MessageContent::Parts(parts)) = &page.items[0].messages[0].content else {
        panic!("expected parts");
    };
    let ContentPart::Unreadable { problem, value } = &parts[0] else {
        panic!("{:?}", parts[0]);
    };
    assert_eq!(problem, "a text part needs a string `text`");
    assert_eq!(value["text"], 5);
    assert_eq!(parts[1], ContentPart::Text { text: "ok".into() });
}

#[test]
fn content_of_the_wrong_kind_is_rejected() {
    let body = br#"{"step_index": 0, "messages": [{"message_id": 1, "content": 42}]}"#;
    let error = decode::<Step>(body).unwrap_err();
    assert_eq!(error.path, "messages[0].content");
    assert!(
        error
            .message
            .contains("a string or a list of content parts"),
        "{}",
        error.message
    );
}

#[test]
fn truncated_body_is_reported_as_such() {
    let body = br#"{"items": [{"trajectory_id": "a", "rew"#;
    let error = decode::<EvalTrajectoryRewardsPage>(body).unwrap_err();
    assert_eq!(error.kind, DecodeErrorKind::Eof);
    assert!(error.to_string().contains("truncated"), "{error}");
}

#[test]
fn a_body_that_is_not_utf8_is_a_syntax_error_at_the_first_bad_byte() {
    let body = b"{\"items\": [{\"trajectory_id\": \"a\", \"reward\": 1, \"task_id\": \"t\"},\n {\"trajectory_id\": \"b\xff\"}]}";
    let error = decode::<EvalTrajectoryRewardsPage>(body).unwrap_err();
    assert_eq!(error.kind, DecodeErrorKind::Syntax);
    assert_eq!((error.line, error.column), (2, 22));
    assert_eq!(error.path, "items[1].trajectory_id");
    assert!(error.to_string().contains("not UTF-8"), "{error}");
    // Cut inside a character: the body ended early.
    let cut = "{\"organization_id\": \"Zürich".as_bytes();
    let error = decode::<Organization>(&cut[..cut.len() - 5]).unwrap_err();
    assert_eq!(error.kind, DecodeErrorKind::Eof);
    assert!(error.to_string().contains("truncated"), "{error}");
}

#[test]
fn text_beyond_ascii_is_decoded_as_written() {
    let organization: Organization =
        decode("{\"organization_id\": \"Zürich ✓ 東京\"}".as_bytes()).unwrap();
    assert_eq!(organization.organization_id(), Some("Zürich ✓ 東京"));
}

#[test]
fn html_instead_of_json_is_a_syntax_error_at_the_start() {
    let error = decode::<EvalRun>(b"<html><body>502 Bad Gateway</body></html>").unwrap_err();
    assert_eq!(error.kind, DecodeErrorKind::Syntax);
    assert_eq!((error.line, error.column), (1, 1));
    assert_eq!(error.path, ".");
}

#[test]
fn trailing_garbage_is_rejected() {
    let error = decode::<Organization>(br#"{"organization_id": "o"} extra"#).unwrap_err();
    assert_eq!(error.kind, DecodeErrorKind::Syntax);
}

#[test]
fn unknown_fields_are_ignored() {
    let org: Organization = decode(br#"{"organization_id": "o"}"#).unwrap();
    assert_eq!(org.organization_id(), Some("o"));
    let point: AgentTrainingEvaluationPoint =
        decode(br#"{"step": 3, "reward_mean": 0.5, "confidence": [0.4, 0.6]}"#).unwrap();
    assert_eq!(point.step, 3);
}

#[test]
fn path_survives_escaped_quotes_and_several_lines() {
    let body = b"{\"items\": [\n  {\"trajectory_id\": \"a \\\"quoted\\\", [x]\", \"reward\": 0.5},\n  {\"trajectory_id\": \"b\", \"reward\": [1]}\n], \"has_more\": false, \"eval_run_id\": \"er\"}";
    let error = decode::<EvalTrajectoryRewardsPage>(body).unwrap_err();
    assert_eq!(error.path, "items[1].reward");
    assert_eq!(error.line, 3);
}

#[test]
fn error_in_a_nested_array_element_names_its_index() {
    let body = br#"{"point": {"step": 3, "bounds": [0.4, "high"]}}"#;
    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Point {
        step: i64,
        bounds: Vec<f64>,
    }
    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Wrapper {
        point: Point,
    }
    let error = decode::<Wrapper>(body).unwrap_err();
    assert_eq!(error.path, "point.bounds[1]");
}

#[test]
fn a_wrong_length_names_the_array_not_its_last_element() {
    // Found by the fuzz harness (tests/fuzz_decoders.rs): `[]` for a struct was said to fail at
    // `[0]`, an element that does not exist.
    let error = decode::<Organization>(b"[]").unwrap_err();
    assert_eq!(
        (error.path.as_str(), error.kind),
        (".", DecodeErrorKind::Data)
    );
    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Point {
        bounds: (f64, f64),
    }
    let error = decode::<Point>(br#"{"bounds": [0.4]}"#).unwrap_err();
    assert_eq!(error.path, "bounds", "{error}");
    // `[]` read whole by an untagged enum (a task's env var) is named, not its element `[0]`.
    let body =
        br#"{"items": [{"task_id": "t", "env_vars": {"MODE": [], "X": "y"}}], "has_more": false}"#;
    let error = decode::<BenchmarkTaskPage>(body).unwrap_err();
    assert_eq!(error.path, "items[0].env_vars.MODE", "{error}");
    // An element of the wrong type is still named by its index.
    let error = decode::<Vec<String>>(b"[\"a\", 1]").unwrap_err();
    assert_eq!(error.path, "[1]", "{error}");
    let error = decode::<Vec<String>>(b"[\"a\", []]").unwrap_err();
    assert_eq!(error.path, "[1]", "{error}");
}

proptest::proptest! {
    /// Arbitrary (mostly invalid, often truncated) bodies give an error with a path, never a panic.
    #[test]
    fn any_bytes_decode_or_fail_with_a_path(body in proptest::collection::vec(
        proptest::sample::select(b"{}[],:\"\\ a1.-nul\n".to_vec()), 0..80)) {
        if let Err(error) = decode::<EvalTrajectoryRewardsPage>(&body) {
            proptest::prop_assert!(!error.path.is_empty());
            proptest::prop_assert!(error.column <= body.len() + 1);
        }
    }
}
