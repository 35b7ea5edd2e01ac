//! The optional demo API key: with `--demo-key`, API requests must carry it in `X-API-Key`
//! (or as `Authorization: Bearer …`), else 401 in the contract's envelope. The key is never
//! logged nor echoed.

use std::fmt;
use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::HeaderMap;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::error::ApiError;

/// A secret API key. Its `Debug` output is redacted.
#[derive(Clone, PartialEq, Eq)]
pub struct ApiKey(Arc<str>);

impl ApiKey {
    /// Wraps a key.
    pub fn new(key: impl Into<Arc<str>>) -> Self {
        Self(key.into())
    }

    /// Whether `given` is this key (compared in constant time).
    pub fn matches(&self, given: &[u8]) -> bool {
        let expected = self.0.as_bytes();
        expected.len() == given.len()
            && expected
                .iter()
                .zip(given)
                .fold(0u8, |acc, (a, b)| acc | (a ^ b))
                == 0
    }
}

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ApiKey(<redacted>)")
    }
}

/// The key a request presents, if any.
fn presented(headers: &HeaderMap) -> Option<&[u8]> {
    if let Some(key) = headers.get("x-api-key") {
        return Some(key.as_bytes());
    }
    headers
        .get("authorization")
        .and_then(|value| value.as_bytes().strip_prefix(b"Bearer "))
}

/// Middleware requiring the demo key on API paths (`/api/`, `/v1/`).
pub async fn require_key(State(key): State<ApiKey>, request: Request, next: Next) -> Response {
    let path = request.uri().path();
    let is_api = path.starts_with("/api/") || path.starts_with("/v1/");
    if is_api && !presented(request.headers()).is_some_and(|given| key.matches(given)) {
        return ApiError::authentication_required().into_response();
    }
    next.run(request).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_only_the_exact_key_and_hides_it() {
        let key = ApiKey::new("s3cret");
        assert!(key.matches(b"s3cret"));
        assert!(!key.matches(b"s3cre"));
        assert!(!key.matches(b"s3cret!"));
        assert!(!key.matches(b"S3cret"));
        assert!(!format!("{key:?}").contains("s3cret"));
    }
}
