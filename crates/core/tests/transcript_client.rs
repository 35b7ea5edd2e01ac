//! Reading transcripts against a scripted API: the last step is the whole transcript (one
//! request, none for a trajectory without steps), a page without that step is an error, and
//! every step's reward is read page by page, bounded by `num_steps`, resumable after a failure.

#![allow(clippy::unwrap_used)]

use eval_compare_core::client::{ApiError, ApiKey, ClientConfig, RetryPolicy, TrajectoryClient};
use eval_compare_core::testing::bodies::SERVER_FAILURE;
use eval_compare_core::testing::scripted::{client_over, SECRET};
use eval_compare_core::testing::ScriptedTransport;
use eval_compare_core::transcript::{Role, StepSummaries, TranscriptOrigin, STEP_PAGE_LIMIT};
use futures::executor::block_on;
use serde_json::json;

const STEPS: &str = "http://api.test/api/v1/trajectories/tj_1/steps";

/// Step `index` holding the conversation so far: a system prompt, then per earlier step an
/// assistant call and its tool result.
fn step(index: u64) -> serde_json::Value {
    let mut messages = vec![json!({"message_id": 1, "role": "system", "content": "Fix it."})];
    for k in 0..=index {
        messages.push(json!({"message_id": 2 + 2 * k, "role": "assistant",
            "tool_calls": format!(r#"[{{"id":"c{k}","type":"function","function":{{"name":"run","arguments":"{{}}"}}}}]"#),
            "finish_reason": "tool_calls", "prompt_tokens": 10, "completion_tokens": 5}));
        messages.push(json!({"message_id": 3 + 2 * k, "role": "tool", "tool_response": "ok"}));
    }
    json!({"step_index": index, "reward": if index == 3 { json!(1.0) } else { json!(null) },
        "has_error": index == 1, "messages": messages})
}

fn page(steps: &[serde_json::Value], next: Option<&str>) -> String {
    json!({"items": steps, "next_cursor": next, "has_more": next.is_some()}).to_string()
}

#[test]
fn the_transcript_is_the_last_step_read_in_one_request() {
    let transport = ScriptedTransport::default();
    transport.route("/steps", vec![(200, page(&[step(3)], None))]);
    let client = client_over(&transport);
    let transcript = block_on(client.transcript("tj_1", 4)).unwrap();
    assert_eq!(
        transport.urls(),
        [format!("{STEPS}?start_step_index=3&limit=1")]
    );
    assert_eq!(
        transcript.origin,
        TranscriptOrigin::LastStep {
            step_index: 3,
            reward: Some(1.0),
            has_error: false,
            more_steps_after: false
        }
    );
    assert!(!transcript.failed_before_first_call());
    assert_eq!(transcript.turns.len(), 9);
    assert_eq!(transcript.turns[0].role, Role::System);
    assert_eq!(transcript.assistant_turns().count(), 4);
    let totals = transcript.token_totals();
    assert_eq!(
        (totals.prompt, totals.completion, totals.counted_messages),
        (40, 20, 4)
    );
}

#[test]
fn a_trajectory_without_steps_failed_before_its_first_model_call_and_nothing_is_sent() {
    let transport = ScriptedTransport::default();
    let client = client_over(&transport);
    let transcript = block_on(client.transcript("tj_1", 0)).unwrap();
    assert!(transcript.failed_before_first_call());
    assert!(transcript.turns.is_empty());
    assert_eq!(transport.request_count(), 0);
    // A bad id is refused before anything, with or without steps.
    assert!(matches!(
        block_on(client.transcript("", 0)),
        Err(ApiError::InvalidArgument(_))
    ));
    assert!(matches!(
        block_on(client.transcript("..", 3)),
        Err(ApiError::InvalidArgument(_))
    ));
    assert_eq!(transport.request_count(), 0);
}

#[test]
fn a_trajectory_that_grew_since_its_count_says_so() {
    let transport = ScriptedTransport::default();
    transport.route("/steps", vec![(200, page(&[step(1)], Some("s2")))]);
    let transcript = block_on(client_over(&transport).transcript("tj_1", 2)).unwrap();
    assert!(matches!(
        transcript.origin,
        TranscriptOrigin::LastStep {
            more_steps_after: true,
            has_error: true,
            ..
        }
    ));
}

#[test]
fn a_page_without_the_last_step_is_an_error_naming_it() {
    for (body, found) in [
        (page(&[], None), "gave no step instead of step 4"),
        (page(&[step(2)], None), "gave step 2 instead of step 4"),
    ] {
        let transport = ScriptedTransport::default();
        transport.route("/steps", vec![(200, body)]);
        let error = block_on(client_over(&transport).transcript("tj_1", 5)).unwrap_err();
        let message = error.to_string();
        assert!(
            matches!(error, ApiError::UnexpectedResponse { .. }),
            "{message}"
        );
        assert!(message.contains("trajectory tj_1"), "{message}");
        assert!(message.contains(found), "{message}");
    }
}

#[test]
fn a_failed_read_is_an_error_without_the_key() {
    let transport = ScriptedTransport::default();
    transport.route("/steps", vec![(500, SERVER_FAILURE.to_owned())]);
    let config = ClientConfig::new("http://api.test")
        .unwrap()
        .with_api_key(ApiKey::new(SECRET).unwrap())
        .with_retry(RetryPolicy {
            max_retries: 0,
            ..RetryPolicy::default()
        });
    let client = TrajectoryClient::new(config, transport.clone());
    let error = block_on(client.transcript("tj_1", 2)).unwrap_err();
    assert!(matches!(error, ApiError::Http(_)));
    assert!(!format!("{error} {error:?}").contains(SECRET));
}

#[test]
fn every_step_is_read_page_by_page_keeping_only_rewards_and_errors() {
    let transport = ScriptedTransport::default();
    transport.route("cursor=p2", vec![(200, page(&[step(2), step(3)], None))]);
    transport.route("/steps", vec![(200, page(&[step(0), step(1)], Some("p2")))]);
    let client = client_over(&transport);
    let mut progress = Vec::new();
    let read = block_on(
        client.step_summaries("tj_1", 4, StepSummaries::default(), |p| {
            progress.push((p.pages_read, p.items_read, p.has_more));
        }),
    );
    assert!(read.is_complete(), "{:?}", read.error);
    assert_eq!(
        transport.urls(),
        [
            format!("{STEPS}?limit={STEP_PAGE_LIMIT}"),
            format!("{STEPS}?cursor=p2&limit={STEP_PAGE_LIMIT}"),
        ]
    );
    assert_eq!(progress, [(1, 2, true), (2, 4, false)]);
    let indices: Vec<i64> = read.steps.iter().map(|s| s.step_index).collect();
    assert_eq!(indices, [0, 1, 2, 3]);
    assert_eq!(read.steps[3].reward, Some(1.0));
    assert_eq!(read.steps[3].messages, 9);
    assert_eq!(
        read.error_steps().map(|s| s.step_index).collect::<Vec<_>>(),
        [1]
    );
    // A complete read is not read again.
    let again = block_on(client.step_summaries("tj_1", 4, read.clone(), |_| {}));
    assert_eq!(again, read);
    assert_eq!(transport.request_count(), 2);
}

#[test]
fn a_failed_page_keeps_the_steps_read_and_reading_again_continues_there() {
    let transport = ScriptedTransport::default();
    transport.route(
        "cursor=p2",
        vec![
            (500, SERVER_FAILURE.to_owned()),
            (200, page(&[step(2)], None)),
        ],
    );
    transport.route("/steps", vec![(200, page(&[step(0), step(1)], Some("p2")))]);
    let client = client_over(&transport);
    let stopped = block_on(client.step_summaries("tj_1", 3, StepSummaries::default(), |_| {}));
    assert!(matches!(stopped.error, Some(ApiError::Http(_))));
    assert_eq!(stopped.steps.len(), 2);
    assert_eq!(stopped.resume_cursor.as_deref(), Some("p2"));
    let before = transport.request_count();
    let done = block_on(client.step_summaries("tj_1", 3, stopped, |_| {}));
    assert!(done.is_complete());
    assert_eq!(
        transport.urls_since(before),
        [format!("{STEPS}?cursor=p2&limit={STEP_PAGE_LIMIT}")]
    );
    assert_eq!(done.steps.len(), 3);
    assert_eq!(done.pages_read, 2);
}

#[test]
fn a_list_of_steps_that_never_ends_is_stopped_by_its_cap() {
    let transport = ScriptedTransport::default();
    // Every page announces another, with a new cursor each time.
    for n in (1..40).rev() {
        transport.route(
            &format!("cursor=p{n}&"),
            vec![(
                200,
                page(
                    &[step(2 * n), step(2 * n + 1)],
                    Some(&format!("p{}", n + 1)),
                ),
            )],
        );
    }
    transport.route(
        "/steps?limit",
        vec![(200, page(&[step(0), step(1)], Some("p1")))],
    );
    let client = client_over(&transport);
    let read = block_on(client.step_summaries("tj_1", 2, StepSummaries::default(), |_| {}));
    let message = read.error.as_ref().unwrap().to_string();
    assert!(message.contains("does not end"), "{message}");
    assert!(message.contains("trajectory tj_1's num_steps"), "{message}");
    // 2 steps fill 1 page of 25; with 10% and 2 pages of headroom, 4 pages at most.
    assert_eq!(transport.request_count(), 4);
    assert_eq!(read.steps.len(), 8);
}

#[test]
fn a_trajectory_without_steps_has_no_step_to_read() {
    let transport = ScriptedTransport::default();
    let read = block_on(client_over(&transport).step_summaries(
        "tj_1",
        0,
        StepSummaries::default(),
        |_| {},
    ));
    assert!(read.is_complete());
    assert!(read.steps.is_empty());
    assert_eq!(transport.request_count(), 0);
}
