//! The CSV, report JSON and HTML report downloads in a real browser: the files the buttons hand
//! to the browser are the core's `to_csv`, `Report::to_json` (as the CLI prints it) and
//! `Report::to_html` with the view's share link, with sensible names, and hold nothing of the
//! API key.
#![cfg(target_arch = "wasm32")]

mod support;
mod task_fixture;

use std::cell::RefCell;
use std::rc::Rc;

use eval_compare_core::client::{ApiKey, ClientConfig, HttpRequest, Transport};
use eval_compare_core::report::{to_csv, Report};
use eval_compare_core::share_link::share_link;
use eval_compare_core::view_state::ViewState;
use eval_compare_viewer::report::export::{
    csv_file, file_stem, html_file, json_file, ExportButtons,
};
use eval_compare_viewer::report::task_panel::TaskPanel;
use eval_compare_viewer::transport::FetchTransport;
use gloo_timers::future::TimeoutFuture;
use leptos::prelude::*;
use support::{mount_point, select_all, text};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};
use web_sys::{Element, HtmlAnchorElement, HtmlElement};

wasm_bindgen_test_configure!(run_in_browser);

/// A download the page started: the suggested name and the Blob URL.
#[derive(Debug, Clone)]
struct Download {
    name: String,
    href: String,
}

/// Catches clicks on download links before the browser acts on them.
struct DownloadCatcher {
    caught: Rc<RefCell<Vec<Download>>>,
    listener: Closure<dyn Fn(web_sys::Event)>,
}

impl DownloadCatcher {
    fn install() -> Self {
        let caught = Rc::new(RefCell::new(Vec::new()));
        let sink = Rc::clone(&caught);
        let listener = Closure::<dyn Fn(web_sys::Event)>::new(move |event: web_sys::Event| {
            let Some(link) = event
                .target()
                .and_then(|target| target.dyn_into::<HtmlAnchorElement>().ok())
            else {
                return;
            };
            if link.download().is_empty() {
                return;
            }
            event.prevent_default();
            sink.borrow_mut().push(Download {
                name: link.download(),
                href: link.href(),
            });
        });
        document()
            .add_event_listener_with_callback_and_bool(
                "click",
                listener.as_ref().unchecked_ref(),
                true,
            )
            .expect("a listener can be added");
        Self { caught, listener }
    }

    fn take(&self) -> Vec<Download> {
        std::mem::take(&mut *self.caught.borrow_mut())
    }
}

impl Drop for DownloadCatcher {
    fn drop(&mut self) {
        let _ = document().remove_event_listener_with_callback_and_bool(
            "click",
            self.listener.as_ref().unchecked_ref(),
            true,
        );
    }
}

/// Reads a Blob URL's contents.
async fn read(href: &str) -> String {
    let response = FetchTransport::default()
        .send(HttpRequest {
            url: href.to_owned(),
            headers: Vec::new(),
        })
        .await
        .expect("the Blob URL can be read");
    assert_eq!(response.status, 200);
    String::from_utf8(response.body).expect("UTF-8 text")
}

fn click_button(root: &Element, label: &str) {
    select_all(root, "button")
        .into_iter()
        .find(|button| text(button) == label)
        .unwrap_or_else(|| panic!("a {label} button in {}", root.inner_html()))
        .dyn_into::<HtmlElement>()
        .expect("a button")
        .click();
}

#[wasm_bindgen_test]
fn file_names_say_what_was_compared() {
    let fixture = task_fixture::small();
    assert_eq!(
        file_stem(&fixture.report),
        "eval-compare-eval_base-vs-2-candidates"
    );
    let mut one = (*fixture.report).clone();
    one.runs.truncate(2);
    one.runs[0].id = "base/../v2 ?".to_owned();
    assert_eq!(file_stem(&one), "eval-compare-base_.._v2__-vs-eval_ck100");
    assert_eq!(
        csv_file(&fixture.report).name,
        "eval-compare-eval_base-vs-2-candidates.csv"
    );
    assert_eq!(csv_file(&fixture.report).mime, "text/csv;charset=utf-8");
    assert_eq!(
        json_file(&fixture.report).name,
        "eval-compare-eval_base-vs-2-candidates.json"
    );
    let html = html_file(&fixture.report, None);
    assert_eq!(html.name, "eval-compare-eval_base-vs-2-candidates.html");
    assert_eq!(html.mime, "text/html;charset=utf-8");
}

#[wasm_bindgen_test]
async fn the_buttons_download_the_cores_csv_and_json_and_no_secret() {
    let fixture = task_fixture::small();
    let key = "sk-live-EXPORT-SECRET-42";
    // The panel beside the buttons holds a client with a key, as on the report page.
    let client = ClientConfig::new("http://127.0.0.1:9")
        .expect("a valid base URL")
        .with_api_key(ApiKey::new(key).expect("a valid key"));
    let catcher = DownloadCatcher::install();
    let root = mount_point();
    let report = Signal::stored(fixture.report.clone());
    let run_set = Signal::stored(fixture.set.clone());
    let _handle = leptos::mount::mount_to(root.clone(), move || {
        view! {
            <ExportButtons report bootstrap_pending=Signal::derive(|| false)/>
            <TaskPanel
                report
                run_set
                task_id=Signal::stored(Some("t0".to_owned()))
                client=Signal::stored(Some(client.clone()))
                org_key=Signal::stored(Some("acme".to_owned()))
                on_close=Callback::new(|()| {})
            />
        }
    });
    TimeoutFuture::new(30).await;

    click_button(&root, "Download CSV");
    click_button(&root, "Download report JSON");
    click_button(&root, "Download HTML report");
    let downloads = catcher.take();
    assert_eq!(downloads.len(), 3, "{downloads:?}");
    assert_eq!(
        downloads[0].name,
        "eval-compare-eval_base-vs-2-candidates.csv"
    );
    assert_eq!(
        downloads[1].name,
        "eval-compare-eval_base-vs-2-candidates.json"
    );
    assert!(downloads.iter().all(|d| d.href.starts_with("blob:")));

    let csv = read(&downloads[0].href).await;
    let json = read(&downloads[1].href).await;
    let html = read(&downloads[2].href).await;
    // Mounted alone, the view is the in-memory one at `/`: its link is the page's origin + `/`.
    let origin = web_sys::window()
        .expect("the test page has a window")
        .location()
        .origin()
        .expect("the test page has an origin");
    let link = share_link(&origin, "/", &ViewState::default());
    assert_eq!(html, fixture.report.to_html(Some(&link)));
    assert!(!html.contains("<script"));
    assert_eq!(csv, to_csv(&fixture.report));
    // What `eval-compare report --format json` prints: the report's JSON and a newline.
    assert_eq!(json, format!("{}\n", fixture.report.to_json()));
    let parsed: Report = serde_json::from_str(&json).expect("the JSON is a report");
    assert_eq!(parsed.tasks, fixture.report.tasks);
    assert_eq!(parsed.runs.len(), 3);

    for contents in [&csv, &json, &html] {
        assert!(!contents.contains(key), "the API key is not in an export");
        assert!(!contents.contains("X-API-Key"));
    }
    assert!(
        select_all(&root, "[role=alert]").is_empty(),
        "no download error"
    );
    drop(catcher);
    root.remove();
}

fn document() -> web_sys::Document {
    web_sys::window()
        .and_then(|window| window.document())
        .expect("the test page has a document")
}
