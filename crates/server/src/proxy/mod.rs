//! The read-only proxy to a real API: `GET` and `HEAD` requests under `/api/` (Trajectory) and
//! `/v1/` (Chronicle) are forwarded below the `--upstream` base URL with only the headers the
//! API reads (the caller's `X-API-Key`, `Trajectory-API-Version`, `Accept`, and
//! `Last-Event-ID` for the event stream; never logged). Statuses and the headers that matter
//! come back; bodies come back streamed, only as JSON (or `text/event-stream` for Chronicle's
//! progress stream), within a size and a time limit ([`ProxyLimits`]), with
//! `Content-Security-Policy: default-src 'none'; frame-ancestors 'none'; sandbox`.
//!
//! Refused: other methods (405, `Allow: GET, HEAD`), paths with dot segments or encoded
//! separators (400, [`target`]), other content types and answers over the size limit (502
//! `upstream_response_refused`). An unreachable upstream answers 502 (a timeout 504), all in
//! the contract's error envelope.

mod answer;
mod target;

use std::error::Error as _;
use std::time::Duration;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use reqwest::Url;

use crate::error::{ApiError, StartupError};
use crate::security_headers::PROXIED;

pub use answer::{is_event_stream_path, RESPONSE_HEADERS};
pub use target::upstream_url;

/// Request headers passed to the upstream; no others (cookies, origin, bodies' types…) go.
const REQUEST_HEADERS: [&str; 4] = [
    "accept",
    "x-api-key",
    "trajectory-api-version",
    "last-event-id",
];

/// How long connecting to the upstream may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// How long the upstream may stay silent while answering.
const READ_TIMEOUT: Duration = Duration::from_secs(120);
/// How long Chronicle's progress stream may stay open (its own deadline, as it lasts while
/// the run does; [`ProxyLimits::timeout`] is for ordinary answers).
pub const STREAM_TIMEOUT: Duration = Duration::from_secs(3_600);

/// The limits of one proxied answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProxyLimits {
    /// The whole exchange with the upstream, from connecting to the body's last byte.
    pub timeout: Duration,
    /// The largest body passed on.
    pub max_body_bytes: u64,
}

impl ProxyLimits {
    /// Default of [`ProxyLimits::timeout`]: 60 s.
    pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);
    /// Default of [`ProxyLimits::max_body_bytes`]: 32 MiB (a page of 200 trajectories with
    /// their metadata is well under 1 MiB).
    pub const DEFAULT_MAX_BODY_BYTES: u64 = 32 * 1024 * 1024;
}

impl Default for ProxyLimits {
    fn default() -> Self {
        Self {
            timeout: Self::DEFAULT_TIMEOUT,
            max_body_bytes: Self::DEFAULT_MAX_BODY_BYTES,
        }
    }
}

/// The upstream API and the client talking to it.
#[derive(Debug, Clone)]
pub struct Upstream {
    base: Url,
    client: reqwest::Client,
    limits: ProxyLimits,
}

impl Upstream {
    /// Checks `url` (an absolute http or https URL, optionally with a path prefix) and builds
    /// the client.
    pub fn new(url: &str, limits: ProxyLimits) -> Result<Self, StartupError> {
        let invalid = |reason: &str| StartupError::Upstream {
            url: url.to_owned(),
            reason: reason.to_owned(),
        };
        let mut parsed = Url::parse(url).map_err(|e| invalid(&e.to_string()))?;
        if !matches!(parsed.scheme(), "http" | "https") {
            return Err(invalid("the scheme must be http or https"));
        }
        if parsed.host_str().is_none() {
            return Err(invalid("the URL has no host"));
        }
        if parsed.query().is_some() || parsed.fragment().is_some() {
            return Err(invalid("the URL must not have a query or fragment"));
        }
        if !parsed.username().is_empty() || parsed.password().is_some() {
            return Err(invalid("the URL must not carry credentials"));
        }
        let trimmed = parsed.path().trim_end_matches('/').to_owned();
        parsed.set_path(&trimmed);
        let client = reqwest::Client::builder()
            .connect_timeout(CONNECT_TIMEOUT)
            .read_timeout(READ_TIMEOUT)
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .map_err(StartupError::Client)?;
        Ok(Self {
            base: parsed,
            client,
            limits,
        })
    }

    /// The upstream base URL, without a trailing slash.
    pub fn base(&self) -> String {
        self.base.as_str().trim_end_matches('/').to_owned()
    }

    /// The client talking to the upstream (for the list streams).
    pub(crate) fn client(&self) -> &reqwest::Client {
        &self.client
    }

    /// The limits of one answer.
    pub(crate) fn limits(&self) -> ProxyLimits {
        self.limits
    }
}

/// The causes of an error, outermost first, without the URL reqwest puts in its message.
pub(crate) fn causes(error: &reqwest::Error) -> String {
    let mut parts = Vec::new();
    let mut source = error.source();
    while let Some(cause) = source {
        parts.push(cause.to_string());
        source = cause.source();
    }
    if parts.is_empty() {
        parts.push(if error.is_connect() {
            "connection failed".into()
        } else {
            "request failed".into()
        });
    }
    parts.join(": ")
}

/// Forwards one request to the upstream (see the module's documentation).
pub async fn forward(State(upstream): State<Upstream>, request: Request) -> Response {
    let mut response = match exchange(&upstream, request).await {
        Ok(response) => response,
        Err(error) => error.into_response(),
    };
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(PROXIED),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    response
}

async fn exchange(upstream: &Upstream, request: Request) -> Result<Response, ApiError> {
    let (parts, _body) = request.into_parts();
    let path = parts.uri.path();
    if parts.method != Method::GET && parts.method != Method::HEAD {
        let mut response = ApiError::proxy_read_only(parts.method.as_str(), path).into_response();
        response
            .headers_mut()
            .insert(header::ALLOW, HeaderValue::from_static("GET, HEAD"));
        return Ok(response);
    }
    let url = upstream_url(&upstream.base, path, parts.uri.query())?;
    let mut headers = HeaderMap::new();
    for name in REQUEST_HEADERS {
        for value in parts.headers.get_all(name) {
            headers.append(name, value.clone());
        }
    }
    let stream = is_event_stream_path(path);
    let answer = upstream
        .client
        .request(parts.method.clone(), url)
        .headers(headers)
        .timeout(if stream {
            STREAM_TIMEOUT
        } else {
            upstream.limits.timeout
        })
        .send()
        .await
        .map_err(|error| {
            let (status, what) = if error.is_timeout() {
                (StatusCode::GATEWAY_TIMEOUT, "did not answer in time")
            } else {
                (StatusCode::BAD_GATEWAY, "could not be reached")
            };
            let reason = causes(&error);
            eprintln!(
                "proxy: {} {path} -> upstream {what}: {reason}",
                parts.method
            );
            ApiError::server_failure(status, format!("The upstream API {what} ({reason})."))
        })?;
    let status = answer.status();
    let checked = answer::check_content_type(status, answer.headers(), stream).and_then(|()| {
        answer::check_declared_length(answer.headers(), upstream.limits.max_body_bytes)
    });
    if let Err(error) = checked {
        eprintln!("proxy: {} {path} -> {}", parts.method, error.message);
        return Err(error);
    }
    let headers = answer::passed_headers(answer.headers());
    let body = answer::capped(answer.bytes_stream(), upstream.limits.max_body_bytes);
    let mut response = Response::new(Body::from_stream(body));
    *response.status_mut() = status;
    *response.headers_mut() = headers;
    Ok(response)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_http_urls_with_a_prefix_and_refuses_others() {
        let base = |url: &str| Upstream::new(url, ProxyLimits::default()).map(|u| u.base());
        assert_eq!(
            base("https://api.example.com/").ok().as_deref(),
            Some("https://api.example.com")
        );
        assert_eq!(
            base("http://127.0.0.1:9/prefix/").ok().as_deref(),
            Some("http://127.0.0.1:9/prefix")
        );
        for bad in [
            "ftp://x",
            "not a url",
            "http://h/?q=1",
            "/relative",
            "http://user:pw@h/",
        ] {
            assert!(base(bad).is_err(), "{bad}");
        }
    }
}
