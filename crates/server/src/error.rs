//! Errors: the API errors answered in the contract's envelope, and start-up errors.

use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use eval_compare_core::api::{ApiErrorBody, ApiErrorEnvelope, ErrorType};

/// Where the contract documents its errors; every error body links it (`doc_url`).
pub const ERRORS_DOC_URL: &str = "https://docs.trajectory.ai/reference/errors";

/// An error answered to an API client as `{ "error": { type, code, message, param, doc_url,
/// context } }`, with the retry headers the contract defines when they apply.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{status} {code}: {message}")]
pub struct ApiError {
    /// HTTP status.
    pub status: StatusCode,
    /// Broad category (`ErrorType`).
    pub kind: ErrorType,
    /// Stable programmatic code.
    pub code: &'static str,
    /// Human-readable explanation. Never contains a secret.
    pub message: String,
    /// The request parameter at fault.
    pub param: Option<String>,
    /// Seconds to wait before retrying (`Retry-After`, and `retry-after-ms`).
    pub retry_after_secs: Option<u64>,
    /// `Trajectory-Should-Retry`, when the server has an opinion.
    pub should_retry: Option<bool>,
}

impl ApiError {
    fn new(
        status: StatusCode,
        kind: ErrorType,
        code: &'static str,
        message: impl Into<String>,
    ) -> Self {
        Self {
            status,
            kind,
            code,
            message: message.into(),
            param: None,
            retry_after_secs: None,
            should_retry: None,
        }
    }

    /// Names the request parameter at fault.
    pub fn with_param(mut self, param: impl Into<String>) -> Self {
        self.param = Some(param.into());
        self
    }

    /// 400 `invalid_cursor`: the cursor is malformed, unsupported, or from another list.
    pub fn invalid_cursor(message: impl Into<String>) -> Self {
        Self::new(
            StatusCode::BAD_REQUEST,
            ErrorType::InvalidRequest,
            "invalid_cursor",
            message,
        )
        .with_param("cursor")
    }

    /// 400 `invalid_request`: the request is malformed (e.g. an unsupported API version).
    pub fn invalid_request(param: impl Into<String>, message: impl Into<String>) -> Self {
        Self::new(
            StatusCode::BAD_REQUEST,
            ErrorType::InvalidRequest,
            "invalid_request",
            message,
        )
        .with_param(param)
    }

    /// 404 `resource_not_found`: no `what` with this id is visible to the caller.
    pub fn not_found(param: &str, what: &str, id: &str) -> Self {
        Self::new(
            StatusCode::NOT_FOUND,
            ErrorType::InvalidRequest,
            "resource_not_found",
            format!("No {what} with id `{id}` exists or is visible to this organization."),
        )
        .with_param(param)
    }

    /// 400 `unknown_id`: Chronicle's answer to an id it does not know ("Unknown task ID, agent
    /// reference, or environment version"), where the Trajectory API answers 404.
    pub fn unknown_id(param: &str, what: &str, id: &str) -> Self {
        Self::new(
            StatusCode::BAD_REQUEST,
            ErrorType::InvalidRequest,
            "unknown_id",
            format!("Unknown {what} `{id}`: none exists or is visible to this organization."),
        )
        .with_param(param)
    }

    /// 404 for a path that names no endpoint.
    pub fn no_route(method: &str, path: &str) -> Self {
        Self::new(
            StatusCode::NOT_FOUND,
            ErrorType::InvalidRequest,
            "resource_not_found",
            format!("No endpoint answers {method} {path}."),
        )
    }

    /// 405 for an endpoint that exists but not for this method.
    pub fn method_not_allowed(method: &str, path: &str) -> Self {
        Self::new(
            StatusCode::METHOD_NOT_ALLOWED,
            ErrorType::InvalidRequest,
            "invalid_request",
            format!("{path} does not accept {method}; the demo serves the read endpoints (GET)."),
        )
    }

    /// 405 from the proxy, which forwards only reads.
    pub fn proxy_read_only(method: &str, path: &str) -> Self {
        Self::new(
            StatusCode::METHOD_NOT_ALLOWED,
            ErrorType::InvalidRequest,
            "invalid_request",
            format!("{path} does not accept {method}; the proxy forwards only reads (GET, HEAD)."),
        )
    }

    /// 413 for a request with a body: every endpoint of this server only reads.
    pub fn body_not_accepted() -> Self {
        Self::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            ErrorType::InvalidRequest,
            "request_body_not_accepted",
            "This server only serves reads: a request must not have a body.",
        )
    }

    /// 502: the upstream's answer is not passed on (its type or size); retrying does not help.
    pub fn upstream_refused(message: impl Into<String>) -> Self {
        let mut error = Self::new(
            StatusCode::BAD_GATEWAY,
            ErrorType::Dependency,
            "upstream_response_refused",
            message,
        );
        error.should_retry = Some(false);
        error
    }

    /// 422 `validation_error`: a parameter has an invalid value.
    pub fn validation(param: impl Into<String>, message: impl Into<String>) -> Self {
        Self::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            ErrorType::InvalidRequest,
            "validation_error",
            message,
        )
        .with_param(param)
    }

    /// 401 `authentication_required`: the API key is missing or refused.
    pub fn authentication_required() -> Self {
        Self::new(
            StatusCode::UNAUTHORIZED,
            ErrorType::Authentication,
            "authentication_required",
            "A valid API key is required in the X-API-Key header.",
        )
        .with_param("X-API-Key")
    }

    /// 403 `permission_denied`: the key is valid but may not read this resource; retrying
    /// does not help.
    pub fn permission_denied(message: impl Into<String>) -> Self {
        let mut error = Self::new(
            StatusCode::FORBIDDEN,
            ErrorType::Permission,
            "permission_denied",
            message,
        );
        error.should_retry = Some(false);
        error
    }

    /// 429 `rate_limited`, retryable after `retry_after_secs`.
    pub fn rate_limited(retry_after_secs: u64) -> Self {
        let mut error = Self::new(
            StatusCode::TOO_MANY_REQUESTS,
            ErrorType::RateLimit,
            "rate_limited",
            format!("Too many requests; retry after {retry_after_secs} s."),
        );
        error.retry_after_secs = Some(retry_after_secs);
        error.should_retry = Some(true);
        error
    }

    /// A retryable server-side failure with `status` (500 `internal_error`, otherwise
    /// `service_unavailable`).
    pub fn server_failure(status: StatusCode, message: impl Into<String>) -> Self {
        let mut error = if status == StatusCode::INTERNAL_SERVER_ERROR {
            Self::new(status, ErrorType::Api, "internal_error", message)
        } else {
            Self::new(
                status,
                ErrorType::Dependency,
                "service_unavailable",
                message,
            )
        };
        error.should_retry = Some(true);
        error
    }

    /// The contract's error envelope of this error.
    pub fn envelope(&self) -> ApiErrorEnvelope {
        ApiErrorEnvelope {
            error: ApiErrorBody {
                error_type: self.kind.clone(),
                code: self.code.to_owned(),
                message: self.message.clone(),
                param: self.param.clone(),
                doc_url: format!("{ERRORS_DOC_URL}#{}", self.code),
                context: serde_json::Map::new(),
            },
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = (self.status, Json(self.envelope())).into_response();
        let headers = response.headers_mut();
        if let Some(secs) = self.retry_after_secs {
            headers.insert("retry-after", HeaderValue::from(secs));
            headers.insert(
                "retry-after-ms",
                HeaderValue::from(secs.saturating_mul(1000)),
            );
        }
        if let Some(retry) = self.should_retry {
            headers.insert(
                "trajectory-should-retry",
                HeaderValue::from_static(if retry { "true" } else { "false" }),
            );
        }
        response
    }
}

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartupError {
    /// The listening address could not be bound.
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        /// The address asked for.
        addr: String,
        /// The cause.
        source: std::io::Error,
    },
    /// The upstream URL is not an absolute http(s) URL.
    #[error("invalid --upstream URL `{url}`: {reason}")]
    Upstream {
        /// The URL given.
        url: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The HTTP client for the proxy could not be built.
    #[error("cannot build the upstream HTTP client: {0}")]
    Client(#[source] reqwest::Error),
    /// Writing the start-up line failed.
    #[error("cannot write to stdout: {0}")]
    Stdout(#[source] std::io::Error),
}
