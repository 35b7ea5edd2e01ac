//! Request bodies: every endpoint of this server only reads (the viewer's files, the demo's
//! read API, the read-only proxy), so a request declaring a body (`Content-Length` over 0, or
//! any `Transfer-Encoding`) is answered 413 in the contract's envelope before a byte of it is
//! read, and its connection is closed.

use axum::extract::Request;
use axum::http::{header, HeaderValue};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::error::ApiError;

/// Whether a request declares a body.
fn declares_a_body(request: &Request) -> bool {
    let headers = request.headers();
    if headers.contains_key(header::TRANSFER_ENCODING) {
        return true;
    }
    headers.get_all(header::CONTENT_LENGTH).iter().any(|value| {
        value
            .to_str()
            .ok()
            .and_then(|v| v.trim().parse::<u64>().ok())
            .is_none_or(|length| length > 0)
    })
}

/// Middleware answering 413 to requests with a body.
pub async fn refuse_request_bodies(request: Request, next: Next) -> Response {
    if declares_a_body(&request) {
        let mut response = ApiError::body_not_accepted().into_response();
        response
            .headers_mut()
            .insert(header::CONNECTION, HeaderValue::from_static("close"));
        return response;
    }
    next.run(request).await
}
