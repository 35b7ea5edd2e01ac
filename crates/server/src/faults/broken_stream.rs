//! The `broken-stream` fault (and `truncate` on a stream): a server-sent event stream passes
//! its first events, then is cut in the middle of the next one (the connection drops) or
//! spoiled by garbage (then it ends).

use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::http::header;
use axum::response::Response;

use super::StreamBreak;

/// Whether a response is a server-sent event stream.
pub fn is_event_stream(response: &Response) -> bool {
    response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|t| t.trim_start().starts_with("text/event-stream"))
}

/// What a broken stream sends instead of its next event with [`StreamBreak::Garbage`].
const GARBAGE: &[u8] = b"event: trial_finished\ndata: {\"job_id\": \xff\xfe\x00 not json\n\n\xc3\x28\x80 no event here\n\n";

/// Where the first block of `buf` (lines up to a blank line; `\n`, `\r\n` or `\r` end a line)
/// ends, if it is complete.
fn block_end(buf: &[u8]) -> Option<usize> {
    let mut line_start = true;
    let mut i = 0;
    while i < buf.len() {
        let terminator = match buf[i] {
            b'\n' => 1,
            b'\r' if buf.get(i + 1) == Some(&b'\n') => 2,
            b'\r' if i + 1 == buf.len() => return None,
            b'\r' => 1,
            _ => 0,
        };
        if terminator == 0 {
            line_start = false;
            i += 1;
        } else if line_start {
            return Some(i + terminator);
        } else {
            line_start = true;
            i += terminator;
        }
    }
    None
}

/// How long a cut stream's connection stays up after the half event, so that it is delivered.
const BREAK_DELAY: Duration = Duration::from_millis(50);

/// The state of a stream being broken.
struct Breaker {
    inner: axum::body::BodyDataStream,
    pending: Vec<u8>,
    passed: u64,
    after: u64,
    end: StreamBreak,
    /// The break happened; with [`StreamBreak::Cut`] the connection drops next.
    broken: bool,
    /// Nothing more is sent.
    over: bool,
}

impl Breaker {
    /// Moves the complete blocks (ending with a blank line) of `pending` to the output while
    /// fewer than `after` events have passed; breaks at the next event.
    fn drain(&mut self, out: &mut Vec<u8>) {
        while let Some(end) = block_end(&self.pending) {
            let block: Vec<u8> = self.pending.drain(..end).collect();
            let is_event = block
                .split(|b| *b == b'\n' || *b == b'\r')
                .any(|line| !line.is_empty() && !line.starts_with(b":"));
            if !is_event {
                out.extend_from_slice(&block);
            } else if self.passed < self.after {
                self.passed += 1;
                out.extend_from_slice(&block);
            } else {
                match self.end {
                    StreamBreak::Cut => out.extend_from_slice(&block[..block.len() / 2]),
                    StreamBreak::Garbage => out.extend_from_slice(GARBAGE),
                }
                self.broken = true;
                return;
            }
        }
    }

    /// The next chunk of the broken stream.
    async fn next(&mut self) -> Option<Result<Bytes, std::io::Error>> {
        use futures::StreamExt as _;
        if self.broken {
            // Dropping the connection: an error from the body aborts it mid-response, once what
            // was sent before has had a moment to leave.
            let drop_connection = self.end == StreamBreak::Cut && !self.over;
            self.over = true;
            if drop_connection {
                tokio::time::sleep(BREAK_DELAY).await;
            }
            return drop_connection.then(|| {
                Err(std::io::Error::other(
                    "injected fault: the progress stream broke",
                ))
            });
        }
        loop {
            match self.inner.next().await {
                Some(Ok(bytes)) => {
                    self.pending.extend_from_slice(&bytes);
                    let mut out = Vec::new();
                    self.drain(&mut out);
                    if !out.is_empty() {
                        return Some(Ok(Bytes::from(out)));
                    }
                }
                Some(Err(error)) => return Some(Err(std::io::Error::other(error))),
                None if self.pending.is_empty() => return None,
                None => return Some(Ok(Bytes::from(std::mem::take(&mut self.pending)))),
            }
        }
    }
}

/// `response` broken after `after` events when it is an event stream; otherwise unchanged.
pub fn broken_stream(response: Response, after: u64, end: StreamBreak) -> Response {
    if !is_event_stream(&response) {
        return response;
    }
    let (parts, body) = response.into_parts();
    let breaker = Breaker {
        inner: body.into_data_stream(),
        pending: Vec::new(),
        passed: 0,
        after,
        end,
        broken: false,
        over: false,
    };
    let chunks = futures::stream::unfold(breaker, |mut breaker| async move {
        let chunk = breaker.next().await?;
        Some((chunk, breaker))
    });
    Response::from_parts(parts, Body::from_stream(chunks))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_end_at_a_blank_line_of_any_line_ending() {
        assert_eq!(block_end(b"id: 1\ndata: x\n\nrest"), Some(15));
        assert_eq!(block_end(b"data: x\r\n\r\n"), Some(11));
        assert_eq!(block_end(b"data: x\r\rid: 2"), Some(9));
        assert_eq!(block_end(b"data: x\r"), None);
        assert_eq!(block_end(b"data: x\n"), None);
        assert_eq!(block_end(b"\n"), Some(1));
    }
}
