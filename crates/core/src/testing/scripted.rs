//! A scripted [`Transport`]: answers requests from a script instead of a network, records what
//! was asked, and never sleeps for real. One fake for the tests of the client, the load engine,
//! the CLI and the viewer.
//!
//! Two ways to script it, usable together:
//! - [`ScriptedTransport::new`]: a queue of outcomes answered in order, whatever the URL; when it
//!   is used up, requests fail ([`ScriptedTransport::remaining`] tells what was left unused).
//! - [`ScriptedTransport::route`]: answers by URL substring (the first matching route, in the
//!   order added), each route with its own queue whose last answer repeats. Status [`NEVER`]
//!   stands for a request that never answers (to test Cancel).
//!
//! Every answer comes after one yield to the executor, as over a network, so concurrent requests
//! all go out before the first answer.
//!
//! Routes are consulted before the queue. Clones share the script and the records.
//!
//! Streamed bodies ([`Transport::send_streaming`]) are handed over in chunks of
//! [`STREAM_CHUNK_BYTES`], a yield apart; [`ScriptedTransport::break_stream`] makes a route's
//! stream fail after its body, as a connection that drops. The clock stands still unless
//! [`ScriptedTransport::advance_clock_on_sleep`] makes every sleep take turns and move it.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;

use crate::client::{
    ApiKey, ClientConfig, HttpRequest, HttpResponse, RetryPolicy, TrajectoryClient, Transport,
    TransportError,
};

/// The key used by tests; no error or debug text may contain it.
pub const SECRET: &str = "tk_live_SuperSecret123";
/// The fake clock: Sun, 06 Nov 1994 08:49:37 GMT.
pub const NOW_MS: u64 = 784_111_777_000;
/// A scripted status standing for "never answers".
pub const NEVER: u16 = 0;
/// Size of the chunks a streamed body is handed over in.
pub const STREAM_CHUNK_BYTES: usize = 7;

/// A URL substring and the answers still to give.
type Route = (String, VecDeque<(u16, String)>);

#[derive(Debug, Default)]
struct Script {
    queue: VecDeque<Result<HttpResponse, TransportError>>,
    routes: Vec<Route>,
    requests: Vec<HttpRequest>,
    sleeps: Vec<u64>,
    broken_streams: Vec<String>,
    clock_moves: bool,
    slept_ms: u64,
}

/// Answers each request from its script (see the module doc).
#[derive(Debug, Clone, Default)]
pub struct ScriptedTransport {
    script: Rc<RefCell<Script>>,
}

impl ScriptedTransport {
    /// A transport that answers with these outcomes, in order.
    pub fn new(outcomes: Vec<Result<HttpResponse, TransportError>>) -> Self {
        let transport = Self::default();
        transport.script.borrow_mut().queue = outcomes.into();
        transport
    }

    /// Adds a route: requests whose URL contains `pattern` get these `(status, body)` answers in
    /// order, the last one repeating; status [`NEVER`] never answers.
    pub fn route(&self, pattern: &str, answers: Vec<(u16, String)>) -> &Self {
        self.script
            .borrow_mut()
            .routes
            .push((pattern.to_owned(), answers.into()));
        self
    }

    /// Streams of requests whose URL contains `pattern` break after their body (the connection
    /// drops instead of closing).
    pub fn break_stream(&self, pattern: &str) -> &Self {
        self.script
            .borrow_mut()
            .broken_streams
            .push(pattern.to_owned());
        self
    }

    /// Makes every sleep take time (a yield per 100 ms, so what races it gets turns) and move the
    /// clock forward by its length.
    pub fn advance_clock_on_sleep(&self) -> &Self {
        self.script.borrow_mut().clock_moves = true;
        self
    }

    /// Requests sent so far.
    pub fn requests(&self) -> Vec<HttpRequest> {
        self.script.borrow().requests.clone()
    }

    /// URLs requested so far.
    pub fn urls(&self) -> Vec<String> {
        self.script
            .borrow()
            .requests
            .iter()
            .map(|request| request.url.clone())
            .collect()
    }

    /// URLs requested since the first `from` requests.
    pub fn urls_since(&self, from: usize) -> Vec<String> {
        self.urls().split_off(from.min(self.request_count()))
    }

    /// How many requests were sent.
    pub fn request_count(&self) -> usize {
        self.script.borrow().requests.len()
    }

    /// How many requests' URLs contain `pattern`.
    pub fn count(&self, pattern: &str) -> usize {
        self.script
            .borrow()
            .requests
            .iter()
            .filter(|request| request.url.contains(pattern))
            .count()
    }

    /// Waits asked for so far, in milliseconds.
    pub fn sleeps(&self) -> Vec<u64> {
        self.script.borrow().sleeps.clone()
    }

    /// Queued outcomes not used.
    pub fn remaining(&self) -> usize {
        self.script.borrow().queue.len()
    }

    fn answer(&self, url: &str) -> Option<Result<HttpResponse, TransportError>> {
        let mut script = self.script.borrow_mut();
        let routed = script
            .routes
            .iter_mut()
            .find(|(pattern, _)| url.contains(pattern.as_str()))
            .map(|(_, answers)| {
                if answers.len() > 1 {
                    answers.pop_front()
                } else {
                    answers.front().cloned()
                }
            });
        match routed {
            Some(Some((status, body))) => Some(Ok(response(status, &body))),
            Some(None) => None,
            None => script.queue.pop_front(),
        }
    }
}

impl Transport for ScriptedTransport {
    async fn send(&self, request: HttpRequest) -> Result<HttpResponse, TransportError> {
        let url = request.url.clone();
        self.script.borrow_mut().requests.push(request);
        // Like a network, answer later: concurrent requests all go out before any answer.
        yield_now().await;
        let outcome = self.answer(&url).unwrap_or_else(|| {
            Err(TransportError::Connect(format!(
                "no scripted response for {url}"
            )))
        });
        if matches!(&outcome, Ok(response) if response.status == NEVER) {
            std::future::pending::<()>().await;
        }
        outcome
    }

    async fn send_streaming(
        &self,
        request: HttpRequest,
        on_chunk: &mut dyn FnMut(&[u8]) -> bool,
    ) -> Result<HttpResponse, TransportError> {
        let url = request.url.clone();
        let mut response = self.send(request).await?;
        if !(200..300).contains(&response.status) {
            return Ok(response);
        }
        for chunk in response.body.chunks(STREAM_CHUNK_BYTES) {
            if !on_chunk(chunk) {
                response.body = Vec::new();
                return Ok(response);
            }
            yield_now().await;
        }
        let broken = self
            .script
            .borrow()
            .broken_streams
            .iter()
            .any(|pattern| url.contains(pattern.as_str()));
        if broken {
            return Err(TransportError::Other("connection reset by peer".to_owned()));
        }
        response.body = Vec::new();
        Ok(response)
    }

    async fn sleep(&self, ms: u64) {
        let clock_moves = {
            let mut script = self.script.borrow_mut();
            script.sleeps.push(ms);
            script.clock_moves
        };
        if clock_moves {
            // A sleep takes time: a yield per 100 ms, so what races it gets that many turns.
            for _ in 0..=ms / 100 {
                yield_now().await;
            }
            let mut script = self.script.borrow_mut();
            script.slept_ms = script.slept_ms.saturating_add(ms);
        }
    }

    fn now_unix_ms(&self) -> u64 {
        NOW_MS + self.script.borrow().slept_ms
    }
}

/// Returns `Pending` once (waking itself at once), so other futures on the executor run first.
pub async fn yield_now() {
    let mut yielded = false;
    std::future::poll_fn(move |cx| {
        if yielded {
            std::task::Poll::Ready(())
        } else {
            yielded = true;
            cx.waker().wake_by_ref();
            std::task::Poll::Pending
        }
    })
    .await;
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

/// A client on `https://api.example.test` with the test key [`SECRET`] and the default retry
/// policy, over a transport answering these outcomes in order.
pub fn client_with(
    outcomes: Vec<Result<HttpResponse, TransportError>>,
) -> TrajectoryClient<ScriptedTransport> {
    let config = ClientConfig::new("https://api.example.test/")
        .unwrap()
        .with_api_key(ApiKey::new(SECRET).unwrap());
    TrajectoryClient::new(config, ScriptedTransport::new(outcomes))
}

/// A client without a key.
pub fn anonymous_client(
    outcomes: Vec<Result<HttpResponse, TransportError>>,
) -> TrajectoryClient<ScriptedTransport> {
    let config = ClientConfig::new("https://api.example.test").unwrap();
    TrajectoryClient::new(config, ScriptedTransport::new(outcomes))
}

/// A client with a custom retry policy.
pub fn client_with_retry(
    retry: RetryPolicy,
    outcomes: Vec<Result<HttpResponse, TransportError>>,
) -> TrajectoryClient<ScriptedTransport> {
    let config = ClientConfig::new("https://api.example.test")
        .unwrap()
        .with_api_key(ApiKey::new(SECRET).unwrap())
        .with_retry(retry);
    TrajectoryClient::new(config, ScriptedTransport::new(outcomes))
}

/// A client on `http://api.test` over `transport` (shared with the caller), with no retries:
/// a scripted failure is final.
pub fn client_over(transport: &ScriptedTransport) -> TrajectoryClient<ScriptedTransport> {
    let config = ClientConfig::new("http://api.test")
        .unwrap()
        .with_retry(RetryPolicy {
            max_retries: 0,
            ..RetryPolicy::default()
        });
    TrajectoryClient::new(config, transport.clone())
}
