//! When a read of reward components gives up: after [`FAILURES_IN_A_ROW`] trajectories in a row
//! whose read failed (the API has stopped answering), or when the whole read's deadline
//! ([`read_deadline_ms`]) passes (the API hangs). What was read stays; reading again continues.

use std::fmt;

use crate::client::{ApiError, TransportError};
use crate::text::count;

/// Trajectories in a row whose read failed (after the client's retries) that stop the read.
/// A trajectory the API says does not exist (404) is not counted: asking again would not help,
/// but it says nothing about the API.
pub const FAILURES_IN_A_ROW: usize = 10;

/// The deadline of a whole read, in minutes, before [`DEADLINE_TRAJECTORIES_PER_MINUTE`] are
/// added per minute.
pub const DEADLINE_BASE_MINUTES: u64 = 10;

/// Trajectories that add a minute to the deadline (100 ms each: ten times the pace of six reads
/// at a time over a good connection).
pub const DEADLINE_TRAJECTORIES_PER_MINUTE: u64 = 600;

/// The deadline of a read of `wanted` trajectories' components, in whole minutes:
/// [`DEADLINE_BASE_MINUTES`] plus a minute per [`DEADLINE_TRAJECTORIES_PER_MINUTE`] (400
/// trajectories: 11 min; 20,000: 44 min).
pub fn read_deadline_minutes(wanted: usize) -> u64 {
    DEADLINE_BASE_MINUTES + (wanted as u64).div_ceil(DEADLINE_TRAJECTORIES_PER_MINUTE)
}

/// [`read_deadline_minutes`] in milliseconds.
pub fn read_deadline_ms(wanted: usize) -> u64 {
    read_deadline_minutes(wanted) * 60_000
}

/// How a read of components is bounded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ComponentReadLimits {
    /// Reads in flight at once.
    pub concurrency: usize,
    /// Failed trajectories in a row that stop the read (0: never).
    pub failures_in_a_row: usize,
    /// Milliseconds the whole read may take, on the transport's clock.
    pub deadline_ms: u64,
}

impl ComponentReadLimits {
    /// The limits of a read of `wanted` trajectories: [`super::COMPONENT_CONCURRENCY`] at a time,
    /// stopped after [`FAILURES_IN_A_ROW`] failures in a row or at [`read_deadline_ms`].
    pub fn for_reads(wanted: usize) -> Self {
        Self {
            concurrency: super::COMPONENT_CONCURRENCY,
            failures_in_a_row: FAILURES_IN_A_ROW,
            deadline_ms: read_deadline_ms(wanted),
        }
    }
}

/// Why a read of components stopped before it ended.
#[derive(Debug, Clone, PartialEq)]
pub enum ComponentStopCause {
    /// This many reads in a row failed; the last one's error.
    FailuresInARow(usize, ApiError),
    /// The whole read's deadline (milliseconds) passed.
    Deadline(u64),
}

/// A read of components that gave up, with how far it got. Displays as a sentence fragment,
/// e.g. `stopped after 10 reads in a row failed (HTTP 429 Too Many Requests); 20 of 400 read`.
#[derive(Debug, Clone, PartialEq)]
pub struct ComponentStop {
    /// Why.
    pub cause: ComponentStopCause,
    /// Trajectories read when it stopped.
    pub read: usize,
    /// Trajectories asked for.
    pub wanted: usize,
}

impl ComponentStop {
    /// The last error, when failures stopped the read.
    pub fn last_error(&self) -> Option<&ApiError> {
        match &self.cause {
            ComponentStopCause::FailuresInARow(_, error) => Some(error),
            ComponentStopCause::Deadline(_) => None,
        }
    }
}

impl fmt::Display for ComponentStop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.cause {
            ComponentStopCause::FailuresInARow(failed, error) => write!(
                f,
                "stopped after {failed} reads in a row failed ({})",
                short_cause(error)
            )?,
            ComponentStopCause::Deadline(ms) => write!(
                f,
                "stopped when the whole read's deadline of {} min passed",
                ms / 60_000
            )?,
        }
        write!(
            f,
            "; {} of {} read",
            count(self.read as u64),
            count(self.wanted as u64)
        )
    }
}

/// What went wrong in a few words: `HTTP 429 Too Many Requests`, `no answer in time`.
fn short_cause(error: &ApiError) -> String {
    match error {
        ApiError::Http(http) => match reason_phrase(http.status) {
            Some(reason) => format!("HTTP {} {reason}", http.status),
            None => format!("HTTP {}", http.status),
        },
        ApiError::Transport(TransportError::Timeout) => "no answer in time".to_owned(),
        ApiError::Transport(TransportError::Connect(_)) => "the connection failed".to_owned(),
        ApiError::Transport(TransportError::Limit(detail)) => detail.clone(),
        ApiError::Transport(_) => "the request failed".to_owned(),
        ApiError::Decode { .. } | ApiError::UnexpectedResponse { .. } => {
            "answers that could not be read".to_owned()
        }
        ApiError::InvalidArgument(_) => "invalid requests".to_owned(),
    }
}

/// The reason phrase of the statuses a read of components meets when the API stops answering.
fn reason_phrase(status: u16) -> Option<&'static str> {
    Some(match status {
        401 => "Unauthorized",
        403 => "Forbidden",
        408 => "Request Timeout",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        504 => "Gateway Timeout",
        _ => return None,
    })
}

/// Counts the trajectories whose read failed in a row.
#[derive(Debug)]
pub(super) struct Breaker {
    limit: usize,
    failed: usize,
}

impl Breaker {
    /// A breaker tripping after `limit` failures in a row (0: never).
    pub(super) fn new(limit: usize) -> Self {
        Self { limit, failed: 0 }
    }

    /// Counts a read's outcome; the cause when this one trips the breaker.
    pub(super) fn record(&mut self, outcome: Result<(), &ApiError>) -> Option<ComponentStopCause> {
        match outcome {
            Ok(()) => self.failed = 0,
            Err(error) if error.is_not_found() || error.is_aborted() => {}
            Err(error) => {
                self.failed += 1;
                if self.limit > 0 && self.failed >= self.limit {
                    return Some(ComponentStopCause::FailuresInARow(
                        self.failed,
                        error.clone(),
                    ));
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn timeout() -> ApiError {
        ApiError::Transport(TransportError::Timeout)
    }

    #[test]
    fn the_breaker_trips_on_failures_in_a_row_only() {
        let mut breaker = Breaker::new(3);
        let refused = ApiError::Transport(TransportError::Connect("refused".to_owned()));
        assert_eq!(breaker.record(Err(&timeout())), None);
        assert_eq!(breaker.record(Err(&timeout())), None);
        assert_eq!(
            breaker.record(Ok(())),
            None,
            "a success starts the count over"
        );
        assert_eq!(breaker.record(Err(&timeout())), None);
        let cancelled = ApiError::Transport(TransportError::Aborted);
        assert_eq!(breaker.record(Err(&cancelled)), None, "not counted");
        assert_eq!(breaker.record(Err(&timeout())), None);
        assert_eq!(
            breaker.record(Err(&refused)),
            Some(ComponentStopCause::FailuresInARow(3, refused.clone()))
        );
        let mut never = Breaker::new(0);
        assert!((0..100).all(|_| never.record(Err(&timeout())).is_none()));
    }

    #[test]
    fn a_stop_says_what_happened_and_how_far_it_got() {
        let stop = ComponentStop {
            cause: ComponentStopCause::FailuresInARow(10, timeout()),
            read: 20,
            wanted: 400,
        };
        assert_eq!(
            stop.to_string(),
            "stopped after 10 reads in a row failed (no answer in time); 20 of 400 read"
        );
        assert_eq!(stop.last_error(), Some(&timeout()));
        let stop = ComponentStop {
            cause: ComponentStopCause::Deadline(read_deadline_ms(1_200)),
            read: 1_100,
            wanted: 1_200,
        };
        assert_eq!(
            stop.to_string(),
            "stopped when the whole read's deadline of 12 min passed; 1,100 of 1,200 read"
        );
        assert_eq!(stop.last_error(), None);
    }

    #[test]
    fn the_deadline_grows_with_the_trajectories_read() {
        assert_eq!(read_deadline_minutes(0), 10);
        assert_eq!(read_deadline_minutes(400), 11);
        assert_eq!(read_deadline_minutes(20_000), 44);
        assert_eq!(read_deadline_ms(400), 660_000);
    }
}
