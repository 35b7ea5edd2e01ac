//! `--cache DIR` against the demo server, every request the CLI sends counted by a relay in
//! between: a second report reads no list from the API (paged or streamed) and prints the same
//! bytes; a wrong key gets the API's refusal and nothing kept; a record that changed, or a
//! damaged entry, makes the list read again; running runs are not kept; the key is nowhere in
//! the cache's files. And a scorecard reads its training run once.
#![allow(clippy::unwrap_used)]

mod common;

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::{eval_compare, run, DemoServer, KEY_ENV};
use eval_compare_server::config::{Config, DemoConfig, Mode};
use eval_compare_server::demo_key::ApiKey;
use eval_compare_server::{app_with, serve, Extras};

const KEY: &str = "kept-lists-test-key-0123456789";
const BASE: &str = "eval_base_v2";
const CANDIDATE: &str = "eval_ckpt_s400";
const RUNNING: &str = "eval_ckpt_s500";
const DB: &str = "finished-lists.sqlite3";

/// A relay to `upstream` that writes down the request line of every request through it.
struct Relay {
    url: String,
    seen: Arc<Mutex<Vec<String>>>,
}

impl Relay {
    fn start(upstream: &str) -> Relay {
        let target: SocketAddr = upstream.trim_start_matches("http://").parse().unwrap();
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let seen = Arc::new(Mutex::new(Vec::new()));
        let log = Arc::clone(&seen);
        std::thread::spawn(move || {
            for client in listener.incoming() {
                let Ok(client) = client else { continue };
                let Ok(server) = TcpStream::connect(target) else {
                    continue;
                };
                let log = Arc::clone(&log);
                let (mut from_server, mut to_client) =
                    (server.try_clone().unwrap(), client.try_clone().unwrap());
                std::thread::spawn(move || {
                    let _ = std::io::copy(&mut from_server, &mut to_client);
                    let _ = to_client.shutdown(std::net::Shutdown::Both);
                });
                std::thread::spawn(move || relay_requests(client, server, &log));
            }
        });
        Relay { url, seen }
    }

    /// The request lines seen since the last call.
    fn take(&self) -> Vec<String> {
        std::mem::take(&mut *self.seen.lock().unwrap())
    }
}

/// Copies the client's bytes to the server, noting each `GET` line (requests have no body).
fn relay_requests(mut client: TcpStream, mut server: TcpStream, log: &Mutex<Vec<String>>) {
    let mut pending = Vec::new();
    let mut buffer = [0u8; 16 * 1024];
    loop {
        let read = match client.read(&mut buffer) {
            Ok(0) | Err(_) => break,
            Ok(read) => read,
        };
        pending.extend_from_slice(&buffer[..read]);
        while let Some(end) = pending.windows(2).position(|w| w == b"\r\n") {
            let line: Vec<u8> = pending.drain(..end + 2).collect();
            if line.starts_with(b"GET ") {
                log.lock()
                    .unwrap()
                    .push(String::from_utf8_lossy(&line).trim_end().to_owned());
            }
        }
        if server.write_all(&buffer[..read]).is_err() {
            break;
        }
    }
    let _ = server.shutdown(std::net::Shutdown::Both);
}

/// The demo, requiring `KEY`, with or without the list streams, stopped when dropped.
struct Demo {
    url: String,
    _stop: tokio::sync::oneshot::Sender<()>,
}

fn demo(list_streams: bool) -> Demo {
    let config = Config {
        mode: Mode::Demo(DemoConfig {
            seed: eval_compare_server::dataset::DEFAULT_SEED,
            scale: eval_compare_server::dataset::scale::DemoScale::DEFAULT,
            key: Some(ApiKey::new(KEY)),
            key_without_billing: None,
            running_duration: Duration::from_secs(1800),
        }),
        dist: "/nonexistent-viewer-build".into(),
        faults: Vec::new(),
    };
    let extras = Extras {
        list_streams,
        ..Extras::default()
    };
    let router = app_with(&config, extras).unwrap();
    let (addr_tx, addr_rx) = std::sync::mpsc::channel();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            addr_tx.send(listener.local_addr().unwrap()).unwrap();
            serve(listener, router, async {
                let _ = stopped.await;
            })
            .await
            .unwrap();
        });
    });
    let addr: SocketAddr = addr_rx.recv_timeout(Duration::from_secs(30)).unwrap();
    Demo {
        url: format!("http://{addr}"),
        _stop: stop,
    }
}

fn report(server: &str, cache: &Path, key: Option<&str>, runs: &[&str]) -> common::Run {
    let mut command = eval_compare();
    if let Some(key) = key {
        command.env(KEY_ENV, key);
    }
    run(command
        .args([
            "report",
            "--server",
            server,
            "--format",
            "json",
            "--retries",
            "0",
        ])
        .arg("--cache")
        .arg(cache)
        .args(["--resamples", "200"])
        .args(runs))
}

/// The request lines that read a list of a run (a page or a stream).
fn list_reads(lines: &[String]) -> Vec<&String> {
    lines
        .iter()
        .filter(|line| {
            line.contains("/trajectory-rewards")
                || line.contains("/api/v1/trajectories?")
                || line.contains("/stream/v1/eval/")
        })
        .collect()
}

fn db(dir: &Path) -> rusqlite::Connection {
    rusqlite::Connection::open(dir.join(DB)).unwrap()
}

fn kept_owners(dir: &Path) -> Vec<(String, String)> {
    let db = db(dir);
    let mut query = db
        .prepare("SELECT owner, list FROM lists ORDER BY owner, list")
        .unwrap();
    let rows = query
        .query_map([], |row| Ok((row.get(0)?, row.get(1)?)))
        .unwrap();
    rows.map(Result::unwrap).collect()
}

#[test]
fn a_second_report_reads_no_list_paged_or_streamed_and_prints_the_same() {
    for list_streams in [false, true] {
        let demo = demo(list_streams);
        let relay = Relay::start(&demo.url);
        let dir = tempfile::tempdir().unwrap();
        let cold = report(&relay.url, dir.path(), Some(KEY), &[BASE, CANDIDATE]);
        assert_eq!(cold.code, 0, "{}", cold.stderr);
        let first = relay.take();
        assert!(list_reads(&first).len() >= 4, "{first:?}");
        assert!(
            cold.stderr
                .contains("cache: 0 kept lists used, 4 newly kept"),
            "{}",
            cold.stderr
        );

        let warm = report(&relay.url, dir.path(), Some(KEY), &[BASE, CANDIDATE]);
        assert_eq!(warm.code, 0, "{}", warm.stderr);
        let second = relay.take();
        assert_eq!(
            list_reads(&second),
            Vec::<&String>::new(),
            "streams: {list_streams}"
        );
        // The consent: each run's record was asked again, with the key.
        for id in [BASE, CANDIDATE] {
            let record = format!("GET /api/v1/eval/{id} ");
            assert!(
                second.iter().any(|line| line.starts_with(&record)),
                "{second:?}"
            );
        }
        assert!(
            warm.stderr
                .contains("cache: 4 kept lists used, 0 newly kept"),
            "{}",
            warm.stderr
        );
        assert_eq!(warm.stdout, cold.stdout, "streams: {list_streams}");
    }
}

#[test]
fn a_wrong_key_gets_the_apis_refusal_and_nothing_kept() {
    let demo = demo(true);
    let dir = tempfile::tempdir().unwrap();
    let kept = report(&demo.url, dir.path(), Some(KEY), &[BASE, CANDIDATE]);
    assert_eq!(kept.code, 0, "{}", kept.stderr);
    for key in [Some("wrong-key-0000"), None] {
        let refused = report(&demo.url, dir.path(), key, &[BASE, CANDIDATE]);
        assert_eq!(refused.code, 4, "{}", refused.stderr);
        assert!(refused.stdout.is_empty(), "{}", refused.stdout);
        assert!(
            refused
                .stderr
                .contains(&format!("could not read run {BASE}")),
            "{}",
            refused.stderr
        );
        assert!(
            refused.stderr.contains("the API key was refused")
                || refused.stderr.contains("no API key was sent"),
            "{}",
            refused.stderr
        );
    }
}

#[test]
fn a_changed_record_or_a_damaged_entry_is_read_again_and_running_runs_are_not_kept() {
    let demo = demo(false);
    let relay = Relay::start(&demo.url);
    let dir = tempfile::tempdir().unwrap();
    let cold = report(&relay.url, dir.path(), Some(KEY), &[BASE, RUNNING]);
    assert_eq!(cold.code, 0, "{}", cold.stderr);
    relay.take();
    assert_eq!(
        kept_owners(dir.path()),
        [
            (BASE.to_owned(), "trajectories".to_owned()),
            (BASE.to_owned(), "trajectory-rewards".to_owned())
        ],
        "the running run is not kept"
    );
    let expected_lines: Vec<u8> = db(dir.path())
        .query_row(
            "SELECT lines FROM lists WHERE list = 'trajectory-rewards'",
            [],
            |row| row.get(0),
        )
        .unwrap();

    // A record that changed since the list was kept: the list is read again, and kept again.
    db(dir.path())
        .execute(
            "UPDATE lists SET record_sha = 'changed' WHERE list = 'trajectory-rewards'",
            [],
        )
        .unwrap();
    let changed = report(&relay.url, dir.path(), Some(KEY), &[BASE, CANDIDATE]);
    assert_eq!(changed.code, 0, "{}", changed.stderr);
    let lines = relay.take();
    let reads = list_reads(&lines);
    assert!(
        reads
            .iter()
            .any(|line| line.contains(&format!("/eval/{BASE}/trajectory-rewards"))),
        "{reads:?}"
    );
    assert!(
        !reads
            .iter()
            .any(|line| line.contains(&format!("eval_run_id={BASE}"))),
        "the unchanged list is used: {reads:?}"
    );
    let record_sha: String = db(dir.path())
        .query_row(
            "SELECT record_sha FROM lists WHERE list = 'trajectory-rewards' AND owner = ?1",
            [BASE],
            |row| row.get(0),
        )
        .unwrap();
    assert_ne!(record_sha, "changed");

    // A damaged entry (its lines no longer match their checksum) is dropped and read again.
    db(dir.path())
        .execute("UPDATE lists SET lines = CAST('{}' AS BLOB) WHERE list = 'trajectory-rewards' AND owner = ?1", [BASE])
        .unwrap();
    let damaged = report(&relay.url, dir.path(), Some(KEY), &[BASE, CANDIDATE]);
    assert_eq!(damaged.code, 0, "{}", damaged.stderr);
    assert_eq!(damaged.stdout, changed.stdout);
    let reads = relay.take();
    assert!(
        list_reads(&reads)
            .iter()
            .any(|line| line.contains(&format!("/eval/{BASE}/trajectory-rewards"))),
        "{reads:?}"
    );
    let lines: Vec<u8> = db(dir.path())
        .query_row(
            "SELECT lines FROM lists WHERE list = 'trajectory-rewards' AND owner = ?1",
            [BASE],
            |row| row.get(0),
        )
        .unwrap();
    assert_eq!(lines, expected_lines, "kept again whole");
}

#[test]
fn the_key_is_nowhere_in_the_caches_files() {
    let demo = demo(true);
    let dir = tempfile::tempdir().unwrap();
    let out = report(&demo.url, dir.path(), Some(KEY), &[BASE, CANDIDATE]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let files = common::files_of(dir.path());
    assert!(files.iter().any(|(name, _)| name == DB), "{files:?}");
    for (name, bytes) in files {
        assert!(
            !bytes
                .windows(KEY.len())
                .any(|window| window == KEY.as_bytes()),
            "{name} holds the key"
        );
    }
}

#[test]
fn a_scorecard_reads_its_training_run_and_defaults_once() {
    let server = DemoServer::start(None, &[]);
    let relay = Relay::start(&server.url);
    let out = run(eval_compare().args([
        "scorecard",
        "--server",
        &relay.url,
        "--training-run",
        "train_codefix_grpo",
        "--resamples",
        "100",
        "--format",
        "json",
    ]));
    assert_eq!(out.code, 0, "{}", out.stderr);
    let lines = relay.take();
    let training = lines
        .iter()
        .filter(|line| line.starts_with("GET /api/v1/train/train_codefix_grpo "))
        .count();
    assert_eq!(training, 1, "{lines:#?}");
    let mut defaults: Vec<&String> = lines
        .iter()
        .filter(|line| line.contains("/api/v1/eval/options"))
        .collect();
    assert!(!defaults.is_empty());
    let all = defaults.len();
    defaults.sort();
    defaults.dedup();
    assert_eq!(defaults.len(), all, "each evaluation default read once");
}

/// A report of the base and the candidate from `server` with the key, no cache.
fn uncached_report(server: &str) -> common::Run {
    let mut command = eval_compare();
    command.env(KEY_ENV, KEY);
    run(command
        .args(["report", "--server", server, "--format", "json"])
        .args(["--retries", "0", "--resamples", "200", BASE, CANDIDATE]))
}

#[test]
/// The streams are asked in the packed form (the kept form, its pages as frames).
fn the_kept_form_of_the_streams_gives_the_report_the_contract_pages_give() {
    let streamed = demo(true);
    let relay = Relay::start(&streamed.url);
    let kept = uncached_report(&relay.url);
    assert_eq!(kept.code, 0, "{}", kept.stderr);
    let lines = relay.take();
    let asked_kept = |list: &str| {
        lines
            .iter()
            .any(|line| line.contains(&format!("/{list}?")) && line.contains("form=packed"))
    };
    assert!(
        asked_kept("trajectories") && asked_kept("trajectory-rewards"),
        "{lines:#?}"
    );
    let paged = uncached_report(&demo(false).url);
    assert_eq!(paged.code, 0, "{}", paged.stderr);
    assert_eq!(kept.stdout, paged.stdout, "the same report, byte for byte");
    // With `--cache`, the streams are read (and kept) in the API's form.
    let dir = tempfile::tempdir().unwrap();
    let cached = report(&relay.url, dir.path(), Some(KEY), &[BASE, CANDIDATE]);
    assert_eq!(cached.code, 0, "{}", cached.stderr);
    assert_eq!(cached.stdout, paged.stdout);
    let lines = relay.take();
    let of_runs = lines
        .iter()
        .filter(|line| line.contains("/stream/v1/eval/"));
    assert!(of_runs.clone().count() >= 4, "{lines:#?}");
    assert!(
        of_runs.clone().all(|line| !line.contains("form=")),
        "{lines:#?}"
    );
    let kept_lines: Vec<u8> = rusqlite::Connection::open(dir.path().join(DB))
        .unwrap()
        .query_row(
            "SELECT lines FROM lists WHERE list = 'trajectories' LIMIT 1",
            [],
            |row| row.get(0),
        )
        .unwrap();
    assert!(String::from_utf8_lossy(&kept_lines).contains("\"dataset_id\""));
}
