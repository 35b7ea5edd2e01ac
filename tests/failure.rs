//! How failed API calls are explained: title, details and what to do next. Pure logic: native
//! tests (scripts/test.sh's "viewer native tests" step).
#![cfg(not(target_arch = "wasm32"))]

use eval_compare_core::client::{ApiError, HttpError, Service, TransportError};
use eval_compare_viewer::failure::explain;
fn http(status: u16, request_id: Option<&str>) -> ApiError {
    ApiError::from(HttpError {
        service: Service::Trajectory,
        status,
        code: Some("service_unavailable".to_owned()),
        error_type: None,
        message: "try again".to_owned(),
        param: None,
        request_id: request_id.map(str::to_owned),
        retry_after_ms: None,
        key_sent: true,
    })
}

#[test]
fn an_unreachable_server_names_the_address() {
    let explanation = explain(
        &ApiError::Transport(TransportError::Connect("Failed to fetch".to_owned())),
        "http://127.0.0.1:8080",
    );
    assert_eq!(
        explanation.title,
        "Cannot reach the server at http://127.0.0.1:8080"
    );
    assert!(explanation
        .message
        .starts_with("Could not reach the API (Failed to fetch)"));
    assert!(explanation.hint.contains("eval-compare-server is running"));
}

#[test]
fn a_5xx_says_the_server_failed_and_quotes_the_request_id_once() {
    let explanation = explain(&http(503, Some("req_42")), "");
    assert_eq!(explanation.title, "The server failed (HTTP 503)");
    assert_eq!(explanation.message.matches("req_42").count(), 1);
    assert!(!explanation.hint.contains("req_42"));
}

#[test]
fn refused_access_and_other_statuses_are_told_apart() {
    assert_eq!(
        explain(&http(401, None), "").title,
        "The API refused access"
    );
    assert_eq!(
        explain(&http(403, None), "").title,
        "The API refused access"
    );
    assert_eq!(
        explain(&http(404, None), "").title,
        "The API refused the request (HTTP 404)"
    );
}

#[test]
fn a_timeout_and_an_unreadable_answer_have_their_own_titles() {
    assert_eq!(
        explain(&ApiError::Transport(TransportError::Timeout), "http://h").title,
        "The server at http://h did not answer in time"
    );
    let decode = ApiError::Decode {
        path: "items[0].status".to_owned(),
        message: "invalid type".to_owned(),
        request_id: None,
        truncated: false,
    };
    assert_eq!(
        explain(&decode, "").title,
        "The API's answer could not be read"
    );
    // A body cut off is said as such, with no word of a newer API.
    let cut = ApiError::Decode {
        path: "items[3]".to_owned(),
        message: "EOF while parsing".to_owned(),
        request_id: None,
        truncated: true,
    };
    let explained = explain(&cut, "");
    assert_eq!(explained.title, "The API's answer was cut off");
    assert!(
        !explained.hint.contains("newer") && !explained.message.contains("newer"),
        "{explained:?}"
    );
}

#[test]
fn a_refusal_says_whether_a_key_was_sent_and_where_the_key_is_entered() {
    let without_key = |status| {
        ApiError::from(HttpError {
            key_sent: false,
            ..match http(status, None) {
                ApiError::Http(http) => *http,
                other => panic!("{other:?}"),
            }
        })
    };
    for status in [401, 403] {
        let explanation = explain(&without_key(status), "");
        assert!(
            explanation
                .hint
                .starts_with("Enter the API key in the source settings"),
            "{}",
            explanation.hint
        );
        assert!(
            explanation.message.starts_with("No API key was sent"),
            "{}",
            explanation.message
        );
        assert!(
            !explanation.message.contains("refused"),
            "{}",
            explanation.message
        );
    }
    let refused = explain(&http(401, None), "");
    assert!(
        refused.hint.starts_with("The API key was refused"),
        "{}",
        refused.hint
    );
    for status in [401, 403] {
        let hint = explain(&http(status, None), "").hint;
        assert!(hint.contains("in the source settings"), "{hint}");
        assert!(!hint.contains("on the server"), "{hint}");
    }
}
