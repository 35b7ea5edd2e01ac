//! The `Trajectory-API-Version` request header: absent, `2026-10-14` or its alias
//! `tmp-contract` are served; anything else answers 400 naming the supported versions.

use axum::extract::Request;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::error::ApiError;

/// The request header pinning the contract version.
pub const VERSION_HEADER: &str = "trajectory-api-version";
/// The contract version this server implements.
pub const API_VERSION: &str = "2026-10-14";
/// The alias the contract accepts for it.
pub const API_VERSION_ALIAS: &str = "tmp-contract";

/// Checks a `Trajectory-API-Version` value; `None` (absent) means the current version.
pub fn check(value: Option<&[u8]>) -> Result<(), ApiError> {
    let Some(raw) = value else {
        return Ok(());
    };
    let text = String::from_utf8_lossy(raw);
    let text = text.trim();
    if text == API_VERSION || text == API_VERSION_ALIAS {
        return Ok(());
    }
    let shown: String = text
        .chars()
        .take(40)
        .flat_map(char::escape_default)
        .collect();
    Err(ApiError::invalid_request(
        "Trajectory-API-Version",
        format!(
            "Unsupported Trajectory-API-Version `{shown}`. Supported: `{API_VERSION}` (alias `{API_VERSION_ALIAS}`); \
             omit the header to use {API_VERSION}. Version 2026-10-07 and the pre-launch legacy formats are retired."
        ),
    ))
}

/// Middleware refusing unsupported contract versions on Trajectory API paths.
pub async fn require_supported_version(request: Request, next: Next) -> Response {
    if request.uri().path().starts_with("/api/") {
        if let Err(error) = check(request.headers().get(VERSION_HEADER).map(|v| v.as_bytes())) {
            return error.into_response();
        }
    }
    next.run(request).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_the_version_its_alias_and_absence() {
        assert!(check(None).is_ok());
        assert!(check(Some(b"2026-10-14")).is_ok());
        assert!(check(Some(b"tmp-contract")).is_ok());
        let error = check(Some(b"2026-10-07")).err();
        assert_eq!(
            error.as_ref().map(|e| (e.status.as_u16(), e.code)),
            Some((400, "invalid_request"))
        );
        assert!(error.is_some_and(
            |e| e.message.contains("2026-10-14") && e.message.contains("tmp-contract")
        ));
    }
}
