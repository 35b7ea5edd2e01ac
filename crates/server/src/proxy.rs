//! The proxy to a real API: `/api/` (Trajectory) and `/v1/` (Chronicle) requests are
//! forwarded to the upstream with the caller's `X-API-Key` and `Trajectory-API-Version`
//! (never logged); statuses, the headers that matter and bodies come back unchanged and
//! streamed. An unreachable upstream answers 502 (a timeout 504) in the error envelope.

use std::error::Error as _;
use std::time::Duration;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};

use crate::error::{ApiError, StartupError};

/// Request headers passed to the upstream.
const REQUEST_HEADERS: [&str; 8] = [
    "accept",
    "accept-language",
    "content-type",
    "x-api-key",
    "authorization",
    "trajectory-api-version",
    "idempotency-key",
    "if-none-match",
];

/// Response headers passed back to the caller.
const RESPONSE_HEADERS: [&str; 9] = [
    "content-type",
    "x-request-id",
    "retry-after",
    "retry-after-ms",
    "trajectory-should-retry",
    "trajectory-api-version",
    "cache-control",
    "etag",
    "last-modified",
];

/// How long connecting to the upstream may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// How long the upstream may stay silent while answering.
const READ_TIMEOUT: Duration = Duration::from_secs(120);

/// The upstream API and the client talking to it.
#[derive(Debug, Clone)]
pub struct Upstream {
    base: String,
    client: reqwest::Client,
}

impl Upstream {
    /// Checks `url` (an absolute http or https URL, optionally with a path prefix) and builds
    /// the client.
    pub fn new(url: &str) -> Result<Self, StartupError> {
        let invalid = |reason: &str| StartupError::Upstream {
            url: url.to_owned(),
            reason: reason.to_owned(),
        };
        let parsed = reqwest::Url::parse(url).map_err(|e| invalid(&e.to_string()))?;
        if !matches!(parsed.scheme(), "http" | "https") {
            return Err(invalid("the scheme must be http or https"));
        }
        if parsed.host_str().is_none() {
            return Err(invalid("the URL has no host"));
        }
        if parsed.query().is_some() || parsed.fragment().is_some() {
            return Err(invalid("the URL must not have a query or fragment"));
        }
        let client = reqwest::Client::builder()
            .connect_timeout(CONNECT_TIMEOUT)
            .read_timeout(READ_TIMEOUT)
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .map_err(StartupError::Client)?;
        Ok(Self {
            base: parsed.as_str().trim_end_matches('/').to_owned(),
            client,
        })
    }

    /// The upstream base URL.
    pub fn base(&self) -> &str {
        &self.base
    }
}

fn copy_headers(from: &HeaderMap, to: &mut HeaderMap, names: &[&str]) {
    for name in names {
        for value in from.get_all(*name) {
            if let Ok(header) = axum::http::HeaderName::from_bytes(name.as_bytes()) {
                to.append(header, value.clone());
            }
        }
    }
}

/// The causes of an error, outermost first, without the URL reqwest puts in its message.
fn causes(error: &reqwest::Error) -> String {
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

/// Forwards one request to the upstream.
pub async fn forward(State(upstream): State<Upstream>, request: Request) -> Response {
    let (parts, body) = request.into_parts();
    let path_and_query = parts.uri.path_and_query().map_or("/", |pq| pq.as_str());
    let target = format!("{}{}", upstream.base, path_and_query);
    let mut headers = HeaderMap::new();
    copy_headers(&parts.headers, &mut headers, &REQUEST_HEADERS);
    let mut outgoing = upstream
        .client
        .request(parts.method.clone(), &target)
        .headers(headers);
    if parts.method != axum::http::Method::GET && parts.method != axum::http::Method::HEAD {
        outgoing = outgoing.body(reqwest::Body::wrap_stream(body.into_data_stream()));
    }
    let answer = match outgoing.send().await {
        Ok(answer) => answer,
        Err(error) => {
            let (status, what) = if error.is_timeout() {
                (StatusCode::GATEWAY_TIMEOUT, "did not answer in time")
            } else {
                (StatusCode::BAD_GATEWAY, "could not be reached")
            };
            let reason = causes(&error);
            eprintln!(
                "proxy: {} {} -> upstream {what}: {reason}",
                parts.method,
                parts.uri.path()
            );
            return ApiError::server_failure(
                status,
                format!("The upstream API {what} ({reason})."),
            )
            .into_response();
        }
    };
    let status = answer.status();
    let mut headers = HeaderMap::new();
    copy_headers(answer.headers(), &mut headers, &RESPONSE_HEADERS);
    let mut response = Response::new(Body::from_stream(answer.bytes_stream()));
    *response.status_mut() = status;
    *response.headers_mut() = headers;
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_http_urls_with_a_prefix_and_refuses_others() {
        assert_eq!(
            Upstream::new("https://api.example.com/")
                .map(|u| u.base)
                .ok()
                .as_deref(),
            Some("https://api.example.com")
        );
        assert_eq!(
            Upstream::new("http://127.0.0.1:9/prefix/")
                .map(|u| u.base)
                .ok()
                .as_deref(),
            Some("http://127.0.0.1:9/prefix")
        );
        for bad in ["ftp://x", "not a url", "http://h/?q=1", "/relative"] {
            assert!(Upstream::new(bad).is_err(), "{bad}");
        }
    }
}
