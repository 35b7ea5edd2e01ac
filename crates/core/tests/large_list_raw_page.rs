//! The raw pages (`large_list::RawPage`) under the paginator, as the server's list streams walk
//! them: the same pages and item counts as the typed read, and the same guards (a repeated page,
//! a cursor cycle) stop the walk, though no item is decoded.

#![allow(clippy::unwrap_used)]

use eval_compare_core::api::CursorPage;
use eval_compare_core::client::{ApiError, Paginator};
use eval_compare_core::large_list::RawTrajectoryPage;
use eval_compare_core::testing::bodies::rewards_page;
use eval_compare_core::testing::scripted::{client_with, response};
use futures::executor::block_on;

/// Walks the rewards of `er_1` over `pages` as raw pages: the items per page read, and the
/// error the walk stopped with.
fn walk(pages: &[String]) -> (Vec<usize>, Option<ApiError>) {
    let client = client_with(pages.iter().map(|body| Ok(response(200, body))).collect());
    let mut paginator = client
        .trajectory_rewards("er_1")
        .map(Paginator::decoding::<RawTrajectoryPage>)
        .unwrap();
    let mut counts = Vec::new();
    let error = block_on(async {
        loop {
            match paginator.next_page().await {
                None => return None,
                Some(Ok(page)) => counts.push(page.items().len()),
                Some(Err(error)) => return Some(error),
            }
        }
    });
    (counts, error)
}

#[test]
fn a_raw_walk_reads_every_page_and_counts_the_items() {
    let (counts, error) = walk(&[
        rewards_page(&["a", "b"], Some("c2")),
        rewards_page(&["c", "d"], Some("c3")),
        rewards_page(&["e"], None),
    ]);
    assert_eq!(counts, [2, 2, 1]);
    assert!(error.is_none(), "{error:?}");
}

#[test]
fn a_repeated_page_and_a_cursor_cycle_stop_a_raw_walk() {
    let (counts, error) = walk(&[
        rewards_page(&["a", "b"], Some("c2")),
        rewards_page(&["c", "d"], Some("c3")),
        rewards_page(&["a", "b"], Some("c4")),
    ]);
    assert_eq!(counts, [2, 2]);
    let text = error.unwrap().to_string();
    assert!(
        text.contains("page 3 repeats the items of page 1"),
        "{text}"
    );

    let (counts, error) = walk(&[
        rewards_page(&["a", "b"], Some("c2")),
        rewards_page(&["c", "d"], Some("c3")),
        rewards_page(&["e", "f"], Some("c2")),
    ]);
    assert_eq!(counts, [2, 2]);
    let text = error.unwrap().to_string();
    assert!(text.contains("the cursor page 2 was read with"), "{text}");
}
