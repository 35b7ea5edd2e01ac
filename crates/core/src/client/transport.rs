//! The transport a client runs on: the viewer implements it with gloo-net, the CLI with reqwest.

use std::fmt;

/// A GET request to send.
#[derive(Clone, PartialEq, Eq)]
pub struct HttpRequest {
    /// Absolute URL, or a path from the page's origin when the base URL is empty.
    pub url: String,
    /// Header names and values; may hold the API key (`X-API-Key`).
    pub headers: Vec<(String, String)>,
}

impl HttpRequest {
    /// The value of a header, matched case-insensitively.
    pub fn header(&self, name: &str) -> Option<&str> {
        find_header(&self.headers, name)
    }
}

impl fmt::Debug for HttpRequest {
    /// Shows the request with the API key replaced by `***`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let headers: Vec<(&str, &str)> = self
            .headers
            .iter()
            .map(|(name, value)| {
                if name.eq_ignore_ascii_case(super::key::API_KEY_HEADER) {
                    (name.as_str(), "***")
                } else {
                    (name.as_str(), value.as_str())
                }
            })
            .collect();
        f.debug_struct("HttpRequest")
            .field("url", &self.url)
            .field("headers", &headers)
            .finish()
    }
}

/// A response as received, whatever its status.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct HttpResponse {
    /// HTTP status code.
    pub status: u16,
    /// Header names and values.
    pub headers: Vec<(String, String)>,
    /// The body bytes.
    pub body: Vec<u8>,
}

impl HttpResponse {
    /// The value of a header, matched case-insensitively.
    pub fn header(&self, name: &str) -> Option<&str> {
        find_header(&self.headers, name)
    }
}

fn find_header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|(candidate, _)| candidate.eq_ignore_ascii_case(name))
        .map(|(_, value)| value.as_str())
}

/// Why a request got no response.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TransportError {
    /// The connection could not be made or broke (DNS, refused, reset, CORS, offline).
    #[error("could not connect: {0}")]
    Connect(String),
    /// No answer in time.
    #[error("the request timed out")]
    Timeout,
    /// The request was cancelled by the caller.
    #[error("the request was cancelled")]
    Aborted,
    /// A limit of the transport stopped the request (an overall deadline, a size cap); the
    /// detail is a sentence naming the limit. Not retried.
    #[error("{0}")]
    Limit(String),
    /// Any other failure of the transport.
    #[error("{0}")]
    Other(String),
}

/// Sends requests, waits, and tells the time; everything a client needs from its platform.
///
/// Futures need not be `Send` (wasm32 is single-threaded). Cancel by dropping the future.
#[allow(async_fn_in_trait)]
pub trait Transport {
    /// Sends a GET request and returns the response, whatever its status.
    async fn send(&self, request: HttpRequest) -> Result<HttpResponse, TransportError>;
    /// Sends a GET request whose body is a stream (server-sent events): a successful (2xx)
    /// body is handed to `on_chunk` piece by piece as it arrives, and reading stops early when
    /// `on_chunk` returns `false`; the response returned then has an empty body. An error
    /// status's body is returned whole, as [`Transport::send`] does. A failure after some
    /// chunks is an error; the chunks already handed over stay read.
    ///
    /// By default the body is read whole and handed over at once (a transport that cannot
    /// stream), so events arrive only when the server closes the stream.
    async fn send_streaming(
        &self,
        request: HttpRequest,
        on_chunk: &mut dyn FnMut(&[u8]) -> bool,
    ) -> Result<HttpResponse, TransportError> {
        let response = self.send(request).await?;
        let body = WholeBody(Some(response.body));
        hand_over_body(response.status, response.headers, body, on_chunk).await
    }
    /// Waits this many milliseconds (between retries).
    async fn sleep(&self, ms: u64);
    /// The current time in milliseconds since the Unix epoch (to read `Retry-After` dates).
    fn now_unix_ms(&self) -> u64;
}

/// The body of a response whose head has arrived, still to be read: what a transport's
/// [`Transport::send_streaming`] hands to [`hand_over_body`].
#[allow(async_fn_in_trait)]
pub trait OpenBody {
    /// Reads the body whole (an error status's, returned as [`Transport::send`] does).
    async fn read_whole(self) -> Result<Vec<u8>, TransportError>;
    /// The next piece of the body; `None` at its end.
    async fn next_chunk(&mut self) -> Result<Option<Vec<u8>>, TransportError>;
}

/// The one way a streamed response is handed over ([`Transport::send_streaming`]'s contract,
/// for every transport): an error status's body is read whole and returned; a successful
/// (2xx) body goes to `on_chunk` piece by piece until it ends or `on_chunk` returns `false`,
/// and the response returned then has an empty body.
pub async fn hand_over_body<B: OpenBody>(
    status: u16,
    headers: Vec<(String, String)>,
    mut body: B,
    on_chunk: &mut dyn FnMut(&[u8]) -> bool,
) -> Result<HttpResponse, TransportError> {
    if !(200..300).contains(&status) {
        let body = body.read_whole().await?;
        return Ok(HttpResponse {
            status,
            headers,
            body,
        });
    }
    while let Some(chunk) = body.next_chunk().await? {
        if !on_chunk(&chunk) {
            break;
        }
    }
    Ok(HttpResponse {
        status,
        headers,
        body: Vec::new(),
    })
}

/// A body already read whole: one piece.
struct WholeBody(Option<Vec<u8>>);

impl OpenBody for WholeBody {
    async fn read_whole(mut self) -> Result<Vec<u8>, TransportError> {
        Ok(self.0.take().unwrap_or_default())
    }

    async fn next_chunk(&mut self) -> Result<Option<Vec<u8>>, TransportError> {
        Ok(self.0.take())
    }
}
