//! Retries: which failures, how many times, and how long to wait.

#![allow(clippy::unwrap_used)]

use eval_compare_core::client::retry::{backoff_ms, server_delay_ms, status_is_retryable};
use eval_compare_core::client::*;
use eval_compare_core::testing::bodies::*;
use eval_compare_core::testing::scripted::*;
use futures::executor::block_on;

fn ok_run() -> Result<HttpResponse, TransportError> {
    Ok(response(200, &eval_run_body("er_1")))
}

fn status(code: u16) -> HttpResponse {
    response(code, &error_body("api_error", "internal", "boom", None))
}

#[test]
fn retries_503_then_succeeds_with_exponential_backoff() {
    let client = client_with(vec![Ok(status(503)), Ok(status(502)), ok_run()]);
    let run = block_on(client.eval_run("er_1")).unwrap();
    assert_eq!(run.eval_run_id, "er_1");
    assert_eq!(client.transport().requests().len(), 3);
    assert_eq!(client.transport().sleeps(), vec![500, 1_000]);
}

#[test]
fn gives_up_after_two_retries_on_5xx() {
    let client = client_with(vec![
        Ok(status(500)),
        Ok(status(500)),
        Ok(status(500)),
        ok_run(),
    ]);
    let error = block_on(client.eval_run("er_1")).unwrap_err();
    assert_eq!(error.status(), Some(500));
    assert_eq!(client.transport().requests().len(), 3);
    assert_eq!(client.transport().sleeps(), vec![500, 1_000]);
    assert_eq!(client.transport().remaining(), 1);
}

#[test]
fn honours_retry_after_ms_on_429() {
    let limited = with_header(
        response(
            429,
            &error_body("rate_limit_error", "rate_limited", "slow down", None),
        ),
        "retry-after-ms",
        "1234.2",
    );
    let client = client_with(vec![Ok(limited), ok_run()]);
    block_on(client.eval_run("er_1")).unwrap();
    assert_eq!(client.transport().sleeps(), vec![1_235]);
}

#[test]
fn retry_after_ms_wins_over_retry_after() {
    let limited = with_header(
        with_header(response(429, "{}"), "Retry-After", "30"),
        "Retry-After-Ms",
        "250",
    );
    let client = client_with(vec![Ok(limited), ok_run()]);
    block_on(client.eval_run("er_1")).unwrap();
    assert_eq!(client.transport().sleeps(), vec![250]);
}

#[test]
fn honours_retry_after_seconds() {
    let limited = with_header(response(429, "{}"), "Retry-After", "3");
    let client = client_with(vec![Ok(limited), ok_run()]);
    block_on(client.eval_run("er_1")).unwrap();
    assert_eq!(client.transport().sleeps(), vec![3_000]);
}

#[test]
fn honours_retry_after_http_date() {
    let limited = with_header(
        response(503, "upstream down"),
        "Retry-After",
        "Sun, 06 Nov 1994 08:49:44 GMT",
    );
    let client = client_with(vec![Ok(limited), ok_run()]);
    block_on(client.eval_run("er_1")).unwrap();
    assert_eq!(client.transport().sleeps(), vec![7_000]);
}

#[test]
fn a_past_http_date_means_no_wait_and_garbage_means_backoff() {
    let past = with_header(
        response(503, ""),
        "Retry-After",
        "Sat, 05 Nov 1994 08:49:37 GMT",
    );
    assert_eq!(server_delay_ms(&past, NOW_MS), Some(0));
    let garbage = with_header(response(503, ""), "Retry-After", "soon");
    assert_eq!(server_delay_ms(&garbage, NOW_MS), None);
    let negative = with_header(response(503, ""), "retry-after-ms", "-5");
    assert_eq!(server_delay_ms(&negative, NOW_MS), None);
    let client = client_with(vec![Ok(garbage), ok_run()]);
    block_on(client.eval_run("er_1")).unwrap();
    assert_eq!(client.transport().sleeps(), vec![500]);
}

#[test]
fn server_requested_waits_are_capped() {
    let limited = with_header(response(429, "{}"), "Retry-After", "86400");
    let client = client_with(vec![Ok(limited), ok_run()]);
    block_on(client.eval_run("er_1")).unwrap();
    assert_eq!(
        client.transport().sleeps(),
        vec![RetryPolicy::default().max_retry_after_ms]
    );
}

#[test]
fn should_retry_false_stops_a_503() {
    let refused = with_header(status(503), "Trajectory-Should-Retry", "false");
    let client = client_with(vec![Ok(refused), ok_run()]);
    let error = block_on(client.eval_run("er_1")).unwrap_err();
    assert_eq!(error.status(), Some(503));
    assert_eq!(client.transport().requests().len(), 1);
    assert!(client.transport().sleeps().is_empty());
}

#[test]
fn should_retry_true_retries_a_400() {
    let retry = with_header(
        response(
            400,
            &error_body("invalid_request_error", "invalid_request", "busy", None),
        ),
        "trajectory-should-retry",
        "TRUE",
    );
    let client = client_with(vec![Ok(retry), ok_run()]);
    block_on(client.eval_run("er_1")).unwrap();
    assert_eq!(client.transport().requests().len(), 2);
    assert_eq!(client.transport().sleeps(), vec![500]);
}

#[test]
fn client_errors_are_not_retried() {
    for code in [400, 401, 403, 404, 409, 422] {
        let client = client_with(vec![Ok(status(code)), ok_run()]);
        let error = block_on(client.eval_run("er_1")).unwrap_err();
        assert_eq!(error.status(), Some(code));
        assert_eq!(client.transport().requests().len(), 1, "{code}");
    }
}

#[test]
fn status_rule() {
    assert!(status_is_retryable(408));
    assert!(status_is_retryable(429));
    assert!(status_is_retryable(500));
    assert!(status_is_retryable(599));
    assert!(!status_is_retryable(400));
    assert!(!status_is_retryable(404));
    assert!(!status_is_retryable(600));
}

#[test]
fn connection_failures_and_timeouts_are_retried() {
    let client = client_with(vec![
        Err(TransportError::Connect("connection refused".into())),
        Err(TransportError::Timeout),
        ok_run(),
    ]);
    block_on(client.eval_run("er_1")).unwrap();
    assert_eq!(client.transport().sleeps(), vec![500, 1_000]);
}

#[test]
fn a_408_is_retried() {
    let client = client_with(vec![Ok(status(408)), ok_run()]);
    block_on(client.eval_run("er_1")).unwrap();
    assert_eq!(client.transport().requests().len(), 2);
}

#[test]
fn cancelled_and_other_transport_failures_are_not_retried() {
    let client = client_with(vec![Err(TransportError::Aborted), ok_run()]);
    let error = block_on(client.eval_run("er_1")).unwrap_err();
    assert!(error.is_aborted());
    assert_eq!(client.transport().requests().len(), 1);

    let client = client_with(vec![
        Err(TransportError::Other("bad body".into())),
        ok_run(),
    ]);
    let error = block_on(client.eval_run("er_1")).unwrap_err();
    assert_eq!(
        error,
        ApiError::Transport(TransportError::Other("bad body".into()))
    );
    assert_eq!(client.transport().requests().len(), 1);
}

#[test]
fn exhausted_connection_failures_say_what_to_do() {
    let failure = || Err(TransportError::Connect("dns error".into()));
    let client = client_with(vec![failure(), failure(), failure()]);
    let error = block_on(client.eval_run("er_1")).unwrap_err();
    assert_eq!(client.transport().requests().len(), 3);
    let shown = error.to_string();
    assert!(shown.contains("could not reach the API"), "{shown}");
    assert!(shown.contains("dns error"), "{shown}");
    assert!(shown.contains("base URL"), "{shown}");
}

#[test]
fn retrying_can_be_turned_off_and_backoff_is_capped() {
    let policy = RetryPolicy {
        max_retries: 0,
        ..RetryPolicy::default()
    };
    let client = client_with_retry(policy, vec![Ok(status(503)), ok_run()]);
    assert!(block_on(client.eval_run("er_1")).is_err());
    assert_eq!(client.transport().requests().len(), 1);

    let policy = RetryPolicy {
        max_retries: 6,
        base_delay_ms: 100,
        max_delay_ms: 1_000,
        max_retry_after_ms: 5_000,
    };
    let outcomes = (0..6).map(|_| Ok(status(502))).chain([ok_run()]).collect();
    let client = client_with_retry(policy, outcomes);
    block_on(client.eval_run("er_1")).unwrap();
    assert_eq!(
        client.transport().sleeps(),
        vec![100, 200, 400, 800, 1_000, 1_000]
    );
    assert_eq!(backoff_ms(&policy, 63), 1_000);
    assert_eq!(backoff_ms(&policy, 200), 1_000);
}

#[test]
fn http_dates_parse_as_imf_fixdate_only() {
    assert_eq!(
        parse_http_date_ms("Sun, 06 Nov 1994 08:49:37 GMT"),
        Some(NOW_MS)
    );
    assert_eq!(parse_http_date_ms("Thu, 01 Jan 1970 00:00:00 GMT"), Some(0));
    assert_eq!(
        parse_http_date_ms("Tue, 29 Feb 2028 23:59:59 GMT"),
        Some(1_835_481_599_000)
    );
    assert_eq!(
        parse_http_date_ms("Wed, 14 Oct 2026 12:00:00 GMT"),
        Some(1_791_979_200_000)
    );
    for bad in [
        "",
        "Sunday, 06-Nov-94 08:49:37 GMT",
        "Sun Nov  6 08:49:37 1994",
        "Sun, 06 Nov 1994 08:49:37 UTC",
        "Sun, 6 Nov 1994 08:49:37 GMT",
        "Sun, 31 Nov 1994 08:49:37 GMT",
        "Sun, 29 Feb 2027 08:49:37 GMT",
        "Sun, 06 Nov 1994 24:00:00 GMT",
        "Sun, 06 Foo 1994 08:49:37 GMT",
        "Sun, 06 Nov 1969 08:49:37 GMT",
        "Sun, 06 Nov 1994 08:49:37 GMT extra",
    ] {
        assert_eq!(parse_http_date_ms(bad), None, "{bad}");
    }
}

/// The run's body cut off in the middle, as a connection that broke or a proxy that cut it.
fn cut_run() -> Result<HttpResponse, TransportError> {
    let body = eval_run_body("er_1");
    Ok(response(200, &body[..body.len() / 2]))
}

#[test]
fn a_body_cut_off_mid_read_is_asked_for_again() {
    let client = client_with(vec![cut_run(), ok_run()]);
    let run = block_on(client.eval_run("er_1")).unwrap();
    assert_eq!(run.eval_run_id, "er_1");
    assert_eq!(client.transport().requests().len(), 2);
    assert_eq!(client.transport().sleeps(), vec![500]);
}

#[test]
fn cut_bodies_share_the_retries_of_failed_requests() {
    let client = client_with(vec![Ok(status(503)), cut_run(), cut_run(), ok_run()]);
    let error = block_on(client.eval_run("er_1")).unwrap_err();
    assert!(
        error
            .to_string()
            .contains("the body ended early (truncated)"),
        "{error}"
    );
    assert_eq!(client.transport().requests().len(), 3);
    assert_eq!(client.transport().sleeps(), vec![500, 1_000]);
}

#[test]
fn a_body_of_the_wrong_shape_is_not_asked_for_again() {
    let client = client_with(vec![Ok(response(200, r#"{"eval_run_id":7}"#)), ok_run()]);
    let error = block_on(client.eval_run("er_1")).unwrap_err();
    assert!(matches!(error, ApiError::Decode { .. }), "{error:?}");
    assert_eq!(client.transport().requests().len(), 1);
}
