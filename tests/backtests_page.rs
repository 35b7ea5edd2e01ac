//! The Chronicle source in a real browser: the streamed body of the fetch transport, the job
//! picker (its table, its choices, its failures) and the report page's notices about live jobs
//! and jobs without trials.
#![cfg(target_arch = "wasm32")]

mod support;

use eval_compare_core::api::ChronicleJob;
use eval_compare_core::client::{HttpRequest, Transport};
use eval_compare_core::load::Phase;
use eval_compare_core::view_state::ViewState;
use eval_compare_viewer::picker::backtests::job_table::JobChooser;
use eval_compare_viewer::picker::backtests::page::BacktestsView;
use eval_compare_viewer::report::panels::load_panel::{JobsWithoutTrials, LiveJobsNotice};
use eval_compare_viewer::state::loader::LiveMode;
use eval_compare_viewer::state::url::UrlState;
use eval_compare_viewer::transport::FetchTransport;
use gloo_timers::future::TimeoutFuture;
use leptos::prelude::*;
use support::{mount_point, select_all, text, wait_for};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

/// Long enough for the client's two retries (0.5 s + 1 s backoff) and the failing requests.
const ERROR_TIMEOUT_MS: u32 = 10_000;

fn origin() -> String {
    web_sys::window()
        .expect("a window")
        .location()
        .origin()
        .expect("an origin")
}

fn get(url: &str) -> HttpRequest {
    HttpRequest {
        url: url.to_owned(),
        headers: vec![("Accept".to_owned(), "text/html".to_owned())],
    }
}

#[wasm_bindgen_test]
async fn a_streamed_body_arrives_in_chunks_that_add_up_to_the_whole_body() {
    let url = format!("{}/", origin());
    let whole = FetchTransport::default()
        .send(get(&url))
        .await
        .expect("the runner's page");
    let mut streamed = Vec::new();
    let mut chunks = 0;
    let response = FetchTransport::default()
        .send_streaming(get(&url), &mut |chunk| {
            chunks += 1;
            streamed.extend_from_slice(chunk);
            true
        })
        .await
        .expect("the runner's page, streamed");
    assert_eq!(response.status, 200);
    assert!(
        response.body.is_empty(),
        "a streamed body is handed over, not kept"
    );
    assert!(chunks >= 1);
    assert_eq!(streamed, whole.body);
}

#[wasm_bindgen_test]
async fn a_streamed_request_stops_when_asked_and_an_error_status_keeps_its_body() {
    let mut chunks = 0;
    let response = FetchTransport::default()
        .send_streaming(get(&format!("{}/", origin())), &mut |_| {
            chunks += 1;
            false
        })
        .await
        .expect("stopping early is not an error");
    assert_eq!((response.status, chunks), (200, 1));

    let mut called = false;
    let missing = FetchTransport::default()
        .send_streaming(get(&format!("{}/no/such/stream", origin())), &mut |_| {
            called = true;
            true
        })
        .await
        .expect("a 404 is still a response");
    assert_eq!(missing.status, 404);
    assert!(!called, "an error status's body is not a stream");
    let sent = FetchTransport::default()
        .send(get(&format!("{}/no/such/stream", origin())))
        .await
        .expect("a 404 is still a response");
    assert_eq!(
        missing.body, sent.body,
        "an error status's body is returned whole"
    );
}

#[wasm_bindgen_test]
async fn the_job_picker_shows_the_apis_failure() {
    let root = mount_point();
    let base_url = origin();
    let _handle = leptos::mount::mount_to(root.clone(), move || {
        view! { <BacktestsView base_url=base_url.clone()/> }
    });
    assert_eq!(select_all(&root, ".loading").len(), 1, "loading first");
    // The runner's own server has no /v1/backtests/jobs: it answers 404.
    let panel = wait_for(&root, ".error-panel", ERROR_TIMEOUT_MS).await;
    assert_eq!(
        text(&select_all(&panel, ".error-title")[0]),
        "The API refused the request (HTTP 404)"
    );
    let tabs: Vec<String> = select_all(&root, ".source-tab").iter().map(text).collect();
    assert_eq!(tabs.len(), 2);
    let current = select_all(&root, ".source-tab[aria-current=page]");
    assert!(text(&current[0]).starts_with("Chronicle backtests"));
}

fn job(id: &str, extra: serde_json::Value) -> ChronicleJob {
    let mut json = serde_json::json!({
        "id": id, "name": format!("Job {id}"), "status": "succeeded", "mode": "suite",
        "agents": ["coder@v1"], "completed_trials": 40, "total_trials": 40,
        "task_suite_id": "suite_codefix", "task_suite_version": "v2",
        "created_at": "2026-11-02T09:00:00Z"
    });
    if let (Some(base), Some(extra)) = (json.as_object_mut(), extra.as_object()) {
        base.extend(extra.clone());
    }
    serde_json::from_value(json).expect("a valid ChronicleJob")
}

fn jobs() -> Vec<ChronicleJob> {
    vec![
        job(
            "job_cmp",
            serde_json::json!({"mode": "compare", "agents": ["coder@base", "coder@s400"],
                "status": "paused", "completed_trials": 12}),
        ),
        job("job_base", serde_json::json!({})),
        job(
            "job_s100",
            serde_json::json!({"agents": ["coder@s100"], "task_suite_version": "v3"}),
        ),
        job(
            "job_web",
            serde_json::json!({"task_suite_id": "suite_web", "name": "<b>web</b>"}),
        ),
    ]
}

fn row(root: &web_sys::Element, job_id: &str) -> web_sys::Element {
    select_all(root, &format!("tr[data-job-id='{job_id}']"))
        .pop()
        .unwrap_or_else(|| panic!("a row for {job_id}"))
}

fn input(row: &web_sys::Element, kind: &str) -> web_sys::HtmlInputElement {
    select_all(row, &format!("input[type={kind}]"))
        .pop()
        .expect("the control")
        .dyn_into()
        .expect("an input")
}

fn pushed_view(
    log: ReadSignal<Vec<eval_compare_viewer::state::url::Navigation>>,
) -> (String, ViewState) {
    let navigation = log.get_untracked().pop().expect("a navigation");
    assert!(!navigation.replace, "a comparison is a new history entry");
    let (path, query) = navigation.href.split_once('?').expect("a query");
    (path.to_owned(), ViewState::from_query(query).state)
}

#[wasm_bindgen_test]
async fn open_compares_a_compare_mode_jobs_agents_against_its_first() {
    let root = mount_point();
    let (url, log) = UrlState::in_memory("/backtests", "");
    let _handle = leptos::mount::mount_to(root.clone(), move || {
        view! { <JobChooser jobs=Signal::derive(jobs) url/> }
    });
    let compare_row = row(&root, "job_cmp");
    assert!(
        text(&compare_row).contains("paused"),
        "an unknown status by name"
    );
    assert!(text(&compare_row).contains("12 / 40 trials"));
    assert!(
        text(&row(&root, "job_web")).contains("<b>web</b>"),
        "names are text"
    );
    assert_eq!(
        select_all(&root, "button").len(),
        2,
        "Open (compare job) and Compare"
    );
    let open = select_all(&compare_row, "button")
        .pop()
        .expect("Open")
        .dyn_into::<web_sys::HtmlElement>()
        .expect("a button");
    open.click();
    let (path, view) = pushed_view(log);
    assert_eq!(path, "/backtests/compare");
    assert_eq!(view.baseline.as_deref(), Some("job_cmp/coder@base"));
    assert_eq!(view.candidates, ["job_cmp/coder@s400"]);
}

#[wasm_bindgen_test]
async fn several_jobs_on_one_suite_compare_and_another_suite_is_refused() {
    let root = mount_point();
    let (url, log) = UrlState::in_memory("/backtests", "");
    let _handle = leptos::mount::mount_to(root.clone(), move || {
        view! { <JobChooser jobs=Signal::derive(jobs) url/> }
    });
    let compare = select_all(&root, ".compare-bar button")
        .pop()
        .expect("Compare")
        .dyn_into::<web_sys::HtmlElement>()
        .expect("a button");
    let disabled = |button: &web_sys::HtmlElement| button.has_attribute("disabled");
    assert!(disabled(&compare), "nothing chosen");
    assert!(
        input(&row(&root, "job_s100"), "checkbox").disabled(),
        "baseline first"
    );

    input(&row(&root, "job_base"), "radio").click();
    TimeoutFuture::new(20).await;
    assert!(disabled(&compare), "one job with one agent: no candidate");
    let web = row(&root, "job_web");
    assert!(input(&web, "checkbox").disabled());
    assert!(text(&web).contains("On task suite suite_web, not the baseline job's suite_codefix"));
    let other_version = input(&row(&root, "job_s100"), "checkbox");
    assert!(
        !other_version.disabled(),
        "another version of the suite may join"
    );
    other_version.click();
    TimeoutFuture::new(20).await;
    assert!(!disabled(&compare));
    assert!(text(&select_all(&root, ".compare-summary")[0]).contains("1 candidate"));
    compare.click();
    let (path, view) = pushed_view(log);
    assert_eq!(path, "/backtests/compare");
    assert_eq!(view.baseline.as_deref(), Some("job_base/coder@v1"));
    assert_eq!(view.candidates, ["job_s100/coder@s100"]);
}

#[wasm_bindgen_test]
async fn a_links_jobs_are_chosen_again() {
    let root = mount_point();
    let (url, _log) = UrlState::in_memory(
        "/backtests",
        "base=job_base%2Fcoder%40v1&cand=job_s100%2Fcoder%40s100",
    );
    let _handle = leptos::mount::mount_to(root.clone(), move || {
        view! { <JobChooser jobs=Signal::derive(jobs) url/> }
    });
    assert!(input(&row(&root, "job_base"), "radio").checked());
    assert!(input(&row(&root, "job_s100"), "checkbox").checked());
}

#[wasm_bindgen_test]
async fn a_live_job_shows_how_far_it_is_and_how_it_is_watched() {
    let root = mount_point();
    let running = job(
        "job_hot",
        serde_json::json!({"name": "nightly", "status": "running", "completed_trials": 12}),
    );
    let jobs = RwSignal::new(vec![running.clone()]);
    let mode = RwSignal::new(Some(LiveMode::Streaming));
    let _handle = leptos::mount::mount_to(root.clone(), move || {
        view! { <LiveJobsNotice jobs mode/> }
    });
    let notice = wait_for(&root, ".live-jobs", 1_000).await;
    assert!(text(&notice).contains("following its progress stream"));
    assert!(text(&notice).contains("running · 12 of 40 trials finished (30%)"));
    mode.set(Some(LiveMode::Polling));
    TimeoutFuture::new(20).await;
    assert!(text(&select_all(&root, ".live-jobs")[0]).contains("checking every 10 s"));
    let why = "job job_hot's progress stream said it ended (succeeded), but its record still \
               says it is running, unchanged after 8 reads over 95 s: the API contradicts itself";
    mode.set(Some(LiveMode::Stopped(why.to_owned())));
    TimeoutFuture::new(20).await;
    let stopped = text(&select_all(&root, ".live-jobs")[0]);
    assert!(
        stopped.starts_with(&format!("Not followed any more — {why}. Reload the page")),
        "{stopped}"
    );
    assert!(stopped.contains("running · 12 of 40 trials finished (30%)"));
    let mut ended = running;
    ended.status = Some(eval_compare_core::api::JobStatus::Succeeded);
    jobs.set(vec![ended]);
    TimeoutFuture::new(20).await;
    assert!(
        select_all(&root, ".live-jobs").is_empty(),
        "gone once the job ended"
    );
}

#[wasm_bindgen_test]
async fn a_job_without_trials_is_a_notice() {
    let root = mount_point();
    let empty = job(
        "job_q",
        serde_json::json!({"status": "queued", "completed_trials": 0}),
    );
    let _handle = leptos::mount::mount_to(root.clone(), move || {
        view! { <JobsWithoutTrials jobs=Signal::derive(move || vec![empty.clone()])/> }
    });
    let notice = wait_for(&root, ".no-trials", 1_000).await;
    assert!(text(&notice).contains(
        "Job job_q has no trials yet; inspect its status: queued (0 of 40 trials finished)."
    ));
}

#[wasm_bindgen_test]
async fn the_loader_reads_jobs_and_keeps_a_refused_one_as_failed() {
    use eval_compare_core::client::ClientConfig;
    use eval_compare_viewer::state::loader::{LoadPlan, Loader};

    let root = mount_point();
    let slot: std::rc::Rc<std::cell::Cell<Option<Loader>>> = std::rc::Rc::default();
    let kept = std::rc::Rc::clone(&slot);
    let _handle = leptos::mount::mount_to(root, move || {
        kept.set(Some(Loader::new()));
    });
    let loader = slot.get().expect("a loader");
    let config = ClientConfig::new(&origin()).expect("the runner's origin");
    let plan = LoadPlan::Jobs(vec!["job_missing".to_owned()]);
    loader.ensure(&config, &plan);
    assert!(loader.is_loading());
    let mut waited = 0;
    while loader.is_loading() {
        assert!(waited < ERROR_TIMEOUT_MS, "the load ends");
        TimeoutFuture::new(20).await;
        waited += 20;
    }
    // The runner's own server has no Chronicle API: the job's record is refused (404).
    let progress = loader.progress(&plan);
    assert_eq!(progress.len(), 1);
    assert!(
        matches!(progress[0].record, Phase::Failed(_)),
        "{progress:?}"
    );
    assert!(progress[0].has_stopped());
    assert!(
        loader.run_set(&plan).is_none(),
        "no run set without the job"
    );
    assert!(loader
        .jobs_without_trials(&["job_missing".to_owned()])
        .is_empty());
    loader.retry(&plan);
    assert!(loader.is_loading(), "Retry reads the job again");
    loader.cancel();
    assert!(!loader.is_loading());
}
