//! The Trajectory API client, written once and generic over a [`Transport`]: the viewer
//! implements the transport with gloo-net, the CLI with reqwest, tests with a scripted fake.
//!
//! It sends the key as `X-API-Key` (only when set) and pins the contract version, follows cursor
//! pagination with progress and resumable partial results (every read ends: see [`PageCap`]),
//! retries connection failures, timeouts, 408, 429 and 5xx with deterministic backoff honouring
//! `retry-after-ms`, `Retry-After` and `Trajectory-Should-Retry`, and maps failures to
//! [`ApiError`]s that never contain the key (redacted before any excerpt is cut).

mod billing_endpoints;
mod chronicle_endpoints;
mod chronicle_wait;
mod config;
mod endpoints;
mod error;
mod http_date;
mod key;
pub mod list_stream;
mod page_guard;
mod paginate;
pub mod paths;
mod query;
pub mod retry;
pub mod sse;
mod stream_records;
mod trajectory_client;
mod transport;
mod watch_pace;

pub use billing_endpoints::{BILLING_MAX_LIMIT, MAX_BILLING_PAGES};
pub use chronicle_endpoints::{StreamEnd, StreamSummary, CHRONICLE_MAX_LIMIT};
pub use chronicle_wait::{WaitOutcome, WaitProgress, STREAM_ATTEMPTS};
pub use config::{
    ClientConfig, RetryPolicy, API_VERSION_HEADER, DEFAULT_API_VERSION, DEFAULT_BASE_URL,
};
pub use endpoints::{AgentRunFilter, BenchmarkRunFilter, REMAINING_WORK_MAX_LIMIT};
pub use error::{ApiError, HttpError, Service, REQUEST_ID_HEADER};
pub use http_date::parse_http_date_ms;
pub use key::{ApiKey, InvalidApiKey, API_KEY_HEADER};
pub use page_guard::{PageCap, PageGuard, DEFAULT_MAX_PAGES, MAX_PAGES_CEILING};
pub use paginate::{PageProgress, Paginator, PartialList, MAX_PAGE_LIMIT};
pub use query::percent_encode;
pub(crate) use query::segment;
pub use trajectory_client::TrajectoryClient;
pub use transport::{
    hand_over_body, HttpRequest, HttpResponse, OpenBody, Transport, TransportError,
};
pub use watch_pace::{Contradiction, NextTry, WatchPace, WatchPolicy};
