//! Shared helpers of the integration tests: in-process servers on loopback port 0, and
//! HTTP helpers that walk cursor-paginated lists.
#![allow(dead_code)] // Each test binary uses a different subset of the helpers.

pub mod sse;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use eval_compare_server::cache::ListCache;
use eval_compare_server::dataset::scale::DemoScale;
use eval_compare_server::faults::FaultSpec;
use eval_compare_server::{
    app, app_with, serve, serve_with_limits, Config, ConnectionLimits, DemoConfig, Extras, Mode,
    ProxyLimits,
};
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// A server running in this process.
pub struct TestServer {
    /// `http://127.0.0.1:PORT`.
    pub base: String,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for TestServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// A demo configuration with `seed`, no key, no faults, and a dist directory that does not exist.
pub fn demo(seed: u64) -> Config {
    Config {
        mode: Mode::Demo(DemoConfig {
            seed,
            scale: DemoScale::DEFAULT,
            key: None,
            key_without_billing: None,
            running_duration: Duration::from_secs(3_600),
        }),
        dist: PathBuf::from("/nonexistent/eval-compare-dist"),
        faults: Vec::new(),
    }
}

/// A demo configuration with `seed` whose running evaluation finishes `running_secs` after
/// start-up.
pub fn demo_running(seed: u64, running_secs: u64) -> Config {
    let mut config = demo(seed);
    if let Mode::Demo(demo) = &mut config.mode {
        demo.running_duration = Duration::from_secs(running_secs);
    }
    config
}

/// `config` with these faults.
pub fn with_faults(mut config: Config, faults: &[&str]) -> Config {
    config.faults = faults
        .iter()
        .map(|f| f.parse::<FaultSpec>().unwrap())
        .collect();
    config
}

/// Starts `config` on a free loopback port.
pub async fn start(config: Config) -> TestServer {
    start_with_limits(config, ConnectionLimits::default()).await
}

/// Starts `config` on a free loopback port within `limits`.
pub async fn start_with_limits(config: Config, limits: ConnectionLimits) -> TestServer {
    let router = app(&config).unwrap();
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let task = tokio::spawn(async move {
        serve_with_limits(listener, router, limits, std::future::pending())
            .await
            .unwrap();
    });
    TestServer { base, task }
}

/// Serves `router` on a free loopback port.
pub async fn serve_router(router: axum::Router) -> TestServer {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let task = tokio::spawn(async move {
        serve(listener, router, std::future::pending())
            .await
            .unwrap();
    });
    TestServer { base, task }
}

/// A proxy to `upstream` keeping finished runs' lists in `dir` (at most `max_mib` MiB), running
/// in this process, and its cache.
pub async fn caching_proxy(
    upstream: &str,
    dir: &Path,
    max_mib: u64,
) -> (TestServer, Arc<ListCache>) {
    let cache = Arc::new(ListCache::open(dir, upstream, max_mib, false).unwrap());
    let config = Config {
        mode: Mode::Proxy {
            upstream: upstream.to_owned(),
            limits: ProxyLimits::default(),
        },
        ..demo(0)
    };
    let extras = Extras {
        cache: Some(Arc::clone(&cache)),
        list_streams: true,
    };
    (
        serve_router(app_with(&config, extras).unwrap()).await,
        cache,
    )
}

/// Sends `request` as it is (no URL normalisation, unlike HTTP clients) to the server at
/// `base` and reads the answer until the server closes (send `Connection: close`); returns
/// the status and the whole answer.
pub async fn raw_request(base: &str, request: &str) -> (u16, String) {
    let mut stream = TcpStream::connect(base.trim_start_matches("http://"))
        .await
        .unwrap();
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut answer))
        .await
        .unwrap()
        .unwrap();
    let answer = String::from_utf8_lossy(&answer).into_owned();
    let status = answer
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    (status, answer)
}

/// An HTTP client.
pub fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .timeout(Duration::from_secs(30))
        .build()
        .unwrap()
}

/// GETs `base + path`, asserting the status; returns the JSON body.
pub async fn get_json(client: &reqwest::Client, base: &str, path: &str, status: u16) -> Value {
    let response = client.get(format!("{base}{path}")).send().await.unwrap();
    assert_eq!(response.status().as_u16(), status, "GET {path}");
    assert!(
        response.headers().contains_key("x-request-id"),
        "x-request-id on GET {path}"
    );
    response.json().await.unwrap()
}

/// GETs `base + path` with a body that must be the contract's error envelope with `code`.
pub async fn get_error(
    client: &reqwest::Client,
    base: &str,
    path: &str,
    status: u16,
    code: &str,
) -> Value {
    let body = get_json(client, base, path, status).await;
    let error = &body["error"];
    assert_eq!(error["code"], code, "{path}: {body}");
    for field in ["type", "code", "message", "doc_url", "context"] {
        assert!(
            !error[field].is_null(),
            "{path}: error.{field} missing in {body}"
        );
    }
    assert!(
        error.as_object().unwrap().contains_key("param"),
        "{path}: error.param missing"
    );
    body
}

/// Follows a Trajectory list (`items`, `next_cursor`, `has_more`) with `limit` and returns
/// every item, checking that the last page has no cursor.
pub async fn walk(client: &reqwest::Client, base: &str, path: &str, limit: usize) -> Vec<Value> {
    walk_pages(client, base, path, limit, "has_more").await
}

/// Follows a Chronicle list (`items`, `has_next_page`, `next_cursor`).
pub async fn walk_chronicle(
    client: &reqwest::Client,
    base: &str,
    path: &str,
    limit: usize,
) -> Vec<Value> {
    walk_pages(client, base, path, limit, "has_next_page").await
}

async fn walk_pages(
    client: &reqwest::Client,
    base: &str,
    path: &str,
    limit: usize,
    more: &str,
) -> Vec<Value> {
    let separator = if path.contains('?') { '&' } else { '?' };
    let mut items = Vec::new();
    let mut cursor: Option<String> = None;
    for _ in 0..10_000 {
        let mut url = format!("{path}{separator}limit={limit}");
        if let Some(cursor) = &cursor {
            url.push_str(&format!("&cursor={cursor}"));
        }
        let page = get_json(client, base, &url, 200).await;
        let batch = page["items"].as_array().unwrap();
        assert!(batch.len() <= limit, "{url}: page larger than limit");
        items.extend(batch.iter().cloned());
        if page[more] == Value::Bool(false) {
            assert!(
                page["next_cursor"].is_null(),
                "{url}: last page has a cursor"
            );
            return items;
        }
        assert_eq!(batch.len(), limit, "{url}: a non-final page must be full");
        cursor = Some(page["next_cursor"].as_str().unwrap().to_owned());
    }
    panic!("{path}: pagination did not end");
}

/// A fresh temporary directory.
pub fn temp_dir(name: &str) -> PathBuf {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let dir = std::env::temp_dir().join(format!(
        "eval-compare-server-{name}-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The string values of `field` in `items`.
pub fn strings<'a>(items: &'a [Value], field: &str) -> Vec<&'a str> {
    items
        .iter()
        .map(|item| item[field].as_str().unwrap_or(""))
        .collect()
}

/// Whether `values` has no duplicates.
pub fn all_distinct(values: &[&str]) -> bool {
    let mut sorted = values.to_vec();
    sorted.sort_unstable();
    sorted.windows(2).all(|w| w[0] != w[1])
}
