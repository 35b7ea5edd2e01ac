//! Puts an `x-request-id` header on every response that has none (a proxied response keeps
//! the upstream's id).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use axum::extract::{Request, State};
use axum::http::HeaderValue;
use axum::middleware::Next;
use axum::response::Response;

use crate::dataset::rng::mix64;

/// The response header carrying the request id.
pub const REQUEST_ID: &str = "x-request-id";

/// Issues request ids: unique within a process, and across restarts.
#[derive(Debug)]
pub struct RequestIds {
    salt: u64,
    next: AtomicU64,
}

impl RequestIds {
    /// A new issuer, salted with the start time so ids differ between server runs.
    pub fn new() -> Arc<Self> {
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        Arc::new(Self {
            salt: mix64(nanos),
            next: AtomicU64::new(1),
        })
    }

    /// The next id, e.g. `req_3f9a…`.
    pub fn issue(&self) -> String {
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        format!("req_{:016x}", mix64(self.salt ^ n))
    }
}

/// Middleware adding `x-request-id` to responses without one.
pub async fn add_request_id(
    State(ids): State<Arc<RequestIds>>,
    request: Request,
    next: Next,
) -> Response {
    let mut response = next.run(request).await;
    if !response.headers().contains_key(REQUEST_ID) {
        if let Ok(value) = HeaderValue::from_str(&ids.issue()) {
            response.headers_mut().insert(REQUEST_ID, value);
        }
    }
    response
}
