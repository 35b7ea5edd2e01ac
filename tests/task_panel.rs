//! The task drill-down panel in a real browser: each run's trajectories, rewards shown honestly,
//! the platform link only with an org key, closing, and details fetched through the core client.
#![cfg(target_arch = "wasm32")]

mod support;
mod task_fixture;

use eval_compare_core::client::{ApiKey, ClientConfig, RetryPolicy};
use eval_compare_viewer::report::task_panel::TaskPanel;
use eval_compare_viewer::state::source::SourceSettings;
use gloo_timers::future::TimeoutFuture;
use leptos::prelude::*;
use support::{mount_point, select_all, text, wait_for};
use task_fixture::events::press;
use task_fixture::Fixture;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};
use web_sys::{Element, HtmlElement};

wasm_bindgen_test_configure!(run_in_browser);

/// A mounted panel and the signals that drive it.
struct Mounted {
    root: HtmlElement,
    task: RwSignal<Option<String>>,
    client: RwSignal<Option<ClientConfig>>,
    org_key: RwSignal<Option<String>>,
    source: SourceSettings,
    closed: RwSignal<u32>,
    _handle: leptos::mount::UnmountHandle<leptos::tachys::view::any_view::AnyViewState>,
}

impl Drop for Mounted {
    fn drop(&mut self) {
        self.root.remove();
    }
}

fn mount_panel(fixture: &Fixture, task: &str, client: Option<ClientConfig>) -> Mounted {
    task_fixture::install_styles();
    let root = mount_point();
    let task = RwSignal::new(Some(task.to_owned()));
    let client = RwSignal::new(client);
    let org_key = RwSignal::new(None::<String>);
    let source = SourceSettings::detached("");
    let closed = RwSignal::new(0_u32);
    let report = Signal::stored(fixture.report.clone());
    let run_set = Signal::stored(fixture.set.clone());
    let on_close = Callback::new(move |()| {
        closed.update(|count| *count += 1);
        task.set(None);
    });
    let handle = leptos::mount::mount_to(root.clone(), move || {
        provide_context(source);
        view! {
            <TaskPanel
                report
                run_set
                task_id=task.into()
                client=client.into()
                org_key=org_key.into()
                on_close
            />
        }
        .into_any()
    });
    Mounted {
        root,
        task,
        client,
        org_key,
        source,
        closed,
        _handle: handle,
    }
}

async fn settle() {
    TimeoutFuture::new(30).await;
}

fn only(root: &Element, selector: &str) -> Element {
    let mut found = select_all(root, selector);
    assert_eq!(found.len(), 1, "one {selector} in {}", root.inner_html());
    found.remove(0)
}

/// Each trajectory row's cells as text.
fn trajectory_rows(section: &Element) -> Vec<Vec<String>> {
    select_all(section, "tr.trajectory-row")
        .iter()
        .map(|row| select_all(row, "td").iter().map(text).collect())
        .collect()
}

fn section(root: &Element, run_id: &str) -> Element {
    only(
        root,
        &format!("section.panel-run[data-run-id=\"{run_id}\"]"),
    )
}

fn fixture_api(retry: RetryPolicy) -> ClientConfig {
    let origin = web_sys::window()
        .expect("a window")
        .location()
        .origin()
        .expect("an origin");
    ClientConfig::new(&format!("{origin}/tests/fixtures/task_panel"))
        .expect("a valid base URL")
        .with_retry(retry)
}

fn no_retries() -> RetryPolicy {
    RetryPolicy {
        max_retries: 0,
        ..RetryPolicy::default()
    }
}

#[wasm_bindgen_test]
async fn the_panel_lists_each_runs_trajectories_in_report_order() {
    let fixture = task_fixture::small();
    let mounted = mount_panel(&fixture, "t3", None);
    settle().await;
    let root = &mounted.root;

    let dialog = only(root, "[role=dialog]");
    assert_eq!(
        dialog.get_attribute("aria-labelledby").as_deref(),
        Some("task-panel-title")
    );
    assert_eq!(text(&only(root, "#task-panel-title")), "Close the socket");
    assert_eq!(text(&only(root, ".task-panel-id")), "t3");
    assert_eq!(text(&only(root, ".task-panel-categories")), "Networking");

    let runs: Vec<String> = select_all(root, "section.panel-run")
        .iter()
        .filter_map(|s| s.get_attribute("data-run-id"))
        .collect();
    assert_eq!(runs, ["eval_base", "eval_ck100", "eval_ck200"]);

    let base = section(root, "eval_base");
    assert_eq!(
        text(&only(&base, ".panel-cell")),
        "Mean 1.000 1/1 included",
        "the baseline has no delta"
    );
    assert_eq!(
        trajectory_rows(&base),
        [["eval_base-t3-5", "graded", "1.000", "ENV_DONE", ""]]
    );

    let failed = section(root, "eval_ck100");
    assert_eq!(
        text(&only(&failed, ".panel-cell")),
        "Mean — 0/1 included Δ unpaired 1 failed"
    );
    assert_eq!(
        trajectory_rows(&failed),
        [[
            "eval_ck100-t3-5",
            "failed",
            "no reward not in the mean",
            "SANDBOX_ERROR",
            ""
        ]],
        "a null reward is no reward, never 0"
    );
    let later = section(root, "eval_ck200");
    assert_eq!(
        text(&only(&later, ".panel-cell")),
        "Mean 0.000 1/1 included Δ \u{2212}100.0 points"
    );
    assert!(
        select_all(root, "button.link-button").is_empty(),
        "no client: no Load details"
    );

    // Another task: the cut-off without a reward and an unknown ending kept by name.
    mounted.task.set(Some("t4".to_owned()));
    settle().await;
    assert_eq!(text(&only(root, "#task-panel-title")), "Trim whitespace");
    assert_eq!(
        trajectory_rows(&section(root, "eval_base")),
        [[
            "eval_base-t4-6",
            "cut-off",
            "no reward 0 by platform rule",
            "TRUNCATION",
            ""
        ]]
    );
    assert_eq!(
        trajectory_rows(&section(root, "eval_ck200")),
        [["eval_ck200-t4-4", "other", "0.500", "GOLDEN_PATCH", ""]]
    );
    // Unfinished: no ending recorded.
    mounted.task.set(Some("t5".to_owned()));
    settle().await;
    assert_eq!(text(&only(root, "#task-panel-title")), "t5");
    assert_eq!(
        trajectory_rows(&section(root, "eval_ck100")),
        [[
            "eval_ck100-t5-7",
            "unfinished",
            "no reward not in the mean",
            "not recorded",
            ""
        ]]
    );
}

#[wasm_bindgen_test]
async fn the_platform_link_needs_its_address_and_an_org_key_and_never_carries_the_api_key() {
    let fixture = task_fixture::small();
    let key = "sk-live-SECRET-0123456789";
    let client = fixture_api(no_retries()).with_api_key(ApiKey::new(key).expect("a valid key"));
    let mounted = mount_panel(&fixture, "t0", Some(client));
    settle().await;
    let root = &mounted.root;
    assert!(
        select_all(root, "a.platform-link").is_empty(),
        "no org key: no link"
    );

    mounted.org_key.set(Some("acme team/eu".to_owned()));
    settle().await;
    assert!(
        select_all(root, "a.platform-link").is_empty(),
        "no platform address: no link (this server's pages are not the platform's)"
    );
    mounted
        .source
        .set_platform_url("https://app.example.com")
        .expect("another server");
    settle().await;
    let hrefs: Vec<String> = select_all(root, "a.platform-link")
        .iter()
        .filter_map(|a| a.get_attribute("href"))
        .collect();
    assert_eq!(
        hrefs,
        [
            "https://app.example.com/acme%20team%2Feu/evaluate/runs/eval_base/trajectories",
            "https://app.example.com/acme%20team%2Feu/evaluate/runs/eval_ck100/trajectories",
            "https://app.example.com/acme%20team%2Feu/evaluate/runs/eval_ck200/trajectories",
        ]
    );
    let every_link: Vec<String> = select_all(root, "a")
        .iter()
        .filter_map(|a| a.get_attribute("href"))
        .collect();
    assert!(every_link.iter().all(|href| !href.contains(key)));
    assert!(
        !root.inner_html().contains(key),
        "the key is nowhere in the panel"
    );

    mounted.org_key.set(None);
    settle().await;
    assert!(select_all(root, "a.platform-link").is_empty());
}

#[wasm_bindgen_test]
async fn the_close_button_and_escape_close_the_panel() {
    let fixture = task_fixture::small();
    let mounted = mount_panel(&fixture, "t1", None);
    settle().await;
    let root = &mounted.root;
    let document = web_sys::window()
        .and_then(|w| w.document())
        .expect("a document");
    let focused = document.active_element().expect("something has focus");
    assert_eq!(
        focused.id(),
        "task-panel-title",
        "focus moves into the panel"
    );

    only(root, "button.task-panel-close")
        .dyn_into::<HtmlElement>()
        .expect("a button")
        .click();
    settle().await;
    assert_eq!(mounted.closed.get_untracked(), 1);
    assert!(select_all(root, "[role=dialog]").is_empty());

    mounted.task.set(Some("t1".to_owned()));
    settle().await;
    // Escape typed in a text field belongs to the field.
    let input = document.create_element("input").expect("an input");
    document
        .body()
        .expect("a body")
        .append_child(&input)
        .expect("appended");
    press(&input, "Escape");
    settle().await;
    assert_eq!(mounted.closed.get_untracked(), 1);
    input.remove();
    // Anywhere else it closes the panel.
    press(&only(root, "#task-panel-title"), "Escape");
    settle().await;
    assert_eq!(mounted.closed.get_untracked(), 2);
    assert_eq!(mounted.task.get_untracked(), None);
}

#[wasm_bindgen_test]
async fn details_load_through_the_client_and_are_cached_for_the_session() {
    let fixture = task_fixture::small();
    let mounted = mount_panel(&fixture, "t0", Some(fixture_api(no_retries())));
    settle().await;
    let root = &mounted.root;

    let buttons = select_all(root, "tr.trajectory-row button.details-action");
    assert_eq!(buttons.len(), 5, "one per trajectory: 2 + 2 + 1");
    let transcripts = select_all(root, "tr.trajectory-row button.transcript-action");
    assert_eq!(
        transcripts.len(),
        5,
        "Read transcript beside each trajectory"
    );
    assert!(transcripts.iter().all(|b| text(b) == "Read transcript"));
    let row = only(root, "tr[data-trajectory-id=\"eval_base-t0-0\"]");
    only(&row, "button.details-action")
        .dyn_into::<HtmlElement>()
        .expect("a button")
        .click();
    let details = wait_for(root, "table.components", 5_000).await;
    assert_eq!(
        text(&only(root, ".details-error-text")),
        "AssertionError: expected 3 tokens, got 2"
    );
    let components: Vec<Vec<String>> = select_all(&details, ":scope > tbody > tr")
        .iter()
        .map(|tr| select_all(tr, "th, td").iter().map(text).collect())
        .collect();
    assert_eq!(
        components,
        [
            vec![
                "tests_passed",
                "12",
                "1",
                "1",
                "[0, 12]",
                "12 of 12 unit tests pass"
            ],
            vec!["style", "0.4", "0.4", "0 informative only", "[0, 1]", ""],
        ]
    );
    assert!(
        select_all(&row, "button.details-action").is_empty(),
        "loaded: no more button"
    );

    // Closed and opened again: the details come from the session cache, no click needed.
    mounted.task.set(None);
    settle().await;
    mounted.task.set(Some("t0".to_owned()));
    settle().await;
    assert_eq!(select_all(root, "table.components").len(), 1);
    assert_eq!(
        select_all(root, "tr.trajectory-row button.details-action").len(),
        4
    );
}

#[wasm_bindgen_test]
async fn a_failed_load_is_explained_and_can_be_retried() {
    let fixture = task_fixture::small();
    let unreachable = ClientConfig::new("http://127.0.0.1:9")
        .expect("a valid base URL")
        .with_retry(no_retries());
    let mounted = mount_panel(&fixture, "t1", Some(unreachable));
    settle().await;
    let root = &mounted.root;
    let row = only(root, "tr[data-trajectory-id=\"eval_base-t1-2\"]");
    only(&row, "button.details-action")
        .dyn_into::<HtmlElement>()
        .expect("a button")
        .click();
    let error = wait_for(root, ".details-error", 5_000).await;
    assert_eq!(error.get_attribute("role").as_deref(), Some("alert"));
    assert!(
        text(&error).starts_with("Cannot reach the server at http://127.0.0.1:9"),
        "{}",
        text(&error)
    );
    assert_eq!(text(&only(&row, "button.details-action")), "Retry");
}

#[wasm_bindgen_test]
async fn load_all_fetches_every_trajectory_of_the_task() {
    let fixture = task_fixture::small();
    // Task t2, whose trajectories no other test loads (the cache lives for the session).
    let mounted = mount_panel(&fixture, "t2", Some(fixture_api(no_retries())));
    settle().await;
    let root = &mounted.root;
    let load_all = only(root, ".task-panel-actions button");
    assert_eq!(text(&load_all), "Load details of all 5 trajectories");
    load_all
        .dyn_into::<HtmlElement>()
        .expect("a button")
        .click();
    // Only eval_ck200-t2-2 has a canned answer; the others are 404s from the test server.
    let mut waited = 0;
    while select_all(root, ".details-row").len() < 5 {
        assert!(
            waited < 5_000,
            "every trajectory answered: {}",
            root.inner_html()
        );
        TimeoutFuture::new(20).await;
        waited += 20;
    }
    assert_eq!(
        text(&only(root, ".task-panel-actions button")),
        "Load details of all 5 trajectories",
        "four failed: loading all stays offered"
    );
    let answered = only(
        root,
        "tr[data-trajectory-id=\"eval_ck200-t2-2\"] + tr.details-row",
    );
    assert_eq!(
        text(&answered),
        "No error recorded. No reward components recorded."
    );
    let errors = select_all(root, ".details-error");
    assert_eq!(errors.len(), 4);
    assert!(errors
        .iter()
        .all(|e| text(e).starts_with("The API refused the request (HTTP 404)")));
    assert_eq!(
        select_all(root, "tr.trajectory-row button.details-action")
            .iter()
            .map(text)
            .collect::<Vec<_>>(),
        ["Retry"; 4]
    );
    mounted.task.set(None);
    mounted.client.set(None);
    settle().await;
    assert!(select_all(root, "[role=dialog]").is_empty());
}

#[wasm_bindgen_test]
async fn once_every_trajectory_is_loaded_load_all_says_so() {
    let fixture = task_fixture::small();
    // Task t1: every trajectory has a canned answer.
    let mounted = mount_panel(&fixture, "t1", Some(fixture_api(no_retries())));
    settle().await;
    let root = &mounted.root;
    let load_all = only(root, ".task-panel-actions button");
    assert_eq!(text(&load_all), "Load details of all 3 trajectories");
    load_all
        .dyn_into::<HtmlElement>()
        .expect("a button")
        .click();
    let mut waited = 0;
    while select_all(root, "table.components").len() < 3 {
        assert!(waited < 5_000, "three details: {}", root.inner_html());
        TimeoutFuture::new(20).await;
        waited += 20;
    }
    settle().await;
    let load_all = only(root, ".task-panel-actions button");
    assert_eq!(text(&load_all), "Details of all 3 trajectories loaded");
    assert!(load_all.has_attribute("disabled"));
    assert!(select_all(root, "tr.trajectory-row button.details-action").is_empty());
}
