//! The server's streamed lists, written once for the server that sends them and the load engine
//! that reads them: a whole list in one response, read by `eval-compare-server` page by page
//! from the API (or its demo) with the same paginator and guards as the client's own paging.
//!
//! `GET /stream/v1/eval/{run}/trajectory-rewards`, `GET /stream/v1/eval/{run}/trajectories`,
//! `GET /stream/v1/backtests/jobs/{job}/trials` and `GET /stream/v1/benchmarks/{bench}/tasks`
//! (see [`StreamedList::path`]) answer
//! `200` with `Content-Type: application/x-ndjson` and a body of JSON Lines: one line per page,
//! each the API's page as it came (its line breaks, which JSON allows only as whitespace, made
//! spaces), in list order; the lines before the trailer are a run folder's list file ("JSON
//! Lines of pages"). The **last line is always the trailer** `{"stream_end":{…}}`
//! ([`ListStreamEnd`]): `complete: true` after the last page, or `complete: false` naming the
//! page that failed and why. A body that ends without a trailer was cut: the reader never takes
//! it for the end of the list. When the first page already fails with an API error, the
//! stream answers that error's status and body instead, as the API gave it.
//!
//! A read that stopped resumes with [`StreamResume`]: the next page's cursor (the last page
//! line's `next_cursor`) and the pages and items already read, so the page cap still counts
//! them. The request carries the caller's key in `X-API-Key`, never in the URL.
//! `GET /stream/v1/capabilities` ([`StreamCapabilities`]) tells a client the server offers
//! them; any other answer means it does not, and the client pages the contract itself.

use serde::{Deserialize, Serialize};

use super::error::{ApiError, HttpError, Service};
use super::query::{segment, Query};

pub use super::stream_records::{Record, RecordSplitter};

/// Where the streamed lists live, outside `/api/` and `/v1/` (never forwarded upstream).
pub const STREAM_PREFIX: &str = "/stream/v1";
/// The path telling whether the server streams lists.
pub const STREAM_CAPABILITIES_PATH: &str = "/stream/v1/capabilities";
/// The path asking the server to read ahead the lists of finished runs the page will ask for
/// later ([`prefetch_path`]; offered when [`StreamCapabilities::prefetch`]).
pub const STREAM_PREFETCH_PATH: &str = "/stream/v1/prefetch";
/// The query parameter naming a run to read ahead (repeated, at most [`PREFETCH_MAX_RUNS`]).
pub const PREFETCH_RUN_PARAM: &str = "run";
/// The most runs one read-ahead request may name.
pub const PREFETCH_MAX_RUNS: usize = 64;
/// The streamed lists' content type.
pub const STREAM_CONTENT_TYPE: &str = "application/x-ndjson";
/// The content type of a stream in the packed form ([`PACKED_FORM`]): JSON Lines and frames.
pub const PACKED_STREAM_CONTENT_TYPE: &str = "application/vnd.eval-compare.packed-stream";
/// The protocol version a [`StreamCapabilities`] announces (this module's form).
pub const STREAM_PROTOCOL: u32 = 1;
/// The key of the trailer line's one member.
pub const TRAILER_KEY: &str = "stream_end";

/// A list the server streams.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StreamedList {
    /// A run's trajectory rewards.
    Rewards,
    /// A run's trajectories.
    Trajectories,
    /// A Chronicle job's trials.
    Trials,
    /// A benchmark version's tasks.
    Tasks,
}

impl StreamedList {
    /// Every streamed list, in the order [`StreamCapabilities::lists`] names them.
    pub const ALL: [StreamedList; 4] =
        [Self::Rewards, Self::Trajectories, Self::Trials, Self::Tasks];

    /// The list's name in [`StreamCapabilities::lists`] and in paths.
    pub fn name(self) -> &'static str {
        match self {
            Self::Rewards => "trajectory-rewards",
            Self::Trajectories => "trajectories",
            Self::Trials => "trials",
            Self::Tasks => "tasks",
        }
    }

    /// The stream's path for `owner` (a run, or a job for trials), the id percent-encoded.
    pub fn path(self, owner: &str) -> Result<String, ApiError> {
        let id = segment(self.owner_noun(), owner)?;
        Ok(match self {
            Self::Rewards | Self::Trajectories => {
                format!("{STREAM_PREFIX}/eval/{id}/{}", self.name())
            }
            Self::Trials => format!("{STREAM_PREFIX}/backtests/jobs/{id}/trials"),
            Self::Tasks => format!("{STREAM_PREFIX}/benchmarks/{id}/tasks"),
        })
    }

    /// What owns the list, for messages.
    pub fn owner_noun(self) -> &'static str {
        match self {
            Self::Rewards | Self::Trajectories => "evaluation run id",
            Self::Trials => "job id",
            Self::Tasks => "benchmark id",
        }
    }

    /// The API the list is read from.
    pub fn service(self) -> Service {
        match self {
            Self::Rewards | Self::Trajectories | Self::Tasks => Service::Trajectory,
            Self::Trials => Service::Chronicle,
        }
    }
}

/// Where a streamed read starts: at the beginning, or after what an earlier read kept.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StreamResume {
    /// The cursor of the next page (`None`: the first page).
    pub cursor: Option<String>,
    /// Pages already read (they count towards the page cap).
    pub pages: u32,
    /// Items already read.
    pub items: u64,
    /// The items the caller expects the whole list to hold (its page cap's basis), if known.
    pub expected: Option<u64>,
}

/// The query parameter of [`StreamResume::cursor`].
pub const CURSOR_PARAM: &str = "cursor";
/// The query parameter of [`StreamResume::pages`].
pub const PAGES_PARAM: &str = "pages_read";
/// The query parameter of [`StreamResume::items`].
pub const ITEMS_PARAM: &str = "items_read";
/// The query parameter of [`StreamResume::expected`].
pub const EXPECTED_PARAM: &str = "expected_items";
/// The query parameter asking for a form of the items other than the API's.
pub const FORM_PARAM: &str = "form";
/// The form with only the fields the model keeps (`large_list::kept_trajectory_page`), offered
/// for the trajectories and their rewards when the capabilities list it in `forms`, and for a
/// benchmark's tasks (their id, label, split and categories: `large_list::kept_task_page`).
pub const KEPT_FORM: &str = "kept";
/// The kept form packed (`large_list::encode_trajectory_page`), offered for the trajectories
/// and their rewards when the capabilities list it in `forms`: each page line the codec packs
/// is sent as its frame (`0xFF`, the body's length as a `u32` little-endian, the body; no
/// `\n` after it), any other line (a page the codec leaves as it is, the trailer) as in the
/// kept stream. Such a body is not JSON Lines: its records are told apart by their first
/// byte ([`crate::large_list::is_frame_start`]), a frame's end by its length, and it is sent
/// as [`PACKED_STREAM_CONTENT_TYPE`]. Tasks have no packed form: asked for it, they are sent
/// in their kept form; trials as the API's.
pub const PACKED_FORM: &str = "packed";

/// The read-ahead request for the runs `runs` (at most [`PREFETCH_MAX_RUNS`] of them are
/// named) in `form` (the API's when `None`): both lists of each, which the server reads into
/// its cache when the run is finished, so that the page's own requests for them, made when a
/// connection is free, are served what was kept.
pub fn prefetch_path(runs: &[String], form: Option<&str>) -> String {
    let mut query = Query::default();
    for run in runs.iter().take(PREFETCH_MAX_RUNS) {
        query.push(PREFETCH_RUN_PARAM, run.as_str());
    }
    query.push_opt(FORM_PARAM, form);
    format!("{STREAM_PREFETCH_PATH}{}", query.to_query_string())
}

impl StreamResume {
    /// The query string (`?…`, or empty) carrying this position.
    pub fn to_query_string(&self) -> String {
        let mut query = Query::default();
        query.push_opt(CURSOR_PARAM, self.cursor.as_deref());
        if self.pages > 0 {
            query.push(PAGES_PARAM, self.pages.to_string());
            query.push(ITEMS_PARAM, self.items.to_string());
        }
        if let Some(expected) = self.expected {
            query.push(EXPECTED_PARAM, expected.to_string());
        }
        query.to_query_string()
    }
}

/// Why a stream stopped before its list's end, as its trailer says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StreamFailure {
    /// The API answered the page with an error status.
    Http,
    /// The API could not be reached, or not in time, or its answer was too large.
    Transport,
    /// The API's page broke the contract or would make the list never end.
    Contract,
}

/// The trailer: the last line of every stream (`{"stream_end":{…}}`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ListStreamEnd {
    /// Whether every page was sent.
    pub complete: bool,
    /// Pages read, counting those of a resumed read.
    pub pages_read: u32,
    /// Items read, counting those of a resumed read.
    pub items_read: u64,
    /// The 1-based page that failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failed_page: Option<u32>,
    /// What kind of failure.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure: Option<StreamFailure>,
    /// The API's status, for [`StreamFailure::Http`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<u16>,
    /// The API's error code (e.g. `invalid_cursor`), when it gave one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    /// What happened, in words (never the key).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// Whether asking again may help.
    #[serde(default)]
    pub retryable: bool,
}

#[derive(Serialize, Deserialize)]
struct Trailer {
    stream_end: ListStreamEnd,
}

impl ListStreamEnd {
    /// The trailer of a complete list of `pages` pages and `items` items.
    pub fn complete(pages: u32, items: u64) -> Self {
        Self {
            complete: true,
            pages_read: pages,
            items_read: items,
            failed_page: None,
            failure: None,
            status: None,
            code: None,
            message: None,
            retryable: false,
        }
    }

    /// The trailer line, newline included.
    pub fn to_line(&self) -> String {
        let trailer = Trailer {
            stream_end: self.clone(),
        };
        let mut line = serde_json::to_string(&trailer).unwrap_or_else(|_| {
            format!(
                "{{\"{TRAILER_KEY}\":{{\"complete\":false,\"pages_read\":0,\"items_read\":0}}}}"
            )
        });
        line.push('\n');
        line
    }

    /// The trailer in `line`, when it is one (a page line is not).
    pub fn parse(line: &[u8]) -> Option<Self> {
        let trimmed = line.trim_ascii_start();
        if !trimmed.starts_with(b"{\"stream_end\"") {
            return None;
        }
        serde_json::from_slice::<Trailer>(line)
            .ok()
            .map(|t| t.stream_end)
    }

    /// The error a failed stream ends with, naming the page; `key_sent` says whether the
    /// request carried a key (a 401 without one is said as such).
    pub fn error(&self, list: StreamedList, owner: &str, key_sent: bool) -> Option<ApiError> {
        if self.complete {
            return None;
        }
        let page = self.failed_page.unwrap_or(self.pages_read + 1);
        let what = self
            .message
            .clone()
            .unwrap_or_else(|| "no reason given".to_owned());
        let named = format!(
            "page {page} of the {} of {owner} (streamed by the server): {what}",
            list.name()
        );
        Some(match (self.failure, self.status) {
            (Some(StreamFailure::Http), Some(status)) => HttpError {
                service: list.service(),
                status,
                code: self.code.clone(),
                error_type: None,
                message: named,
                param: None,
                request_id: None,
                retry_after_ms: None,
                key_sent,
            }
            .into(),
            (Some(StreamFailure::Transport), _) => {
                ApiError::Transport(super::TransportError::Other(named))
            }
            _ => ApiError::UnexpectedResponse {
                message: named,
                request_id: None,
            },
        })
    }
}

/// What `GET /stream/v1/capabilities` answers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StreamCapabilities {
    /// The protocol version ([`STREAM_PROTOCOL`]).
    pub list_streams: u32,
    /// The lists streamed ([`StreamedList::name`]).
    pub lists: Vec<String>,
    /// Whether finished runs' lists are kept by the server (proxy mode with its cache).
    #[serde(default)]
    pub cache: bool,
    /// The item forms offered besides the API's ([`KEPT_FORM`], [`PACKED_FORM`]); none from
    /// an older server.
    #[serde(default)]
    pub forms: Vec<String>,
    /// Whether the server reads finished runs' lists ahead into its cache when asked
    /// ([`STREAM_PREFETCH_PATH`]); false from an older server.
    #[serde(default)]
    pub prefetch: bool,
}

impl StreamCapabilities {
    /// Whether these capabilities offer `list` in this protocol.
    pub fn offers(&self, list: StreamedList) -> bool {
        self.list_streams == STREAM_PROTOCOL && self.lists.iter().any(|name| name == list.name())
    }
}

/// A page's body as one line: JSON's line breaks (whitespace only: inside strings they are
/// escaped) made spaces, and a `\n` appended.
pub fn page_line(body: &[u8]) -> Vec<u8> {
    let mut line: Vec<u8> = body
        .iter()
        .map(|&b| if b == b'\n' || b == b'\r' { b' ' } else { b })
        .collect();
    line.push(b'\n');
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_resume_and_trailer_round_trip() {
        assert_eq!(
            StreamedList::Rewards.path("er 1").ok().as_deref(),
            Some("/stream/v1/eval/er%201/trajectory-rewards")
        );
        assert_eq!(
            StreamedList::Trials.path("job_1").ok().as_deref(),
            Some("/stream/v1/backtests/jobs/job_1/trials")
        );
        assert!(StreamedList::Trajectories.path("").is_err());
        let resume = StreamResume {
            cursor: Some("c 2".into()),
            pages: 2,
            items: 400,
            expected: Some(1000),
        };
        assert_eq!(
            resume.to_query_string(),
            "?cursor=c%202&pages_read=2&items_read=400&expected_items=1000"
        );
        assert_eq!(StreamResume::default().to_query_string(), "");
        let end = ListStreamEnd {
            complete: false,
            pages_read: 2,
            items_read: 400,
            failed_page: Some(3),
            failure: Some(StreamFailure::Http),
            status: Some(400),
            code: Some("invalid_cursor".into()),
            message: Some("expired".into()),
            retryable: false,
        };
        let line = end.to_line();
        assert!(line.ends_with('\n') && line.starts_with("{\"stream_end\""));
        assert_eq!(
            ListStreamEnd::parse(line.trim_end().as_bytes()),
            Some(end.clone())
        );
        assert_eq!(ListStreamEnd::parse(b"{\"items\":[]}"), None);
        let error = end.error(StreamedList::Rewards, "er_1", true).unwrap();
        assert!(error.is_invalid_cursor());
        assert!(error.to_string().contains("page 3"), "{error}");
    }

    #[test]
    fn a_page_is_made_one_line() {
        assert_eq!(page_line(b"{\n \"a\":\r\n1}"), b"{  \"a\":  1}\n");
    }
}
