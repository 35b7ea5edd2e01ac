//! The optional demo API key: with `--demo-key`, API requests must carry it in `X-API-Key`
//! (or as `Authorization: Bearer …`), else 401 in the contract's envelope. A second key
//! (`--demo-key-without-billing`) reads everything but the organization's billing, which
//! answers it 403 `permission_denied`, as the platform answers a key without that permission.
//! Keys are never logged nor echoed.

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

/// The keys the demo accepts: one with every permission, and optionally one that may not read
/// billing.
#[derive(Debug, Clone)]
pub struct DemoKeys {
    /// The key that may read everything.
    pub full: ApiKey,
    /// A key refused the billing endpoints (403), if one was given.
    pub without_billing: Option<ApiKey>,
}

/// Paths only a key with billing access reads.
const BILLING_PREFIX: &str = "/api/v1/billing/";

/// Middleware requiring a demo key on API paths (`/api/`, `/v1/`): 401 without one, 403 on
/// billing paths for the key without billing access.
pub async fn require_key(State(keys): State<DemoKeys>, request: Request, next: Next) -> Response {
    let path = request.uri().path();
    let is_api = path.starts_with("/api/") || path.starts_with("/v1/");
    if !is_api {
        return next.run(request).await;
    }
    let given = presented(request.headers());
    if given.is_some_and(|given| keys.full.matches(given)) {
        return next.run(request).await;
    }
    let restricted = keys.without_billing.as_ref();
    if !given.is_some_and(|given| restricted.is_some_and(|key| key.matches(given))) {
        return ApiError::authentication_required().into_response();
    }
    if path.starts_with(BILLING_PREFIX) {
        return ApiError::permission_denied(
            "This API key may not read the organization's billing.",
        )
        .into_response();
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
