//! Fault injection for tests: latency, 429 with `Retry-After`, 5xx, truncated bodies, refused
//! cursors and broken progress streams, each scoped to API requests whose path contains a
//! substring and fired on every, the N-th, every N-th, or a seeded random share of those
//! requests.
//!
//! Syntax of one `--fault` value: `KIND[:OPTION=VALUE]...`
//!
//! | kind | effect | kind option |
//! |---|---|---|
//! | `latency` | delays the response | `ms=N` (required) |
//! | `429` | 429 `rate_limited` with `Retry-After`, `retry-after-ms` and `Trajectory-Should-Retry: true` | `retry-after=SECS` (default 1) |
//! | `5xx` | a retryable server error in the error envelope | `status=500\|502\|503\|504` (default 503) |
//! | `truncate` | the real response with its body cut in half (no `Content-Length`); a progress stream (`text/event-stream`) is cut in the middle of its first event and the connection drops | |
//! | `bad-cursor` | 400 `invalid_cursor`; only requests carrying `cursor` count | |
//! | `broken-stream` | a progress stream passes its first N events (keep-alive comments pass too), then breaks; only requests of `/v1/backtests/jobs/{id}/stream` count | `after=N` (default 1), `end=cut\|garbage` (default `cut`: half of the next event, then the connection drops; `garbage`: bytes that are neither UTF-8 nor an event's JSON, then the stream ends) |
//! | `contradicting-stream` | a progress stream says at once that the job succeeded (`run_finished`) and closes, whatever the job's record says (an API whose record lags, or a hostile one); stream requests only | |
//! | `endless-event` | a progress stream sends `data:` lines for ever, with no blank line to end the event; stream requests only | `line-kib=N` (default 64) |
//! | `event-flood` | a progress stream sends `trial_finished` events for ever, as fast as they are read; stream requests only | |
//!
//! Selectors, for every kind: `path=SUBSTR` (default: every `/api/` and `/v1/` request),
//! and at most one of `nth=N` (only the N-th matching request, from 1), `every=N` (the N-th,
//! 2N-th, …), `from=N` (the N-th and every later one: an API that stops answering) or `rate=P`
//! (each with probability P in 0..=1, from a fixed seeded sequence);
//! with none of them the fault fires on every matching request.
//! Example: `5xx:path=/trajectory-rewards:nth=2` fails exactly the second page of rewards.

use std::str::FromStr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{header, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::dataset::rng::mix64;
use crate::error::ApiError;
use crate::proxy::is_event_stream_path;

mod broken_stream;
mod hostile_stream;

use broken_stream::{broken_stream, is_event_stream};
use hostile_stream::hostile_stream;
pub use hostile_stream::HostileStream;

/// What a fault does.
#[derive(Debug, Clone, PartialEq)]
pub enum FaultKind {
    /// Delay the response by this many milliseconds.
    Latency {
        /// Delay in milliseconds.
        ms: u64,
    },
    /// Answer 429 with this `Retry-After` (seconds).
    RateLimit {
        /// Seconds the client should wait.
        retry_after_secs: u64,
    },
    /// Answer this 5xx status.
    ServerError {
        /// The status.
        status: StatusCode,
    },
    /// Cut the real response's body in half.
    Truncate,
    /// Refuse the request's cursor.
    BadCursor,
    /// Break a progress stream after some events.
    BrokenStream {
        /// Events passed before the break.
        after: u64,
        /// How it breaks.
        end: StreamBreak,
    },
    /// Replace a progress stream's events (`contradicting-stream`, `endless-event`,
    /// `event-flood`).
    HostileStream(HostileStream),
}

/// How a broken progress stream ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StreamBreak {
    /// Half of the next event, then the connection drops.
    Cut,
    /// Bytes that are neither UTF-8 nor an event's JSON, then the stream ends.
    Garbage,
}

/// Which matching requests a fault fires on.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Trigger {
    /// Every one.
    Always,
    /// Only the N-th (from 1).
    Nth(u64),
    /// The N-th, 2N-th, …
    Every(u64),
    /// The N-th and every later one.
    From(u64),
    /// Each with this probability, from a fixed seeded sequence.
    Rate(f64),
}

/// One parsed `--fault` value.
#[derive(Debug, Clone, PartialEq)]
pub struct FaultSpec {
    /// What it does.
    pub kind: FaultKind,
    /// Only API paths containing this substring.
    pub path: Option<String>,
    /// Which matching requests.
    pub trigger: Trigger,
}

/// Why a `--fault` value was refused.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum FaultSpecError {
    /// Unknown kind.
    #[error(
        "unknown fault kind `{0}` (expected latency, 429, 5xx, truncate, bad-cursor, broken-stream, contradicting-stream, endless-event or event-flood)"
    )]
    Kind(String),
    /// An option without `=`.
    #[error("fault option `{0}` is not of the form name=value")]
    Syntax(String),
    /// An option this kind does not take.
    #[error("fault option `{option}` does not apply to `{kind}`")]
    Option {
        /// The option.
        option: String,
        /// The kind.
        kind: String,
    },
    /// A value out of range or not a number.
    #[error("invalid value `{value}` for fault option `{option}`: {expected}")]
    Value {
        /// The option.
        option: String,
        /// The value given.
        value: String,
        /// What is expected.
        expected: &'static str,
    },
    /// A required option is missing.
    #[error("fault `{kind}` needs `{option}=`")]
    Missing {
        /// The kind.
        kind: String,
        /// The option.
        option: &'static str,
    },
    /// More than one of nth, every and rate.
    #[error("use at most one of nth=, every=, from= and rate=")]
    Triggers,
}

fn positive(option: &str, value: &str) -> Result<u64, FaultSpecError> {
    value
        .parse::<u64>()
        .ok()
        .filter(|n| *n > 0)
        .ok_or_else(|| FaultSpecError::Value {
            option: option.into(),
            value: value.into(),
            expected: "a positive integer",
        })
}

impl FromStr for FaultSpec {
    type Err = FaultSpecError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let mut parts = text.split(':');
        let kind_name = parts.next().unwrap_or_default().trim();
        let mut kind = match kind_name {
            "latency" => FaultKind::Latency { ms: 0 },
            "429" => FaultKind::RateLimit {
                retry_after_secs: 1,
            },
            "5xx" => FaultKind::ServerError {
                status: StatusCode::SERVICE_UNAVAILABLE,
            },
            "truncate" => FaultKind::Truncate,
            "bad-cursor" => FaultKind::BadCursor,
            "broken-stream" => FaultKind::BrokenStream {
                after: 1,
                end: StreamBreak::Cut,
            },
            "contradicting-stream" => FaultKind::HostileStream(HostileStream::Contradicting),
            "endless-event" => FaultKind::HostileStream(HostileStream::EndlessEvent {
                line_bytes: 64 * 1024,
            }),
            "event-flood" => FaultKind::HostileStream(HostileStream::Flood),
            other => return Err(FaultSpecError::Kind(other.into())),
        };
        let mut path = None;
        let mut trigger = Trigger::Always;
        let mut latency_given = false;
        for option in parts {
            let (name, value) = option
                .split_once('=')
                .ok_or_else(|| FaultSpecError::Syntax(option.into()))?;
            let set_trigger = |trigger: &mut Trigger, new: Trigger| {
                if *trigger != Trigger::Always {
                    return Err(FaultSpecError::Triggers);
                }
                *trigger = new;
                Ok(())
            };
            match (name, &mut kind) {
                ("path", _) => path = Some(value.to_owned()),
                ("nth", _) => set_trigger(&mut trigger, Trigger::Nth(positive(name, value)?))?,
                ("every", _) => set_trigger(&mut trigger, Trigger::Every(positive(name, value)?))?,
                ("from", _) => set_trigger(&mut trigger, Trigger::From(positive(name, value)?))?,
                ("rate", _) => {
                    let p = value
                        .parse::<f64>()
                        .ok()
                        .filter(|p| (0.0..=1.0).contains(p))
                        .ok_or_else(|| FaultSpecError::Value {
                            option: name.into(),
                            value: value.into(),
                            expected: "a number from 0 to 1",
                        })?;
                    set_trigger(&mut trigger, Trigger::Rate(p))?;
                }
                ("ms", FaultKind::Latency { ms }) => {
                    *ms = value.parse().map_err(|_| FaultSpecError::Value {
                        option: name.into(),
                        value: value.into(),
                        expected: "milliseconds as an integer",
                    })?;
                    latency_given = true;
                }
                ("retry-after", FaultKind::RateLimit { retry_after_secs }) => {
                    *retry_after_secs = value.parse().map_err(|_| FaultSpecError::Value {
                        option: name.into(),
                        value: value.into(),
                        expected: "seconds as an integer",
                    })?;
                }
                ("after", FaultKind::BrokenStream { after, .. }) => {
                    *after = value.parse().map_err(|_| FaultSpecError::Value {
                        option: name.into(),
                        value: value.into(),
                        expected: "a number of events (0 or more)",
                    })?;
                }
                (
                    "line-kib",
                    FaultKind::HostileStream(HostileStream::EndlessEvent { line_bytes }),
                ) => {
                    *line_bytes = positive(name, value)?
                        .min(1 << 20)
                        .saturating_mul(1024)
                        .try_into()
                        .unwrap_or(usize::MAX);
                }
                ("end", FaultKind::BrokenStream { end, .. }) => {
                    *end = match value {
                        "cut" => StreamBreak::Cut,
                        "garbage" => StreamBreak::Garbage,
                        _ => {
                            return Err(FaultSpecError::Value {
                                option: name.into(),
                                value: value.into(),
                                expected: "cut or garbage",
                            })
                        }
                    };
                }
                ("status", FaultKind::ServerError { status }) => {
                    *status = value
                        .parse::<u16>()
                        .ok()
                        .filter(|code| [500, 502, 503, 504].contains(code))
                        .and_then(|code| StatusCode::from_u16(code).ok())
                        .ok_or_else(|| FaultSpecError::Value {
                            option: name.into(),
                            value: value.into(),
                            expected: "500, 502, 503 or 504",
                        })?;
                }
                _ => {
                    return Err(FaultSpecError::Option {
                        option: name.into(),
                        kind: kind_name.into(),
                    })
                }
            }
        }
        if matches!(kind, FaultKind::Latency { .. }) && !latency_given {
            return Err(FaultSpecError::Missing {
                kind: kind_name.into(),
                option: "ms",
            });
        }
        Ok(Self {
            kind,
            path,
            trigger,
        })
    }
}

/// A fault with its count of matching requests.
#[derive(Debug)]
struct Armed {
    spec: FaultSpec,
    seen: AtomicU64,
    salt: u64,
}

/// The faults of a server.
#[derive(Debug)]
pub struct Faults(Vec<Armed>);

impl Faults {
    /// Arms `specs`; their counters start at zero.
    pub fn new(specs: &[FaultSpec]) -> Arc<Self> {
        Arc::new(Self(
            specs
                .iter()
                .enumerate()
                .map(|(i, spec)| Armed {
                    spec: spec.clone(),
                    seen: AtomicU64::new(0),
                    salt: mix64(0xfa17 + i as u64),
                })
                .collect(),
        ))
    }

    /// Whether no fault is configured.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl Armed {
    /// Counts the request if it matches; whether the fault fires on it.
    fn fires(&self, path: &str, has_cursor: bool) -> bool {
        if self
            .spec
            .path
            .as_deref()
            .is_some_and(|needle| !path.contains(needle))
        {
            return false;
        }
        if self.spec.kind == FaultKind::BadCursor && !has_cursor {
            return false;
        }
        let stream_only = matches!(
            self.spec.kind,
            FaultKind::BrokenStream { .. } | FaultKind::HostileStream(_)
        );
        if stream_only && !is_event_stream_path(path) {
            return false;
        }
        let n = self.seen.fetch_add(1, Ordering::Relaxed) + 1;
        match self.spec.trigger {
            Trigger::Always => true,
            Trigger::Nth(k) => n == k,
            Trigger::Every(k) => n.is_multiple_of(k),
            Trigger::From(k) => n >= k,
            Trigger::Rate(p) => {
                let unit = (mix64(self.salt ^ n) >> 11) as f64 / (1u64 << 53) as f64;
                unit < p
            }
        }
    }
}

fn has_cursor(query: Option<&str>) -> bool {
    query.is_some_and(|q| {
        q.split('&')
            .any(|pair| pair == "cursor" || pair.starts_with("cursor="))
    })
}

/// The largest body the truncate fault reads before cutting it.
const TRUNCATE_READ_LIMIT: usize = 64 * 1024 * 1024;

async fn truncated(response: Response) -> Response {
    if is_event_stream(&response) {
        return broken_stream(response, 0, StreamBreak::Cut);
    }
    let (mut parts, body) = response.into_parts();
    match axum::body::to_bytes(body, TRUNCATE_READ_LIMIT).await {
        Ok(bytes) => {
            parts.headers.remove(header::CONTENT_LENGTH);
            Response::from_parts(parts, Body::from(bytes.slice(..bytes.len() / 2)))
        }
        Err(_) => ApiError::server_failure(
            StatusCode::BAD_GATEWAY,
            "The response body could not be read.",
        )
        .into_response(),
    }
}

/// Middleware applying the configured faults to API requests.
pub async fn inject(State(faults): State<Arc<Faults>>, request: Request, next: Next) -> Response {
    let path = request.uri().path().to_owned();
    if !(path.starts_with("/api/") || path.starts_with("/v1/")) {
        return next.run(request).await;
    }
    let cursor = has_cursor(request.uri().query());
    let mut delay = 0;
    let mut failure: Option<ApiError> = None;
    let mut truncate = false;
    let mut broken = None;
    let mut hostile = None;
    for armed in &faults.0 {
        if !armed.fires(&path, cursor) {
            continue;
        }
        match &armed.spec.kind {
            FaultKind::Latency { ms } => delay += ms,
            FaultKind::Truncate => truncate = true,
            FaultKind::BrokenStream { after, end } => {
                broken.get_or_insert((*after, *end));
            }
            FaultKind::HostileStream(shape) => {
                hostile.get_or_insert(*shape);
            }
            kind => {
                failure.get_or_insert_with(|| match kind {
                    FaultKind::RateLimit { retry_after_secs } => {
                        ApiError::rate_limited(*retry_after_secs)
                    }
                    FaultKind::ServerError { status } => ApiError::server_failure(
                        *status,
                        "Injected fault: the service failed this request; retry it.",
                    ),
                    _ => ApiError::invalid_cursor("Injected fault: this cursor was refused."),
                });
            }
        }
    }
    if delay > 0 {
        tokio::time::sleep(Duration::from_millis(delay)).await;
    }
    if let Some(error) = failure {
        return error.into_response();
    }
    let response = next.run(request).await;
    if let Some(shape) = hostile {
        let job_id = path
            .trim_start_matches("/v1/backtests/jobs/")
            .trim_end_matches("/stream");
        return hostile_stream(response, job_id, shape);
    }
    match (truncate, broken) {
        (true, _) => truncated(response).await,
        (false, Some((after, end))) => broken_stream(response, after, end),
        (false, None) => response,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<FaultSpec, FaultSpecError> {
        text.parse()
    }

    #[test]
    fn parses_the_documented_syntax() {
        assert_eq!(
            parse("5xx:path=/trajectory-rewards:nth=2"),
            Ok(FaultSpec {
                kind: FaultKind::ServerError {
                    status: StatusCode::SERVICE_UNAVAILABLE
                },
                path: Some("/trajectory-rewards".into()),
                trigger: Trigger::Nth(2),
            })
        );
        assert_eq!(
            parse("429:every=3:retry-after=2").map(|s| (s.kind, s.trigger)),
            Ok((
                FaultKind::RateLimit {
                    retry_after_secs: 2
                },
                Trigger::Every(3)
            ))
        );
        assert_eq!(
            parse("latency:ms=150").map(|s| s.kind),
            Ok(FaultKind::Latency { ms: 150 })
        );
        assert_eq!(
            parse("5xx:status=500").map(|s| s.kind),
            Ok(FaultKind::ServerError {
                status: StatusCode::INTERNAL_SERVER_ERROR
            })
        );
        assert_eq!(
            parse("truncate:rate=0.5").map(|s| s.trigger),
            Ok(Trigger::Rate(0.5))
        );
        assert_eq!(
            parse("bad-cursor").map(|s| s.kind),
            Ok(FaultKind::BadCursor)
        );
    }

    #[test]
    fn refuses_invalid_values() {
        assert!(matches!(parse("boom"), Err(FaultSpecError::Kind(_))));
        assert!(matches!(
            parse("latency"),
            Err(FaultSpecError::Missing { .. })
        ));
        assert!(matches!(
            parse("5xx:status=404"),
            Err(FaultSpecError::Value { .. })
        ));
        assert!(matches!(
            parse("5xx:nth=0"),
            Err(FaultSpecError::Value { .. })
        ));
        assert!(matches!(
            parse("5xx:nth=1:every=2"),
            Err(FaultSpecError::Triggers)
        ));
        assert!(matches!(
            parse("429:ms=5"),
            Err(FaultSpecError::Option { .. })
        ));
        assert!(matches!(parse("429:path"), Err(FaultSpecError::Syntax(_))));
        assert!(matches!(
            parse("truncate:rate=2"),
            Err(FaultSpecError::Value { .. })
        ));
    }

    #[test]
    fn triggers_count_matching_requests_only() {
        let faults = Faults::new(&[parse("5xx:path=/rewards:every=2").unwrap()]);
        let fired: Vec<bool> = [
            "/api/a",
            "/api/rewards",
            "/api/rewards",
            "/api/b",
            "/api/rewards",
            "/api/rewards",
        ]
        .iter()
        .map(|p| faults.0[0].fires(p, false))
        .collect();
        assert_eq!(fired, [false, false, true, false, false, true]);
        let storm = Faults::new(&[parse("429:from=3").unwrap()]);
        let fired: Vec<bool> = (0..5).map(|_| storm.0[0].fires("/api/x", false)).collect();
        assert_eq!(fired, [false, false, true, true, true]);
        assert!(matches!(
            parse("429:from=3:every=2"),
            Err(FaultSpecError::Triggers)
        ));
        let cursor_only = Faults::new(&[parse("bad-cursor:nth=1").unwrap()]);
        assert!(!cursor_only.0[0].fires("/api/x", false));
        assert!(cursor_only.0[0].fires("/api/x", true));
        assert!(!cursor_only.0[0].fires("/api/x", true));
        assert!(has_cursor(Some("limit=2&cursor=abc")));
        assert!(!has_cursor(Some("limit=2&cursorx=abc")));
    }

    #[test]
    fn broken_stream_options_and_stream_requests_only() {
        assert_eq!(
            parse("broken-stream").map(|s| s.kind),
            Ok(FaultKind::BrokenStream {
                after: 1,
                end: StreamBreak::Cut
            })
        );
        assert_eq!(
            parse("broken-stream:after=0:end=garbage").map(|s| s.kind),
            Ok(FaultKind::BrokenStream {
                after: 0,
                end: StreamBreak::Garbage
            })
        );
        assert!(matches!(
            parse("broken-stream:end=later"),
            Err(FaultSpecError::Value { .. })
        ));
        assert!(matches!(
            parse("broken-stream:after=-1"),
            Err(FaultSpecError::Value { .. })
        ));
        assert!(matches!(
            parse("truncate:after=1"),
            Err(FaultSpecError::Option { .. })
        ));
        assert_eq!(
            parse("endless-event:line-kib=8").map(|s| s.kind),
            Ok(FaultKind::HostileStream(HostileStream::EndlessEvent {
                line_bytes: 8 * 1024
            }))
        );
        assert_eq!(
            parse("contradicting-stream").map(|s| s.kind),
            Ok(FaultKind::HostileStream(HostileStream::Contradicting))
        );
        assert!(matches!(
            parse("event-flood:line-kib=8"),
            Err(FaultSpecError::Option { .. })
        ));
        let faults = Faults::new(&[parse("broken-stream:nth=2").unwrap()]);
        let fired: Vec<bool> = [
            "/v1/backtests/jobs/j",
            "/v1/backtests/jobs/j/stream",
            "/v1/backtests/jobs/j/trials",
            "/v1/backtests/jobs/k/stream",
        ]
        .iter()
        .map(|p| faults.0[0].fires(p, false))
        .collect();
        assert_eq!(fired, [false, false, false, true]);
    }

    #[test]
    fn rate_fires_on_roughly_that_share() {
        let faults = Faults::new(&[parse("5xx:rate=0.25").unwrap()]);
        let fired = (0..4000)
            .filter(|_| faults.0[0].fires("/api/x", false))
            .count();
        assert!((800..1200).contains(&fired), "{fired}");
    }
}
