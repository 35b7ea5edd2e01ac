//! The gloo-net transport in a real browser.
#![cfg(target_arch = "wasm32")]

use eval_compare_core::client::{HttpRequest, Transport, TransportError};
use eval_compare_viewer::transport::FetchTransport;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

fn get(url: &str) -> HttpRequest {
    HttpRequest {
        url: url.to_owned(),
        headers: vec![("Accept".to_owned(), "text/html".to_owned())],
    }
}

#[wasm_bindgen_test]
async fn nothing_listening_is_a_connect_error() {
    // Port 9 (discard) has no listener here: the browser's fetch fails with a TypeError.
    let result = FetchTransport::default()
        .send(get("http://127.0.0.1:9/api/v1/agents"))
        .await;
    assert!(
        matches!(result, Err(TransportError::Connect(_))),
        "expected a connect error, got {result:?}"
    );
}

#[wasm_bindgen_test]
async fn a_reachable_page_answers_with_status_headers_and_body() {
    let origin = web_sys::window()
        .expect("a window")
        .location()
        .origin()
        .expect("an origin");
    let response = FetchTransport::default()
        .send(get(&format!("{origin}/")))
        .await
        .expect("the test runner's own server answers");
    assert_eq!(response.status, 200);
    assert!(!response.body.is_empty());
    assert!(response.header("content-type").is_some());
}

#[wasm_bindgen_test]
async fn an_error_status_is_a_response_not_a_transport_error() {
    let origin = web_sys::window()
        .expect("a window")
        .location()
        .origin()
        .expect("an origin");
    let response = FetchTransport::default()
        .send(get(&format!("{origin}/no/such/path")))
        .await
        .expect("a 404 is still a response");
    assert_eq!(response.status, 404);
}

#[wasm_bindgen(inline_js = r#"
const modes = [];
let original = null;
export function watch_fetch_cache_modes() {
  original = globalThis.fetch;
  globalThis.fetch = function (input, init) {
    modes.push(new Request(input, init).cache);
    return original.call(this, input, init);
  };
}
export function unwatch_fetch_cache_modes() {
  globalThis.fetch = original;
  return modes.splice(0).join(",");
}
"#)]
extern "C" {
    /// Wraps the page's `fetch` to record each request's cache mode.
    fn watch_fetch_cache_modes();
    /// Puts `fetch` back and returns the modes recorded, comma-separated.
    fn unwatch_fetch_cache_modes() -> String;
}

#[wasm_bindgen_test]
async fn requests_bypass_the_http_cache() {
    let origin = web_sys::window()
        .expect("a window")
        .location()
        .origin()
        .expect("an origin");
    watch_fetch_cache_modes();
    let response = FetchTransport::default()
        .send(get(&format!("{origin}/")))
        .await;
    let modes = unwatch_fetch_cache_modes();
    assert_eq!(response.expect("the runner's server answers").status, 200);
    assert_eq!(modes, "no-store");
}

#[wasm_bindgen_test]
fn now_is_after_2020() {
    // 2020-01-01T00:00:00Z in milliseconds.
    assert!(FetchTransport::default().now_unix_ms() > 1_577_836_800_000);
}
