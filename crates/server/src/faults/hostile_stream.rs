//! Progress streams of a hostile (or lagging) API, for testing that watchers stay bounded:
//! `contradicting-stream` says the job succeeded at once and closes, whatever its record says;
//! `endless-event` sends `data:` lines for ever without the blank line that ends an event;
//! `event-flood` sends `trial_finished` events for ever, as fast as the client reads.

use axum::body::{Body, Bytes};
use axum::response::Response;

use super::broken_stream::is_event_stream;

/// What a hostile progress stream sends instead of the job's events.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HostileStream {
    /// `run_finished` with status `succeeded` at once, then the end of the stream.
    Contradicting,
    /// `data:` lines of this many bytes (the prefix included), for ever, no blank line.
    EndlessEvent {
        /// Bytes per line.
        line_bytes: usize,
    },
    /// `trial_finished` events for ever.
    Flood,
}

/// Bytes of each chunk of an endless stream.
const CHUNK_BYTES: usize = 64 * 1024;

/// `response` with its body replaced by `shape`'s when it is a progress stream (a refusal or
/// another answer is left as it is); `job_id` is the job of the stream's path.
pub fn hostile_stream(response: Response, job_id: &str, shape: HostileStream) -> Response {
    if !is_event_stream(&response) {
        return response;
    }
    let (parts, _) = response.into_parts();
    let body = match shape {
        HostileStream::Contradicting => {
            let data = serde_json::json!({ "job_id": job_id, "status": "succeeded" });
            Body::from(format!("id: 1\nevent: run_finished\ndata: {data}\n\n"))
        }
        HostileStream::EndlessEvent { line_bytes } => {
            let mut line = b"data: ".to_vec();
            line.resize(line_bytes.max(8) - 1, b'x');
            line.push(b'\n');
            endless(line.repeat(CHUNK_BYTES.div_ceil(line.len())))
        }
        HostileStream::Flood => {
            let data = serde_json::json!({
                "job_id": job_id, "trial_id": "tr_flood", "agent": "flood@1",
                "task_id": "t_flood", "status": "succeeded",
            });
            let event = format!("event: trial_finished\ndata: {data}\n\n");
            endless(event.repeat(CHUNK_BYTES / event.len()).into_bytes())
        }
    };
    Response::from_parts(parts, body)
}

/// A body repeating `chunk` for as long as the client reads.
fn endless(chunk: Vec<u8>) -> Body {
    let chunk = Bytes::from(chunk);
    let chunks = futures::stream::repeat_with(move || Ok::<_, std::io::Error>(chunk.clone()));
    Body::from_stream(chunks)
}
