//! The browser transport of the core Trajectory client: the Fetch API through gloo-net, and a
//! streamed body (server-sent events) read chunk by chunk from fetch's `ReadableStream`.

use std::pin::pin;

use eval_compare_core::client::{
    hand_over_body, HttpRequest, HttpResponse, OpenBody, Transport, TransportError,
};
use futures::future::{select, Either};
use gloo_net::http::Request;
use gloo_timers::future::TimeoutFuture;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{AbortController, ReadableStreamDefaultReader, RequestCache};

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

/// Aborts its fetch when dropped, unless told the fetch ended ([`AbortOnDrop::ended`]).
struct AbortOnDrop {
    controller: AbortController,
    armed: bool,
}

impl AbortOnDrop {
    /// The fetch ended (answered, body read, or failed): nothing to abort. Aborting it anyway
    /// would change nothing but still cost the page an abort event per request (3% of its main
    /// thread while reading 16,000 pages).
    fn ended(mut self) {
        self.armed = false;
    }
}

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        if self.armed {
            self.controller.abort();
        }
    }
}

/// A GET request of `request` that `abort` cancels.
///
/// API responses bypass the browser's HTTP cache (`cache: "no-store"`): they are read with the
/// key and change while runs run, so none is kept on disk nor answered from there, and a large
/// comparison's 16,000 pages cost the browser no cache lookups and writes.
fn build_request(
    request: &HttpRequest,
) -> Result<(gloo_net::http::RequestBuilder, AbortOnDrop), TransportError> {
    let controller = AbortController::new()
        .map_err(|_| TransportError::Other("the browser cannot cancel requests".to_owned()))?;
    let abort = AbortOnDrop {
        controller,
        armed: true,
    };
    let signal = abort.controller.signal();
    let builder = request
        .headers
        .iter()
        .fold(Request::get(&request.url), |builder, (name, value)| {
            builder.header(name, value)
        })
        .abort_signal(Some(&signal))
        .cache(RequestCache::NoStore);
    Ok((builder, abort))
}

impl Transport for FetchTransport {
    async fn send(&self, request: HttpRequest) -> Result<HttpResponse, TransportError> {
        let (builder, abort) = build_request(&request)?;
        let exchange = pin!(async move {
            let response = builder.send().await.map_err(fetch_error)?;
            let body = response.binary().await.map_err(fetch_error)?;
            Ok(HttpResponse {
                status: response.status(),
                headers: response.headers().entries().collect(),
                body,
            })
        });
        // On timeout the exchange is dropped here and `abort` cancels the fetch on return (so
        // does dropping this future before the fetch ended).
        match select(exchange, TimeoutFuture::new(self.timeout_ms)).await {
            Either::Left((result, _)) => {
                abort.ended();
                result
            }
            Either::Right(((), _)) => Err(TransportError::Timeout),
        }
    }

    /// Hands a successful body to `on_chunk` as the browser receives it (fetch's
    /// `ReadableStream`). Only the response's head is bounded by the timeout: a stream may stay
    /// open as long as its job runs. Dropping the future, or `on_chunk` returning `false`,
    /// aborts the fetch.
    async fn send_streaming(
        &self,
        request: HttpRequest,
        on_chunk: &mut dyn FnMut(&[u8]) -> bool,
    ) -> Result<HttpResponse, TransportError> {
        let (builder, _abort) = build_request(&request)?;
        let head = pin!(builder.send());
        let response = match select(head, TimeoutFuture::new(self.timeout_ms)).await {
            Either::Left((result, _)) => result.map_err(fetch_error)?,
            Either::Right(((), _)) => return Err(TransportError::Timeout),
        };
        let status = response.status();
        let headers: Vec<(String, String)> = response.headers().entries().collect();
        let body = FetchBody {
            response,
            reader: None,
        };
        // Returning drops `_abort`, which ends the fetch if the body is still open.
        hand_over_body(status, headers, body, on_chunk).await
    }

    async fn sleep(&self, ms: u64) {
        match ms {
            // The page's turn between slices of work: no timer's clamped delay.
            0 => crate::yield_to_page::yield_to_page().await,
            ms => TimeoutFuture::new(u32::try_from(ms).unwrap_or(u32::MAX)).await,
        }
    }

    fn now_unix_ms(&self) -> u64 {
        // `Date.now()` is a non-negative integral number of milliseconds.
        js_sys::Date::now().max(0.0) as u64
    }
}

/// A fetched response's body still to be read: whole (an error status's), or from fetch's
/// `ReadableStream` a chunk at a time (a stream's).
struct FetchBody {
    response: gloo_net::http::Response,
    reader: Option<ReadableStreamDefaultReader>,
}

impl OpenBody for FetchBody {
    async fn read_whole(self) -> Result<Vec<u8>, TransportError> {
        self.response.binary().await.map_err(fetch_error)
    }

    async fn next_chunk(&mut self) -> Result<Option<Vec<u8>>, TransportError> {
        if self.reader.is_none() {
            let Some(stream) = self.response.body() else {
                return Ok(None);
            };
            self.reader = Some(stream.get_reader().unchecked_into());
        }
        let Some(reader) = &self.reader else {
            return Ok(None);
        };
        read_chunk(reader).await
    }
}

/// The next chunk of a body, `None` at its end.
async fn read_chunk(
    reader: &ReadableStreamDefaultReader,
) -> Result<Option<Vec<u8>>, TransportError> {
    let result = JsFuture::from(reader.read())
        .await
        .map_err(|error| js_error(&error))?;
    let done = js_sys::Reflect::get(&result, &"done".into())
        .ok()
        .and_then(|done| done.as_bool())
        .unwrap_or(true);
    if done {
        return Ok(None);
    }
    let value = js_sys::Reflect::get(&result, &"value".into()).map_err(|error| js_error(&error))?;
    // A fetch body's chunks are `Uint8Array`s: copied once, straight into wasm memory
    // (`new Uint8Array(chunk)` would first copy it in JS).
    let chunk = value.dyn_into::<js_sys::Uint8Array>().map_err(|_| {
        TransportError::Other("the stream sent a chunk that is not bytes".to_owned())
    })?;
    Ok(Some(chunk.to_vec()))
}

/// Maps a failure of a stream read as [`fetch_error`] does.
fn js_error(error: &wasm_bindgen::JsValue) -> TransportError {
    let name = js_sys::Reflect::get(error, &"name".into())
        .ok()
        .and_then(|name| name.as_string())
        .unwrap_or_default();
    let message = js_sys::Reflect::get(error, &"message".into())
        .ok()
        .and_then(|message| message.as_string())
        .unwrap_or_else(|| "the stream could not be read".to_owned());
    match name.as_str() {
        "AbortError" => TransportError::Aborted,
        "TypeError" => TransportError::Connect(message),
        _ => TransportError::Other(message),
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
