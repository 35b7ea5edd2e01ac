//! The list streams in the packed form (`?form=packed`) over loopback: each page the codec
//! packs is a frame, everything else a line as in the kept form; the frames decode to exactly
//! the items the kept stream's lines decode to, a resumed stream gives the rest, a failure after
//! some frames ends with the trailer line, and the proxy's cache keeps the packed form as its
//! own and serves it as it was sent, only with the API's consent.
#![allow(clippy::unwrap_used)]

mod common;

use std::path::Path;
use std::time::Duration;

use common::{caching_proxy, client, demo, start, temp_dir, with_faults, TestServer};
use eval_compare_core::api::{decode, BenchmarkSpecTask, BenchmarkTaskPage, CursorPage};
use eval_compare_core::client::list_stream::{
    ListStreamEnd, StreamCapabilities, PACKED_STREAM_CONTENT_TYPE, STREAM_CONTENT_TYPE,
};
use eval_compare_core::large_list::{
    decode_plain, decode_reward_page, decode_trajectory_page, frame_length, is_frame_start,
    PackedRewardsPage, PackedTrajectoryPage,
};
use eval_compare_server::cache::FILE_NAME;
use eval_compare_server::demo_key::ApiKey;
use eval_compare_server::Mode;

const RUN: &str = "eval_ckpt_s400";
const KEY: &str = "packed-key-7";

/// GETs `path` with `key`: the status, content type and body.
async fn get(base: &str, path: &str, key: Option<&str>) -> (u16, String, Vec<u8>) {
    let mut request = client().get(format!("{base}{path}"));
    if let Some(key) = key {
        request = request.header("X-API-Key", key);
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    let content_type = response
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap().to_owned())
        .unwrap_or_default();
    (
        status,
        content_type,
        response.bytes().await.unwrap().to_vec(),
    )
}

/// A record of a stream: a frame (head included) or a line (without its `\n`).
#[derive(Debug, PartialEq)]
enum Record {
    Frame(Vec<u8>),
    Line(Vec<u8>),
}

/// The records of a whole body (each frame by its length, each line to its `\n`).
fn records(mut body: &[u8]) -> Vec<Record> {
    let mut records = Vec::new();
    while let Some(&first) = body.first() {
        if is_frame_start(first) {
            let length = frame_length(body).unwrap().unwrap();
            records.push(Record::Frame(body[..length].to_vec()));
            body = &body[length..];
        } else {
            let end = body.iter().position(|&b| b == b'\n').unwrap();
            records.push(Record::Line(body[..end].to_vec()));
            body = &body[end + 1..];
        }
    }
    records
}

/// What a stream of `list` holds: each page's items and paging (as the model reads them), and
/// the trailer; frames decoded by the packed decoders, lines by the JSON one.
fn pages_of(body: &[u8], rewards: bool) -> (Vec<String>, Option<ListStreamEnd>, usize) {
    let mut read = Vec::new();
    let (mut trailer, mut frames) = (None, 0);
    for record in records(body) {
        let page = match record {
            Record::Line(line) => {
                if let Some(end) = ListStreamEnd::parse(&line) {
                    assert!(trailer.is_none(), "one trailer");
                    trailer = Some(end);
                    continue;
                }
                if rewards {
                    format!("{:?}", page_facts(decode_plain::<PackedRewardsPage>(&line)))
                } else {
                    format!(
                        "{:?}",
                        page_facts(decode_plain::<PackedTrajectoryPage>(&line))
                    )
                }
            }
            Record::Frame(frame) => {
                assert!(trailer.is_none(), "no frame after the trailer");
                frames += 1;
                if rewards {
                    format!("{:?}", page_facts(decode_reward_page(&frame)))
                } else {
                    format!("{:?}", page_facts(decode_trajectory_page(&frame)))
                }
            }
        };
        read.push(page);
    }
    (read, trailer, frames)
}

/// A decoded page's items, cursor and `has_more`.
fn page_facts<P: CursorPage, E: std::fmt::Debug>(
    page: Result<P, E>,
) -> (Vec<P::Item>, Option<String>, bool)
where
    P::Item: Clone,
{
    let page = page.unwrap();
    let cursor = page.next_cursor().map(str::to_owned);
    (page.items().to_vec(), cursor, page.has_more())
}

/// The `next_cursor` of the `index`-th record (a frame) of a trajectories' packed stream.
fn cursor_of(body: &[u8], index: usize) -> String {
    match &records(body)[index] {
        Record::Frame(frame) => decode_trajectory_page(frame)
            .unwrap()
            .next_cursor()
            .unwrap()
            .to_owned(),
        Record::Line(line) => panic!("a line: {}", String::from_utf8_lossy(line)),
    }
}

#[tokio::test]
async fn a_packed_stream_holds_the_kept_streams_items_in_frames() {
    let server = start(demo(5)).await;
    let (_, _, caps) = get(&server.base, "/stream/v1/capabilities", None).await;
    let offered: StreamCapabilities = serde_json::from_slice(&caps).unwrap();
    assert_eq!(offered.forms, ["kept", "packed"]);
    for (list, rewards) in [("trajectories", false), ("trajectory-rewards", true)] {
        let path = format!("/stream/v1/eval/{RUN}/{list}");
        let (status, kind, kept) = get(&server.base, &format!("{path}?form=kept"), None).await;
        assert_eq!((status, kind.as_str()), (200, STREAM_CONTENT_TYPE));
        let (status, kind, packed) = get(&server.base, &format!("{path}?form=packed"), None).await;
        assert_eq!((status, kind.as_str()), (200, PACKED_STREAM_CONTENT_TYPE));
        let (kept_pages, kept_end, none) = pages_of(&kept, rewards);
        let (packed_pages, packed_end, frames) = pages_of(&packed, rewards);
        assert_eq!(none, 0, "the kept stream has no frame");
        assert!(kept_pages.len() > 2, "{list}: pages read");
        assert_eq!(frames, kept_pages.len(), "{list}: every page a frame");
        assert_eq!(
            packed_pages, kept_pages,
            "{list}: the same items and paging"
        );
        assert_eq!(packed_end, kept_end);
        assert!(packed_end.unwrap().complete);
        assert!(
            packed.len() < kept.len(),
            "{list}: the packed form is smaller"
        );
    }
    // The tasks have no packed form: asked for it, they are sent in their kept form, the
    // fields the model reads the API's.
    let tasks = "/stream/v1/benchmarks/bench_codefix_v2/tasks";
    let (_, kind, asked) = get(&server.base, &format!("{tasks}?form=packed"), None).await;
    let (_, _, kept) = get(&server.base, &format!("{tasks}?form=kept"), None).await;
    let (_, _, plain) = get(&server.base, tasks, None).await;
    assert_eq!(kind, STREAM_CONTENT_TYPE);
    assert_eq!(asked, kept);
    assert!(kept.len() * 2 < plain.len(), "the kept tasks are smaller");
    let read = |body: &[u8]| -> Vec<BenchmarkSpecTask> {
        body.split(|&byte| byte == b'\n')
            .filter(|line| line.starts_with(b"{\"items\""))
            .flat_map(|line| decode::<BenchmarkTaskPage>(line).unwrap().items)
            .collect()
    };
    let (kept, plain) = (read(&kept), read(&plain));
    assert!(!plain.is_empty());
    assert_eq!(kept.len(), plain.len());
    for (kept, plain) in kept.iter().zip(&plain) {
        assert_eq!(
            (
                &kept.task_id,
                &kept.label,
                &kept.split,
                &kept.task_categories
            ),
            (
                &plain.task_id,
                &plain.label,
                &plain.split,
                &plain.task_categories
            )
        );
        assert!(kept.input_message.is_none() && kept.env_vars.is_empty());
    }
}

#[tokio::test]
async fn a_packed_stream_resumes_at_a_cursor_and_ends_a_failure_with_its_trailer() {
    let path = format!("/stream/v1/eval/{RUN}/trajectories");
    let failing = start(with_faults(
        demo(5),
        &["5xx:status=503:path=/trajectories:from=3"],
    ))
    .await;
    let (status, _, cut) = get(&failing.base, &format!("{path}?form=packed"), None).await;
    assert_eq!(status, 200);
    let read = records(&cut);
    assert_eq!(read.len(), 3, "two frames and the trailer");
    assert!(matches!(read[0], Record::Frame(_)) && matches!(read[1], Record::Frame(_)));
    let Record::Line(trailer) = &read[2] else {
        panic!("the trailer is a line");
    };
    let end = ListStreamEnd::parse(trailer).unwrap();
    assert!(!end.complete);
    assert_eq!((end.failed_page, end.status), (Some(3), Some(503)));

    let clean = start(demo(5)).await;
    let (_, _, whole) = get(&clean.base, &format!("{path}?form=packed"), None).await;
    let (all, _, _) = pages_of(&whole, false);
    let (first_two, _, _) = pages_of(&cut, false);
    let resume = format!(
        "{path}?cursor={}&pages_read=2&items_read={}&form=packed",
        cursor_of(&cut, 1),
        end.items_read
    );
    let (status, _, rest) = get(&clean.base, &resume, None).await;
    assert_eq!(status, 200);
    let (more, end, _) = pages_of(&rest, false);
    assert_eq!([first_two, more].concat(), all);
    let end = end.unwrap();
    assert!(end.complete);
    assert_eq!(end.pages_read as usize, all.len());
}

async fn keyed_upstream() -> TestServer {
    let mut config = demo(5);
    if let Mode::Demo(demo) = &mut config.mode {
        demo.key = Some(ApiKey::new(KEY));
    }
    start(config).await
}

/// Waits until a list named `list` is kept.
async fn kept(dir: &Path, list: &str) {
    for _ in 0..300 {
        let n: i64 = rusqlite::Connection::open(dir.join(FILE_NAME))
            .unwrap()
            .query_row(
                "SELECT COUNT(*) FROM lists WHERE list = ?1",
                [list],
                |row| row.get(0),
            )
            .unwrap();
        if n == 1 {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("{list} was not kept");
}

#[tokio::test]
async fn the_cache_keeps_the_packed_form_and_serves_it_after_consent() {
    let upstream = keyed_upstream().await;
    let dir = temp_dir("stream-packed-form");
    let (proxy, _cache) = caching_proxy(&upstream.base, &dir, 64).await;
    for (list, rewards) in [("trajectories", false), ("trajectory-rewards", true)] {
        let path = format!("/stream/v1/eval/{RUN}/{list}?form=packed");
        let (status, _, walked) = get(&proxy.base, &path, Some(KEY)).await;
        assert_eq!(status, 200);
        kept(&dir, &format!("{list}+packed")).await;
        let (status, kind, served) = get(&proxy.base, &path, Some(KEY)).await;
        assert_eq!((status, kind.as_str()), (200, PACKED_STREAM_CONTENT_TYPE));
        assert_eq!(served, walked, "{list}: served as it was sent");
        let (_, _, frames) = pages_of(&served, rewards);
        assert!(frames > 2, "{list}: frames kept");
        // A wrong key gets the API's refusal, never the kept list.
        let (status, _, refused) = get(&proxy.base, &path, Some("wrong-key")).await;
        assert_eq!(status, 401);
        assert!(!is_frame_start(refused[0]));
    }
}
