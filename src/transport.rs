//! The browser transport of the core Trajectory client: the Fetch API through gloo-net.

use std::pin::pin;

use eval_compare_core::client::{HttpRequest, HttpResponse, Transport, TransportError};
use futures::future::{select, Either};
use gloo_net::http::Request;
use gloo_timers::future::TimeoutFuture;
use web_sys::AbortController;

/// How long one request, body included, may take by default.
pub const DEFAULT_TIMEOUT_MS: u32 = 30_000;

/// Sends the client's requests with `fetch`.
///
/// A request is aborted when it times out and when its future is dropped (the page that wanted
/// it went away, or a newer load replaced it). Errors never contain headers, so never the key.
#[derive(Debug, Clone, Copy)]
pub struct FetchTransport {
    timeout_ms: u32,
}

impl Default for FetchTransport {
    fn default() -> Self {
        Self {
            timeout_ms: DEFAULT_TIMEOUT_MS,
        }
    }
}

impl FetchTransport {
    /// A transport whose requests time out after `timeout_ms` milliseconds.
    pub fn with_timeout_ms(timeout_ms: u32) -> Self {
        Self { timeout_ms }
    }
}

/// Aborts its fetch when dropped; aborting a finished fetch has no effect.
struct AbortOnDrop(AbortController);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

impl Transport for FetchTransport {
    async fn send(&self, request: HttpRequest) -> Result<HttpResponse, TransportError> {
        let controller = AbortController::new()
            .map_err(|_| TransportError::Other("the browser cannot cancel requests".to_owned()))?;
        let abort = AbortOnDrop(controller);
        let signal = abort.0.signal();
        let builder = request
            .headers
            .iter()
            .fold(Request::get(&request.url), |builder, (name, value)| {
                builder.header(name, value)
            })
            .abort_signal(Some(&signal));
        let exchange = pin!(async move {
            let response = builder.send().await.map_err(fetch_error)?;
            let body = response.binary().await.map_err(fetch_error)?;
            Ok(HttpResponse {
                status: response.status(),
                headers: response.headers().entries().collect(),
                body,
            })
        });
        // On timeout the exchange is dropped here and `abort` cancels the fetch on return.
        match select(exchange, TimeoutFuture::new(self.timeout_ms)).await {
            Either::Left((result, _)) => result,
            Either::Right(((), _)) => Err(TransportError::Timeout),
        }
    }

    async fn sleep(&self, ms: u64) {
        TimeoutFuture::new(u32::try_from(ms).unwrap_or(u32::MAX)).await;
    }

    fn now_unix_ms(&self) -> u64 {
        // `Date.now()` is a non-negative integral number of milliseconds.
        js_sys::Date::now().max(0.0) as u64
    }
}

/// Maps a gloo-net failure: an abort is a cancellation, a `TypeError` from `fetch` is a network
/// failure (refused, reset, DNS, CORS, offline), anything else is kept as text.
fn fetch_error(error: gloo_net::Error) -> TransportError {
    match error {
        gloo_net::Error::JsError(error) if error.name == "AbortError" => TransportError::Aborted,
        gloo_net::Error::JsError(error) if error.name == "TypeError" => {
            TransportError::Connect(error.message)
        }
        other => TransportError::Other(other.to_string()),
    }
}
