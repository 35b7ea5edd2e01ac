//! The task drill-down of Chronicle runs in a real browser: each trial's status (unknown ones
//! by name), agent, scorers with threshold and passed ("no score", never 0), its error as text,
//! and on demand its detail (instruction, steps, artifacts) with links only to other servers.
#![cfg(target_arch = "wasm32")]

mod support;
mod task_fixture;

use std::sync::Arc;

use eval_compare_core::api::{
    ChronicleJob, ChronicleScore, ChronicleTrial, ChronicleTrialDetail, JobMode, JobStatus,
    TrialArtifact,
};
use eval_compare_core::client::{ClientConfig, RetryPolicy};
use eval_compare_core::model::{RunSet, RunSetBuilder};
use eval_compare_core::report::{build_report, Report, ReportSettings};
use eval_compare_viewer::report::task_panel::trial::detail_view::TrialDetailView;
use eval_compare_viewer::report::task_panel::trial::source::TrialSource;
use eval_compare_viewer::report::task_panel::TaskPanel;
use gloo_timers::future::TimeoutFuture;
use leptos::prelude::*;
use serde_json::json;
use support::{mount_point, select_all, text, wait_for};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};
use web_sys::{Element, HtmlElement};

wasm_bindgen_test_configure!(run_in_browser);

const BASE: &str = "job_cmp/coder@1.0";
const CANDIDATE: &str = "job_cmp/coder@2.0";
const SCRIPT_ERROR: &str = "<script>alert('x')</script><img src=x onerror=alert(1)> sandbox lost";

fn score(
    name: &str,
    score: Option<f64>,
    threshold: Option<f64>,
    passed: Option<bool>,
) -> ChronicleScore {
    ChronicleScore {
        name: name.to_owned(),
        score,
        threshold,
        passed,
    }
}

fn trial(
    id: &str,
    agent: &str,
    task: &str,
    status: &str,
    error: Option<serde_json::Value>,
    scores: Vec<ChronicleScore>,
) -> ChronicleTrial {
    ChronicleTrial {
        id: id.to_owned(),
        agent: agent.to_owned(),
        task_id: Some(task.to_owned()),
        status: Some(status.to_owned()),
        error,
        scores,
    }
}

/// A compare-mode job, coder@1.0 against coder@2.0, on two tasks:
///
/// | trial | agent | task | status | scores | error |
/// |---|---|---|---|---|---|
/// | tr_a1 | 1.0 | task_a | succeeded | tests_pass 1 (≥ 1, passed), latency 0.8125 (no threshold) | — |
/// | tr_a2 | 2.0 | task_a | failed | tests_pass null (≥ 1, not passed) | `<script>…` text |
/// | tr_a3 | 2.0 | task_a | sandbox_evicted | tests_pass 0 (≥ 1, not passed) | JSON |
/// | tr_b1 | 1.0 | task_b | succeeded | tests_pass 1 (passed) | — |
/// | tr_b2 | 2.0 | task_b | succeeded | tests_pass 1 (passed) | — |
fn trials() -> Vec<ChronicleTrial> {
    let passed = || score("tests_pass", Some(1.0), Some(1.0), Some(true));
    vec![
        trial(
            "tr_a1",
            "coder@1.0",
            "task_a",
            "succeeded",
            None,
            vec![passed(), score("latency", Some(0.8125), None, None)],
        ),
        trial(
            "tr_a2",
            "coder@2.0",
            "task_a",
            "failed",
            Some(json!(SCRIPT_ERROR)),
            vec![score("tests_pass", None, Some(1.0), Some(false))],
        ),
        trial(
            "tr_a3",
            "coder@2.0",
            "task_a",
            "sandbox_evicted",
            Some(json!({"code": "EVICTED"})),
            vec![score("tests_pass", Some(0.0), Some(1.0), Some(false))],
        ),
        trial(
            "tr_b1",
            "coder@1.0",
            "task_b",
            "succeeded",
            None,
            vec![passed()],
        ),
        trial(
            "tr_b2",
            "coder@2.0",
            "task_b",
            "succeeded",
            None,
            vec![passed()],
        ),
    ]
}

struct ChronicleFixture {
    set: Arc<RunSet>,
    report: Arc<Report>,
}

fn fixture() -> ChronicleFixture {
    let job = ChronicleJob {
        id: "job_cmp".to_owned(),
        name: Some("Compare coder versions".to_owned()),
        status: Some(JobStatus::Succeeded),
        mode: Some(JobMode::Compare),
        agents: vec!["coder@1.0".to_owned(), "coder@2.0".to_owned()],
        completed_trials: Some(5),
        total_trials: Some(5),
        task_suite_id: Some("suite_py".to_owned()),
        task_suite_version: Some("v3".to_owned()),
        tasks: None,
        scorers: Vec::new(),
        environment_version_id: None,
        concurrency: None,
        created_at: None,
        error: None,
    };
    let mut builder = RunSetBuilder::new();
    let runs = builder
        .add_chronicle_job(&job, &trials(), None)
        .expect("a valid job");
    let set = builder.build();
    let settings = ReportSettings {
        resamples: 0,
        ..ReportSettings::default()
    };
    let report = build_report(&set, runs[0], &runs[1..], &settings).expect("a valid comparison");
    ChronicleFixture {
        set: Arc::new(set),
        report: Arc::new(report),
    }
}

/// A mounted panel and the signals that drive it.
struct Mounted {
    root: HtmlElement,
    task: RwSignal<Option<String>>,
    _handle: leptos::mount::UnmountHandle<leptos::tachys::view::any_view::AnyViewState>,
}

impl Drop for Mounted {
    fn drop(&mut self) {
        self.root.remove();
    }
}

/// The panel on `task`; with `raw`, the trials as the API listed them come from it (else from
/// the app's loader, which has read none here).
fn mount_panel(
    task: &str,
    client: Option<ClientConfig>,
    raw: Option<Vec<ChronicleTrial>>,
) -> Mounted {
    task_fixture::install_styles();
    let fixture = fixture();
    let root = mount_point();
    let task = RwSignal::new(Some(task.to_owned()));
    let client = RwSignal::new(client);
    let org_key = RwSignal::new(Some("acme".to_owned()));
    let report = Signal::stored(fixture.report.clone());
    let run_set = Signal::stored(fixture.set.clone());
    let on_close = Callback::new(move |()| task.set(None));
    let source = raw.map(|raw| {
        TrialSource::new(move |job, trial| {
            (job == "job_cmp")
                .then(|| raw.iter().find(|t| t.id == trial).cloned())
                .flatten()
        })
    });
    let handle = leptos::mount::mount_to(root.clone(), move || match source {
        Some(trials) => view! {
            <TaskPanel
                report
                run_set
                task_id=task.into()
                client=client.into()
                org_key=org_key.into()
                on_close
                trials
            />
        }
        .into_any(),
        None => view! {
            <TaskPanel
                report
                run_set
                task_id=task.into()
                client=client.into()
                org_key=org_key.into()
                on_close
            />
        }
        .into_any(),
    });
    Mounted {
        root,
        task,
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

fn section(root: &Element, run_id: &str) -> Element {
    only(
        root,
        &format!("section.panel-run[data-run-id=\"{run_id}\"]"),
    )
}

fn trial_body(root: &Element, trial_id: &str) -> Element {
    only(root, &format!("tbody.trial[data-trial-id=\"{trial_id}\"]"))
}

/// The cells of a table's body rows, as text.
fn rows(table: &Element) -> Vec<Vec<String>> {
    select_all(table, ":scope > tbody > tr")
        .iter()
        .map(|tr| {
            select_all(tr, ":scope > th, :scope > td")
                .iter()
                .map(text)
                .collect()
        })
        .collect()
}

/// The trial row's cells (id, status, agent, action) as text.
fn trial_row(root: &Element, trial_id: &str) -> Vec<String> {
    let body = trial_body(root, trial_id);
    select_all(&only(&body, "tr.trial-row"), "th, td")
        .iter()
        .map(text)
        .collect()
}

fn scorers(root: &Element, trial_id: &str) -> Vec<Vec<String>> {
    rows(&only(&trial_body(root, trial_id), "table.scorers"))
}

fn click(element: &Element) {
    element
        .clone()
        .dyn_into::<HtmlElement>()
        .expect("an HTML element")
        .click();
}

fn page_origin() -> String {
    web_sys::window()
        .expect("a window")
        .location()
        .origin()
        .expect("an origin")
}

fn fixture_api() -> ClientConfig {
    ClientConfig::new(&format!(
        "{}/tests/fixtures/task_panel_chronicle",
        page_origin()
    ))
    .expect("a valid base URL")
    .with_retry(no_retries())
}

fn no_retries() -> RetryPolicy {
    RetryPolicy {
        max_retries: 0,
        ..RetryPolicy::default()
    }
}

#[wasm_bindgen_test]
async fn each_trial_shows_status_agent_scorers_and_error() {
    let mounted = mount_panel("task_a", None, Some(trials()));
    settle().await;
    let root = &mounted.root;
    let runs: Vec<String> = select_all(root, "section.panel-run")
        .iter()
        .filter_map(|s| s.get_attribute("data-run-id"))
        .collect();
    assert_eq!(runs, [BASE, CANDIDATE]);
    assert!(
        select_all(root, "a.platform-link").is_empty(),
        "Chronicle runs have no Trajectory platform page"
    );
    assert!(
        select_all(root, "button.link-button").is_empty(),
        "no client: no Load details"
    );

    assert_eq!(
        trial_row(root, "tr_a1"),
        ["tr_a1", "succeeded", "coder@1.0", ""]
    );
    assert_eq!(
        scorers(root, "tr_a1"),
        [
            ["tests_pass", "1", "1", "passed"],
            ["latency", "0.8125", "none", "measured only"],
        ]
    );
    assert!(select_all(&trial_body(root, "tr_a1"), ".trial-error").is_empty());

    let candidate = section(root, CANDIDATE);
    let listed: Vec<String> = select_all(&candidate, "tbody.trial")
        .iter()
        .filter_map(|b| b.get_attribute("data-trial-id"))
        .collect();
    assert_eq!(listed, ["tr_a2", "tr_a3"]);
    assert_eq!(
        trial_row(root, "tr_a2"),
        ["tr_a2", "failed", "coder@2.0", ""]
    );
    assert_eq!(
        scorers(root, "tr_a2"),
        [["tests_pass", "no score", "1", "not passed"]],
        "a null score is no score, never 0"
    );
    let error = only(&trial_body(root, "tr_a2"), ".trial-error pre");
    assert_eq!(error.text_content().as_deref(), Some(SCRIPT_ERROR));
    assert!(
        select_all(root, "script, img").is_empty(),
        "the error stays text: {}",
        root.inner_html()
    );

    assert_eq!(
        trial_row(root, "tr_a3"),
        ["tr_a3", "sandbox_evicted", "coder@2.0", ""],
        "an unknown status is kept by name"
    );
    assert_eq!(
        scorers(root, "tr_a3"),
        [["tests_pass", "0", "1", "not passed"]],
        "a real 0 stays 0"
    );
    assert_eq!(
        only(&trial_body(root, "tr_a3"), ".trial-error pre")
            .text_content()
            .as_deref(),
        Some("{\"code\":\"EVICTED\"}"),
        "a JSON error in the words the audit and the markdown use"
    );

    mounted.task.set(Some("task_b".to_owned()));
    settle().await;
    assert_eq!(
        trial_row(root, "tr_b2"),
        ["tr_b2", "succeeded", "coder@2.0", ""]
    );
    assert!(select_all(root, ".trial-error").is_empty());
}

#[wasm_bindgen_test]
async fn without_the_listed_trials_the_run_sets_scorers_are_shown() {
    // The app's loader has read no job here: status and scorers come from the run set, and no
    // error is known.
    let mounted = mount_panel("task_a", None, None);
    settle().await;
    let root = &mounted.root;
    assert_eq!(
        trial_row(root, "tr_a2"),
        ["tr_a2", "failed", "coder@2.0", ""]
    );
    assert_eq!(
        scorers(root, "tr_a2"),
        [["tests_pass", "no score", "1", "not passed"]]
    );
    assert_eq!(
        scorers(root, "tr_a1"),
        [
            ["tests_pass", "1", "1", "passed"],
            ["latency", "0.8125", "none", "measured only"],
        ]
    );
    assert!(select_all(root, ".trial-error").is_empty());
}

#[wasm_bindgen_test]
async fn without_the_listed_trials_the_error_comes_with_the_detail() {
    let mounted = mount_panel("task_a", Some(fixture_api()), None);
    settle().await;
    let root = &mounted.root;
    assert!(select_all(&trial_body(root, "tr_a3"), ".trial-error").is_empty());
    click(&only(&trial_body(root, "tr_a3"), "button.link-button"));
    let detail = wait_for(&trial_body(root, "tr_a3"), ".trial-detail", 5_000).await;
    assert_eq!(
        only(&trial_body(root, "tr_a3"), ".trial-error pre")
            .text_content()
            .as_deref(),
        Some("evicted: node drained <b>twice</b>")
    );
    assert!(select_all(root, "b").is_empty(), "the error stays text");
    assert_eq!(
        rows(&only(&detail, "table.trial-steps")),
        [["setup", "clone repository", "failed", "1 min 01 s"]]
    );
}

#[wasm_bindgen_test]
async fn the_detail_loads_on_demand_with_steps_and_artifacts_and_is_cached() {
    let mounted = mount_panel("task_a", Some(fixture_api()), Some(trials()));
    settle().await;
    let root = &mounted.root;
    // (tr_a3's detail may be in the session cache already: another test loads it.)
    for trial in ["tr_a1", "tr_a2"] {
        assert_eq!(
            select_all(&trial_body(root, trial), "button.link-button").len(),
            1,
            "{trial} offers its details"
        );
    }
    let button = only(&trial_body(root, "tr_a2"), "button.link-button");
    assert_eq!(text(&button), "Load details");
    assert_eq!(
        button.get_attribute("aria-label").as_deref(),
        Some("Load details: trial tr_a2")
    );
    click(&button);
    let detail = wait_for(&trial_body(root, "tr_a2"), ".trial-detail", 5_000).await;
    assert!(
        select_all(&trial_body(root, "tr_a2"), "button").is_empty(),
        "loaded: no more button"
    );

    // A long instruction is folded, as preformatted text (its markup stays text).
    let folded = only(&detail, "details.trial-instruction");
    assert!(!folded.has_attribute("open"));
    assert_eq!(
        text(&only(&folded, "summary")),
        "Instruction (16 lines, 777 characters)"
    );
    let instruction = only(&folded, "pre.trial-instruction-text")
        .text_content()
        .unwrap_or_default();
    assert!(instruction
        .starts_with("Fix the failing test in `parser.rs`.\nStep 1: read the <b>code</b>"));
    assert_eq!(instruction.lines().count(), 16);
    assert!(select_all(&detail, "b").is_empty());

    let steps = only(&detail, "table.trial-steps");
    assert_eq!(text(&only(&steps, "caption")), "Steps (5)");
    assert_eq!(
        rows(&steps),
        [
            ["setup", "clone repository", "succeeded", "850 ms"],
            ["agent", "turn 1", "succeeded", "12.3 s"],
            ["tool call", "bash: cargo test", "failed", "4 min 05 s"],
            ["scoring", "tests_pass", "skipped", "—"],
            ["reflection", "—", "succeeded", "0 ms"],
        ]
    );

    let artifacts = only(&detail, "table.trial-artifacts");
    assert_eq!(
        rows(&artifacts),
        [
            vec![
                "patch.diff (opens another site in a new tab)",
                "text/x-diff",
                "1.5 KiB"
            ],
            vec!["evil.html", "text/html", "20 B"],
            vec!["local.log", "text/plain", "12.3 MiB"],
            vec!["transcript.json", "—", "—"],
        ]
    );
    let links = select_all(&artifacts, "a");
    assert_eq!(links.len(), 1, "only the external https address is linked");
    assert_eq!(
        links[0].get_attribute("href").as_deref(),
        Some("https://artifacts.example.com/job_cmp/tr_a2/patch.diff")
    );
    assert_eq!(links[0].get_attribute("target").as_deref(), Some("_blank"));
    assert_eq!(
        links[0].get_attribute("rel").as_deref(),
        Some("noopener noreferrer")
    );

    // Closed and opened again: the detail comes from the session cache, no click needed.
    mounted.task.set(None);
    settle().await;
    mounted.task.set(Some("task_a".to_owned()));
    settle().await;
    assert_eq!(
        select_all(&trial_body(root, "tr_a2"), ".trial-detail").len(),
        1
    );
    assert!(select_all(&trial_body(root, "tr_a2"), "button").is_empty());
    assert_eq!(
        select_all(&trial_body(root, "tr_a1"), "button.link-button").len(),
        1
    );

    // A short instruction is shown open; no steps or artifacts say so.
    mounted.task.set(Some("task_b".to_owned()));
    settle().await;
    click(&only(&trial_body(root, "tr_b1"), "button.link-button"));
    let detail = wait_for(&trial_body(root, "tr_b1"), ".trial-detail", 5_000).await;
    assert!(select_all(&detail, "details").is_empty());
    assert_eq!(
        text(&detail),
        "Instruction Rename the function. No steps recorded. No artifacts recorded."
    );
}

#[wasm_bindgen_test]
async fn a_failed_detail_request_is_explained_with_retry() {
    let unreachable = ClientConfig::new("http://127.0.0.1:9")
        .expect("a valid base URL")
        .with_retry(no_retries());
    let mounted = mount_panel("task_b", Some(unreachable), Some(trials()));
    settle().await;
    let root = &mounted.root;
    click(&only(&trial_body(root, "tr_b2"), "button.link-button"));
    let panel = wait_for(&trial_body(root, "tr_b2"), ".error-panel", 5_000).await;
    assert_eq!(panel.get_attribute("role").as_deref(), Some("alert"));
    assert_eq!(
        text(&only(&panel, ".error-context")),
        "Trial tr_b2 — its detail"
    );
    assert_eq!(
        text(&only(&panel, ".error-title")),
        "Cannot reach the server at http://127.0.0.1:9"
    );
    let retry = only(&panel, "button");
    assert_eq!(text(&retry), "Retry");
    assert_eq!(
        text(&only(&trial_body(root, "tr_b2"), "tr.trial-row button")),
        "Retry"
    );
    // Retry asks again: the request is in flight (the panel goes), then fails again.
    click(&retry);
    settle().await;
    wait_for(&trial_body(root, "tr_b2"), ".error-panel", 5_000).await;

    // A trial the API does not know (no canned answer: 404) is explained the same way.
    let missing = mount_panel("task_b", Some(fixture_api()), Some(trials()));
    settle().await;
    click(&only(
        &trial_body(&missing.root, "tr_b2"),
        "button.link-button",
    ));
    let panel = wait_for(&trial_body(&missing.root, "tr_b2"), ".error-panel", 5_000).await;
    assert!(text(&panel).contains("404"), "{}", text(&panel));
}

fn artifact(name: &str, url: &str) -> TrialArtifact {
    TrialArtifact {
        name: name.to_owned(),
        media_type: None,
        size_bytes: None,
        url: Some(url.to_owned()),
    }
}

#[wasm_bindgen_test]
async fn artifacts_on_this_servers_origin_or_other_schemes_are_not_linked() {
    let origin = page_origin();
    let port = origin
        .strip_prefix("http://127.0.0.1:")
        .expect("the test page is served from 127.0.0.1")
        .to_owned();
    let detail = ChronicleTrialDetail {
        trial: trials().remove(0),
        instruction: None,
        steps: Vec::new(),
        artifacts: vec![
            artifact("external", "https://cdn.example.com/a.txt"),
            artifact("own page", &format!("{origin}/#/compare?runs=a,b")),
            artifact("own, upper case", &format!("HTTP://127.0.0.1:{port}/x")),
            // The browser reads 127.1 as 127.0.0.1: still this server.
            artifact("own, short address", &format!("http://127.1:{port}/x")),
            artifact("script", "javascript:alert(1)"),
            artifact("data", "data:text/html,<script>alert(1)</script>"),
            artifact("relative", "/api/v1/organizations/current"),
        ],
    };
    let root = mount_point();
    let handle = leptos::mount::mount_to(root.clone(), move || {
        view! { <TrialDetailView detail=detail.clone()/> }.into_any()
    });
    settle().await;
    let links: Vec<(String, Option<String>)> = select_all(&root, "a")
        .iter()
        .map(|a| (text(a), a.get_attribute("href")))
        .collect();
    assert_eq!(
        links,
        [(
            "external (opens another site in a new tab)".to_owned(),
            Some("https://cdn.example.com/a.txt".to_owned())
        )]
    );
    let names: Vec<String> = select_all(&root, ".artifact-name")
        .iter()
        .map(text)
        .collect();
    assert_eq!(
        names,
        [
            "own page",
            "own, upper case",
            "own, short address",
            "script",
            "data",
            "relative"
        ]
    );
    let notes: Vec<String> = select_all(&root, ".trial-detail > p")
        .iter()
        .map(text)
        .collect();
    assert_eq!(notes, ["No instruction recorded.", "No steps recorded."]);
    drop(handle);
    root.remove();
}
