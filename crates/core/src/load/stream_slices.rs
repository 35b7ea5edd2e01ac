//! A streamed body's records (its lines, and in the packed form its frames) handed over in
//! time-budgeted slices, so that decoding a large list never holds the page's main thread for
//! long.
//!
//! [`Transport::send_streaming`] hands each chunk to a plain callback, which cannot wait: a
//! stream decoded there decodes every line of a chunk at once, and in a browser the chunks
//! already received follow each other without the event loop getting a turn (a 2 × 100k × 8
//! comparison held the page for up to 971 ms). Here the callback only queues the chunk; a
//! second future splits the queued bytes into lines and hands them to the caller in order,
//! waiting [`Transport::sleep`]`(0)` (in a browser: a task later, the page painting and
//! handling input in between) once a slice has run [`STREAM_SLICE_MS`] or handed over
//! [`STREAM_SLICE_BYTES`] (the bound when the clock is coarse or stands still). Reading pauses
//! while [`QUEUED_BYTES_MAX`] wait with a whole line among them, so the raw body held stays
//! small. Records are lent out of the queue's buffer ([`RecordSplitter`]): no allocation or
//! copy per record; a frame is taken by its length, never searched for a line break.
//!
//! Hand-written over `futures`' `join`: the reader must not be polled while the queue is full
//! (that is what pauses it), which a ready-made join does not offer.

use std::cell::RefCell;
use std::future::{poll_fn, Future};
use std::pin::pin;
use std::task::Poll;

use crate::client::list_stream::{Record, RecordSplitter};
use crate::client::{HttpRequest, HttpResponse, Transport, TransportError};
use crate::large_list::PackedPageError;

/// What [`stream_lines`] hands over: a record, or why the body cannot be split further (a
/// frame's head saying a body larger than allowed).
pub(super) type Handed<'a> = Result<Record<'a>, PackedPageError>;

/// How long one slice of lines may run before the page gets a turn, in milliseconds.
pub const STREAM_SLICE_MS: u64 = 12;
/// How many bytes of lines one slice hands over at most.
pub const STREAM_SLICE_BYTES: usize = 1 << 20;
/// Bytes read and not yet handed over above which the body is not read further (unless they
/// hold no whole line yet: a line longer than this is read to its end).
const QUEUED_BYTES_MAX: usize = 8 << 20;

/// The body read and not yet handed over.
#[derive(Default)]
struct Queue {
    lines: RecordSplitter,
    /// The body ended (or failed): no more bytes come.
    ended: bool,
}

impl Queue {
    /// Whether the reader may read on: little waits, or no whole line is among it.
    fn has_room(&mut self) -> bool {
        self.lines.queued() < QUEUED_BYTES_MAX || !self.lines.has_record()
    }
}

/// Sends `request` streaming and hands each complete record of a successful body (a line
/// without its `\n`, or a whole frame; bytes after the last record are not one) to `on_line`,
/// in order, in slices (see the module's documentation); a frame's wrong head is handed over as
/// its error, after which nothing more is. The transport's answer once every line was handed over (an error
/// status's body whole, as [`Transport::send_streaming`] returns it); `on_line`'s error as soon
/// as it gives one, the rest of the body left unread.
pub(super) async fn stream_lines<T: Transport, E>(
    transport: &T,
    request: HttpRequest,
    on_line: &mut dyn FnMut(Handed<'_>) -> Result<(), E>,
) -> Result<Result<HttpResponse, TransportError>, E> {
    let queue = RefCell::new(Queue::default());
    let mut on_chunk = |chunk: &[u8]| {
        queue.borrow_mut().lines.push(chunk);
        true
    };
    let mut reader = pin!(transport.send_streaming(request, &mut on_chunk));
    let mut decoder = pin!(hand_over(transport, &queue, on_line));
    let mut sent = None;
    poll_fn(|cx| loop {
        let mut reader_polled = false;
        if sent.is_none() && queue.borrow_mut().has_room() {
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
        // The decoder waits for its sleep or for a line. Bytes come only from the reader,
        // polled in this same task: when it was held back and the queue has room now, it gets
        // its turn at once (it may not wake the task again); otherwise its wake, or the
        // sleep's, polls both again.
        if reader_polled || sent.is_some() || !queue.borrow_mut().has_room() {
            return Poll::Pending;
        }
    })
    .await
}

/// Hands the queued lines to `on_line` until the queue ended and has no whole line left, a
/// sleep apart after each slice.
async fn hand_over<T: Transport, E>(
    transport: &T,
    queue: &RefCell<Queue>,
    on_line: &mut dyn FnMut(Handed<'_>) -> Result<(), E>,
) -> Result<(), E> {
    let mut slice_started = transport.now_unix_ms();
    let mut slice_bytes = 0;
    while line_ready(queue).await {
        let spent = transport.now_unix_ms().saturating_sub(slice_started);
        if slice_bytes >= STREAM_SLICE_BYTES || spent >= STREAM_SLICE_MS {
            transport.sleep(0).await;
            slice_started = transport.now_unix_ms();
            slice_bytes = 0;
        }
        // The line is still there: only the reader touched the queue since, adding bytes.
        let mut queue = queue.borrow_mut();
        if let Some(record) = queue.lines.next_record() {
            slice_bytes += match record {
                Ok(Record::Line(bytes) | Record::Frame(bytes)) => bytes.len(),
                Err(_) => 0,
            };
            on_line(record)?;
        }
    }
    Ok(())
}

/// Waits for a whole line in the queue: `true` once one is there, `false` once the queue
/// ended without one. Pending registers no waker: only the reader fills the queue, and
/// [`stream_lines`] polls it in the same task.
async fn line_ready(queue: &RefCell<Queue>) -> bool {
    poll_fn(|_| {
        let mut queue = queue.borrow_mut();
        if queue.lines.has_record() {
            Poll::Ready(true)
        } else if queue.ended {
            Poll::Ready(false)
        } else {
            Poll::Pending
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

    /// The line handed over (a frame or an error is not expected).
    fn line_of(handed: Handed<'_>) -> &[u8] {
        match handed {
            Ok(Record::Line(line)) => line,
            other => panic!("not a line: {other:?}"),
        }
    }

    /// A frame of `body`.
    fn frame(body: &[u8]) -> Vec<u8> {
        let length = u32::try_from(body.len()).unwrap().to_le_bytes();
        [&[crate::large_list::FRAME_MARK][..], &length, body].concat()
    }

    #[test]
    fn frames_come_whole_among_lines_and_a_wrong_head_stops_the_reading() {
        // Chunks of 7 bytes: the frames span them; their `\n`s are not line breaks.
        let framed = frame(&b"a\nb\n".repeat(10));
        let body = [&b"{}\n"[..], &framed, &framed, b"end\n", b"\xFF\x01"].concat();
        let transport = ScriptedTransport::new(vec![Ok(HttpResponse {
            status: 200,
            body,
            ..Default::default()
        })]);
        let mut seen = Vec::new();
        let answer = block_on(stream_lines::<_, ()>(
            &transport,
            request(),
            &mut |record| {
                seen.push(match record.expect("a record") {
                    Record::Line(line) => format!("line {}", line.len()),
                    Record::Frame(frame) => format!("frame {}", frame.len()),
                });
                Ok(())
            },
        ));
        assert_eq!(answer.map(|sent| sent.map(|r| r.status)), Ok(Ok(200)));
        let frame_record = format!("frame {}", framed.len());
        assert_eq!(seen, ["line 2", &*frame_record, &*frame_record, "line 3"]);

        let too_long = [&b"{}\n\xFF"[..], &u32::MAX.to_le_bytes(), b"{}\n"].concat();
        let transport = ScriptedTransport::new(vec![Ok(HttpResponse {
            status: 200,
            body: too_long,
            ..Default::default()
        })]);
        let mut lines = 0;
        let stopped = block_on(stream_lines::<_, String>(
            &transport,
            request(),
            &mut |record| {
                record.map_err(|error| error.to_string())?;
                lines += 1;
                Ok(())
            },
        ));
        let error = stopped.expect_err("a wrong head");
        assert!(error.contains("larger than 64 MiB"), "{error}");
        assert_eq!(lines, 1);
    }

    #[test]
    fn lines_come_in_order_in_slices_and_an_error_stops_the_reading() {
        let line = "x".repeat(100_000);
        let body: String = (0..40).map(|i| format!("{i}{line}\n")).collect::<String>() + "cut";
        let transport = ScriptedTransport::new(vec![Ok(response(200, &body))]);
        let mut seen = Vec::new();
        let answer = block_on(stream_lines::<_, ()>(&transport, request(), &mut |line| {
            seen.push(line_of(line).len());
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

    /// A body handed over in chunks of 64 KiB, a turn apart, counting the bytes handed; its
    /// clock moves 100 ms each time it is read, so every line is a slice of its own.
    struct SlowReader {
        body: Vec<u8>,
        read: std::cell::Cell<usize>,
        clock: std::cell::Cell<u64>,
    }

    const CHUNK: usize = 64 << 10;

    impl Transport for SlowReader {
        async fn send(&self, _: HttpRequest) -> Result<HttpResponse, TransportError> {
            Err(TransportError::Other("streams only".to_owned()))
        }

        async fn send_streaming(
            &self,
            _: HttpRequest,
            on_chunk: &mut dyn FnMut(&[u8]) -> bool,
        ) -> Result<HttpResponse, TransportError> {
            for chunk in self.body.chunks(CHUNK) {
                self.read.set(self.read.get() + chunk.len());
                if !on_chunk(chunk) {
                    break;
                }
                crate::testing::scripted::yield_now().await;
            }
            Ok(HttpResponse {
                status: 200,
                ..HttpResponse::default()
            })
        }

        async fn sleep(&self, _: u64) {
            crate::testing::scripted::yield_now().await;
        }

        fn now_unix_ms(&self) -> u64 {
            self.clock.set(self.clock.get() + 100);
            self.clock.get()
        }
    }

    fn slow_reader(body: Vec<u8>) -> SlowReader {
        SlowReader {
            body,
            read: 0.into(),
            clock: 0.into(),
        }
    }

    #[test]
    fn reading_waits_while_the_queue_is_full() {
        // 16 MiB in lines of 1 KiB, handed over one a turn while 64 KiB arrive a turn.
        let line = [b'y'; 1023];
        let body: Vec<u8> = (0..16 << 10)
            .flat_map(|_| line.iter().copied().chain([b'\n']))
            .collect();
        let transport = slow_reader(body);
        let (mut handed, mut lines, mut most_ahead) = (0, 0, 0);
        let answer = block_on(stream_lines::<_, ()>(&transport, request(), &mut |line| {
            let line = line_of(line);
            assert_eq!(line.len(), 1023);
            handed += line.len() + 1;
            lines += 1;
            most_ahead = most_ahead.max(transport.read.get() - handed);
            Ok(())
        }));
        assert_eq!(answer.map(|sent| sent.map(|r| r.status)), Ok(Ok(200)));
        assert_eq!(lines, 16 << 10);
        // The reader ran ahead until the queue was full, and no further.
        assert!(most_ahead >= QUEUED_BYTES_MAX - CHUNK, "{most_ahead}");
        assert!(most_ahead <= QUEUED_BYTES_MAX + CHUNK, "{most_ahead}");
    }

    #[test]
    fn a_line_longer_than_the_queue_is_read_whole() {
        let mut body = vec![b'z'; QUEUED_BYTES_MAX + 3 * CHUNK];
        body.extend_from_slice(b"\n\nshort\nno line break");
        let transport = slow_reader(body);
        let mut seen = Vec::new();
        let answer = block_on(stream_lines::<_, ()>(&transport, request(), &mut |line| {
            seen.push(line_of(line).len());
            Ok(())
        }));
        assert_eq!(answer.map(|sent| sent.map(|r| r.status)), Ok(Ok(200)));
        assert_eq!(seen, [QUEUED_BYTES_MAX + 3 * CHUNK, 0, 5]);
    }
}
