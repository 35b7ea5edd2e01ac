//! Server-sent events (the `text/event-stream` format of the HTML standard), read incrementally:
//! bytes go in as they arrive, whole events come out.
//!
//! Lines end with CRLF, LF or CR; `event`, `data` and `id` fields are kept (`retry` and unknown
//! fields are ignored); a line starting with `:` is a comment (a keep-alive); a blank line ends an
//! event. Several `data` lines are joined with `\n`. An event still open when the stream ends is
//! dropped, as the standard says. Bytes that are not UTF-8 are replaced, never fatal.
//!
//! Memory is bounded whatever the stream sends: a line is kept up to [`MAX_LINE_BYTES`], an
//! event up to [`MAX_EVENT_BYTES`]; an event that grows past that (`data:` lines without the
//! blank line that ends an event) ends the parse ([`SseParser::event_too_long`]): the caller
//! stops reading and says why.

/// One event of the stream.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SseEvent {
    /// Its `event` field; `None` means the default type, `message`.
    pub event: Option<String>,
    /// Its `data` lines, joined with `\n`.
    pub data: String,
    /// Its `id` field, when it had one.
    pub id: Option<String>,
}

/// Longest line kept: a longer one is cut (the rest of the line is skipped), so a hostile stream
/// without line breaks cannot grow memory without bound.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// Largest event kept (its fields' values together): past it the parse stops. A progress event
/// is a few hundred bytes; a stream whose event never ends would otherwise hold every line.
pub const MAX_EVENT_BYTES: usize = 1 << 20;

/// An incremental parser of an event stream.
#[derive(Debug, Default)]
pub struct SseParser {
    line: Vec<u8>,
    line_overflowed: bool,
    after_cr: bool,
    event: Option<String>,
    data: Option<String>,
    id: Option<String>,
    lines_cut: usize,
    /// Bytes of the fields of the event being read.
    event_bytes: usize,
    /// An event grew past [`MAX_EVENT_BYTES`]: nothing more is read.
    too_long: bool,
}

impl SseParser {
    /// A parser at the start of a stream.
    pub fn new() -> Self {
        Self::default()
    }

    /// Reads `bytes` and returns the events they completed, in order; nothing once an event grew
    /// past [`MAX_EVENT_BYTES`].
    pub fn feed(&mut self, bytes: &[u8]) -> Vec<SseEvent> {
        let mut events = Vec::new();
        for &byte in bytes {
            if self.too_long {
                break;
            }
            match byte {
                b'\n' if self.after_cr => self.after_cr = false,
                b'\n' | b'\r' => {
                    self.after_cr = byte == b'\r';
                    if let Some(event) = self.end_line() {
                        events.push(event);
                    }
                }
                _ => {
                    self.after_cr = false;
                    if self.line.len() < MAX_LINE_BYTES {
                        self.line.push(byte);
                    } else if !self.line_overflowed {
                        self.line_overflowed = true;
                        self.lines_cut += 1;
                    }
                }
            }
        }
        events
    }

    /// How many lines were longer than [`MAX_LINE_BYTES`] and cut.
    pub fn lines_cut(&self) -> usize {
        self.lines_cut
    }

    /// Whether an event grew past [`MAX_EVENT_BYTES`] without ending: the parse stopped there,
    /// and what was read of that event was let go.
    pub fn event_too_long(&self) -> bool {
        self.too_long
    }

    /// Whether an event was begun and not ended (the stream stopped in the middle of one).
    pub fn has_partial_event(&self) -> bool {
        !self.line.is_empty() || self.data.is_some() || self.event.is_some()
    }

    fn end_line(&mut self) -> Option<SseEvent> {
        let raw = std::mem::take(&mut self.line);
        self.line_overflowed = false;
        if raw.is_empty() {
            return self.dispatch();
        }
        let line = String::from_utf8_lossy(&raw);
        if line.starts_with(':') {
            return None;
        }
        let (field, value) = match line.split_once(':') {
            Some((field, value)) => (field, value.strip_prefix(' ').unwrap_or(value)),
            None => (line.as_ref(), ""),
        };
        if matches!(field, "event" | "data" | "id") {
            self.event_bytes = self.event_bytes.saturating_add(value.len() + 1);
            if self.event_bytes > MAX_EVENT_BYTES {
                self.too_long = true;
                self.event = None;
                self.data = None;
                self.id = None;
                return None;
            }
        }
        match field {
            "event" => self.event = Some(value.to_owned()),
            "data" => match &mut self.data {
                Some(data) => {
                    data.push('\n');
                    data.push_str(value);
                }
                None => self.data = Some(value.to_owned()),
            },
            "id" if !value.contains('\0') => self.id = Some(value.to_owned()),
            _ => {}
        }
        None
    }

    fn dispatch(&mut self) -> Option<SseEvent> {
        self.event_bytes = 0;
        let event = self.event.take();
        let id = self.id.take();
        // An event without data is not dispatched (the standard), but its fields are reset.
        let data = self.data.take()?;
        Some(SseEvent {
            event: event.filter(|name| !name.is_empty()),
            data,
            id,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn events(chunks: &[&[u8]]) -> Vec<SseEvent> {
        let mut parser = SseParser::new();
        chunks.iter().flat_map(|chunk| parser.feed(chunk)).collect()
    }

    #[test]
    fn events_end_at_a_blank_line_whatever_the_line_endings() {
        let expected = SseEvent {
            event: Some("trial_finished".into()),
            data: "{\"a\":1}".into(),
            id: Some("7".into()),
        };
        for ending in ["\n", "\r\n", "\r"] {
            let text = format!(
                "event: trial_finished{ending}id: 7{ending}data: {{\"a\":1}}{ending}{ending}"
            );
            assert_eq!(
                events(&[text.as_bytes()]),
                vec![expected.clone()],
                "{ending:?}"
            );
        }
    }

    #[test]
    fn an_event_split_anywhere_across_chunks_is_the_same() {
        let text = b"event: run_finished\r\ndata: {\"status\":\"succeeded\"}\r\n\r\n";
        let whole = events(&[text]);
        for cut in 0..text.len() {
            assert_eq!(events(&[&text[..cut], &text[cut..]]), whole, "cut at {cut}");
        }
    }

    #[test]
    fn comments_are_keep_alives_and_data_lines_are_joined() {
        let got = events(&[b": keep-alive\n\ndata: one\ndata: two\nretry: 10\nunknown\n\n"]);
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].data, "one\ntwo");
        assert_eq!(got[0].event, None);
    }

    #[test]
    fn an_unfinished_event_is_not_dispatched() {
        let mut parser = SseParser::new();
        assert!(parser.feed(b"event: trial_started\ndata: {}\n").is_empty());
        assert!(parser.has_partial_event());
    }

    #[test]
    fn bad_utf8_and_overlong_lines_do_not_break_the_stream() {
        let mut parser = SseParser::new();
        let mut long = b"data: ".to_vec();
        long.extend(std::iter::repeat_n(b'x', MAX_LINE_BYTES + 10));
        long.extend(b"\n\ndata: \xff\xfe ok\n\n");
        let got = parser.feed(&long);
        assert_eq!(got.len(), 2);
        assert_eq!(got[0].data.len(), MAX_LINE_BYTES - "data: ".len());
        assert_eq!(parser.lines_cut(), 1);
        assert!(got[1].data.ends_with(" ok"));
    }

    #[test]
    fn an_event_that_never_ends_stops_the_parse_with_bounded_memory() {
        let mut parser = SseParser::new();
        let mut line = b"data: ".to_vec();
        line.extend(std::iter::repeat_n(b'x', 64 * 1024));
        line.push(b'\n');
        let mut fed = 0;
        // 64 MiB of `data:` lines of 64 KiB and no blank line: the parse stops at 1 MiB.
        for _ in 0..1_024 {
            assert!(parser.feed(&line).is_empty());
            fed += line.len();
            if parser.event_too_long() {
                break;
            }
        }
        assert!(parser.event_too_long());
        assert!(
            fed <= MAX_EVENT_BYTES + line.len(),
            "stopped after {fed} bytes"
        );
        assert!(parser.data.is_none() && parser.line.capacity() <= MAX_LINE_BYTES);
        assert!(
            parser.feed(b"\n\ndata: late\n\n").is_empty(),
            "nothing more is read"
        );
        let mut fine = SseParser::new();
        for _ in 0..100 {
            assert_eq!(fine.feed(&[&line[..], b"\n"].concat()).len(), 1);
        }
        assert!(
            !fine.event_too_long(),
            "events that end are never too long together"
        );
    }
}
