//! The proxy against a second in-process demo server as upstream: the key and version header
//! pass through, statuses, headers that matter and bodies come back unchanged, and an
//! unreachable upstream answers 502 in the error envelope. Against a fake upstream that records
//! what reaches it: only reads, only paths under its base, only the API's headers, only JSON
//! (or Chronicle's event stream) back, within the size and time limits.
#![allow(clippy::unwrap_used)]

mod common;

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::http::{HeaderMap, Method, Uri};
use axum::response::IntoResponse;
use common::{client, demo, get_error, raw_request, start, with_faults, TestServer};
use eval_compare_server::demo_key::ApiKey;
use eval_compare_server::{Config, Mode, ProxyLimits};
use serde_json::Value;
use tokio::net::TcpListener;

const KEY: &str = "upstream-key-7f3";

async fn upstream(faults: &[&str]) -> TestServer {
    let mut config = with_faults(demo(5), faults);
    if let Mode::Demo(demo) = &mut config.mode {
        demo.key = Some(ApiKey::new(KEY));
    }
    start(config).await
}

async fn proxy_to(url: &str) -> TestServer {
    proxy_with_limits(url, ProxyLimits::default()).await
}

async fn proxy_with_limits(url: &str, limits: ProxyLimits) -> TestServer {
    start(Config {
        mode: Mode::Proxy {
            upstream: url.to_owned(),
            limits,
        },
        ..demo(0)
    })
    .await
}

/// One request as the fake upstream saw it.
#[derive(Debug, Clone)]
struct Seen {
    method: Method,
    /// Path and query as received.
    target: String,
    headers: HeaderMap,
}

/// An upstream that records every request and answers by path: `/html` an HTML page,
/// `/plain` text, `/stream` an event stream, `/big` 4 KiB of JSON with its length,
/// `/big-chunked` the same without, `/slow` after 3 s, anything else `{"ok":true}`.
struct FakeUpstream {
    base: String,
    seen: Arc<Mutex<Vec<Seen>>>,
    _task: tokio::task::JoinHandle<()>,
}

impl FakeUpstream {
    async fn start() -> Self {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let record = Arc::clone(&seen);
        let router =
            axum::Router::new().fallback(move |method: Method, uri: Uri, headers: HeaderMap| {
                let record = Arc::clone(&record);
                async move {
                    let target = uri.path_and_query().map_or("", |pq| pq.as_str()).to_owned();
                    record.lock().unwrap().push(Seen {
                        method,
                        target: target.clone(),
                        headers,
                    });
                    let path = uri.path();
                    let big = format!("[{}]", vec!["1"; 2048].join(","));
                    let typed = |kind: &'static str, body: String| {
                        ([("content-type", kind)], body).into_response()
                    };
                    if path.ends_with("/html") {
                        typed(
                            "text/html",
                            "<script>alert(document.cookie)</script>".into(),
                        )
                    } else if path.ends_with("/plain") {
                        typed("text/plain", "hello".into())
                    } else if path.ends_with("/untyped") {
                        axum::body::Body::from("{}").into_response()
                    } else if path.ends_with("/stream") {
                        typed(
                            "text/event-stream",
                            "event: run_finished\ndata: {}\n\n".into(),
                        )
                    } else if path.ends_with("/big") {
                        typed("application/json", big)
                    } else if path.ends_with("/big-chunked") {
                        let chunks = futures::stream::iter(
                            big.into_bytes()
                                .chunks(512)
                                .map(|c| Ok::<_, std::io::Error>(bytes::Bytes::copy_from_slice(c)))
                                .collect::<Vec<_>>(),
                        );
                        (
                            [("content-type", "application/json")],
                            axum::body::Body::from_stream(chunks),
                        )
                            .into_response()
                    } else if path.ends_with("/slow") {
                        tokio::time::sleep(Duration::from_secs(3)).await;
                        typed("application/json", "{}".into())
                    } else {
                        typed("application/json; charset=utf-8", "{\"ok\":true}".into())
                    }
                }
            });
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let task = tokio::spawn(async move {
            axum::serve(listener, router).await.unwrap();
        });
        Self {
            base,
            seen,
            _task: task,
        }
    }

    fn seen(&self) -> Vec<Seen> {
        self.seen.lock().unwrap().clone()
    }
}

/// Asserts the contract's error envelope with `code` in a raw answer.
fn assert_envelope(answer: &str, code: &str) -> Value {
    let body = answer.split("\r\n\r\n").nth(1).unwrap_or("");
    let body: Value = serde_json::from_str(body).unwrap_or_else(|_| panic!("{answer}"));
    assert_eq!(body["error"]["code"], code, "{answer}");
    assert!(body["error"]["message"].is_string());
    body
}

async fn fetch(
    c: &reqwest::Client,
    url: String,
    key: Option<&str>,
    version: Option<&str>,
) -> (u16, reqwest::header::HeaderMap, Vec<u8>) {
    let mut request = c.get(url);
    if let Some(key) = key {
        request = request.header("X-API-Key", key);
    }
    if let Some(version) = version {
        request = request.header("Trajectory-API-Version", version);
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    (status, headers, response.bytes().await.unwrap().to_vec())
}

#[tokio::test]
async fn passes_the_key_statuses_and_bodies_through_unchanged() {
    let upstream = upstream(&[]).await;
    let proxy = proxy_to(&upstream.base).await;
    let c = client();
    let paths = [
        "/api/v1/agents",
        "/api/v1/eval/eval_base_v2",
        "/api/v1/eval/eval_base_v2/trajectory-rewards?limit=200",
        "/api/v1/trajectories?eval_run_id=eval_base_v1&limit=200",
        "/api/v1/eval/eval_nope",
        "/api/v1/agents?limit=0",
        "/api/v1/eval/eval_base_v2/trajectory-rewards?cursor=bad",
        "/v1/backtests/jobs?limit=3",
        "/v1/backtests/jobs/job_base/trials/trial_basev2_cf-0001",
    ];
    for path in paths {
        let direct = fetch(&c, format!("{}{path}", upstream.base), Some(KEY), None).await;
        let proxied = fetch(&c, format!("{}{path}", proxy.base), Some(KEY), None).await;
        assert_eq!(proxied.0, direct.0, "{path}: status");
        assert_eq!(proxied.2, direct.2, "{path}: body");
        assert_eq!(
            proxied.1["content-type"], direct.1["content-type"],
            "{path}"
        );
        assert!(proxied.1["x-request-id"]
            .to_str()
            .unwrap()
            .starts_with("req_"));
    }
    // Without the key the upstream's 401 comes back as it is.
    let (status, _, body) = fetch(&c, format!("{}/api/v1/agents", proxy.base), None, None).await;
    assert_eq!(status, 401);
    let body: Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(body["error"]["code"], "authentication_required");
    // The version header reaches the upstream, which decides.
    let (ok, _, _) = fetch(
        &c,
        format!("{}/api/v1/agents", proxy.base),
        Some(KEY),
        Some("tmp-contract"),
    )
    .await;
    assert_eq!(ok, 200);
    let (refused, _, body) = fetch(
        &c,
        format!("{}/api/v1/agents", proxy.base),
        Some(KEY),
        Some("1999-01-01"),
    )
    .await;
    assert_eq!(refused, 400);
    assert!(String::from_utf8(body)
        .unwrap()
        .contains("Trajectory-API-Version"));
    // The viewer is served locally, not proxied.
    let (viewer, _, _) = fetch(&c, format!("{}/compare", proxy.base), None, None).await;
    assert_eq!(viewer, 503, "no local build in this test");
}

#[tokio::test]
async fn passes_retry_headers_and_upstream_request_ids_through() {
    let upstream = upstream(&["429:path=/agents:retry-after=4"]).await;
    let proxy = proxy_to(&upstream.base).await;
    let c = client();
    let (status, headers, body) =
        fetch(&c, format!("{}/api/v1/agents", proxy.base), Some(KEY), None).await;
    assert_eq!(status, 429);
    assert_eq!(headers["retry-after"], "4");
    assert_eq!(headers["retry-after-ms"], "4000");
    assert_eq!(headers["trajectory-should-retry"], "true");
    let body: Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(body["error"]["code"], "rate_limited");
    assert_eq!(
        headers.get_all("x-request-id").iter().count(),
        1,
        "the upstream's id, not a second one"
    );
}

#[tokio::test]
async fn an_unreachable_upstream_answers_502_in_the_envelope() {
    // A port bound but not listening refuses connections, and stays taken (a dropped
    // listener's port could go to a server of a test running alongside).
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.bind("127.0.0.1:0".parse().unwrap()).unwrap();
    let closed = format!("http://{}", socket.local_addr().unwrap());
    let proxy = proxy_to(&closed).await;
    let c = client();
    let body = get_error(
        &c,
        &proxy.base,
        "/api/v1/agents",
        502,
        "service_unavailable",
    )
    .await;
    assert_eq!(body["error"]["type"], "dependency_error");
    let response = c
        .get(format!("{}/v1/backtests/jobs", proxy.base))
        .header("X-API-Key", KEY)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 502);
    assert_eq!(response.headers()["trajectory-should-retry"], "true");
    assert!(
        !response.text().await.unwrap().contains(KEY),
        "the key never appears in an error"
    );
}

#[tokio::test]
async fn a_malformed_upstream_url_is_refused_at_start() {
    let config = Config {
        mode: Mode::Proxy {
            upstream: "ftp://example.com".into(),
            limits: ProxyLimits::default(),
        },
        ..demo(0)
    };
    assert!(eval_compare_server::app(&config).is_err());
}

#[tokio::test]
async fn dot_segments_and_encoded_separators_never_reach_the_upstream() {
    let upstream = FakeUpstream::start().await;
    let proxy = proxy_to(&format!("{}/base/", upstream.base)).await;
    let refused = [
        "/api/../../admin/users",
        "/api/../../../admin",
        "/api/v1/../../../admin",
        "/v1/../admin",
        "/api/%2e%2e/admin",
        "/api/%2E%2E/%2e%2e/admin",
        "/api/.%2e/admin",
        "/api/v1/./agents",
        "/api/v1/%2e/agents",
        "/api/v1/..",
        "/api/v1/agents%2F..%2F..%2Fadmin",
        "/api/v1/a%2fb",
        "/api/v1/a%5Cb",
        "/api/..%5C..%5Cadmin",
        "/api/..\\admin",
    ];
    for path in refused {
        let (status, answer) = raw_request(
            &proxy.base,
            &format!(
                "GET {path} HTTP/1.1\r\nHost: x\r\nX-API-Key: {KEY}\r\nConnection: close\r\n\r\n"
            ),
        )
        .await;
        assert_eq!(status, 400, "{path}: {answer}");
        let body = assert_envelope(&answer, "invalid_request");
        assert_eq!(body["error"]["param"], "path");
        assert!(!answer.contains(KEY));
    }
    assert!(upstream.seen().is_empty(), "{:?}", upstream.seen());
    // A plain path goes below the base, with only the API's headers.
    let response = client()
        .get(format!(
            "{}/api/v1/eval/run.v2..x?limit=2&cursor=a%2Fb",
            proxy.base
        ))
        .header("X-API-Key", KEY)
        .header("Trajectory-API-Version", "tmp-contract")
        .header("Accept", "application/json")
        .header("Cookie", "session=1")
        .header("Authorization", "Bearer other")
        .header("Origin", "http://evil.example")
        .header("X-Forwarded-For", "1.2.3.4")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 200);
    let seen = upstream.seen();
    assert_eq!(seen.len(), 1);
    assert_eq!(
        seen[0].target,
        "/base/api/v1/eval/run.v2..x?limit=2&cursor=a%2Fb"
    );
    let names: Vec<&str> = seen[0].headers.keys().map(|n| n.as_str()).collect();
    for name in &names {
        assert!(
            ["host", "x-api-key", "trajectory-api-version", "accept"].contains(name),
            "{name} reached the upstream"
        );
    }
    assert_eq!(seen[0].headers["x-api-key"], KEY);
    assert_eq!(seen[0].headers["trajectory-api-version"], "tmp-contract");
}

#[tokio::test]
async fn only_reads_are_forwarded() {
    let upstream = FakeUpstream::start().await;
    let proxy = proxy_to(&upstream.base).await;
    for method in [
        "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "CONNECT", "PROPFIND",
    ] {
        for path in ["/api/v1/agents", "/v1/backtests/jobs"] {
            let (status, answer) = raw_request(
                &proxy.base,
                &format!("{method} {path} HTTP/1.1\r\nHost: x\r\nX-API-Key: {KEY}\r\nConnection: close\r\n\r\n"),
            )
            .await;
            if method == "CONNECT" {
                // hyper refuses CONNECT to a path itself; it never reaches the proxy either.
                assert!(status >= 400, "{method} {path}: {answer}");
                continue;
            }
            assert_eq!(status, 405, "{method} {path}: {answer}");
            assert!(
                answer
                    .to_ascii_lowercase()
                    .contains("\r\nallow: get, head\r\n"),
                "{answer}"
            );
            assert_envelope(&answer, "invalid_request");
        }
    }
    // A body is refused before it is read, whatever the method.
    let c = client();
    for method in [Method::POST, Method::PUT, Method::GET] {
        let response = c
            .request(method.clone(), format!("{}/api/v1/agents", proxy.base))
            .header("X-API-Key", KEY)
            .body(vec![b'x'; 1 << 20])
            .send()
            .await
            .unwrap();
        assert_eq!(response.status().as_u16(), 413, "{method}");
        let body: Value = response.json().await.unwrap();
        assert_eq!(body["error"]["code"], "request_body_not_accepted");
    }
    assert!(upstream.seen().is_empty(), "{:?}", upstream.seen());
    let head = c
        .head(format!("{}/api/v1/agents", proxy.base))
        .send()
        .await
        .unwrap();
    assert_eq!(head.status().as_u16(), 200);
    let seen = upstream.seen();
    assert_eq!(
        seen.iter().map(|s| s.method.as_str()).collect::<Vec<_>>(),
        ["HEAD"]
    );
}

#[tokio::test]
async fn only_json_and_the_event_stream_come_back() {
    let upstream = FakeUpstream::start().await;
    let proxy = proxy_to(&upstream.base).await;
    let c = client();
    for (path, what) in [
        ("/api/v1/html", "text/html"),
        ("/v1/backtests/jobs/html", "text/html"),
        ("/api/v1/plain", "text/plain"),
        ("/api/v1/untyped", "no Content-Type"),
        ("/api/v1/eval/e/stream", "text/event-stream"),
    ] {
        let response = c.get(format!("{}{path}", proxy.base)).send().await.unwrap();
        assert_eq!(response.status().as_u16(), 502, "{path}");
        assert_eq!(response.headers()["content-type"], "application/json");
        assert_eq!(response.headers()["trajectory-should-retry"], "false");
        let text = response.text().await.unwrap();
        assert!(!text.contains("<script"), "{text}");
        let body: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(body["error"]["code"], "upstream_response_refused");
        assert_eq!(body["error"]["type"], "dependency_error");
        assert!(
            body["error"]["message"].as_str().unwrap().contains(what),
            "{body}"
        );
    }
    let stream = c
        .get(format!("{}/v1/backtests/jobs/job_1/stream", proxy.base))
        .send()
        .await
        .unwrap();
    assert_eq!(stream.status().as_u16(), 200);
    assert_eq!(stream.headers()["content-type"], "text/event-stream");
    assert!(stream.text().await.unwrap().contains("run_finished"));
}

#[tokio::test]
async fn every_proxy_answer_is_sandboxed_and_not_sniffed() {
    let upstream = FakeUpstream::start().await;
    let proxy = proxy_to(&upstream.base).await;
    let c = client();
    for (method, path, status) in [
        (Method::GET, "/api/v1/agents", 200),
        (Method::GET, "/api/v1/html", 502),
        (Method::GET, "/api/v1/a%2Fb", 400),
        (Method::DELETE, "/api/v1/agents", 405),
    ] {
        let response = c
            .request(method.clone(), format!("{}{path}", proxy.base))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status().as_u16(), status, "{method} {path}");
        let headers = response.headers();
        assert_eq!(
            headers["content-security-policy"],
            "default-src 'none'; frame-ancestors 'none'; sandbox",
            "{path}"
        );
        assert_eq!(headers["x-content-type-options"], "nosniff", "{path}");
        assert_eq!(headers["referrer-policy"], "no-referrer", "{path}");
    }
}

#[tokio::test]
async fn upstream_answers_are_held_to_the_size_and_time_limits() {
    let upstream = FakeUpstream::start().await;
    let limits = ProxyLimits {
        timeout: Duration::from_secs(1),
        max_body_bytes: 1_000,
    };
    let proxy = proxy_with_limits(&upstream.base, limits).await;
    let c = client();
    // A declared length over the limit: refused before any of it is passed on.
    let response = c
        .get(format!("{}/api/v1/big", proxy.base))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 502);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["error"]["code"], "upstream_response_refused");
    assert!(body["error"]["message"]
        .as_str()
        .unwrap()
        .contains("1000 bytes"));
    // No declared length: the body is cut at the limit, and the client sees it fail.
    let response = c
        .get(format!("{}/api/v1/big-chunked", proxy.base))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 200);
    assert!(
        response.bytes().await.is_err(),
        "a cut body does not end normally"
    );
    // Under the limit: as it is.
    let small = c
        .get(format!("{}/api/v1/agents", proxy.base))
        .send()
        .await
        .unwrap();
    assert_eq!(small.text().await.unwrap(), "{\"ok\":true}");
    // The whole exchange is bounded in time.
    let started = Instant::now();
    let response = c
        .get(format!("{}/api/v1/slow", proxy.base))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 504);
    assert!(
        started.elapsed() < Duration::from_millis(2_500),
        "{:?}",
        started.elapsed()
    );
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["error"]["type"], "dependency_error");
}
