//! A scripted transport for client tests: answers from a queue, records requests and waits.

// Each test file uses only part of this support module.
#![allow(dead_code, clippy::unwrap_used)]

use std::cell::RefCell;
use std::collections::VecDeque;

use eval_compare_core::client::{
    ApiKey, ClientConfig, HttpRequest, HttpResponse, RetryPolicy, TrajectoryClient, Transport,
    TransportError,
};

/// The key used by tests; no error or debug text may contain it.
pub const SECRET: &str = "tk_live_SuperSecret123";
/// The fake clock: Sun, 06 Nov 1994 08:49:37 GMT.
pub const NOW_MS: u64 = 784_111_777_000;

/// Answers each request with the next scripted outcome.
#[derive(Debug, Default)]
pub struct FakeTransport {
    outcomes: RefCell<VecDeque<Result<HttpResponse, TransportError>>>,
    requests: RefCell<Vec<HttpRequest>>,
    sleeps: RefCell<Vec<u64>>,
}

impl FakeTransport {
    /// A transport that answers with these outcomes, in order.
    pub fn new(outcomes: Vec<Result<HttpResponse, TransportError>>) -> Self {
        Self {
            outcomes: RefCell::new(outcomes.into()),
            ..Self::default()
        }
    }

    /// Requests sent so far.
    pub fn requests(&self) -> Vec<HttpRequest> {
        self.requests.borrow().clone()
    }

    /// URLs requested so far.
    pub fn urls(&self) -> Vec<String> {
        self.requests
            .borrow()
            .iter()
            .map(|r| r.url.clone())
            .collect()
    }

    /// Waits asked for so far, in milliseconds.
    pub fn sleeps(&self) -> Vec<u64> {
        self.sleeps.borrow().clone()
    }

    /// Outcomes not used.
    pub fn remaining(&self) -> usize {
        self.outcomes.borrow().len()
    }
}

impl Transport for FakeTransport {
    async fn send(&self, request: HttpRequest) -> Result<HttpResponse, TransportError> {
        self.requests.borrow_mut().push(request);
        self.outcomes
            .borrow_mut()
            .pop_front()
            .unwrap_or_else(|| Err(TransportError::Other("no scripted response left".into())))
    }

    async fn sleep(&self, ms: u64) {
        self.sleeps.borrow_mut().push(ms);
    }

    fn now_unix_ms(&self) -> u64 {
        NOW_MS
    }
}

/// A response with a JSON (or any) body.
pub fn response(status: u16, body: &str) -> HttpResponse {
    HttpResponse {
        status,
        headers: vec![("content-type".into(), "application/json".into())],
        body: body.as_bytes().to_vec(),
    }
}

/// The same response with one more header.
pub fn with_header(mut response: HttpResponse, name: &str, value: &str) -> HttpResponse {
    response.headers.push((name.into(), value.into()));
    response
}

/// A contract error body.
pub fn error_body(error_type: &str, code: &str, message: &str, param: Option<&str>) -> String {
    serde_json::json!({"error": {"type": error_type, "code": code, "message": message,
        "param": param, "doc_url": format!("https://docs.trajectory.ai/errors/{code}"), "context": {}}})
    .to_string()
}

/// A client on `https://api.example.test` with the test key and the default retry policy.
pub fn client_with(
    outcomes: Vec<Result<HttpResponse, TransportError>>,
) -> TrajectoryClient<FakeTransport> {
    let config = ClientConfig::new("https://api.example.test/")
        .unwrap()
        .with_api_key(ApiKey::new(SECRET).unwrap());
    TrajectoryClient::new(config, FakeTransport::new(outcomes))
}

/// A client without a key.
pub fn anonymous_client(
    outcomes: Vec<Result<HttpResponse, TransportError>>,
) -> TrajectoryClient<FakeTransport> {
    let config = ClientConfig::new("https://api.example.test").unwrap();
    TrajectoryClient::new(config, FakeTransport::new(outcomes))
}

/// A client with a custom retry policy.
pub fn client_with_retry(
    retry: RetryPolicy,
    outcomes: Vec<Result<HttpResponse, TransportError>>,
) -> TrajectoryClient<FakeTransport> {
    let config = ClientConfig::new("https://api.example.test")
        .unwrap()
        .with_api_key(ApiKey::new(SECRET).unwrap())
        .with_retry(retry);
    TrajectoryClient::new(config, FakeTransport::new(outcomes))
}

/// A minimal valid `EvalRun` body.
pub fn eval_run_body(run_id: &str) -> String {
    serde_json::json!({"eval_run_id": run_id, "bench_id": "b1", "agent_id": null, "display_name": null,
        "options": {}, "status": "completed", "created_at": "t", "updated_at": "t"})
    .to_string()
}

/// A trajectory-rewards page with these trajectory ids.
pub fn rewards_page(ids: &[&str], next_cursor: Option<&str>) -> String {
    let items: Vec<_> = ids
        .iter()
        .map(|id| serde_json::json!({"trajectory_id": id, "reward": 1.0, "task_id": format!("task-{id}")}))
        .collect();
    serde_json::json!({"items": items, "next_cursor": next_cursor, "has_more": next_cursor.is_some(),
        "eval_run_id": "er_1"})
    .to_string()
}
