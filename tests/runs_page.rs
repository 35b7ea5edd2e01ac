//! The run list page against APIs that fail: loading, the error panel and Retry.
#![cfg(target_arch = "wasm32")]

mod support;

use eval_compare_viewer::picker::page::RunsView;
use leptos::prelude::*;
use support::{mount_point, select_all, text, wait_for};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

/// Long enough for the client's two retries (0.5 s + 1 s backoff) and the failing requests.
const ERROR_TIMEOUT_MS: u32 = 10_000;

#[wasm_bindgen_test]
async fn an_unreachable_server_shows_the_error_and_retry_loads_again() {
    let root = mount_point();
    let _handle = leptos::mount::mount_to(root.clone(), || {
        view! { <RunsView base_url="http://127.0.0.1:9"/> }
    });
    assert_eq!(select_all(&root, ".loading").len(), 1, "loading first");

    let panel = wait_for(&root, ".error-panel", ERROR_TIMEOUT_MS).await;
    assert_eq!(
        text(&select_all(&panel, ".error-title")[0]),
        "Cannot reach the server at http://127.0.0.1:9"
    );
    let button = select_all(&panel, "button")
        .pop()
        .expect("a Retry button")
        .dyn_into::<web_sys::HtmlElement>()
        .expect("a button is an HtmlElement");
    button.click();
    wait_for(&root, ".loading", 1_000).await;
    assert!(
        select_all(&root, ".error-panel").is_empty(),
        "the old error is gone while loading again"
    );
    wait_for(&root, ".error-panel", ERROR_TIMEOUT_MS).await;
}

#[wasm_bindgen_test]
async fn a_server_without_the_api_shows_the_http_status() {
    // The test runner's own server has no /api/: it answers 404.
    let origin = web_sys::window()
        .expect("a window")
        .location()
        .origin()
        .expect("an origin");
    let root = mount_point();
    let _handle = leptos::mount::mount_to(root.clone(), move || {
        view! { <RunsView base_url=origin.clone()/> }
    });
    let panel = wait_for(&root, ".error-panel", ERROR_TIMEOUT_MS).await;
    assert_eq!(
        text(&select_all(&panel, ".error-title")[0]),
        "The API refused the request (HTTP 404)"
    );
}
