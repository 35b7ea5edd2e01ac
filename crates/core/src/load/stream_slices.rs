//! A streamed body's lines handed over in time-budgeted slices, so that decoding a large list
//! never holds the page's main thread for long.
//!
//! [`Transport::send_streaming`] hands each chunk to a plain callback, which cannot wait: a
//! stream decoded there decodes every line of a chunk at once, and in a browser the chunks
//! already received follow each other without the event loop getting a turn (a 2 × 100k × 8
//! comparison held the page for up to 971 ms). Here the callback only splits the body into
//! lines and queues them; a second future takes the lines in order and hands them to the
//! caller, waiting [`Transport::sleep`]`(0)` (in a browser: a task later, the page painting
//! and handling input in between) once a slice has run [`STREAM_SLICE_MS`] or handed over
//! [`STREAM_SLICE_BYTES`] (the bound when the clock is coarse or stands still). Reading
//! pauses while [`QUEUED_BYTES_MAX`] of lines wait, so the raw body held stays small.
//!
//! Hand-written over `futures`' `join`: the reader must not be polled while the queue is full
//! (that is what pauses it), which a ready-made join does not offer.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::future::{poll_fn, Future};
use std::pin::pin;
use std::task::Poll;

use crate::client::list_stream::LineSplitter;
use crate::client::{HttpRequest, HttpResponse, Transport, TransportError};

/// How long one slice of lines may run before the page gets a turn, in milliseconds.
pub const STREAM_SLICE_MS: u64 = 12;
/// How many bytes of lines one slice hands over at most.
pub const STREAM_SLICE_BYTES: usize = 1 << 20;
/// Bytes of lines waiting to be handed over above which the body is not read further.
const QUEUED_BYTES_MAX: usize = 8 << 20;

/// Lines read and not yet handed over.
#[derive(Default)]
struct Queue {
    lines: VecDeque<Vec<u8>>,
    bytes: usize,
    /// The body ended (or failed): no more lines come.
    ended: bool,
}

/// Sends `request` streaming and hands each complete line of a successful body (without its
/// `\n`; bytes after the last `\n` are not a line) to `on_line`, in order, in slices (see the
/// module's documentation). The transport's answer once every line was handed over (an error
/// status's body whole, as [`Transport::send_streaming`] returns it); `on_line`'s error as soon
/// as it gives one, the rest of the body left unread.
pub(super) async fn stream_lines<T: Transport, E>(
    transport: &T,
    request: HttpRequest,
    on_line: &mut dyn FnMut(&[u8]) -> Result<(), E>,
) -> Result<Result<HttpResponse, TransportError>, E> {
    let queue = RefCell::new(Queue::default());
    let mut splitter = LineSplitter::default();
    let mut on_chunk = |chunk: &[u8]| {
        let mut queue = queue.borrow_mut();
        splitter.push(chunk, &mut |line| {
            queue.bytes += line.len();
            queue.lines.push_back(line.to_vec());
            true
        })
    };
    let mut reader = pin!(transport.send_streaming(request, &mut on_chunk));
    let mut decoder = pin!(hand_over(transport, &queue, on_line));
    let mut sent = None;
    poll_fn(|cx| loop {
        let mut reader_polled = false;
        if sent.is_none() && queue.borrow().bytes < QUEUED_BYTES_MAX {
            reader_polled = true;
            if let Poll::Ready(answer) = reader.as_mut().poll(cx) {
                sent = Some(answer);
                queue.borrow_mut().ended = true;
            }
        }
        match decoder.as_mut().poll(cx) {
            Poll::Ready(Err(error)) => return Poll::Ready(Err(error)),
            Poll::Ready(Ok(())) => {
                // The decoder ends only once the queue ended, which is when the reader did.
                let answer = sent.take().unwrap_or_else(|| {
                    Err(TransportError::Other("the stream ended unread".to_owned()))
                });
                return Poll::Ready(Ok(answer));
            }
            Poll::Pending => {}
        }
        // The decoder waits for its sleep or for lines. Lines come only from the reader, polled
        // in this same task: when it was held back and the queue has room now, it gets its turn
        // at once (it may not wake the task again); otherwise its wake, or the sleep's, polls
        // both again.
        if reader_polled || sent.is_some() || queue.borrow().bytes >= QUEUED_BYTES_MAX {
            return Poll::Pending;
        }
    })
    .await
}

/// Hands the queued lines to `on_line` until the queue ended and is empty, a sleep apart
/// after each slice.
async fn hand_over<T: Transport, E>(
    transport: &T,
    queue: &RefCell<Queue>,
    on_line: &mut dyn FnMut(&[u8]) -> Result<(), E>,
) -> Result<(), E> {
    let mut slice_started = transport.now_unix_ms();
    let mut slice_bytes = 0;
    while let Some(line) = next_line(queue).await {
        let spent = transport.now_unix_ms().saturating_sub(slice_started);
        if slice_bytes >= STREAM_SLICE_BYTES || spent >= STREAM_SLICE_MS {
            transport.sleep(0).await;
            slice_started = transport.now_unix_ms();
            slice_bytes = 0;
        }
        slice_bytes += line.len();
        on_line(&line)?;
    }
    Ok(())
}

/// The next queued line; `None` once the queue ended and is empty. Pending registers no waker:
/// only the reader fills the queue, and [`stream_lines`] polls it in the same task.
async fn next_line(queue: &RefCell<Queue>) -> Option<Vec<u8>> {
    poll_fn(|_| {
        let mut queue = queue.borrow_mut();
        match queue.lines.pop_front() {
            Some(line) => {
                queue.bytes -= line.len();
                Poll::Ready(Some(line))
            }
            None if queue.ended => Poll::Ready(None),
            None => Poll::Pending,
        }
    })
    .await
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::scripted::response;
    use crate::testing::ScriptedTransport;
    use futures::executor::block_on;

    fn request() -> HttpRequest {
        HttpRequest {
            url: "http://api.test/stream".to_owned(),
            headers: Vec::new(),
        }
    }

    #[test]
    fn lines_come_in_order_in_slices_and_an_error_stops_the_reading() {
        let line = "x".repeat(100_000);
        let body: String = (0..40).map(|i| format!("{i}{line}\n")).collect::<String>() + "cut";
        let transport = ScriptedTransport::new(vec![Ok(response(200, &body))]);
        let mut seen = Vec::new();
        let answer = block_on(stream_lines::<_, ()>(&transport, request(), &mut |line| {
            seen.push(line.len());
            Ok(())
        }));
        assert_eq!(answer.map(|sent| sent.map(|r| r.status)), Ok(Ok(200)));
        assert_eq!(seen.len(), 40);
        // 4 MB of lines in slices of at most 1 MiB: three waits or more, each of 0 ms.
        let sleeps = transport.sleeps();
        assert!(
            sleeps.len() >= 3 && sleeps.iter().all(|&ms| ms == 0),
            "{sleeps:?}"
        );

        let transport = ScriptedTransport::new(vec![Ok(response(200, &body))]);
        let mut handed = 0;
        let stopped = block_on(stream_lines(&transport, request(), &mut |_| {
            handed += 1;
            if handed == 2 {
                Err("bad line")
            } else {
                Ok(())
            }
        }));
        assert_eq!(stopped.err(), Some("bad line"));
        assert_eq!(handed, 2);
    }
}
