//! Errors of API calls, with messages that say what happened and what to do next.

use crate::api::{decode, ApiErrorEnvelope, DecodeError, DecodeErrorKind, ErrorType};

use super::key::ApiKey;
use super::transport::{HttpResponse, TransportError};

/// Response header carrying the request id.
pub const REQUEST_ID_HEADER: &str = "x-request-id";
/// Longest excerpt of a non-JSON error body kept in a message.
const EXCERPT_CHARS: usize = 160;

/// A failed API call. Messages never contain the API key.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ApiError {
    /// The API answered with an error status. Boxed: by far the largest variant, it would make
    /// every `Result` carrying an `ApiError` twice as large.
    #[error(transparent)]
    Http(Box<HttpError>),
    /// The request got no response.
    #[error("{}", describe_transport(.0))]
    Transport(TransportError),
    /// A successful response whose body could not be read.
    #[error("{}", describe_decode(*truncated, message, request_id.as_deref()))]
    Decode {
        /// JSON path of the failing field.
        path: String,
        /// What went wrong, with line and column.
        message: String,
        /// The `x-request-id` of the response.
        request_id: Option<String>,
        /// The body ended before its JSON did: cut off on the way (a connection or a proxy),
        /// not a shape this tool does not know.
        truncated: bool,
    },
    /// A response that breaks the pagination contract (e.g. more pages but no cursor).
    #[error("the API's answer broke the contract: {message}{}", request_id_suffix(request_id.as_deref()))]
    UnexpectedResponse {
        /// What is wrong.
        message: String,
        /// The `x-request-id` of the response.
        request_id: Option<String>,
    },
    /// A bad argument; nothing was sent.
    #[error("invalid argument: {0}")]
    InvalidArgument(String),
}

/// Which API answered: the statuses mean different things to each.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Service {
    /// The Trajectory API (`/api/v1/…`).
    #[default]
    Trajectory,
    /// The Chronicle evaluations API (`/v1/backtests/…`, `/v1/task-suites/…`).
    Chronicle,
}

impl Service {
    /// The API a request path belongs to.
    pub fn of_path(path_and_query: &str) -> Self {
        if path_and_query.starts_with("/v1/") {
            Service::Chronicle
        } else {
            Service::Trajectory
        }
    }
}

/// An error status from the API, with what its body said.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{}", describe_http(*service, (*status, *key_sent), code.as_deref(), message, param.as_deref(), request_id.as_deref()))]
pub struct HttpError {
    /// The API that answered.
    pub service: Service,
    /// HTTP status.
    pub status: u16,
    /// The contract's error code (e.g. `invalid_cursor`); `None` when the body was not the
    /// error envelope.
    pub code: Option<String>,
    /// The contract's error type; `None` when the body was not the error envelope.
    pub error_type: Option<ErrorType>,
    /// The API's message, or a description of the unexpected body with a short excerpt.
    pub message: String,
    /// The parameter at fault, when named.
    pub param: Option<String>,
    /// The `x-request-id` of the response, to quote when reporting the problem.
    pub request_id: Option<String>,
    /// The wait the response asked for before asking again (`retry-after-ms`, `Retry-After`),
    /// in milliseconds from when it arrived; what a watch's next try honours
    /// ([`super::WatchPace`]).
    pub retry_after_ms: Option<u64>,
    /// Whether the request carried an API key: a 401 or 403 without one is said as "no key was
    /// sent", not as a key refused.
    pub key_sent: bool,
}

impl From<HttpError> for ApiError {
    fn from(error: HttpError) -> Self {
        Self::Http(Box::new(error))
    }
}

impl ApiError {
    /// HTTP status of an HTTP error.
    pub fn status(&self) -> Option<u16> {
        match self {
            Self::Http(http) => Some(http.status),
            _ => None,
        }
    }

    /// The request id of the response, when there was one.
    pub fn request_id(&self) -> Option<&str> {
        match self {
            Self::Http(http) => http.request_id.as_deref(),
            Self::Decode { request_id, .. } | Self::UnexpectedResponse { request_id, .. } => {
                request_id.as_deref()
            }
            Self::Transport(_) | Self::InvalidArgument(_) => None,
        }
    }

    /// Whether the API refused a pagination cursor (the list must be read again from the start).
    pub fn is_invalid_cursor(&self) -> bool {
        matches!(self, Self::Http(http) if http.code.as_deref() == Some("invalid_cursor"))
    }

    /// Whether the API says what was asked for does not exist: 404, or Chronicle's 400 (its
    /// guide's answer for an unknown id). Asking again does not help.
    pub fn is_not_found(&self) -> bool {
        match self {
            Self::Http(http) => {
                http.status == 404 || (http.service == Service::Chronicle && http.status == 400)
            }
            _ => false,
        }
    }

    /// The wait the API asked for before asking again (`Retry-After`), when it answered an
    /// error status with one.
    pub fn retry_after_ms(&self) -> Option<u64> {
        match self {
            Self::Http(http) => http.retry_after_ms,
            _ => None,
        }
    }

    /// Whether the request was cancelled by the caller.
    pub fn is_aborted(&self) -> bool {
        matches!(self, Self::Transport(TransportError::Aborted))
    }
}

fn request_id_suffix(request_id: Option<&str>) -> String {
    request_id
        .map(|id| format!(" (request id {id})"))
        .unwrap_or_default()
}

fn describe_transport(error: &TransportError) -> String {
    match error {
        TransportError::Connect(detail) => format!(
            "could not reach the API ({detail}); check the network and the base URL, then retry"
        ),
        TransportError::Timeout => "the API did not answer in time; retry later".to_owned(),
        TransportError::Aborted => "the request was cancelled".to_owned(),
        TransportError::Limit(detail) => format!("the request was stopped: {detail}"),
        TransportError::Other(detail) => format!("the request failed ({detail}); retry"),
    }
}

fn describe_http(
    service: Service,
    (status, key_sent): (u16, bool),
    code: Option<&str>,
    message: &str,
    param: Option<&str>,
    request_id: Option<&str>,
) -> String {
    let chronicle = match (service, status) {
        (Service::Chronicle, 400) => Some(
            "Chronicle refused the request: an unknown job, task, agent reference or environment version; check the id",
        ),
        (Service::Chronicle, 403) => {
            Some("this organization has no sandbox access to Chronicle evaluations")
        }
        (Service::Chronicle, 409) => {
            Some("an idempotency key was reused with a different request")
        }
        (Service::Chronicle, 429) => {
            Some("over Chronicle's concurrency or trial limit; wait a moment and retry")
        }
        (Service::Chronicle, 503) => {
            Some("the evaluation runtime is not available on this deployment; retry later")
        }
        _ => None,
    };
    let what = chronicle.unwrap_or(match (status, code) {
        (_, Some("invalid_cursor")) => {
            "the list changed or its cursor expired; load it again from the start"
        }
        (401 | 403, _) if !key_sent => "no API key was sent, and this API needs one",
        (401, _) => "the API key was refused; check the key",
        (403, _) => "this API key may not read this; use a key of the right organization",
        (404, _) => "not found; check the id, or whether it belongs to this organization",
        (408, _) => "the API timed out; retry later",
        (409, _) => "the request conflicts with the current state; reload and retry",
        (422, _) | (400, _) => "the API rejected the request parameters",
        (429, _) => "too many requests; wait a moment and retry",
        (500..=599, _) => "the API failed; retry later",
        _ => "the API refused the request",
    });
    let mut text = format!("{what} (HTTP {status}");
    if let Some(code) = code {
        text.push_str(&format!(" {code}"));
    }
    text.push_str(&format!("): {message}"));
    if let Some(param) = param {
        text.push_str(&format!(" [parameter: {param}]"));
    }
    text.push_str(&request_id_suffix(request_id));
    text
}

/// Keys shorter than this many characters are redacted only where they stand alone (see
/// [`scrub`]).
pub(crate) const SHORT_KEY_CHARS: usize = 8;

/// Replaces the key in a text by `***`: every occurrence, or for a key shorter than
/// [`SHORT_KEY_CHARS`] (no credential, but a test's or a demo's) every occurrence that stands
/// alone, with no letter or digit on either side. A one-character key `k` would otherwise turn
/// "unknown" into "un***nown", and its letter inside a word tells nothing of the key.
pub(crate) fn scrub(text: &str, key: Option<&ApiKey>) -> String {
    let Some(key) = key.map(ApiKey::expose) else {
        return text.to_owned();
    };
    if key.len() >= SHORT_KEY_CHARS {
        return text.replace(key, "***");
    }
    let (mut out, mut kept, mut from) = (String::with_capacity(text.len()), 0, 0);
    while let Some(found) = text[from..].find(key) {
        let at = from + found;
        let end = at + key.len();
        let word = |c: Option<char>| c.is_some_and(char::is_alphanumeric);
        if word(text[..at].chars().next_back()) || word(text[end..].chars().next()) {
            // Inside a word: look again from the next character (occurrences may overlap).
            from = at + text[at..].chars().next().map_or(1, char::len_utf8);
        } else {
            out.push_str(&text[kept..at]);
            out.push_str("***");
            (kept, from) = (end, end);
        }
    }
    out.push_str(&text[kept..]);
    out
}

/// The request id of a response.
pub(crate) fn request_id_of(response: &HttpResponse) -> Option<String> {
    response
        .header(REQUEST_ID_HEADER)
        .map(|id| id.trim().to_owned())
        .filter(|id| !id.is_empty())
}

/// Maps an error response to [`ApiError::Http`], reading the contract's error envelope when the
/// body is one and describing the body otherwise.
pub(crate) fn http_error(
    response: &HttpResponse,
    service: Service,
    key: Option<&ApiKey>,
) -> ApiError {
    let request_id = request_id_of(response).map(|id| scrub(&id, key));
    match decode::<ApiErrorEnvelope>(&response.body) {
        Ok(envelope) => {
            let body = envelope.error;
            HttpError {
                service,
                status: response.status,
                code: Some(scrub(&body.code, key)),
                error_type: Some(body.error_type),
                message: scrub(&body.message, key),
                param: body.param.map(|param| scrub(&param, key)),
                request_id,
                retry_after_ms: None,
                key_sent: key.is_some(),
            }
        }
        Err(_) => HttpError {
            service,
            status: response.status,
            code: None,
            error_type: None,
            message: describe_unexpected_body(&response.body, key),
            param: None,
            request_id,
            retry_after_ms: None,
            key_sent: key.is_some(),
        },
    }
    .into()
}

/// Maps a body that failed to decode to [`ApiError::Decode`].
pub(crate) fn decode_error(
    error: DecodeError,
    response: &HttpResponse,
    key: Option<&ApiKey>,
) -> ApiError {
    ApiError::Decode {
        path: scrub(&error.path, key),
        message: scrub(&error.to_string(), key),
        request_id: request_id_of(response).map(|id| scrub(&id, key)),
        truncated: error.kind == DecodeErrorKind::Eof,
    }
}

/// What a body that could not be decoded says: a body cut off is said as such (asking again
/// usually helps); any other is a shape this tool does not read, perhaps a newer API's.
fn describe_decode(truncated: bool, message: &str, request_id: Option<&str>) -> String {
    let suffix = request_id_suffix(request_id);
    if truncated {
        format!(
            "the API's answer ended before its end ({message}): the connection or a proxy cut it off; asking again usually helps{suffix}"
        )
    } else {
        format!(
            "the API's answer could not be read ({message}); the API may be newer than this tool{suffix}"
        )
    }
}

/// `text` with every occurrence of the key replaced by `***`, then cut to at most `max_chars`
/// characters (`…` marks a cut). Redacting first means a key straddling the cut never shows in
/// part; the cut falls between characters, never inside one.
pub(crate) fn redacted_excerpt(text: &str, key: Option<&ApiKey>, max_chars: usize) -> String {
    cut_chars(&scrub(text, key), max_chars)
}

/// `text` cut to at most `max_chars` characters, with `…` when cut.
fn cut_chars(text: &str, max_chars: usize) -> String {
    match text.char_indices().nth(max_chars) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_owned(),
    }
}

fn describe_unexpected_body(body: &[u8], key: Option<&ApiKey>) -> String {
    let excerpt = excerpt(body, key);
    if excerpt.is_empty() {
        "no error details (empty body)".to_owned()
    } else {
        format!("no error details; the body begins: \"{excerpt}\"")
    }
}

/// The first words of a body as text, with the key redacted, markup tags removed and whitespace
/// collapsed, cut to [`EXCERPT_CHARS`] characters. The key is redacted before anything else:
/// tag removal could break a key that holds `<` and the cut could keep all but its end.
fn excerpt(body: &[u8], key: Option<&ApiKey>) -> String {
    let text = scrub(&String::from_utf8_lossy(body), key);
    let mut plain = String::new();
    let mut in_tag = false;
    for c in text.chars() {
        match c {
            '<' => {
                in_tag = true;
                plain.push(' ');
            }
            '>' if in_tag => in_tag = false,
            _ if in_tag => {}
            c if c.is_control() => plain.push(' '),
            c => plain.push(c),
        }
    }
    let collapsed = plain.split_whitespace().collect::<Vec<_>>().join(" ");
    redacted_excerpt(&collapsed, key, EXCERPT_CHARS)
}
