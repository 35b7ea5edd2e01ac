//! How a failed API call is explained to the user: what failed, the details, what to do next.

use eval_compare_core::client::{ApiError, TransportError};

/// A failure as shown in the error panel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Explanation {
    /// One line saying what failed.
    pub title: String,
    /// The client's message, with the request id when there is one (never the API key).
    pub message: String,
    /// What the user can do next.
    pub hint: String,
}

/// Explains `error`, met while reading the API at `base_url`.
pub fn explain(error: &ApiError, base_url: &str) -> Explanation {
    let (title, hint) = match error {
        ApiError::Transport(TransportError::Connect(_)) => (
            format!("Cannot reach the server at {base_url}"),
            "Check that eval-compare-server is running and the network is up, then retry."
                .to_owned(),
        ),
        ApiError::Transport(TransportError::Timeout) => (
            format!("The server at {base_url} did not answer in time"),
            "The server may be overloaded; retry in a moment.".to_owned(),
        ),
        ApiError::Transport(_) => (
            "The request did not complete".to_owned(),
            "Retry; if it keeps failing, reload the page.".to_owned(),
        ),
        ApiError::Http(http) => match http.status {
            status @ 500..=599 => (
                format!("The server failed (HTTP {status})"),
                "This is usually temporary; retry in a moment.".to_owned(),
            ),
            401 | 403 => (
                "The API refused access".to_owned(),
                "Check the API key configured on the server, then retry.".to_owned(),
            ),
            status => (
                format!("The API refused the request (HTTP {status})"),
                "Retry; if it keeps failing, report it with the request id.".to_owned(),
            ),
        },
        ApiError::Decode { .. } | ApiError::UnexpectedResponse { .. } => (
            "The API's answer could not be read".to_owned(),
            "The API may be newer than this viewer; report it with the request id.".to_owned(),
        ),
        ApiError::InvalidArgument(_) => (
            "The request could not be made".to_owned(),
            "Check the API address, then retry.".to_owned(),
        ),
    };
    Explanation {
        title,
        message: crate::format::capitalized(&error.to_string()),
        hint,
    }
}
