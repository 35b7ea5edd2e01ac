//! Error mapping: the contract's error body, request ids, odd bodies, and no key anywhere.

#![allow(clippy::unwrap_used)]

use eval_compare_core::api::ErrorType;
use eval_compare_core::client::*;
use eval_compare_core::testing::bodies::*;
use eval_compare_core::testing::scripted::*;
use futures::executor::block_on;

fn fail_once(response: HttpResponse) -> ApiError {
    let client = client_with(vec![Ok(response)]);
    block_on(client.eval_run("er_1")).unwrap_err()
}

#[test]
fn invalid_cursor_maps_to_its_code() {
    let body = error_body(
        "invalid_request_error",
        "invalid_cursor",
        "The cursor is not valid for this list.",
        Some("cursor"),
    );
    let error = fail_once(with_header(
        response(400, &body),
        "x-request-id",
        "req_cursor",
    ));
    assert!(error.is_invalid_cursor());
    assert_eq!(
        error,
        ApiError::from(HttpError {
            service: Service::Trajectory,
            status: 400,
            code: Some("invalid_cursor".into()),
            error_type: Some(ErrorType::InvalidRequest),
            message: "The cursor is not valid for this list.".into(),
            param: Some("cursor".into()),
            request_id: Some("req_cursor".into()),
            retry_after_ms: None,
            key_sent: true,
        })
    );
    let shown = error.to_string();
    assert!(shown.contains("load it again from the start"), "{shown}");
    assert!(shown.contains("req_cursor"), "{shown}");
}

#[test]
fn unauthorized_says_to_check_the_key() {
    let body = error_body(
        "authentication_error",
        "invalid_api_key",
        "Invalid API key.",
        None,
    );
    let error = fail_once(with_header(response(401, &body), "X-Request-Id", "req_401"));
    assert_eq!(error.status(), Some(401));
    assert_eq!(error.request_id(), Some("req_401"));
    let ApiError::Http(http) = &error else {
        panic!("{error:?}");
    };
    let HttpError {
        error_type, code, ..
    } = &**http;
    assert_eq!(error_type, &Some(ErrorType::Authentication));
    assert_eq!(code.as_deref(), Some("invalid_api_key"));
    let shown = error.to_string();
    assert!(
        shown.starts_with("the API key was refused; check the key"),
        "{shown}"
    );
    assert!(shown.contains("HTTP 401 invalid_api_key"), "{shown}");
    assert!(shown.contains("Invalid API key."), "{shown}");
    assert!(shown.contains("(request id req_401)"), "{shown}");
}

#[test]
fn refused_without_a_key_says_none_was_sent() {
    let body = error_body(
        "authentication_error",
        "authentication_required",
        "missing or invalid API key",
        None,
    );
    for status in [401, 403] {
        let client = anonymous_client(vec![Ok(response(status, &body))]);
        let error = block_on(client.eval_run("er_1")).unwrap_err();
        let shown = error.to_string();
        assert!(
            shown.starts_with("no API key was sent, and this API needs one"),
            "{shown}"
        );
        assert!(!shown.contains("key was refused"), "{shown}");
    }
}

#[test]
fn not_found_names_the_problem() {
    let body = error_body(
        "invalid_request_error",
        "resource_not_found",
        "No evaluation run er_1.",
        None,
    );
    let error = fail_once(with_header(response(404, &body), "x-request-id", "req_404"));
    assert_eq!(error.status(), Some(404));
    assert_eq!(error.request_id(), Some("req_404"));
    assert!(!error.is_invalid_cursor());
    assert!(error.is_not_found());
    let shown = error.to_string();
    assert!(shown.contains("not found; check the id"), "{shown}");
    assert!(shown.contains("No evaluation run er_1."), "{shown}");
}

#[test]
fn validation_error_names_the_parameter() {
    let body = error_body(
        "invalid_request_error",
        "invalid_request",
        "limit must be at most 200",
        Some("limit"),
    );
    let error = fail_once(with_header(response(422, &body), "x-request-id", "req_422"));
    let shown = error.to_string();
    assert!(shown.contains("rejected the request parameters"), "{shown}");
    assert!(shown.contains("[parameter: limit]"), "{shown}");
    assert!(shown.contains("req_422"), "{shown}");
}

#[test]
fn forbidden_conflict_and_unknown_error_types() {
    let body = error_body("permission_error", "forbidden", "Not yours.", None);
    let forbidden = fail_once(response(403, &body));
    assert!(forbidden.to_string().contains("may not read this"));
    assert!(!forbidden.is_not_found());
    let body = error_body("conflict_error", "conflict", "Changed.", None);
    assert!(fail_once(response(409, &body))
        .to_string()
        .contains("conflicts"));
    let body = error_body("teapot_error", "short_and_stout", "I am a teapot.", None);
    let error = fail_once(response(418, &body));
    let ApiError::Http(http) = &error else {
        panic!("{error:?}");
    };
    let error_type = &http.error_type;
    assert_eq!(error_type, &Some(ErrorType::Other("teapot_error".into())));
    assert!(error.to_string().contains("I am a teapot."));
}

#[test]
fn html_error_page_gives_a_short_excerpt() {
    let page = format!(
        "<html><head><title>502 Bad Gateway</title></head>\n<body><h1>502 Bad Gateway</h1><p>{}</p></body></html>",
        "nginx ".repeat(100)
    );
    let policy = RetryPolicy {
        max_retries: 0,
        ..RetryPolicy::default()
    };
    let client = client_with_retry(
        policy,
        vec![Ok(with_header(
            response(502, &page),
            "x-request-id",
            "req_502",
        ))],
    );
    let error = block_on(client.eval_run("er_1")).unwrap_err();
    let ApiError::Http(http) = &error else {
        panic!("{error:?}");
    };
    let HttpError {
        status,
        code,
        error_type,
        message,
        request_id,
        ..
    } = &**http;
    assert_eq!(*status, 502);
    assert_eq!(code, &None);
    assert_eq!(error_type, &None);
    assert_eq!(request_id.as_deref(), Some("req_502"));
    assert!(
        message.contains("502 Bad Gateway 502 Bad Gateway nginx"),
        "{message}"
    );
    assert!(!message.contains('<'), "{message}");
    assert!(message.chars().count() < 250, "{message}");
    assert!(message.ends_with("…\""), "{message}");
    assert!(
        error
            .to_string()
            .contains("the API failed; retry later (HTTP 502)"),
        "{error}"
    );
}

#[test]
fn empty_error_body_is_described() {
    let error = fail_once(response(404, ""));
    assert!(
        error.to_string().contains("no error details (empty body)"),
        "{error}"
    );
}

#[test]
fn malformed_success_body_names_the_field() {
    let body = r#"{"eval_run_id": "er_1", "bench_id": "b1", "agent_id": null, "display_name": null,
        "options": {}, "status": "completed", "reward_mean": "0.5", "created_at": "t", "updated_at": "t"}"#;
    let client = client_with(vec![Ok(with_header(
        response(200, body),
        "x-request-id",
        "req_bad",
    ))]);
    let error = block_on(client.eval_run("er_1")).unwrap_err();
    let ApiError::Decode {
        path,
        message,
        request_id,
        truncated,
    } = &error
    else {
        panic!("{error:?}");
    };
    assert_eq!(path, "reward_mean");
    assert!(message.contains("line 2"), "{message}");
    assert_eq!(request_id.as_deref(), Some("req_bad"));
    assert!(!truncated);
    assert!(error.to_string().contains("reward_mean"), "{error}");
    assert_eq!(
        client.transport().requests().len(),
        1,
        "a bad body is not retried"
    );
}

#[test]
fn truncated_success_body_is_a_decode_error() {
    // Cut off on each of the three attempts (a cut body is asked for again, as a failure).
    let cut = || Ok(response(200, r#"{"eval_run_id": "er_1", "bench"#));
    let client = client_with(vec![cut(), cut(), cut()]);
    let error = block_on(client.eval_run("er_1")).unwrap_err();
    assert!(error.to_string().contains("truncated"), "{error}");
    // Said as what happened, not blamed on a newer API.
    assert!(
        matches!(
            error,
            ApiError::Decode {
                truncated: true,
                ..
            }
        ),
        "{error:?}"
    );
    assert!(
        error.to_string().contains("cut it off") && !error.to_string().contains("newer"),
        "{error}"
    );
}

#[test]
fn the_key_never_appears_in_errors() {
    let echoed = format!("Key {SECRET} is revoked.");
    let outcomes = vec![
        Ok(with_header(
            response(
                401,
                &error_body("authentication_error", SECRET, &echoed, Some(SECRET)),
            ),
            "x-request-id",
            SECRET,
        )),
        Ok(response(404, &format!("<p>bad key {SECRET}</p>"))),
        Ok(response(
            200,
            &format!(r#"{{"eval_run_id": 1, "note": "{SECRET}"}}"#),
        )),
        Ok(response(200, &format!(r#"{{"{SECRET}": "#))),
        Ok(response(
            200,
            &eval_run_body("er_1").replace("\"completed\"", &format!("[\"{SECRET}\"]")),
        )),
    ];
    let client = client_with(outcomes);
    let mut errors = Vec::new();
    for _ in 0..5 {
        errors.push(block_on(client.eval_run("er_1")).unwrap_err());
    }
    let policy = RetryPolicy {
        max_retries: 0,
        ..RetryPolicy::default()
    };
    let failing = client_with_retry(
        policy,
        vec![
            Err(TransportError::Connect(format!("refused for {SECRET}"))),
            Err(TransportError::Other(format!("header X-API-Key: {SECRET}"))),
        ],
    );
    errors.push(block_on(failing.eval_run("er_1")).unwrap_err());
    errors.push(block_on(failing.eval_run("er_1")).unwrap_err());
    assert_eq!(errors.len(), 7);
    for error in &errors {
        let shown = format!("{error} {error:?}");
        assert!(!shown.contains(SECRET), "{shown}");
    }
    assert!(
        errors[0].to_string().contains("Key *** is revoked."),
        "{}",
        errors[0]
    );
}

/// Longest excerpt of an unexpected body (characters), as documented in the client.
const EXCERPT_CHARS: usize = 160;

fn unexpected_body_message(key: &str, body: &str) -> String {
    let config = ClientConfig::new("https://api.example.test")
        .unwrap()
        .with_api_key(ApiKey::new(key).unwrap())
        .with_retry(RetryPolicy {
            max_retries: 0,
            ..RetryPolicy::default()
        });
    let client = TrajectoryClient::new(
        config,
        ScriptedTransport::new(vec![Ok(response(404, body))]),
    );
    block_on(client.eval_run("er_1")).unwrap_err().to_string()
}

#[test]
fn a_key_straddling_the_excerpt_cut_is_redacted_whole() {
    // The key starts so that the first 160 characters hold all but its last character: cutting
    // before redacting would show that prefix.
    let before = "a".repeat(EXCERPT_CHARS + 1 - SECRET.len());
    let body = format!("{before}{SECRET} and more text after it");
    let text = unexpected_body_message(SECRET, &body);
    assert!(!text.contains(&SECRET[..SECRET.len() - 1]), "{text}");
    assert!(!text.contains(&SECRET[..8]), "{text}");
    assert!(text.contains(&format!("{before}***")), "{text}");
}

#[test]
fn a_key_near_the_end_of_a_body_never_shows() {
    // Near the end of a long body: cut away entirely, no prefix left.
    let long = format!("{}{SECRET}", "b ".repeat(150));
    let text = unexpected_body_message(SECRET, &long);
    assert!(!text.contains(&SECRET[..4]), "{text}");
    assert!(text.ends_with("…\""), "{text}");
    // At the very end of a short body: redacted.
    let short = format!("revoked key {SECRET}");
    let text = unexpected_body_message(SECRET, &short);
    assert!(text.contains("revoked key ***\""), "{text}");
    // A key holding markup characters is redacted before tags are removed.
    let key = "tk<b>Secret_42</b>";
    let text = unexpected_body_message(key, &format!("<p>bad key {key}</p>"));
    assert!(!text.contains("Secret_42"), "{text}");
    assert!(text.contains("bad key ***"), "{text}");
}

/// A key shorter than eight characters is no credential: it is redacted where it stands alone,
/// not inside other words ("un***nown path" for the key `k`); a longer key is redacted
/// wherever it is, inside words too.
#[test]
fn a_short_key_is_redacted_only_where_it_stands_alone() {
    let text = unexpected_body_message("k", "unknown path; key k, (k) and kk");
    assert!(
        text.contains("unknown path; key ***, (***) and kk"),
        "{text}"
    );
    let text = unexpected_body_message("a-a", "xa-a-a and a-a");
    assert!(text.contains("xa-*** and ***"), "{text}");
    let text = unexpected_body_message(SECRET, &format!("unknown{SECRET}path"));
    assert!(text.contains("unknown***path"), "{text}");
}

#[test]
fn the_excerpt_is_cut_between_characters() {
    // Multi-byte characters across the cut: the excerpt keeps whole characters only.
    let body = "é€😀".repeat(100);
    let text = unexpected_body_message(SECRET, &body);
    let excerpt = text
        .split("the body begins: \"")
        .nth(1)
        .unwrap()
        .trim_end_matches('"');
    assert_eq!(excerpt.chars().count(), EXCERPT_CHARS + 1, "{excerpt}");
    assert!(excerpt.starts_with("é€😀é"), "{excerpt}");
    assert!(excerpt.ends_with('…'), "{excerpt}");
}
