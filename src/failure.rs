//! How a failed API call is explained to the user: what failed, the details, what to do next.

use eval_compare_core::client::{ApiError, HttpError, TransportError};

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
            401 | 403 => ("The API refused access".to_owned(), key_hint(http)),
            status => (
                format!("The API refused the request (HTTP {status})"),
                "Retry; if it keeps failing, report it with the request id.".to_owned(),
            ),
        },
        ApiError::Decode {
            truncated: true, ..
        } => (
            "The API's answer was cut off".to_owned(),
            "The connection or a proxy ended it early; retry (what was read is kept).".to_owned(),
        ),
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

/// What to do about a 401 or 403: the key is entered in this browser's source settings (a
/// proxy passes it on), so say whether one was sent at all.
fn key_hint(http: &HttpError) -> String {
    const WHERE: &str = "in the source settings (it stays in this browser and is sent only as \
                         a request header)";
    match (http.key_sent, http.status) {
        (false, _) => format!("Enter the API key {WHERE}, then retry."),
        (true, 401) => {
            format!("The API key was refused: check the key entered {WHERE}, then retry.")
        }
        (true, _) => format!(
            "The API key sent may not read this: enter a key of the right organization {WHERE}, \
             then retry."
        ),
    }
}
