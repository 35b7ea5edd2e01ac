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

/// `count` reward ids `prefix0`, `prefix1`, … as one page's items.
fn numbered(prefix: &str, count: usize) -> Vec<String> {
    (0..count).map(|index| format!("{prefix}{index}")).collect()
}

fn page_of(ids: &[String], next: Option<&str>) -> Result<HttpResponse, TransportError> {
    let ids: Vec<&str> = ids.iter().map(String::as_str).collect();
    Ok(response(200, &rewards_page(&ids, next)))
}

fn message(list: &PartialList<eval_compare_core::api::EvalTrajectoryReward>) -> String {
    match &list.error {
        Some(error @ ApiError::UnexpectedResponse { .. }) => error.to_string(),
        other => panic!("expected a contract error, got {other:?}"),
    }
}

#[test]
fn a_cursor_cycle_stops_with_the_pages_before_it_kept() {
    let client = client_with(vec![
        Ok(response(200, &rewards_page(&["a"], Some("A")))),
        Ok(response(200, &rewards_page(&["b"], Some("B")))),
        Ok(response(200, &rewards_page(&["c"], Some("A")))),
        Ok(response(200, &rewards_page(&["d"], Some("B")))),
    ]);
    let partial = block_on(
        client
            .trajectory_rewards("er_1")
            .unwrap()
            .collect_all(|_, _| {}),
    );
    assert_eq!(ids(&partial), ["a", "b"]);
    assert_eq!(partial.pages_read, 2);
    assert_eq!(partial.resume_cursor.as_deref(), Some("B"));
    let text = message(&partial);
    assert!(
        text.contains("the list /api/v1/eval/er_1/trajectory-rewards does not end: page 3 gives as next_cursor \"A\", the cursor page 2 was read with (a cycle); stopped after 2 pages and 2 items read"),
        "{text}"
    );
    assert_eq!(client.transport().requests().len(), 3);
}

#[test]
fn a_new_cursor_on_every_page_ends_at_the_cap() {
    let outcomes = (0..50)
        .map(|index| {
            page_of(
                &numbered(&format!("p{index}-"), 2),
                Some(&format!("c{index}")),
            )
        })
        .collect();
    let client = client_with(outcomes);
    let pages = client
        .trajectory_rewards("er_1")
        .unwrap()
        .with_limit(2)
        .unwrap()
        .with_cap(PageCap::expected(10, "run er_1's total_rollouts"));
    let partial = block_on(pages.collect_all(|_, _| {}));
    // 10 items in pages of 2 fill 5 pages; + 1 (10%) + 2 of headroom.
    assert_eq!(partial.pages_read, 8);
    assert_eq!(partial.items.len(), 16);
    assert_eq!(
        client.transport().requests().len(),
        8,
        "page 9 is never asked for"
    );
    let text = message(&partial);
    assert!(
        text.contains("does not end: more pages are announced beyond the cap of 8 pages, derived from run er_1's total_rollouts (10 items expected, in pages of 2, with 10% + 2 pages of headroom); stopped after 8 pages and 16 items read"),
        "{text}"
    );
}

#[test]
fn a_list_of_unknown_length_ends_at_the_fixed_cap() {
    let pages = DEFAULT_MAX_PAGES as usize;
    let outcomes = (0..pages + 3)
        .map(|index| page_of(&[format!("t{index}")], Some(&format!("c{index}"))))
        .collect();
    let client = client_with(outcomes);
    let partial = block_on(
        client
            .trajectory_rewards("er_1")
            .unwrap()
            .collect_all(|_, _| {}),
    );
    assert_eq!(partial.items.len(), pages);
    assert_eq!(client.transport().requests().len(), pages);
    let text = message(&partial);
    assert!(
        text.contains("beyond the cap of 2,000 pages, the fixed cap for a list of unknown length"),
        "{text}"
    );
}

#[test]
fn a_page_repeating_an_earlier_one_stops_the_list() {
    let client = client_with(vec![
        Ok(response(200, &rewards_page(&["a", "b"], Some("c2")))),
        Ok(response(200, &rewards_page(&["c", "d"], Some("c3")))),
        Ok(response(200, &rewards_page(&["a", "b"], Some("c4")))),
    ]);
    let partial = block_on(
        client
            .trajectory_rewards("er_1")
            .unwrap()
            .collect_all(|_, _| {}),
    );
    assert_eq!(ids(&partial), ["a", "b", "c", "d"]);
    let text = message(&partial);
    assert!(
        text.contains("does not end: page 3 repeats the items of page 1 (the same 2 items from first to last); stopped after 2 pages and 4 items read"),
        "{text}"
    );
}

#[test]
fn a_long_list_and_one_longer_than_planned_within_headroom_end_normally() {
    // 1,000 planned: a cap of 8 pages of 200 (1,600 items).
    for items in [1_000_usize, 1_300, 1_600] {
        let pages = items.div_ceil(200);
        let outcomes: Vec<_> = (0..pages)
            .map(|page| {
                let next = (page + 1 < pages).then(|| format!("c{page}"));
                let size = (items - page * 200).min(200);
                page_of(&numbered(&format!("p{page}-"), size), next.as_deref())
            })
            .collect();
        let client = client_with(outcomes);
        let pages_read = client
            .trajectory_rewards("er_1")
            .unwrap()
            .with_cap(PageCap::expected(1_000, "run er_1's total_rollouts"));
        let list = block_on(pages_read.collect_all(|_, _| {}));
        assert!(list.is_complete(), "{items} items: {:?}", list.error);
        assert_eq!(list.items.len(), items);
    }
}

#[test]
fn a_resumed_read_counts_the_pages_read_before_against_the_cap() {
    let client = client_with(vec![
        page_of(&numbered("a", 2), Some("c1")),
        page_of(&numbered("b", 2), Some("c2")),
    ]);
    let partial = PartialList {
        items: Vec::new(),
        resume_cursor: Some("c0".to_owned()),
        error: None,
        pages_read: 7,
    };
    let pages = client
        .trajectory_rewards("er_1")
        .unwrap()
        .with_limit(2)
        .unwrap()
        .with_cap(PageCap::expected(10, "run er_1's total_rollouts"));
    let list = block_on(pages.resume(partial, |_, _| {}));
    assert_eq!(list.pages_read, 8);
    assert_eq!(client.transport().requests().len(), 1);
    assert!(message(&list).contains("stopped after 8 pages and 2 items read"));
}

#[test]
fn a_page_larger_than_the_limit_is_refused() {
    let client = client_with(vec![
        page_of(&numbered("a", 2), Some("c1")),
        page_of(&numbered("b", 3), None),
    ]);
    let pages = client
        .trajectory_rewards("er_1")
        .unwrap()
        .with_limit(2)
        .unwrap();
    let partial = block_on(pages.collect_all(|_, _| {}));
    assert_eq!(partial.items.len(), 2, "the pages before are kept");
    assert_eq!(partial.resume_cursor.as_deref(), Some("c1"));
    let text = message(&partial);
    assert!(
        text.contains("the list /api/v1/eval/er_1/trajectory-rewards: page 2 holds 3 items, more than the limit of 2 asked for"),
        "{text}"
    );
}

#[test]
fn a_cursor_quoted_in_a_message_never_shows_the_key() {
    // The key at the start of a cycling cursor, and a long cursor cut short.
    let cursor = format!("{SECRET}{}", "x".repeat(100));
    let client = client_with(vec![
        Ok(response(200, &rewards_page(&["a"], Some(&cursor)))),
        Ok(response(200, &rewards_page(&["b"], Some("B")))),
        Ok(response(200, &rewards_page(&["c"], Some(&cursor)))),
    ]);
    let partial = block_on(
        client
            .trajectory_rewards("er_1")
            .unwrap()
            .collect_all(|_, _| {}),
    );
    let text = message(&partial);
    assert!(!text.contains(&SECRET[..SECRET.len() - 1]), "{text}");
    assert!(text.contains("next_cursor \"***xxxxxxxx"), "{text}");
    assert!(text.contains("x…\""), "{text}");
}
