//! The loader against a scripted API: pages kept when one fails, Retry resuming from the cursor
//! without reading anything twice, tasks read once per benchmark, Cancel, the refresh of a
//! running run, and a run set equal to the CLI's.
#![cfg(target_arch = "wasm32")]

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;

use eval_compare_core::client::{
    ClientConfig, HttpRequest, HttpResponse, RetryPolicy, TrajectoryClient, Transport,
    TransportError,
};
use eval_compare_core::model::RunIdx;
use eval_compare_core::report::{build_report, ReportSettings};
use eval_compare_core::run_folder::{run_set_from_folders, RunFolder};
use eval_compare_viewer::state::loader::{
    load_runs, refresh_running, ListKind, LoadStore, Phase, API_SOURCE,
};
use futures::future::{select, Either};
use gloo_timers::future::TimeoutFuture;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

/// Status 0 stands for "never answers".
const NEVER: u16 = 0;

/// A URL substring and the answers (status, body) still to give.
type Route = (String, VecDeque<(u16, String)>);

/// Answers by URL substring (first matching route), each route with its queue of answers (the
/// last one repeats), and records every URL asked for.
#[derive(Clone, Default)]
struct Scripted {
    routes: Rc<RefCell<Vec<Route>>>,
    asked: Rc<RefCell<Vec<String>>>,
}

impl Scripted {
    fn route(&self, pattern: &str, answers: Vec<(u16, String)>) {
        self.routes
            .borrow_mut()
            .push((pattern.to_owned(), answers.into()));
    }

    /// URLs asked for since `from`.
    fn asked_since(&self, from: usize) -> Vec<String> {
        self.asked.borrow()[from..].to_vec()
    }

    fn count(&self, pattern: &str) -> usize {
        self.asked
            .borrow()
            .iter()
            .filter(|url| url.contains(pattern))
            .count()
    }
}

impl Transport for Scripted {
    async fn send(&self, request: HttpRequest) -> Result<HttpResponse, TransportError> {
        self.asked.borrow_mut().push(request.url.clone());
        let answer = {
            let mut routes = self.routes.borrow_mut();
            let route = routes
                .iter_mut()
                .find(|(pattern, _)| request.url.contains(pattern.as_str()));
            match route {
                Some((_, answers)) if answers.len() > 1 => answers.pop_front(),
                Some((_, answers)) => answers.front().cloned(),
                None => None,
            }
        };
        let Some((status, body)) = answer else {
            return Err(TransportError::Connect(format!(
                "no route for {}",
                request.url
            )));
        };
        if status == NEVER {
            futures::future::pending::<()>().await;
        }
        Ok(HttpResponse {
            status,
            headers: Vec::new(),
            body: body.into_bytes(),
        })
    }

    async fn sleep(&self, _ms: u64) {}

    fn now_unix_ms(&self) -> u64 {
        0
    }
}

fn client(transport: &Scripted) -> TrajectoryClient<Scripted> {
    let config = ClientConfig::new("http://api.test")
        .expect("a valid base URL")
        .with_retry(RetryPolicy {
            max_retries: 0,
            ..RetryPolicy::default()
        });
    TrajectoryClient::new(config, transport.clone())
}

fn run(id: &str, status: &str) -> String {
    format!(
        r#"{{"eval_run_id":"{id}","bench_id":"b_1","agent_id":"a_1","options":{{}},"status":"{status}","total_rollouts":3,"created_at":"2026-01-01T00:00:00Z","updated_at":"2026-01-01T00:00:00Z"}}"#
    )
}

fn reward(id: &str, task: &str, value: f64) -> String {
    format!(r#"{{"trajectory_id":"{id}","reward":{value},"task_id":"{task}"}}"#)
}

fn trajectory(id: &str, task: &str) -> String {
    format!(
        r#"{{"trajectory_id":"{id}","organization_id":"org","source":"eval","status":"completed","termination_reason":"ENV_DONE","created_at":"2026-01-01T00:00:00Z","task_id":"{task}"}}"#
    )
}

fn page(run: &str, items: &[String], next: Option<&str>) -> String {
    let cursor = next.map_or("null".to_owned(), |c| format!("\"{c}\""));
    format!(
        r#"{{"eval_run_id":"{run}","items":[{}],"next_cursor":{cursor},"has_more":{}}}"#,
        items.join(","),
        next.is_some()
    )
}

const FAILURE: &str = r#"{"error":{"type":"api_error","code":"internal","message":"try again","doc_url":"https://docs.test/errors"}}"#;
const EXPIRED: &str = r#"{"error":{"type":"invalid_request_error","code":"invalid_cursor","message":"cursor expired","doc_url":"https://docs.test/errors"}}"#;

/// Run `id` on benchmark `b_1`: rewards in two pages (the second from `second`), trajectories
/// and tasks in one.
fn script_run(transport: &Scripted, id: &str, second: Vec<(u16, String)>) {
    transport.route(&format!("/eval/{id}/trajectory-rewards?cursor=c2"), second);
    transport.route(
        &format!("/eval/{id}/trajectory-rewards"),
        vec![(
            200,
            page(
                id,
                &[reward("x1", "t1", 1.0), reward("x2", "t2", 0.0)],
                Some("c2"),
            ),
        )],
    );
    transport.route(
        &format!("eval_run_id={id}"),
        vec![(
            200,
            page(
                id,
                &[
                    trajectory("x1", "t1"),
                    trajectory("x2", "t2"),
                    trajectory("x3", "t3"),
                ],
                None,
            ),
        )],
    );
    transport.route(&format!("/eval/{id}"), vec![(200, run(id, "completed"))]);
}

fn script_tasks(transport: &Scripted) {
    transport.route(
        "/benchmarks/b_1/tasks",
        vec![(
            200,
            page(
                "b_1",
                &[
                    r#"{"task_id":"t1"}"#.to_owned(),
                    r#"{"task_id":"t2"}"#.to_owned(),
                    r#"{"task_id":"t3"}"#.to_owned(),
                ],
                None,
            ),
        )],
    );
}

fn ids(list: &[&str]) -> Vec<String> {
    list.iter().map(|id| (*id).to_owned()).collect()
}

#[wasm_bindgen_test]
async fn a_failed_page_keeps_what_was_read_and_retry_resumes_from_its_cursor() {
    let transport = Scripted::default();
    script_run(
        &transport,
        "er_1",
        vec![
            (503, FAILURE.to_owned()),
            (200, page("er_1", &[reward("x3", "t3", 1.0)], None)),
        ],
    );
    script_tasks(&transport);
    let client = client(&transport);
    let store = LoadStore::new();
    let runs = ids(&["er_1"]);
    load_runs(&client, &store, &runs, &|| {}).await;

    let progress = store.progress(&runs);
    let rewards = progress[0]
        .lists
        .iter()
        .find(|list| list.kind == ListKind::Rewards)
        .expect("the rewards list");
    assert!(matches!(rewards.phase, Phase::Failed(_)), "{rewards:?}");
    assert_eq!((rewards.pages, rewards.items), (1, 2), "page 1 is kept");
    assert_eq!(
        store
            .get("er_1")
            .expect("the run")
            .rewards
            .borrow()
            .resume_cursor
            .as_deref(),
        Some("c2")
    );
    assert!(progress[0].is_settled() && progress[0].has_stopped());

    // The run set is built from what was read, and says what is missing.
    let set = store
        .run_set(&runs)
        .expect("ready once settled")
        .expect("a run set");
    let missing = set.runs()[0]
        .info()
        .incomplete_load
        .clone()
        .expect("the load is incomplete");
    assert!(
        missing.starts_with("trajectory rewards: 1 page (2 items) read, then a page failed"),
        "{missing}"
    );

    // Retry: only the failed page is asked for.
    let before = transport.asked.borrow().len();
    load_runs(&client, &store, &runs, &|| {}).await;
    let asked = transport.asked_since(before);
    assert_eq!(asked.len(), 1, "{asked:?}");
    assert!(
        asked[0].contains("/trajectory-rewards?cursor=c2&limit=200"),
        "{asked:?}"
    );
    let rewards = store.get("er_1").expect("the run").rewards.borrow().clone();
    assert_eq!(rewards.phase, Phase::Complete);
    let read: Vec<&str> = rewards
        .items
        .iter()
        .map(|r| r.trajectory_id.as_str())
        .collect();
    assert_eq!(read, ["x1", "x2", "x3"]);
    let set = store.run_set(&runs).expect("ready").expect("a run set");
    assert_eq!(set.runs()[0].info().incomplete_load, None);
}

#[wasm_bindgen_test]
async fn an_expired_cursor_reads_the_list_again_from_the_start() {
    let transport = Scripted::default();
    script_run(
        &transport,
        "er_1",
        vec![
            (400, EXPIRED.to_owned()),
            (200, page("er_1", &[reward("x3", "t3", 1.0)], None)),
        ],
    );
    script_tasks(&transport);
    let client = client(&transport);
    let store = LoadStore::new();
    let runs = ids(&["er_1"]);
    load_runs(&client, &store, &runs, &|| {}).await;
    let before = transport.asked.borrow().len();
    load_runs(&client, &store, &runs, &|| {}).await;
    let asked = transport.asked_since(before);
    assert!(
        asked[0].ends_with("/trajectory-rewards?limit=200"),
        "starts over: {asked:?}"
    );
    let rewards = store.get("er_1").expect("the run").rewards.borrow().clone();
    assert_eq!(rewards.items.len(), 3, "no item twice");
    assert_eq!(rewards.phase, Phase::Complete);
}

#[wasm_bindgen_test]
async fn runs_load_concurrently_and_share_their_benchmark_tasks() {
    let transport = Scripted::default();
    for id in ["er_1", "er_2"] {
        script_run(&transport, id, vec![(200, page(id, &[], None))]);
    }
    script_tasks(&transport);
    let client = client(&transport);
    let store = LoadStore::new();
    let runs = ids(&["er_1", "er_2"]);
    load_runs(&client, &store, &runs, &|| {}).await;
    assert_eq!(transport.count("/benchmarks/b_1/tasks"), 1);
    assert!(store.is_ready(&runs));
    for run in store.progress(&runs) {
        assert!(
            run.lists.iter().all(|list| list.phase == Phase::Complete),
            "{run:?}"
        );
    }
}

#[wasm_bindgen_test]
async fn cancel_keeps_the_pages_read_and_retry_resumes() {
    let transport = Scripted::default();
    script_run(
        &transport,
        "er_1",
        vec![
            (NEVER, String::new()),
            (200, page("er_1", &[reward("x3", "t3", 1.0)], None)),
        ],
    );
    script_tasks(&transport);
    let client = client(&transport);
    let store = LoadStore::new();
    let runs = ids(&["er_1"]);
    {
        let load = std::pin::pin!(load_runs(&client, &store, &runs, &|| {}));
        let outcome = select(load, TimeoutFuture::new(100)).await;
        assert!(
            matches!(outcome, Either::Right(_)),
            "the second page never answers"
        );
    }
    store.mark_cancelled();
    let rewards = store.get("er_1").expect("the run").rewards.borrow().clone();
    assert_eq!(rewards.phase, Phase::Cancelled);
    assert_eq!(rewards.items.len(), 2);
    assert_eq!(rewards.resume_cursor.as_deref(), Some("c2"));
    let missing = store
        .run_set(&runs)
        .expect("ready")
        .expect("a run set")
        .runs()[0]
        .info()
        .incomplete_load
        .clone()
        .unwrap_or_default();
    assert!(missing.contains("then loading was cancelled"), "{missing}");

    let before = transport.asked.borrow().len();
    load_runs(&client, &store, &runs, &|| {}).await;
    assert_eq!(transport.asked_since(before).len(), 1);
    assert_eq!(
        store
            .get("er_1")
            .expect("the run")
            .rewards
            .borrow()
            .items
            .len(),
        3
    );
}

#[wasm_bindgen_test]
async fn a_running_run_is_read_again_only_when_its_progress_moved() {
    let transport = Scripted::default();
    let progress = |done: u32| {
        format!(
            r#"{{"eval_run_id":"er_1","status":"running","terminal_rollouts":{done},"total_rollouts":3}}"#
        )
    };
    transport.route(
        "/eval/er_1/progress",
        vec![(200, progress(2)), (200, progress(2)), (200, progress(3))],
    );
    transport.route(
        "/eval/er_1/trajectory-rewards",
        vec![
            (200, page("er_1", &[reward("x1", "t1", 1.0)], None)),
            (
                200,
                page(
                    "er_1",
                    &[reward("x1", "t1", 1.0), reward("x2", "t2", 0.5)],
                    None,
                ),
            ),
        ],
    );
    transport.route(
        "eval_run_id=er_1",
        vec![(
            200,
            page(
                "er_1",
                &[trajectory("x1", "t1"), trajectory("x2", "t2")],
                None,
            ),
        )],
    );
    transport.route("/eval/er_1", vec![(200, run("er_1", "running"))]);
    script_tasks(&transport);
    let client = client(&transport);
    let store = LoadStore::new();
    let runs = ids(&["er_1"]);
    load_runs(&client, &store, &runs, &|| {}).await;
    assert_eq!(store.progress(&runs)[0].rollouts, Some((2, 3)));

    let before = transport.asked.borrow().len();
    assert!(!refresh_running(&client, &store, &runs).await, "no change");
    assert_eq!(transport.asked_since(before).len(), 1, "only the progress");

    assert!(
        refresh_running(&client, &store, &runs).await,
        "moved: read again"
    );
    let run = store.get("er_1").expect("the run");
    assert_eq!(run.rewards.borrow().items.len(), 2);
    assert_eq!(store.progress(&runs)[0].rollouts, Some((3, 3)));
}

#[wasm_bindgen_test]
async fn the_run_set_is_the_one_the_cli_builds_from_the_same_answers() {
    let transport = Scripted::default();
    for id in ["er_1", "er_2"] {
        script_run(
            &transport,
            id,
            vec![(200, page(id, &[reward("x3", "t3", 0.25)], None))],
        );
    }
    script_tasks(&transport);
    let client = client(&transport);
    let store = LoadStore::new();
    let runs = ids(&["er_1", "er_2"]);
    load_runs(&client, &store, &runs, &|| {}).await;
    let loaded = store.run_set(&runs).expect("ready").expect("a run set");

    let folders: Vec<RunFolder> = runs
        .iter()
        .map(|id| {
            let run = store.get(id).expect("the run");
            let record = run.record.borrow().0.clone().expect("the record");
            let rewards = run.rewards.borrow().items.clone();
            let trajectories = run.trajectories.borrow().items.clone();
            let tasks = store.tasks("b_1").borrow().items.clone();
            RunFolder {
                run: record,
                rewards,
                trajectories,
                tasks: Some(tasks),
                truncated_files: Vec::new(),
            }
        })
        .collect();
    let cli = run_set_from_folders(&folders, API_SOURCE).expect("the CLI's run set");
    let settings = ReportSettings {
        resamples: 200,
        ..ReportSettings::default()
    };
    let ours = build_report(&loaded, RunIdx(0), &[RunIdx(1)], &settings).expect("a report");
    let theirs = build_report(&cli, RunIdx(0), &[RunIdx(1)], &settings).expect("a report");
    assert_eq!(ours, theirs);
    assert_eq!(ours.sources, ["api"]);
}
