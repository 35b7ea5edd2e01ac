//! Whether to retry a failed attempt, and how long to wait first.

use super::config::RetryPolicy;
use super::http_date::parse_http_date_ms;
use super::transport::{HttpResponse, TransportError};

/// Header by which the server overrides the retry rule either way.
pub const SHOULD_RETRY_HEADER: &str = "Trajectory-Should-Retry";

/// The default rule for statuses: 408, 429 and every 5xx are worth retrying.
pub fn status_is_retryable(status: u16) -> bool {
    status == 408 || status == 429 || (500..=599).contains(&status)
}

/// Whether a failed response should be retried: `Trajectory-Should-Retry` decides when present,
/// otherwise the status rule.
pub fn response_is_retryable(response: &HttpResponse) -> bool {
    match response.header(SHOULD_RETRY_HEADER).map(str::trim) {
        Some(value) if value.eq_ignore_ascii_case("true") => true,
        Some(value) if value.eq_ignore_ascii_case("false") => false,
        _ => status_is_retryable(response.status),
    }
}

/// Connection failures and timeouts are retried; a cancelled request never is.
pub fn transport_error_is_retryable(error: &TransportError) -> bool {
    matches!(error, TransportError::Connect(_) | TransportError::Timeout)
}

/// The wait the server asks for: `retry-after-ms`, else `Retry-After` as seconds or an HTTP date.
pub fn server_delay_ms(response: &HttpResponse, now_unix_ms: u64) -> Option<u64> {
    if let Some(ms) = response
        .header("retry-after-ms")
        .and_then(parse_non_negative)
    {
        return Some(ms.ceil() as u64);
    }
    let retry_after = response.header("retry-after")?.trim();
    if let Some(seconds) = parse_non_negative(retry_after) {
        return Some((seconds * 1_000.0).ceil() as u64);
    }
    parse_http_date_ms(retry_after).map(|at| at.saturating_sub(now_unix_ms))
}

fn parse_non_negative(text: &str) -> Option<f64> {
    let value: f64 = text.trim().parse().ok()?;
    (value.is_finite() && value >= 0.0).then_some(value)
}

/// Exponential backoff without randomness: `base * 2^retry_index`, capped at `max_delay_ms`.
pub fn backoff_ms(policy: &RetryPolicy, retry_index: u32) -> u64 {
    let factor = 1u64.checked_shl(retry_index).unwrap_or(u64::MAX);
    policy
        .base_delay_ms
        .saturating_mul(factor)
        .min(policy.max_delay_ms)
}

/// The wait before retry number `retry_index` (0 for the first retry): what the server asks
/// for (capped at `max_retry_after_ms`), else the backoff.
pub fn retry_delay_ms(
    policy: &RetryPolicy,
    retry_index: u32,
    response: Option<&HttpResponse>,
    now_unix_ms: u64,
) -> u64 {
    match response.and_then(|response| server_delay_ms(response, now_unix_ms)) {
        Some(requested) => requested.min(policy.max_retry_after_ms),
        None => backoff_ms(policy, retry_index),
    }
}
