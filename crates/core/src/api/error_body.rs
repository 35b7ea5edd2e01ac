//! The error envelope every failed request answers with.

use serde::{Deserialize, Serialize};

use super::open_enum::open_enum;

open_enum! {
    /// Broad category of an API error (`ErrorType`).
    pub enum ErrorType keeps Other {
        /// The request was malformed or referred to something missing.
        InvalidRequest => "invalid_request_error",
        /// The API key is missing or was refused.
        Authentication => "authentication_error",
        /// The key may not do this.
        Permission => "permission_error",
        /// The request conflicts with the current state.
        Conflict => "conflict_error",
        /// Credits or billing block the request.
        Billing => "billing_error",
        /// Too many requests.
        RateLimit => "rate_limit_error",
        /// A service the API depends on failed.
        Dependency => "dependency_error",
        /// An internal API failure.
        Api => "api_error",
    }
}

/// `{ "error": { ... } }`: the body of every error response (`ApiErrorEnvelope`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ApiErrorEnvelope {
    /// The error itself.
    pub error: ApiErrorBody,
}

/// The error details (`ApiErrorBody`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ApiErrorBody {
    /// Broad category.
    #[serde(rename = "type")]
    pub error_type: ErrorType,
    /// Stable programmatic code, e.g. `invalid_cursor`, `resource_not_found`.
    pub code: String,
    /// Human-readable explanation.
    pub message: String,
    /// The request parameter at fault, when one is.
    #[serde(default)]
    pub param: Option<String>,
    /// Link to the documentation of this error.
    pub doc_url: String,
    /// Machine-readable values specific to this code.
    #[serde(default)]
    pub context: serde_json::Map<String, serde_json::Value>,
}
