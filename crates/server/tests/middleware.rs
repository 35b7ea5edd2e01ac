//! Cross-cutting behaviour over real HTTP: request ids, the contract version header, the demo
//! key, every injected fault, and serving the built viewer.
#![allow(clippy::unwrap_used)]

mod common;

use std::time::{Duration, Instant};

use common::{client, demo, get_error, get_json, start, temp_dir, with_faults};
use eval_compare_server::demo_key::ApiKey;
use eval_compare_server::Mode;
use serde_json::Value;

#[tokio::test]
async fn every_response_has_a_distinct_request_id() {
    let server = start(demo(1)).await;
    let c = client();
    let mut ids = Vec::new();
    for path in [
        "/api/v1/agents",
        "/api/v1/eval/nope",
        "/",
        "/v1/backtests/jobs",
        "/asset.js",
    ] {
        let response = c
            .get(format!("{}{path}", server.base))
            .send()
            .await
            .unwrap();
        let id = response.headers()["x-request-id"]
            .to_str()
            .unwrap()
            .to_owned();
        assert!(id.starts_with("req_"), "{path}: {id}");
        ids.push(id);
    }
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 5);
}

#[tokio::test]
async fn the_contract_version_header() {
    let server = start(demo(1)).await;
    let c = client();
    for version in ["2026-10-14", "tmp-contract"] {
        let response = c
            .get(format!("{}/api/v1/agents", server.base))
            .header("Trajectory-API-Version", version)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status().as_u16(), 200, "{version}");
    }
    for version in ["2026-10-07", "latest", ""] {
        let response = c
            .get(format!("{}/api/v1/agents", server.base))
            .header("Trajectory-API-Version", version)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status().as_u16(), 400, "{version:?}");
        assert!(response.headers().contains_key("x-request-id"));
        let body: Value = response.json().await.unwrap();
        assert_eq!(body["error"]["code"], "invalid_request");
        assert_eq!(body["error"]["param"], "Trajectory-API-Version");
        let message = body["error"]["message"].as_str().unwrap();
        assert!(
            message.contains("2026-10-14") && message.contains("tmp-contract"),
            "{message}"
        );
    }
}

#[tokio::test]
async fn the_demo_key_is_required_when_configured_and_never_echoed() {
    let mut config = demo(1);
    if let Mode::Demo(demo) = &mut config.mode {
        demo.key = Some(ApiKey::new("demo-secret-42"));
    }
    let server = start(config).await;
    let c = client();
    for (key, status) in [
        (None, 401),
        (Some("wrong"), 401),
        (Some("demo-secret-4"), 401),
        (Some("demo-secret-42"), 200),
    ] {
        for path in ["/api/v1/agents", "/v1/backtests/jobs"] {
            let mut request = c.get(format!("{}{path}", server.base));
            if let Some(key) = key {
                request = request.header("X-API-Key", key);
            }
            let response = request.send().await.unwrap();
            assert_eq!(response.status().as_u16(), status, "{path} with {key:?}");
            let text = response.text().await.unwrap();
            assert!(
                !text.contains("demo-secret"),
                "the key never appears in a response"
            );
            if status == 401 {
                let body: Value = serde_json::from_str(&text).unwrap();
                assert_eq!(body["error"]["type"], "authentication_error");
                assert_eq!(body["error"]["code"], "authentication_required");
            }
        }
    }
    let bearer = c
        .get(format!("{}/v1/backtests/jobs", server.base))
        .bearer_auth("demo-secret-42")
        .send()
        .await
        .unwrap();
    assert_eq!(bearer.status().as_u16(), 200);
    // The viewer itself needs no key.
    let page = c.get(format!("{}/", server.base)).send().await.unwrap();
    assert_ne!(page.status().as_u16(), 401);
}

#[tokio::test]
async fn a_5xx_fault_fails_exactly_the_chosen_page() {
    let server = start(with_faults(
        demo(1),
        &["5xx:path=/trajectory-rewards:nth=2"],
    ))
    .await;
    let (c, b) = (client(), server.base.as_str());
    let first = get_json(
        &c,
        b,
        "/api/v1/eval/eval_base_v2/trajectory-rewards?limit=7",
        200,
    )
    .await;
    let cursor = first["next_cursor"].as_str().unwrap();
    let second = format!("/api/v1/eval/eval_base_v2/trajectory-rewards?limit=7&cursor={cursor}");
    let response = c.get(format!("{b}{second}")).send().await.unwrap();
    assert_eq!(response.status().as_u16(), 503);
    assert_eq!(response.headers()["trajectory-should-retry"], "true");
    let body: Value = response.json().await.unwrap();
    assert_eq!(
        (
            body["error"]["type"].as_str(),
            body["error"]["code"].as_str()
        ),
        (Some("dependency_error"), Some("service_unavailable"))
    );
    // The retry succeeds, and other paths never failed.
    let retried = get_json(&c, b, &second, 200).await;
    assert_eq!(retried["items"].as_array().unwrap().len(), 7);
    get_json(&c, b, "/api/v1/eval/eval_base_v2", 200).await;
    let status_500 = start(with_faults(demo(1), &["5xx:status=500:path=/agents"])).await;
    get_error(
        &c,
        &status_500.base,
        "/api/v1/agents",
        500,
        "internal_error",
    )
    .await;
}

#[tokio::test]
async fn a_429_fault_sends_retry_after() {
    let server = start(with_faults(demo(1), &["429:every=2:retry-after=3"])).await;
    let c = client();
    let statuses = {
        let mut statuses = Vec::new();
        for _ in 0..4 {
            let response = c
                .get(format!("{}/api/v1/agents", server.base))
                .send()
                .await
                .unwrap();
            if response.status().as_u16() == 429 {
                assert_eq!(response.headers()["retry-after"], "3");
                assert_eq!(response.headers()["retry-after-ms"], "3000");
                assert_eq!(response.headers()["trajectory-should-retry"], "true");
                let body: Value = response.json().await.unwrap();
                assert_eq!(
                    (
                        body["error"]["type"].as_str(),
                        body["error"]["code"].as_str()
                    ),
                    (Some("rate_limit_error"), Some("rate_limited"))
                );
                statuses.push(429);
            } else {
                statuses.push(response.status().as_u16());
            }
        }
        statuses
    };
    assert_eq!(statuses, [200, 429, 200, 429]);
}

#[tokio::test]
async fn latency_truncate_and_bad_cursor_faults() {
    let server = start(with_faults(
        demo(1),
        &[
            "latency:ms=300:path=/benchmarks",
            "truncate:path=/agents:nth=1",
            "bad-cursor:path=/tasks:nth=1",
        ],
    ))
    .await;
    let (c, b) = (client(), server.base.as_str());

    let started = Instant::now();
    get_json(&c, b, "/api/v1/benchmarks", 200).await;
    assert!(started.elapsed() >= Duration::from_millis(300));

    let whole = c.get(format!("{b}/api/v1/agents")).send().await.unwrap();
    assert_eq!(whole.status().as_u16(), 200);
    let cut = whole.bytes().await.unwrap();
    assert!(
        serde_json::from_slice::<Value>(&cut).is_err(),
        "a truncated body does not decode"
    );
    let intact = c
        .get(format!("{b}/api/v1/agents"))
        .send()
        .await
        .unwrap()
        .bytes()
        .await
        .unwrap();
    assert!(serde_json::from_slice::<Value>(&intact).is_ok());
    assert_eq!(cut.len(), intact.len() / 2);
    assert_eq!(&intact[..cut.len()], &cut[..]);

    // The first page carries no cursor, so it does not count; the second page's cursor is refused once.
    let first = get_json(
        &c,
        b,
        "/api/v1/benchmarks/bench_codefix_v2/tasks?limit=5",
        200,
    )
    .await;
    let next = format!(
        "/api/v1/benchmarks/bench_codefix_v2/tasks?limit=5&cursor={}",
        first["next_cursor"].as_str().unwrap()
    );
    get_error(&c, b, &next, 400, "invalid_cursor").await;
    get_json(&c, b, &next, 200).await;
}

#[tokio::test]
async fn serves_the_built_viewer_with_client_route_fallback() {
    let dist = temp_dir("dist");
    std::fs::write(
        dist.join("index.html"),
        "<!doctype html><title>Eval Compare</title>",
    )
    .unwrap();
    std::fs::write(dist.join("app-abc.js"), "console.log('viewer')").unwrap();
    let mut config = with_faults(demo(1), &["5xx"]);
    config.dist = dist.clone();
    let server = start(config).await;
    let c = client();
    for path in ["/", "/compare", "/runs/eval_base_v2?baseline=eval_base_v2"] {
        let response = c
            .get(format!("{}{path}", server.base))
            .send()
            .await
            .unwrap();
        assert_eq!(
            response.status().as_u16(),
            200,
            "{path}: faults never touch the viewer"
        );
        assert!(response.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/html"));
        assert!(response.text().await.unwrap().contains("Eval Compare"));
    }
    let script = c
        .get(format!("{}/app-abc.js", server.base))
        .send()
        .await
        .unwrap();
    assert!(script.headers()["content-type"]
        .to_str()
        .unwrap()
        .contains("javascript"));
    assert_eq!(script.text().await.unwrap(), "console.log('viewer')");
    // Browsers get the files gzip-compressed; clients that do not ask get them as they are.
    let wasm: Vec<u8> = (0..64 * 1024).map(|i| (i % 7) as u8).collect();
    std::fs::write(dist.join("app-abc_bg.wasm"), &wasm).unwrap();
    let compressed = c
        .get(format!("{}/app-abc_bg.wasm", server.base))
        .header("accept-encoding", "gzip")
        .send()
        .await
        .unwrap();
    assert_eq!(compressed.headers()["content-encoding"], "gzip");
    let body = compressed.bytes().await.unwrap();
    assert!(body.len() < wasm.len() / 10, "{} bytes", body.len());
    let mut unzipped = Vec::new();
    std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&body[..]), &mut unzipped)
        .unwrap();
    assert_eq!(unzipped, wasm);
    let plain = c
        .get(format!("{}/app-abc_bg.wasm", server.base))
        .send()
        .await
        .unwrap();
    assert!(plain.headers().get("content-encoding").is_none());
    assert_eq!(plain.bytes().await.unwrap(), wasm);
    let missing = c
        .get(format!("{}/missing.wasm", server.base))
        .send()
        .await
        .unwrap();
    assert_eq!(missing.status().as_u16(), 404);
    // A build's folder (named by its content hash) may be cached for good; index.html may not.
    std::fs::create_dir(dist.join("pkg-0123abcd")).unwrap();
    std::fs::write(dist.join("pkg-0123abcd/style.css"), "body {}").unwrap();
    let cache_control = |path: &'static str| {
        let c = c.clone();
        let base = server.base.clone();
        async move {
            let response = c.get(format!("{base}{path}")).send().await.unwrap();
            assert_eq!(response.status().as_u16(), 200, "{path}");
            response.headers()["cache-control"]
                .to_str()
                .unwrap()
                .to_owned()
        }
    };
    assert_eq!(
        cache_control("/pkg-0123abcd/style.css").await,
        "public, max-age=31536000, immutable"
    );
    assert_eq!(cache_control("/compare").await, "no-cache");
    // A file's gzipped copy from the build is sent as it is, not compressed again.
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    std::io::Write::write_all(&mut encoder, b"body {}").unwrap();
    let gzipped = encoder.finish().unwrap();
    std::fs::write(dist.join("pkg-0123abcd/style.css.gz"), &gzipped).unwrap();
    let precompressed = c
        .get(format!("{}/pkg-0123abcd/style.css", server.base))
        .header("accept-encoding", "gzip")
        .send()
        .await
        .unwrap();
    assert_eq!(precompressed.headers()["content-encoding"], "gzip");
    assert!(precompressed.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/css"));
    assert_eq!(precompressed.bytes().await.unwrap(), gzipped);
    let absent = c
        .get(format!("{}/pkg-0123abcd/absent.js", server.base))
        .send()
        .await
        .unwrap();
    assert_eq!(absent.status().as_u16(), 404);
    assert!(absent.headers().get("cache-control").is_none());
    std::fs::remove_dir_all(dist).unwrap();
}

#[tokio::test]
async fn explains_a_missing_viewer_build_and_keeps_serving_the_api() {
    let server = start(demo(1)).await;
    let c = client();
    let page = c
        .get(format!("{}/compare", server.base))
        .send()
        .await
        .unwrap();
    assert_eq!(page.status().as_u16(), 503);
    let text = page.text().await.unwrap();
    assert!(
        text.contains("not built") && text.contains("trunk build --release"),
        "{text}"
    );
    get_json(&c, &server.base, "/api/v1/agents", 200).await;
}

/// The `'sha256-…'` source of a script's text, computed here independently of the server.
fn hash_source(script: &str) -> String {
    use base64::Engine as _;
    use sha2::Digest as _;
    format!(
        "'sha256-{}'",
        base64::engine::general_purpose::STANDARD.encode(sha2::Sha256::digest(script))
    )
}

#[tokio::test]
async fn security_headers_on_every_kind_of_response() {
    let dist = temp_dir("csp-dist");
    let preload = "\n      if (/^\\/compare$/.test(location.pathname)) { preload(); }\n    ";
    let boot = "\n      import init from \"/pkg-1/app.js\";\n      await init();\n    ";
    std::fs::write(
        dist.join("index.html"),
        format!(
            "<!doctype html><head><!-- <script>commented()</script> -->\
             <script>{preload}</script><script src=\"/pkg-1/app.js\"></script>\
             <script type=\"module\">{boot}</script></head><body></body>"
        ),
    )
    .unwrap();
    std::fs::create_dir(dist.join("pkg-1")).unwrap();
    std::fs::write(dist.join("pkg-1/app.js"), "export default 1").unwrap();
    let mut config = with_faults(demo(1), &["5xx:path=/benchmarks"]);
    config.dist = dist.clone();
    let server = start(config).await;
    let not_built = start(demo(1)).await;
    let c = client();
    let page_policy = format!(
        "default-src 'self'; script-src 'self' 'wasm-unsafe-eval' {} {}; style-src 'self'; \
         style-src-attr 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; \
         object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
        hash_source(preload),
        hash_source(boot)
    );
    let locked = "default-src 'none'; frame-ancestors 'none'";
    let cases: [(&str, &str, &str, u16, &str); 14] = [
        ("GET", &server.base, "/", 200, &page_policy),
        ("GET", &server.base, "/index.html", 200, &page_policy),
        (
            "GET",
            &server.base,
            "/compare?baseline=a",
            200,
            &page_policy,
        ),
        (
            "HEAD",
            &server.base,
            "/runs/eval_base_v2",
            200,
            &page_policy,
        ),
        ("GET", &server.base, "/pkg-1/app.js", 200, locked),
        ("GET", &server.base, "/missing.wasm", 404, locked),
        ("GET", &server.base, "/api/v1/agents", 200, locked),
        ("GET", &server.base, "/api/v1/eval/eval_nope", 404, locked),
        ("GET", &server.base, "/api/v1/nope", 404, locked),
        ("GET", &server.base, "/v1/backtests/jobs", 200, locked),
        ("DELETE", &server.base, "/api/v1/agents", 405, locked),
        ("GET", &server.base, "/api/v1/benchmarks", 503, locked),
        ("POST", &server.base, "/", 405, locked),
        ("GET", &not_built.base, "/compare", 503, ""),
    ];
    for (method, base, path, status, policy) in cases {
        let response = c
            .request(method.parse().unwrap(), format!("{base}{path}"))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status().as_u16(), status, "{method} {path}");
        let headers = response.headers();
        let header = |name: &str| {
            headers
                .get(name)
                .map(|v| v.to_str().unwrap().to_owned())
                .unwrap_or_else(|| panic!("{method} {path}: no {name}"))
        };
        assert_eq!(header("x-content-type-options"), "nosniff", "{path}");
        assert_eq!(header("referrer-policy"), "no-referrer", "{path}");
        let csp = header("content-security-policy");
        if policy.is_empty() {
            // The page explaining a missing build runs no script at all.
            assert!(
                csp.contains("script-src 'self' 'wasm-unsafe-eval';"),
                "{csp}"
            );
            assert!(!csp.contains("sha256"), "{csp}");
        } else {
            assert_eq!(csp, policy, "{method} {path}");
        }
    }
    // The policy follows the file: a rebuilt page is served with its own hashes.
    std::fs::write(dist.join("index.html"), "<script>rebuilt()</script>").unwrap();
    let response = c.get(format!("{}/", server.base)).send().await.unwrap();
    let csp = response.headers()["content-security-policy"]
        .to_str()
        .unwrap()
        .to_owned();
    assert!(csp.contains(&hash_source("rebuilt()")), "{csp}");
    assert!(!csp.contains(&hash_source(preload)), "{csp}");
    std::fs::remove_dir_all(dist).unwrap();
}

#[tokio::test]
async fn request_bodies_are_refused_before_they_are_read() {
    let server = start(demo(1)).await;
    let c = client();
    for (method, path) in [
        ("POST", "/api/v1/agents"),
        ("GET", "/api/v1/agents"),
        ("PUT", "/v1/backtests/jobs"),
        ("POST", "/compare"),
    ] {
        let response = c
            .request(method.parse().unwrap(), format!("{}{path}", server.base))
            .body(vec![b'x'; 256 * 1024])
            .send()
            .await
            .unwrap();
        assert_eq!(response.status().as_u16(), 413, "{method} {path}");
        assert!(response.headers().contains_key("x-request-id"));
        assert_eq!(response.headers()["x-content-type-options"], "nosniff");
        let body: Value = response.json().await.unwrap();
        assert_eq!(body["error"]["code"], "request_body_not_accepted");
        assert_eq!(body["error"]["type"], "invalid_request_error");
    }
    // A chunked body (no length) too.
    let chunks = futures::stream::iter(
        [b"a".as_slice(), b"b"].map(|c| Ok::<_, std::io::Error>(bytes::Bytes::from_static(c))),
    );
    let response = c
        .post(format!("{}/api/v1/agents", server.base))
        .body(reqwest::Body::wrap_stream(chunks))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 413);
    // An empty body is no body.
    let response = c
        .get(format!("{}/api/v1/agents", server.base))
        .header("content-length", "0")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 200);
}
