//! The list streams (`/stream/v1/…`) over loopback: a stream holds the same items as the
//! contract's pages and ends with its trailer; a failure mid-way ends it with a trailer naming
//! the page, and a resumed stream gives the rest; a first page the API refuses is answered as
//! the API answered it. The proxy's cache of finished runs: served only with the API's consent
//! (a wrong key gets the API's refusal, never the kept list), read again when the run's record
//! changed or the entry is damaged, never keeping a running run. A run's trajectories come in
//! its rewards' order, or in the API's own when it refuses that order.
#![allow(clippy::unwrap_used)]

mod common;

use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use axum::response::IntoResponse;
use tower::ServiceExt;

use common::{
    caching_proxy, client, demo, serve_router, start, temp_dir, walk, walk_chronicle, with_faults,
    TestServer,
};
use eval_compare_server::cache::{piece_digests, FILE_NAME, PIECE_BYTES};
use eval_compare_server::demo_key::ApiKey;
use eval_compare_server::{app, Config, Mode, ProxyLimits};
use serde_json::Value;

const RUN: &str = "eval_ckpt_s400";
const RUNNING: &str = "eval_ckpt_s500";
const KEY: &str = "stream-key-41";

/// GETs `path` with `key`: the status and the body's lines.
async fn lines(base: &str, path: &str, key: Option<&str>) -> (u16, Vec<Value>) {
    let mut request = client().get(format!("{base}{path}"));
    if let Some(key) = key {
        request = request.header("X-API-Key", key);
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    let text = response.text().await.unwrap();
    let values = text
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    (status, values)
}

/// The items of a stream's page lines, and its trailer (the last line).
fn split(values: &[Value]) -> (Vec<Value>, &Value) {
    let (trailer, pages) = values.split_last().unwrap();
    assert!(pages.iter().all(|page| page.get("stream_end").is_none()));
    let items = pages
        .iter()
        .flat_map(|page| page["items"].as_array().unwrap().iter().cloned())
        .collect();
    (items, &trailer["stream_end"])
}

#[tokio::test]
async fn a_stream_holds_the_contract_pages_items_and_ends_with_its_trailer() {
    let server = start(demo(5)).await;
    let (status, caps) = lines(&server.base, "/stream/v1/capabilities", None).await;
    assert_eq!(status, 200);
    assert_eq!(caps[0]["list_streams"], 1);
    for (stream, path, chronicle) in [
        (
            format!("/stream/v1/eval/{RUN}/trajectory-rewards"),
            format!("/api/v1/eval/{RUN}/trajectory-rewards"),
            false,
        ),
        (
            format!("/stream/v1/eval/{RUN}/trajectories"),
            format!("/api/v1/trajectories?eval_run_id={RUN}&sort=task_id&order=asc"),
            false,
        ),
        (
            "/stream/v1/benchmarks/bench_codefix_v2/tasks".to_owned(),
            "/api/v1/benchmarks/bench_codefix_v2/tasks".to_owned(),
            false,
        ),
        (
            "/stream/v1/backtests/jobs/job_s400/trials".to_owned(),
            "/v1/backtests/jobs/job_s400/trials".to_owned(),
            true,
        ),
    ] {
        let (status, values) = lines(&server.base, &stream, None).await;
        assert_eq!(status, 200, "{stream}");
        let (items, end) = split(&values);
        let expected = if chronicle {
            walk_chronicle(&client(), &server.base, &path, 100).await
        } else {
            walk(&client(), &server.base, &path, 200).await
        };
        assert_eq!(items, expected, "{stream}");
        assert_eq!(end["complete"], true, "{stream}");
        assert_eq!(end["items_read"], expected.len(), "{stream}");
        assert_eq!(end["pages_read"], values.len() - 1, "{stream}");
    }
    let (status, refused) = lines(&server.base, "/stream/v1/eval/nope/trajectories", None).await;
    assert_eq!(status, 404);
    assert_eq!(refused[0]["error"]["code"], "resource_not_found");
    let (status, _) = lines(&server.base, "/stream/v1/eval/a%2Fb/trajectories", None).await;
    assert_eq!(status, 400, "an encoded separator never reaches the API");
}

/// The trajectory ids of `items`, in their order.
fn trajectory_ids(items: &[Value]) -> Vec<&str> {
    items
        .iter()
        .map(|item| item["trajectory_id"].as_str().unwrap())
        .collect()
}

/// An upstream answering as the demo does, but refusing (422) any `sort` of the trajectories
/// list, as an API that does not know the value would; counts the refusals.
async fn refusing_task_order() -> (TestServer, Arc<AtomicUsize>) {
    let demo_app = app(&demo(5)).unwrap();
    let refused = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&refused);
    let router = axum::Router::new().fallback(move |request: axum::extract::Request| {
        let (demo_app, counted) = (demo_app.clone(), Arc::clone(&counted));
        async move {
            let uri = request.uri();
            if uri.path() == "/api/v1/trajectories"
                && uri.query().is_some_and(|query| query.contains("sort="))
            {
                counted.fetch_add(1, Ordering::SeqCst);
                let body = r#"{"error":{"type":"invalid_request_error","code":"validation_error","message":"`sort` must be one of created_at.","param":"sort"}}"#;
                return (
                    axum::http::StatusCode::UNPROCESSABLE_ENTITY,
                    [("content-type", "application/json")],
                    body,
                )
                    .into_response();
            }
            demo_app.oneshot(request).await.into_response()
        }
    });
    (serve_router(router).await, refused)
}

#[tokio::test]
async fn a_runs_trajectories_come_in_its_rewards_order_or_the_apis_own_when_it_refuses_that() {
    let server = start(demo(5)).await;
    let stream = |list: &str| format!("/stream/v1/eval/{RUN}/{list}");
    let (_, values) = lines(&server.base, &stream("trajectories"), None).await;
    let (trajectories, _) = split(&values);
    let (_, values) = lines(&server.base, &stream("trajectory-rewards"), None).await;
    let (rewards, _) = split(&values);
    // Every reward's trajectory, in the rewards' order, is met walking the trajectories front
    // to back (a trajectory without a reward is passed).
    let listed = trajectory_ids(&trajectories);
    let mut walking = listed.iter();
    for id in trajectory_ids(&rewards) {
        assert!(walking.any(|listed| *listed == id), "{id} out of order");
    }
    let default_order = walk(
        &client(),
        &server.base,
        &format!("/api/v1/trajectories?eval_run_id={RUN}"),
        200,
    )
    .await;
    assert_ne!(
        trajectory_ids(&default_order),
        listed,
        "not the default order"
    );

    let (upstream, refused) = refusing_task_order().await;
    let proxy = start(Config {
        mode: Mode::Proxy {
            upstream: upstream.base.clone(),
            limits: ProxyLimits::default(),
        },
        ..demo(0)
    })
    .await;
    for walked in 1..=2 {
        let (status, values) = lines(&proxy.base, &stream("trajectories"), None).await;
        assert_eq!(status, 200, "walk {walked}");
        let (items, end) = split(&values);
        assert_eq!(end["complete"], true, "walk {walked}");
        assert_eq!(
            items, default_order,
            "walk {walked}: the API's default order"
        );
    }
    assert_eq!(
        refused.load(Ordering::SeqCst),
        1,
        "asked in task order once; after the refusal, in the API's order"
    );
}

#[tokio::test]
async fn a_failure_mid_way_ends_with_a_trailer_naming_the_page_and_a_resume_gives_the_rest() {
    let path = format!("/stream/v1/eval/{RUN}/trajectory-rewards");
    let failing = start(with_faults(
        demo(5),
        &["5xx:status=503:path=/trajectory-rewards:from=3"],
    ))
    .await;
    let (status, values) = lines(&failing.base, &path, None).await;
    assert_eq!(status, 200);
    let (read, end) = split(&values);
    assert_eq!(values.len() - 1, 2, "the two pages before the failure");
    assert_eq!(end["complete"], false);
    assert_eq!(end["failed_page"], 3);
    assert_eq!(end["status"], 503);
    assert_eq!(end["retryable"], true);
    assert!(end["message"].as_str().unwrap().contains("503"), "{end}");

    let clean = start(demo(5)).await;
    let cursor = values[1]["next_cursor"].as_str().unwrap();
    let resume = format!(
        "{path}?cursor={cursor}&pages_read=2&items_read={}&expected_items=5000",
        read.len()
    );
    let (status, rest) = lines(&clean.base, &resume, None).await;
    assert_eq!(status, 200);
    let (more, end) = split(&rest);
    assert_eq!(end["complete"], true);
    assert_eq!(end["pages_read"], 2 + rest.len() - 1);
    let whole = walk(
        &client(),
        &clean.base,
        &format!("/api/v1/eval/{RUN}/trajectory-rewards"),
        200,
    )
    .await;
    assert_eq!([read, more].concat(), whole);
    let (status, _) = lines(&clean.base, &format!("{path}?pages_read=x"), None).await;
    assert_eq!(status, 400);
}

async fn keyed_upstream() -> TestServer {
    let mut config = demo(5);
    if let Mode::Demo(demo) = &mut config.mode {
        demo.key = Some(ApiKey::new(KEY));
    }
    start(config).await
}

fn db(dir: &Path) -> rusqlite::Connection {
    rusqlite::Connection::open(dir.join(FILE_NAME)).unwrap()
}

/// Waits until `count` lists named `list` are kept (the cache is written after the stream's
/// last line; a run's other list is read into it too, later).
async fn kept(dir: &Path, list: &str, count: i64) {
    for _ in 0..300 {
        let n: i64 = db(dir)
            .query_row(
                "SELECT COUNT(*) FROM lists WHERE list = ?1",
                [list],
                |row| row.get(0),
            )
            .unwrap();
        if n == count {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("{count} lists were not kept");
}

/// Replaces the kept lines of `list` with `lines`, their digests updated when `valid`.
fn tamper(dir: &Path, list: &str, lines: &str, valid: bool) {
    let mut digests = piece_digests(&[lines.as_bytes()]);
    if !valid {
        digests.fill(0);
    }
    db(dir)
        .execute(
            "UPDATE lists SET lines = ?1, piece_shas = ?2 WHERE list = ?3",
            rusqlite::params![lines.as_bytes(), digests, list],
        )
        .unwrap();
}

#[tokio::test]
async fn the_cache_serves_a_finished_run_only_with_the_apis_consent() {
    let upstream = keyed_upstream().await;
    let dir = temp_dir("stream-cache");
    let (proxy, _cache) = caching_proxy(&upstream.base, &dir, 64).await;
    let path = format!("/stream/v1/eval/{RUN}/trajectory-rewards");
    let (status, first) = lines(&proxy.base, &path, Some(KEY)).await;
    assert_eq!(status, 200);
    kept(&dir, "trajectory-rewards", 1).await;
    let stored: Vec<u8> = db(&dir)
        .query_row("SELECT lines FROM lists", [], |row| row.get(0))
        .unwrap();
    assert!(
        !String::from_utf8_lossy(&stored).contains(KEY),
        "no key kept"
    );

    // A kept list that differs from the upstream's shows whether the cache answered.
    let marker = "{\"items\":[{\"trajectory_id\":\"kept\",\"task_id\":\"t\",\"reward\":1.0}],\"has_more\":false,\"next_cursor\":null}\n";
    tamper(&dir, "trajectory-rewards", marker, true);
    let (status, served) = lines(&proxy.base, &path, Some(KEY)).await;
    assert_eq!(status, 200);
    assert_eq!(served[0]["items"][0]["trajectory_id"], "kept");
    assert_eq!(split(&served).1["complete"], true);

    // A wrong key, or none, gets the upstream's refusal, never the kept list.
    for key in [Some("wrong-key"), None] {
        let (status, refused) = lines(&proxy.base, &path, key).await;
        assert_eq!(status, 401, "{key:?}");
        assert!(refused[0]["error"].is_object(), "{refused:?}");
    }

    // A damaged entry is dropped and read again.
    tamper(&dir, "trajectory-rewards", marker, false);
    let (_, again) = lines(&proxy.base, &path, Some(KEY)).await;
    assert_eq!(again, first);
    kept(&dir, "trajectory-rewards", 1).await;

    // A run whose record changed since is read again.
    tamper(&dir, "trajectory-rewards", marker, true);
    db(&dir)
        .execute(
            "UPDATE lists SET record_sha = 'changed' WHERE list = 'trajectory-rewards'",
            [],
        )
        .unwrap();
    let (_, changed) = lines(&proxy.base, &path, Some(KEY)).await;
    assert_eq!(changed, first);

    // A running run is never kept.
    let running = format!("/stream/v1/eval/{RUNNING}/trajectories");
    let (status, _) = lines(&proxy.base, &running, Some(KEY)).await;
    assert_eq!(status, 200);
    tokio::time::sleep(Duration::from_millis(200)).await;
    let owners: Vec<String> = db(&dir)
        .prepare("SELECT owner FROM lists")
        .unwrap()
        .query_map([], |row| row.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert!(!owners.contains(&RUNNING.to_owned()), "{owners:?}");
}

/// GETs `path` with the key, the body left to read.
async fn keyed_get(base: &str, path: &str) -> reqwest::Response {
    client()
        .get(format!("{base}{path}"))
        .header("X-API-Key", KEY)
        .send()
        .await
        .unwrap()
}

#[tokio::test]
async fn a_kept_list_is_served_a_checked_piece_at_a_time_and_a_damaged_piece_cuts_the_answer() {
    let upstream = keyed_upstream().await;
    let dir = temp_dir("stream-cache-pieces");
    let (proxy, _cache) = caching_proxy(&upstream.base, &dir, 64).await;
    let path = format!("/stream/v1/eval/{RUN}/trajectory-rewards");
    let (_, first) = lines(&proxy.base, &path, Some(KEY)).await;
    kept(&dir, "trajectory-rewards", 1).await;
    // Kept lines of three pieces (the list's own lines after two pieces' worth of blank ones),
    // served whole while every piece matches its digest.
    let stored: Vec<u8> = db(&dir)
        .query_row("SELECT lines FROM lists", [], |row| row.get(0))
        .unwrap();
    let mut long = vec![b'\n'; 2 * PIECE_BYTES];
    long.extend_from_slice(&stored);
    tamper(
        &dir,
        "trajectory-rewards",
        std::str::from_utf8(&long).unwrap(),
        true,
    );
    let body = keyed_get(&proxy.base, &path).await.bytes().await.unwrap();
    let whole: Vec<Value> = body
        .split(|&byte| byte == b'\n')
        .filter(|line| !line.trim_ascii().is_empty())
        .map(|line| serde_json::from_slice(line).unwrap())
        .collect();
    assert_eq!(whole, first);
    // A byte changed in the second piece: the first piece goes out, then the answer is cut
    // (no trailer: the reader cannot take it for a complete list) and the entry dropped.
    db(&dir)
        .execute(
            "UPDATE lists SET lines = ?1",
            [[&long[..PIECE_BYTES + 5], b" ", &long[PIECE_BYTES + 6..]].concat()],
        )
        .unwrap();
    let answer = keyed_get(&proxy.base, &path).await;
    assert_eq!(answer.status().as_u16(), 200);
    assert!(answer.bytes().await.is_err(), "the answer is cut short");
    kept(&dir, "trajectory-rewards", 0).await;
    // Read again from the upstream, whole.
    let (_, again) = lines(&proxy.base, &path, Some(KEY)).await;
    assert_eq!(again, first);
}

#[tokio::test]
async fn the_cache_survives_a_restart_and_a_damaged_file_is_set_aside() {
    let upstream = keyed_upstream().await;
    let dir = temp_dir("stream-cache-restart");
    let path = format!("/stream/v1/eval/{RUN}/trajectories");
    {
        let (proxy, _) = caching_proxy(&upstream.base, &dir, 64).await;
        assert_eq!(lines(&proxy.base, &path, Some(KEY)).await.0, 200);
        kept(&dir, "trajectories", 1).await;
    }
    let (proxy, _) = caching_proxy(&upstream.base, &dir, 64).await;
    tamper(
        &dir,
        "trajectories",
        "{\"items\":[],\"has_more\":false,\"next_cursor\":null}\n",
        true,
    );
    let (_, served) = lines(&proxy.base, &path, Some(KEY)).await;
    assert_eq!(served.len(), 2, "the kept list after a restart: {served:?}");

    let garbage = temp_dir("stream-cache-garbage");
    std::fs::write(garbage.join(FILE_NAME), b"not a database at all").unwrap();
    let (proxy, _) = caching_proxy(&upstream.base, &garbage, 64).await;
    assert_eq!(lines(&proxy.base, &path, Some(KEY)).await.0, 200);
    kept(&garbage, "trajectories", 1).await;
    assert!(garbage.join("finished-lists.sqlite3.damaged").exists());
}

#[tokio::test]
async fn a_finished_runs_other_list_is_read_beside_and_served_with_the_apis_consent() {
    let upstream = keyed_upstream().await;
    let dir = temp_dir("stream-cache-sibling");
    let (proxy, _cache) = caching_proxy(&upstream.base, &dir, 64).await;
    let rewards = format!("/stream/v1/eval/{RUN}/trajectory-rewards");
    assert_eq!(lines(&proxy.base, &rewards, Some(KEY)).await.0, 200);
    // Nobody asked for the trajectories: the server read them into the cache.
    kept(&dir, "trajectories", 1).await;
    let marker = "{\"items\":[],\"has_more\":false,\"next_cursor\":null}\n";
    tamper(&dir, "trajectories", marker, true);
    let trajectories = format!("/stream/v1/eval/{RUN}/trajectories");
    let (status, served) = lines(&proxy.base, &trajectories, Some(KEY)).await;
    assert_eq!(status, 200);
    assert_eq!(served.len(), 2, "the kept list: {served:?}");
    let (status, _) = lines(&proxy.base, &trajectories, Some("wrong-key")).await;
    assert_eq!(status, 401, "the API's refusal, never the kept list");
}

/// GETs `path` with `key`: the status and the JSON body.
async fn get_with(base: &str, path: &str, key: &str) -> (u16, Value) {
    let response = client()
        .get(format!("{base}{path}"))
        .header("X-API-Key", key)
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap())
}

fn kept_owners(dir: &Path) -> Vec<String> {
    db(dir)
        .prepare("SELECT owner FROM lists")
        .unwrap()
        .query_map([], |row| row.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

#[tokio::test]
async fn runs_named_ahead_are_read_into_the_cache_and_served_only_with_the_apis_consent() {
    let demo_server = start(demo(5)).await;
    let (_, caps) = lines(&demo_server.base, "/stream/v1/capabilities", None).await;
    assert_eq!(caps[0]["prefetch"], false, "no cache, no reading ahead");
    let (status, _) = get_with(
        &demo_server.base,
        &format!("/stream/v1/prefetch?run={RUN}"),
        KEY,
    )
    .await;
    assert_eq!(status, 404);

    let upstream = keyed_upstream().await;
    let dir = temp_dir("stream-read-ahead");
    let (proxy, _cache) = caching_proxy(&upstream.base, &dir, 64).await;
    let (_, caps) = lines(&proxy.base, "/stream/v1/capabilities", None).await;
    assert_eq!(caps[0]["prefetch"], true);
    let too_many = (0..65)
        .map(|i| format!("run=r{i}"))
        .collect::<Vec<_>>()
        .join("&");
    for query in [
        "",
        "?run=a%2Fb",
        "?run=..",
        "?run=x&form=odd",
        "?run=x&page=2",
        &format!("?{too_many}"),
    ] {
        let (status, body) =
            get_with(&proxy.base, &format!("/stream/v1/prefetch{query}"), KEY).await;
        assert_eq!(status, 400, "{query}: {body}");
    }

    // A wrong key reads nothing ahead: the API refuses the run's record.
    let ahead = format!("/stream/v1/prefetch?run={RUN}&run={RUNNING}&run={RUN}");
    assert_eq!(get_with(&proxy.base, &ahead, "wrong-key").await.0, 202);
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(kept_owners(&dir).is_empty());

    // With the key: both lists of the finished run are kept, none of the running run's.
    let (status, taken) = get_with(&proxy.base, &ahead, KEY).await;
    assert_eq!((status, &taken["runs"]), (202, &Value::from(2)));
    kept(&dir, "trajectory-rewards", 1).await;
    kept(&dir, "trajectories", 1).await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(kept_owners(&dir), [RUN, RUN]);

    // What was read ahead is served to the key the API consents to, only.
    let marker = "{\"items\":[],\"has_more\":false,\"next_cursor\":null}\n";
    tamper(&dir, "trajectories", marker, true);
    // Named again: what is kept for this record is not walked again (the marker stays).
    assert_eq!(get_with(&proxy.base, &ahead, KEY).await.0, 202);
    tokio::time::sleep(Duration::from_millis(300)).await;
    let trajectories = format!("/stream/v1/eval/{RUN}/trajectories");
    let (status, served) = lines(&proxy.base, &trajectories, Some(KEY)).await;
    assert_eq!(status, 200);
    assert_eq!(served.len(), 2, "the kept list: {served:?}");
    let (status, _) = lines(&proxy.base, &trajectories, Some("wrong-key")).await;
    assert_eq!(status, 401, "the API's refusal, never the kept list");
}

/// GETs `path` with the test key: the body's text.
async fn text(base: &str, path: &str) -> String {
    let response = client()
        .get(format!("{base}{path}"))
        .header("X-API-Key", KEY)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 200, "{path}");
    response.text().await.unwrap()
}

/// What the model reads of a stream of listed trajectories (or rewards): every item's facts,
/// each page's cursor, and the trailer.
fn facts_of(text: &str, rewards: bool) -> Vec<String> {
    use eval_compare_core::api::{
        EvalTrajectoryReward, EvalTrajectoryRewardsPage, Page, TrajectoryMetadata,
    };
    use eval_compare_core::large_list::{decode_plain, AsRewardFacts, AsTrajectoryFacts};
    let mut read = Vec::new();
    for line in text.lines() {
        if line.contains("\"stream_end\"") {
            read.push(line.to_owned());
        } else if rewards {
            let page: EvalTrajectoryRewardsPage<EvalTrajectoryReward> =
                decode_plain(line.as_bytes()).unwrap();
            read.extend(page.items.iter().map(|item| {
                format!(
                    "{} {} {:?}",
                    item.trajectory_id,
                    item.reward(),
                    item.task_id()
                )
            }));
            read.push(format!("{:?} {}", page.next_cursor, page.has_more));
        } else {
            let page: Page<TrajectoryMetadata> = decode_plain(line.as_bytes()).unwrap();
            read.extend(page.items.iter().map(|item| format!("{:?}", item.facts())));
            read.push(format!("{:?} {}", page.next_cursor, page.has_more));
        }
    }
    read
}

#[tokio::test]
async fn the_kept_form_reads_as_the_apis_fresh_and_from_the_cache() {
    let upstream = keyed_upstream().await;
    let dir = temp_dir("stream-kept-form");
    let (proxy, _cache) = caching_proxy(&upstream.base, &dir, 64).await;
    let offered: eval_compare_core::client::list_stream::StreamCapabilities =
        serde_json::from_str(&text(&proxy.base, "/stream/v1/capabilities").await).unwrap();
    assert_eq!(offered.forms, ["kept", "packed"]);
    for (list, rewards) in [("trajectories", false), ("trajectory-rewards", true)] {
        let path = format!("/stream/v1/eval/{RUN}/{list}");
        let full = text(&proxy.base, &path).await;
        let walked = text(&proxy.base, &format!("{path}?form=kept")).await;
        kept(&dir, &format!("{list}+kept"), 1).await;
        let served = text(&proxy.base, &format!("{path}?form=kept")).await;
        assert_eq!(walked, served, "the kept form is kept as it was sent");
        let read = facts_of(&full, rewards);
        assert!(read.len() > 3, "{list}: items read");
        assert_eq!(read, facts_of(&walked, rewards), "{list}: the same facts");
        if !rewards {
            assert!(
                walked.len() * 10 < full.len() * 7,
                "the kept form is smaller"
            );
            // Items that are not plain (a diagnostic object) are sent whole; the others not.
            let count = |text: &str| text.matches("\"dataset_id\"").count();
            assert!(
                count(&walked) * 2 < count(&full),
                "most items are projected"
            );
        }
    }
    // The API's form is still kept under its own name, for the CLI's --cache.
    kept(&dir, "trajectories", 1).await;
    let refused = client()
        .get(format!(
            "{}/stream/v1/eval/{RUN}/trajectories?form=slim",
            proxy.base
        ))
        .header("X-API-Key", KEY)
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status().as_u16(), 400);
}
