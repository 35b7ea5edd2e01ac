//! What of an upstream answer is passed back: JSON only (and `text/event-stream` for
//! Chronicle's progress stream), at most a size limit, with the headers that matter.

use axum::http::{HeaderMap, StatusCode};
use bytes::Bytes;
use futures::{Stream, StreamExt};

use crate::error::ApiError;

/// Response headers passed back to the caller.
pub const RESPONSE_HEADERS: [&str; 9] = [
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

/// Whether `path` is Chronicle's progress event stream (`/v1/backtests/jobs/{id}/stream`).
pub fn is_event_stream_path(path: &str) -> bool {
    path.strip_prefix("/v1/backtests/jobs/")
        .and_then(|rest| rest.strip_suffix("/stream"))
        .is_some_and(|job| !job.is_empty() && !job.contains('/'))
}

/// Checks the upstream's Content-Type: JSON (`application/json`, `application/…+json`), or
/// `text/event-stream` when `stream_allowed`. A 204 or 304 (no body) needs none.
pub fn check_content_type(
    status: StatusCode,
    headers: &HeaderMap,
    stream_allowed: bool,
) -> Result<(), ApiError> {
    let value = headers.get("content-type");
    if value.is_none() && matches!(status.as_u16(), 204 | 304) {
        return Ok(());
    }
    let text = value.map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned());
    let essence = text
        .as_deref()
        .and_then(|t| t.split(';').next())
        .map(|t| t.trim().to_ascii_lowercase());
    let accepted = match essence.as_deref() {
        Some("application/json") => true,
        Some(t) => {
            (t.starts_with("application/") && t.ends_with("+json"))
                || (stream_allowed && t == "text/event-stream")
        }
        None => false,
    };
    if accepted {
        return Ok(());
    }
    let named = text.map_or("no Content-Type".to_owned(), |t| {
        let shown: String = t.chars().take(60).flat_map(char::escape_default).collect();
        format!("Content-Type `{shown}`")
    });
    let allowed = if stream_allowed {
        "JSON or text/event-stream"
    } else {
        "JSON"
    };
    Err(ApiError::upstream_refused(format!(
        "The upstream API answered {} with {named}; the proxy passes on only {allowed} and refused it.",
        status.as_u16()
    )))
}

/// Refuses an answer whose declared `Content-Length` is over `max_bytes`.
pub fn check_declared_length(headers: &HeaderMap, max_bytes: u64) -> Result<(), ApiError> {
    let declared = headers
        .get("content-length")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    match declared {
        Some(length) if length > max_bytes => Err(too_large(max_bytes, &format!("{length} bytes"))),
        _ => Ok(()),
    }
}

fn too_large(max_bytes: u64, what: &str) -> ApiError {
    ApiError::upstream_refused(format!(
        "The upstream API's answer ({what}) is over the proxy's limit of {max_bytes} bytes \
         (--upstream-max-body) and was refused."
    ))
}

/// The body error ending a stream that went over the limit (the status is already sent, so
/// the connection is cut and the client sees an incomplete body).
#[derive(Debug, thiserror::Error)]
pub enum BodyError {
    /// Over the size limit.
    #[error("the upstream answer is over the limit of {0} bytes")]
    TooLarge(u64),
    /// The upstream failed (or the deadline passed) mid-body.
    #[error("the upstream answer failed: {0}")]
    Upstream(#[from] reqwest::Error),
}

/// `body`, ended with [`BodyError::TooLarge`] once more than `max_bytes` have come.
pub fn capped(
    body: impl Stream<Item = Result<Bytes, reqwest::Error>> + Send + 'static,
    max_bytes: u64,
) -> impl Stream<Item = Result<Bytes, BodyError>> + Send + 'static {
    body.scan((0u64, false), move |(seen, ended), chunk| {
        if *ended {
            return futures::future::ready(None);
        }
        let item = match chunk {
            Ok(bytes) => {
                *seen = seen.saturating_add(bytes.len() as u64);
                if *seen > max_bytes {
                    eprintln!("proxy: an upstream answer went over {max_bytes} bytes; cut");
                    Err(BodyError::TooLarge(max_bytes))
                } else {
                    Ok(bytes)
                }
            }
            Err(error) => Err(BodyError::Upstream(error)),
        };
        *ended = item.is_err();
        futures::future::ready(Some(item))
    })
}

/// The headers of `from` named in [`RESPONSE_HEADERS`].
pub fn passed_headers(from: &HeaderMap) -> HeaderMap {
    let mut to = HeaderMap::new();
    for name in RESPONSE_HEADERS {
        for value in from.get_all(name) {
            to.append(name, value.clone());
        }
    }
    to
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn typed(value: Option<&'static str>) -> HeaderMap {
        let mut headers = HeaderMap::new();
        if let Some(value) = value {
            headers.insert("content-type", HeaderValue::from_static(value));
        }
        headers
    }

    #[test]
    fn passes_json_and_the_stream_only() {
        let ok = StatusCode::OK;
        for json in [
            "application/json",
            "application/json; charset=utf-8",
            "Application/JSON",
            "application/problem+json",
        ] {
            assert!(
                check_content_type(ok, &typed(Some(json)), false).is_ok(),
                "{json}"
            );
        }
        assert!(check_content_type(ok, &typed(Some("text/event-stream")), true).is_ok());
        for refused in [
            "text/event-stream",
            "text/html",
            "text/plain",
            "image/svg+xml",
        ] {
            let error = check_content_type(ok, &typed(Some(refused)), false).unwrap_err();
            assert_eq!(error.status.as_u16(), 502);
            assert!(error.message.contains(refused), "{}", error.message);
        }
        assert!(check_content_type(ok, &typed(None), false).is_err());
        assert!(check_content_type(StatusCode::NO_CONTENT, &typed(None), false).is_ok());
        assert!(is_event_stream_path("/v1/backtests/jobs/job_1/stream"));
        assert!(!is_event_stream_path("/v1/backtests/jobs/stream"));
        assert!(!is_event_stream_path("/api/v1/backtests/jobs/j/stream"));
    }

    #[tokio::test]
    async fn cuts_a_body_over_the_limit() {
        let chunks = futures::stream::iter(
            [b"abcd".as_slice(), b"efgh", b"ijkl"]
                .map(|c| Ok::<_, reqwest::Error>(Bytes::from_static(c))),
        );
        let items: Vec<_> = capped(chunks, 8).collect().await;
        assert_eq!(items.len(), 3);
        assert!(items[0].is_ok() && items[1].is_ok());
        assert!(matches!(items[2], Err(BodyError::TooLarge(8))));
    }
}
