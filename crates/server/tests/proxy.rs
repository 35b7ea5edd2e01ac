//! The proxy against a second in-process demo server as upstream: the key and version header
//! pass through, statuses, headers that matter and bodies come back unchanged, and an
//! unreachable upstream answers 502 in the error envelope.
#![allow(clippy::unwrap_used)]

mod common;

use common::{client, demo, get_error, start, with_faults, TestServer};
use eval_compare_server::demo_key::ApiKey;
use eval_compare_server::{Config, Mode};
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
    start(Config {
        mode: Mode::Proxy {
            upstream: url.to_owned(),
        },
        ..demo(0)
    })
    .await
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
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let closed = format!("http://{}", listener.local_addr().unwrap());
    drop(listener);
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
        },
        ..demo(0)
    };
    assert!(eval_compare_server::app(&config).is_err());
}
