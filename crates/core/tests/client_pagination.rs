//! Cursor pagination: following pages, progress, partial results and resuming.

#![allow(clippy::unwrap_used)]

use eval_compare_core::api::{CursorPage, EvalTrajectoryRewardsPage};
use eval_compare_core::client::*;
use eval_compare_core::testing::bodies::*;
use eval_compare_core::testing::scripted::*;
use futures::executor::block_on;

const BASE: &str = "https://api.example.test/api/v1/eval/er_1/trajectory-rewards";

fn ids(list: &PartialList<eval_compare_core::api::EvalTrajectoryReward>) -> Vec<&str> {
    list.items
        .iter()
        .map(|item| item.trajectory_id.as_str())
        .collect()
}

#[test]
fn follows_three_pages_and_reports_progress() {
    let client = client_with(vec![
        Ok(response(200, &rewards_page(&["a", "b"], Some("c2")))),
        Ok(response(200, &rewards_page(&["c", "d"], Some("c3/=")))),
        Ok(response(200, &rewards_page(&["e"], None))),
    ]);
    let mut progress = Vec::new();
    let pages = client
        .trajectory_rewards("er_1")
        .unwrap()
        .with_limit(2)
        .unwrap();
    let list = block_on(pages.collect_all(|page: &EvalTrajectoryRewardsPage, step| {
        assert_eq!(page.eval_run_id, "er_1");
        progress.push(step);
    }));
    assert!(list.is_complete());
    assert_eq!(ids(&list), ["a", "b", "c", "d", "e"]);
    assert_eq!(list.pages_read, 3);
    assert_eq!(list.resume_cursor, None);
    assert_eq!(
        progress,
        vec![
            PageProgress {
                pages_read: 1,
                items_read: 2,
                has_more: true
            },
            PageProgress {
                pages_read: 2,
                items_read: 4,
                has_more: true
            },
            PageProgress {
                pages_read: 3,
                items_read: 5,
                has_more: false
            },
        ]
    );
    assert_eq!(
        client.transport().urls(),
        vec![
            format!("{BASE}?limit=2"),
            format!("{BASE}?cursor=c2&limit=2"),
            format!("{BASE}?cursor=c3%2F%3D&limit=2"),
        ]
    );
}

#[test]
fn step_by_step_reading_stops_after_the_last_page() {
    let client = client_with(vec![
        Ok(response(200, &rewards_page(&["a"], Some("c2")))),
        Ok(response(200, &rewards_page(&["b"], None))),
    ]);
    let mut pages = client.trajectory_rewards("er_1").unwrap();
    assert_eq!(pages.cursor(), None);
    let first = block_on(pages.next_page()).unwrap().unwrap();
    assert_eq!(first.items().len(), 1);
    assert_eq!(pages.cursor(), Some("c2"));
    assert!(!pages.is_finished());
    let second = block_on(pages.next_page()).unwrap().unwrap();
    assert!(!second.has_more());
    assert!(pages.is_finished());
    assert_eq!(pages.pages_read(), 2);
    assert!(block_on(pages.next_page()).is_none());
    assert_eq!(client.transport().requests().len(), 2);
}

#[test]
fn a_failed_page_keeps_what_was_read_and_resumes_from_its_cursor() {
    let policy = RetryPolicy {
        max_retries: 1,
        ..RetryPolicy::default()
    };
    let unavailable = || {
        Ok(response(
            503,
            &error_body("dependency_error", "service_unavailable", "down", None),
        ))
    };
    let client = client_with_retry(
        policy,
        vec![
            Ok(response(200, &rewards_page(&["a", "b"], Some("c2")))),
            Ok(response(200, &rewards_page(&["c"], Some("c3")))),
            unavailable(),
            unavailable(),
            Ok(response(200, &rewards_page(&["d"], Some("c4")))),
            Ok(response(200, &rewards_page(&["e"], None))),
        ],
    );
    let partial = block_on(
        client
            .trajectory_rewards("er_1")
            .unwrap()
            .collect_all(|_, _| {}),
    );
    assert!(!partial.is_complete());
    assert_eq!(ids(&partial), ["a", "b", "c"]);
    assert_eq!(partial.pages_read, 2);
    assert_eq!(partial.resume_cursor.as_deref(), Some("c3"));
    assert_eq!(partial.error.as_ref().unwrap().status(), Some(503));
    assert_eq!(client.transport().requests().len(), 4);

    let mut progress = Vec::new();
    let pages = client.trajectory_rewards("er_1").unwrap();
    let done = block_on(pages.resume(partial, |_, step| progress.push(step)));
    assert!(done.is_complete());
    assert_eq!(done.resume_cursor, None);
    assert_eq!(ids(&done), ["a", "b", "c", "d", "e"]);
    assert_eq!(done.pages_read, 4);
    assert_eq!(progress.last().unwrap().items_read, 5);
    let urls = client.transport().urls();
    assert_eq!(urls.len(), 6);
    assert_eq!(urls[4], format!("{BASE}?cursor=c3&limit=200"));
    assert_eq!(urls[5], format!("{BASE}?cursor=c4&limit=200"));
    assert_eq!(done.clone().into_result().unwrap().len(), 5);
}

#[test]
fn a_failed_first_page_resumes_from_the_start() {
    let client = client_with(vec![
        Ok(response(
            401,
            &error_body("authentication_error", "invalid_api_key", "no", None),
        )),
        Ok(response(200, &rewards_page(&["a"], None))),
    ]);
    let partial = block_on(
        client
            .trajectory_rewards("er_1")
            .unwrap()
            .collect_all(|_, _| {}),
    );
    assert!(partial.items.is_empty());
    assert_eq!(partial.resume_cursor, None);
    assert_eq!(
        partial.clone().into_result().unwrap_err().status(),
        Some(401)
    );
    let done = block_on(
        client
            .trajectory_rewards("er_1")
            .unwrap()
            .resume(partial, |_, _| {}),
    );
    assert_eq!(ids(&done), ["a"]);
    assert_eq!(client.transport().urls()[1], format!("{BASE}?limit=200"));
}

#[test]
fn next_page_after_an_error_retries_the_same_page() {
    let policy = RetryPolicy {
        max_retries: 0,
        ..RetryPolicy::default()
    };
    let client = client_with_retry(
        policy,
        vec![
            Ok(response(200, &rewards_page(&["a"], Some("c2")))),
            Err(TransportError::Timeout),
            Ok(response(200, &rewards_page(&["b"], None))),
        ],
    );
    let mut pages = client.trajectory_rewards("er_1").unwrap();
    block_on(pages.next_page()).unwrap().unwrap();
    let error = block_on(pages.next_page()).unwrap().unwrap_err();
    assert_eq!(error, ApiError::Transport(TransportError::Timeout));
    assert_eq!(pages.cursor(), Some("c2"));
    block_on(pages.next_page()).unwrap().unwrap();
    let urls = client.transport().urls();
    assert_eq!(urls[1], urls[2]);
}

#[test]
fn an_invalid_cursor_is_reported_for_a_restart() {
    let body = error_body(
        "invalid_request_error",
        "invalid_cursor",
        "bad cursor",
        Some("cursor"),
    );
    let client = client_with(vec![Ok(response(400, &body))]);
    let pages = client
        .trajectory_rewards("er_1")
        .unwrap()
        .starting_at(Some("stale".into()));
    let partial = block_on(pages.collect_all(|_, _| {}));
    assert!(partial.error.as_ref().unwrap().is_invalid_cursor());
    assert_eq!(partial.resume_cursor.as_deref(), Some("stale"));
    assert_eq!(
        client.transport().urls(),
        vec![format!("{BASE}?cursor=stale&limit=200")]
    );
}

#[test]
fn more_pages_without_a_cursor_is_a_contract_error() {
    let body = r#"{"items": [{"trajectory_id": "a", "reward": 1.0}], "next_cursor": null, "has_more": true, "eval_run_id": "er_1"}"#;
    let client = client_with(vec![Ok(response(200, body))]);
    let partial = block_on(
        client
            .trajectory_rewards("er_1")
            .unwrap()
            .collect_all(|_, _| {}),
    );
    assert!(matches!(
        partial.error,
        Some(ApiError::UnexpectedResponse { .. })
    ));
    assert!(partial
        .error
        .unwrap()
        .to_string()
        .contains("no next_cursor"));
}

#[test]
fn a_cursor_that_repeats_stops_the_loop() {
    let client = client_with(vec![
        Ok(response(200, &rewards_page(&["a"], Some("same")))),
        Ok(response(200, &rewards_page(&["b"], Some("same")))),
    ]);
    let partial = block_on(
        client
            .trajectory_rewards("er_1")
            .unwrap()
            .collect_all(|_, _| {}),
    );
    assert_eq!(ids(&partial), ["a"]);
    assert!(matches!(
        partial.error,
        Some(ApiError::UnexpectedResponse { .. })
    ));
    assert_eq!(client.transport().requests().len(), 2);
}

#[test]
fn steps_send_the_start_index_on_the_first_page_only() {
    let page = |index: u64, cursor: Option<&str>| {
        serde_json::json!({"items": [{"step_index": index, "messages": []}],
            "next_cursor": cursor, "has_more": cursor.is_some()})
        .to_string()
    };
    let client = client_with(vec![
        Ok(response(200, &page(5, Some("s6")))),
        Ok(response(200, &page(6, None))),
    ]);
    let pages = client
        .trajectory_steps("tj_1", Some(5))
        .unwrap()
        .with_limit(1)
        .unwrap();
    let steps = block_on(pages.collect_all(|_, _| {}))
        .into_result()
        .unwrap();
    assert_eq!(
        steps.iter().map(|s| s.step_index).collect::<Vec<_>>(),
        [5, 6]
    );
    let base = "https://api.example.test/api/v1/trajectories/tj_1/steps";
    assert_eq!(
        client.transport().urls(),
        vec![
            format!("{base}?start_step_index=5&limit=1"),
            format!("{base}?cursor=s6&limit=1"),
        ]
    );
}

#[test]
fn page_metadata_is_visible_to_the_callback() {
    let page = |cursor: Option<&str>, active: bool| {
        serde_json::json!({"items": [{"step": 1, "reward_mean": 0.5}], "next_cursor": cursor,
            "has_more": cursor.is_some(), "has_active_work": active})
        .to_string()
    };
    let client = client_with(vec![
        Ok(response(200, &page(Some("p2"), true))),
        Ok(response(200, &page(None, false))),
    ]);
    let mut active = Vec::new();
    let pages = client.evaluation_series("a1", "tr_1").unwrap();
    let points = block_on(pages.collect_all(|page, _| active.push(page.has_active_work)));
    assert_eq!(points.items.len(), 2);
    assert_eq!(active, [true, false]);
}
