//! Reading server-sent event streams in tests: raw bytes as they arrive, parsed into events.

use std::time::Duration;

use serde_json::Value;

/// One event: its `id`, `event` and `data` fields.
#[derive(Debug, Clone, PartialEq)]
pub struct SseEvent {
    /// `id:`.
    pub id: Option<u64>,
    /// `event:`.
    pub event: String,
    /// `data:`, parsed as JSON.
    pub data: Value,
}

/// How reading ended.
#[derive(Debug, Clone, PartialEq)]
pub enum SseEnd {
    /// The server ended the response.
    Closed,
    /// The connection broke (the body could not be read to its end).
    Broken,
    /// The stop condition held.
    Stopped,
}

/// What a stream sent.
#[derive(Debug, Clone)]
pub struct SseRead {
    /// Complete events, in order.
    pub events: Vec<SseEvent>,
    /// Comment lines (without the colon), in order.
    pub comments: Vec<String>,
    /// Every byte received.
    pub raw: Vec<u8>,
    /// Bytes after the last complete block.
    pub rest: Vec<u8>,
    /// How reading ended.
    pub end: SseEnd,
}

/// Parses complete `\n\n`-terminated blocks of `raw`; panics on a block whose data is not
/// JSON or that lacks `event:` (the demo's stream never sends one).
fn parse(raw: &[u8]) -> (Vec<SseEvent>, Vec<String>, Vec<u8>) {
    let mut events = Vec::new();
    let mut comments = Vec::new();
    let mut rest = raw;
    while let Some(end) = rest.windows(2).position(|w| w == b"\n\n") {
        let block = std::str::from_utf8(&rest[..end]).expect("an event is UTF-8");
        rest = &rest[end + 2..];
        let (mut id, mut event, mut data) = (None, None, None);
        for line in block.lines() {
            if let Some(comment) = line.strip_prefix(':') {
                comments.push(comment.trim().to_owned());
            } else if let Some(value) = line.strip_prefix("id: ") {
                id = Some(value.parse().expect("numeric id"));
            } else if let Some(value) = line.strip_prefix("event: ") {
                event = Some(value.to_owned());
            } else if let Some(value) = line.strip_prefix("data: ") {
                data = Some(serde_json::from_str(value).expect("JSON data"));
            } else {
                panic!("unexpected line {line:?}");
            }
        }
        if let (Some(event), Some(data)) = (event, data) {
            events.push(SseEvent { id, event, data });
        }
    }
    (events, comments, rest.to_vec())
}

/// Reads `response` until `stop` holds for the events so far, the body ends or breaks, or
/// `within` has passed (a panic: the stream stalled).
pub async fn read_sse(
    response: &mut reqwest::Response,
    stop: impl Fn(&[SseEvent]) -> bool,
    within: Duration,
) -> SseRead {
    let deadline = tokio::time::Instant::now() + within;
    let mut raw = Vec::new();
    loop {
        let (events, comments, rest) = parse(&raw);
        if stop(&events) {
            return SseRead {
                events,
                comments,
                raw,
                rest,
                end: SseEnd::Stopped,
            };
        }
        let chunk = tokio::time::timeout_at(deadline, response.chunk())
            .await
            .unwrap_or_else(|_| {
                panic!(
                    "stream stalled; read so far: {}",
                    String::from_utf8_lossy(&raw)
                )
            });
        let end = match chunk {
            Ok(Some(bytes)) => {
                raw.extend_from_slice(&bytes);
                continue;
            }
            Ok(None) => SseEnd::Closed,
            Err(_) => SseEnd::Broken,
        };
        return SseRead {
            events,
            comments,
            raw,
            rest,
            end,
        };
    }
}

/// Reads `response` to its end (or break) within `within`, without parsing it.
pub async fn read_raw(response: &mut reqwest::Response, within: Duration) -> (Vec<u8>, SseEnd) {
    let deadline = tokio::time::Instant::now() + within;
    let mut raw = Vec::new();
    loop {
        let chunk = tokio::time::timeout_at(deadline, response.chunk())
            .await
            .expect("stream stalled");
        match chunk {
            Ok(Some(bytes)) => raw.extend_from_slice(&bytes),
            Ok(None) => return (raw, SseEnd::Closed),
            Err(_) => return (raw, SseEnd::Broken),
        }
    }
}

/// Opens `base + path` as an event stream, with `Last-Event-ID` when given; asserts 200 and
/// `text/event-stream`.
pub async fn open_stream(
    client: &reqwest::Client,
    base: &str,
    path: &str,
    last_event_id: Option<&str>,
) -> reqwest::Response {
    let mut request = client
        .get(format!("{base}{path}"))
        .header("accept", "text/event-stream");
    if let Some(id) = last_event_id {
        request = request.header("last-event-id", id);
    }
    let response = request.send().await.unwrap();
    assert_eq!(response.status().as_u16(), 200, "GET {path}");
    assert_eq!(
        response.headers()["content-type"].to_str().unwrap(),
        "text/event-stream",
        "GET {path}"
    );
    response
}
