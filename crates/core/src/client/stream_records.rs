//! A streamed list's body split into its records as its bytes arrive: JSON lines, and in the
//! packed form ([`super::list_stream::PACKED_FORM`]) frames, each told from a line by its first
//! byte ([`is_frame_start`]) and ended by its length ([`frame_length`]), never scanned for `\n`.
//!
//! Hand-written: the records are lent out of the splitter's own blocks without a copy (a
//! codec crate's framing would own and copy the buffers), and a line is found by `memchr`.

use std::collections::VecDeque;

use crate::large_list::{frame_length, is_frame_start, PackedPageError, FRAME_HEAD};

/// Bytes of one block of a [`RecordSplitter`].
const SPLIT_BLOCK_BYTES: usize = 1 << 20;

/// A record of a streamed body.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Record<'a> {
    /// A line, without its `\n`.
    Line(&'a [u8]),
    /// A packed frame, head included.
    Frame(&'a [u8]),
}

/// Splits a body into records as its bytes arrive, without an allocation or a copy per record.
///
/// The chunks pushed are copied into blocks of [`SPLIT_BLOCK_BYTES`] and each record is lent
/// out as a slice of its block ([`RecordSplitter::next_record`]); only a record that spans
/// blocks (one in tens when lines are pages of 200 items) is joined, once, in a buffer kept for
/// that. Blocks read through are reused, so a body of any length needs a few blocks, never one
/// buffer moved or grown as the bytes pass through it. Each byte of a line is searched for
/// `\n` once (`memchr`); a frame's bytes are not searched at all.
#[derive(Debug)]
pub struct RecordSplitter {
    /// Bytes of a block ([`SPLIT_BLOCK_BYTES`]; fewer in tests).
    block_bytes: usize,
    /// The bytes not yet lent out, from `start` in the first block.
    blocks: VecDeque<Vec<u8>>,
    /// The first byte of the first block not yet lent out as part of a record.
    start: usize,
    /// Where the search for the next `\n` goes on in the first block (`start` at a record's
    /// start).
    scanned: usize,
    /// The beginning of a line that began in blocks already read through, then (once
    /// [`Next::Joined`] or [`Next::JoinedFrame`]) the whole record.
    joined: Vec<u8>,
    /// The next record, once found.
    next: Option<Next>,
    /// `joined` was lent out: it is emptied before the next record.
    joined_lent: bool,
    /// A block read through, kept for the next push.
    spare: Option<Vec<u8>>,
    /// Bytes pushed and not yet lent out.
    queued: usize,
    /// A frame's head was wrong: said once, then nothing more is split.
    broken: Option<PackedPageError>,
    /// The error was said: the rest of the body is ignored.
    dead: bool,
}

/// Where the next whole record of a [`RecordSplitter`] is.
#[derive(Debug, Clone, Copy)]
enum Next {
    /// A line in the first block, from `start` to this `\n`.
    InBlock(usize),
    /// A line in `joined`.
    Joined,
    /// A frame in the first block, from `start` to this end.
    FrameInBlock(usize),
    /// A frame in `joined`.
    JoinedFrame,
}

impl Default for RecordSplitter {
    fn default() -> Self {
        Self {
            block_bytes: SPLIT_BLOCK_BYTES,
            blocks: VecDeque::new(),
            start: 0,
            scanned: 0,
            joined: Vec::new(),
            next: None,
            joined_lent: false,
            spare: None,
            queued: 0,
            broken: None,
            dead: false,
        }
    }
}

impl RecordSplitter {
    /// A splitter with blocks of `block_bytes` (at least 1), to test records across blocks.
    #[cfg(test)]
    fn with_block_bytes(block_bytes: usize) -> Self {
        Self {
            block_bytes: block_bytes.max(1),
            ..Self::default()
        }
    }

    /// Adds `chunk` to the bytes to split (nothing once a frame's head was wrong).
    pub fn push(&mut self, chunk: &[u8]) {
        if self.dead || self.broken.is_some() {
            return;
        }
        self.queued += chunk.len();
        let mut rest = chunk;
        while !rest.is_empty() {
            let full = self
                .blocks
                .back()
                .is_none_or(|block| block.len() >= self.block_bytes);
            if full {
                let block = self
                    .spare
                    .take()
                    .unwrap_or_else(|| Vec::with_capacity(self.block_bytes));
                self.blocks.push_back(block);
            }
            let Some(block) = self.blocks.back_mut() else {
                return;
            };
            let (now, later) = rest.split_at(rest.len().min(self.block_bytes - block.len()));
            block.extend_from_slice(now);
            rest = later;
        }
    }

    /// Whether a whole record (or a frame's error) is ready ([`RecordSplitter::next_record`]
    /// gives it).
    pub fn has_record(&mut self) -> bool {
        if self.next.is_some() || self.broken.is_some() {
            return true;
        }
        if self.dead {
            return false;
        }
        if self.joined_lent {
            self.joined.clear();
            self.joined_lent = false;
        }
        loop {
            let Some(block) = self.blocks.front() else {
                return false;
            };
            if self.joined.is_empty() && self.scanned == self.start {
                // A record's start: its first byte says whether it is a frame.
                match block.get(self.start) {
                    Some(&first) if is_frame_start(first) => return self.frame_ready(),
                    Some(_) => {}
                    None if self.blocks.len() == 1 => return false,
                    None => {
                        self.recycle_front();
                        continue;
                    }
                }
            }
            if let Some(at) = memchr::memchr(b'\n', &block[self.scanned..]) {
                let end = self.scanned + at;
                self.scanned = end + 1;
                self.next = Some(if self.joined.is_empty() {
                    Next::InBlock(end)
                } else {
                    self.joined.extend_from_slice(&block[self.start..end]);
                    self.start = end + 1;
                    Next::Joined
                });
                return true;
            }
            if self.blocks.len() == 1 {
                // The last block may still be filled.
                self.scanned = block.len();
                return false;
            }
            // A block read through: its rest begins a line that goes on in the next one.
            self.joined.extend_from_slice(&block[self.start..]);
            self.recycle_front();
        }
    }

    /// Drops the first block (read through) for reuse; the next one is read from its start.
    fn recycle_front(&mut self) {
        if let Some(mut block) = self.blocks.pop_front() {
            block.clear();
            self.spare = Some(block);
        }
        self.start = 0;
        self.scanned = 0;
    }

    /// At a frame's start: whether the whole frame is there (then it is the next record, joined
    /// once when it spans blocks), or its head is wrong (then that is).
    fn frame_ready(&mut self) -> bool {
        // The head may span blocks: a few bytes, copied.
        let mut head = [0u8; FRAME_HEAD];
        let mut got = 0;
        let mut from = self.start;
        for block in &self.blocks {
            let take = (FRAME_HEAD - got).min(block.len() - from);
            head[got..got + take].copy_from_slice(&block[from..from + take]);
            got += take;
            from = 0;
            if got == FRAME_HEAD {
                break;
            }
        }
        let length = match frame_length(&head[..got]) {
            Ok(Some(length)) => length,
            Ok(None) => return false,
            Err(error) => {
                self.broken = Some(error);
                return true;
            }
        };
        // At a record's start every byte queued is the record's or after it.
        if self.queued < length {
            return false;
        }
        let in_first = self
            .blocks
            .front()
            .map_or(0, |block| block.len() - self.start);
        if in_first >= length {
            self.next = Some(Next::FrameInBlock(self.start + length));
            return true;
        }
        let mut wanted = length;
        while wanted > 0 {
            let Some(block) = self.blocks.front() else {
                return false;
            };
            let take = wanted.min(block.len() - self.start);
            self.joined
                .extend_from_slice(&block[self.start..self.start + take]);
            wanted -= take;
            self.start += take;
            if wanted > 0 {
                self.recycle_front();
            }
        }
        self.scanned = self.start;
        self.next = Some(Next::JoinedFrame);
        true
    }

    /// The next whole record, if one is ready; a frame whose head is wrong (a body larger than
    /// [`crate::large_list::MAX_FRAME_BODY`]) is an error, said once, after which the splitter
    /// gives nothing more.
    pub fn next_record(&mut self) -> Option<Result<Record<'_>, PackedPageError>> {
        if !self.has_record() {
            return None;
        }
        if let Some(error) = self.broken.take() {
            self.dead = true;
            self.blocks.clear();
            self.queued = 0;
            return Some(Err(error));
        }
        let record = match self.next.take()? {
            Next::InBlock(end) => {
                let from = self.start;
                self.start = end + 1;
                self.queued -= end - from + 1;
                Record::Line(self.blocks.front()?.get(from..end)?)
            }
            Next::Joined => {
                self.joined_lent = true;
                self.queued -= self.joined.len() + 1;
                Record::Line(&self.joined[..])
            }
            Next::FrameInBlock(end) => {
                let from = self.start;
                self.start = end;
                self.scanned = end;
                self.queued -= end - from;
                Record::Frame(self.blocks.front()?.get(from..end)?)
            }
            Next::JoinedFrame => {
                self.joined_lent = true;
                self.queued -= self.joined.len();
                Record::Frame(&self.joined[..])
            }
        };
        Some(Ok(record))
    }

    /// Bytes pushed and not yet lent out as records, `\n`s included (at a body's end: the
    /// bytes after its last record, a body cut mid-line or mid-frame).
    pub fn queued(&self) -> usize {
        self.queued
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::large_list::{FRAME_MARK, MAX_FRAME_BODY};
    use proptest::prelude::*;

    /// The records of `chunks` as a splitter with blocks of `block_bytes` lends them, taken
    /// after each push (a frame as `F` and its bytes, an error as `E`), and the bytes left.
    fn split(block_bytes: usize, chunks: &[&[u8]]) -> (Vec<Vec<u8>>, usize) {
        let mut splitter = RecordSplitter::with_block_bytes(block_bytes);
        let mut records = Vec::new();
        for chunk in chunks {
            splitter.push(chunk);
            while let Some(record) = splitter.next_record() {
                records.push(record.map_or_else(|_| b"E".to_vec(), owned));
            }
        }
        (records, splitter.queued())
    }

    /// A line's bytes, or `F` then a frame's.
    fn owned(record: Record<'_>) -> Vec<u8> {
        match record {
            Record::Line(line) => line.to_vec(),
            Record::Frame(frame) => [b"F", frame].concat(),
        }
    }

    /// A frame of `body`.
    fn frame(body: &[u8]) -> Vec<u8> {
        let length = u32::try_from(body.len()).unwrap().to_le_bytes();
        [&[FRAME_MARK][..], &length, body].concat()
    }

    #[test]
    fn lines_are_split_across_chunks_and_blocks() {
        for block_bytes in [1, 2, 3, 5, SPLIT_BLOCK_BYTES] {
            let (lines, left) = split(block_bytes, &[b"ab", b"c\nd", b"", b"e\n\nf"]);
            assert_eq!(lines, [&b"abc"[..], b"de", b""], "{block_bytes}");
            assert_eq!(left, 1);
            // A chunk of many lines, empty ones among them, and no final line break.
            let (lines, left) = split(block_bytes, &[b"1\n22\n\n333\n\n4444"]);
            assert_eq!(lines, [&b"1"[..], b"22", b"", b"333", b""], "{block_bytes}");
            assert_eq!(left, 4);
            // A line spanning many chunks, and a line break alone.
            let chunks: [&[u8]; 7] = [b"a", b"b", b"c", b"d", b"\n", b"\n", b"e\n"];
            let (lines, left) = split(block_bytes, &chunks);
            assert_eq!(lines, [&b"abcd"[..], b"", b"e"], "{block_bytes}");
            assert_eq!(left, 0);
        }
    }

    #[test]
    fn records_wait_to_be_taken_and_queued_counts_what_is_left() {
        let mut splitter = RecordSplitter::with_block_bytes(4);
        splitter.push(b"one\ntw");
        assert!(splitter.has_record());
        // Pushing while a record waits keeps it.
        splitter.push(b"o\nthree");
        assert_eq!(splitter.queued(), 13);
        assert_eq!(splitter.next_record(), Some(Ok(Record::Line(b"one"))));
        splitter.push(b"\n");
        assert_eq!(splitter.next_record(), Some(Ok(Record::Line(b"two"))));
        assert_eq!(splitter.queued(), 6);
        assert_eq!(splitter.next_record(), Some(Ok(Record::Line(b"three"))));
        assert_eq!(splitter.next_record(), None);
        assert!(!splitter.has_record());
        assert_eq!(splitter.queued(), 0);
        // A line joined across blocks, found before the bytes after it arrive.
        splitter.push(b"aaaaaa\nb");
        assert!(splitter.has_record());
        splitter.push(b"\n");
        assert_eq!(splitter.next_record(), Some(Ok(Record::Line(b"aaaaaa"))));
        assert_eq!(splitter.next_record(), Some(Ok(Record::Line(b"b"))));
        assert_eq!(splitter.queued(), 0);
        // Blocks read through are reused: a long body needs only a few.
        for _ in 0..1_000 {
            splitter.push(b"0123456789\n");
            assert_eq!(
                splitter.next_record(),
                Some(Ok(Record::Line(b"0123456789")))
            );
        }
        assert!(splitter.blocks.len() <= 2, "{}", splitter.blocks.len());
    }

    #[test]
    fn frames_are_taken_whole_by_their_length_among_lines() {
        let body = b"x\n\xFFab\ncd";
        let framed = frame(body);
        for block_bytes in [1, 2, 3, 7, SPLIT_BLOCK_BYTES] {
            // A frame's `\n` and mark bytes are its own; a line follows it at once.
            let all = [&b"{}\n"[..], &framed, &framed, b"tail\n", &framed].concat();
            for cut in 0..all.len() {
                let (records, left) = split(block_bytes, &[&all[..cut], &all[cut..]]);
                let framed_record = [b"F", &framed[..]].concat();
                assert_eq!(
                    records,
                    [
                        b"{}".to_vec(),
                        framed_record.clone(),
                        framed_record.clone(),
                        b"tail".to_vec(),
                        framed_record,
                    ],
                    "{block_bytes} {cut}"
                );
                assert_eq!(left, 0);
            }
        }
        // A frame cut short is left queued, as a line without its `\n`: the body was cut.
        let (records, left) = split(3, &[&framed[..framed.len() - 1]]);
        assert!(records.is_empty());
        assert_eq!(left, framed.len() - 1);
        let (records, left) = split(3, &[b"\xFF\x01"]);
        assert!(records.is_empty());
        assert_eq!(left, 2);
        // An empty frame is a record.
        assert_eq!(split(2, &[&frame(b"")]).0, [b"F\xFF\0\0\0\0".to_vec()]);
    }

    #[test]
    fn a_frame_longer_than_allowed_is_an_error_said_once() {
        let too_long = u32::try_from(MAX_FRAME_BODY + 1).unwrap().to_le_bytes();
        let mut splitter = RecordSplitter::with_block_bytes(2);
        splitter.push(b"{}\n\xFF");
        assert_eq!(splitter.next_record(), Some(Ok(Record::Line(b"{}"))));
        assert_eq!(splitter.next_record(), None, "the head is not there yet");
        splitter.push(&too_long);
        let error = splitter.next_record().unwrap().unwrap_err();
        assert!(error.to_string().contains("larger than 64 MiB"), "{error}");
        splitter.push(b"more\n");
        assert_eq!(splitter.next_record(), None);
        assert_eq!(splitter.queued(), 0);
    }

    /// A body's records as a reader taking them whole would find them (a frame's wrong head
    /// as `E`, ending them), and the bytes left.
    fn reference(mut body: &[u8]) -> (Vec<Vec<u8>>, usize) {
        let mut records = Vec::new();
        loop {
            match body.first() {
                None => return (records, 0),
                Some(&first) if is_frame_start(first) => match frame_length(body) {
                    Ok(Some(length)) if length <= body.len() => {
                        records.push([b"F", &body[..length]].concat());
                        body = &body[length..];
                    }
                    Err(_) => {
                        records.push(b"E".to_vec());
                        return (records, 0);
                    }
                    _ => return (records, body.len()),
                },
                Some(_) => match body.iter().position(|&b| b == b'\n') {
                    Some(end) => {
                        records.push(body[..end].to_vec());
                        body = &body[end + 1..];
                    }
                    None => return (records, body.len()),
                },
            }
        }
    }

    /// A record of a body: a line (not starting with the frame mark) or a frame of any bytes.
    fn record() -> impl Strategy<Value = Vec<u8>> {
        let byte = prop_oneof![Just(b'\n'), Just(FRAME_MARK), Just(b'x'), any::<u8>()];
        prop_oneof![
            proptest::collection::vec(
                any::<u8>().prop_filter("a line's byte", |&b| b != b'\n'),
                0..30
            )
            .prop_filter("not a frame", |line| line.first() != Some(&FRAME_MARK))
            .prop_map(|mut line| {
                line.push(b'\n');
                line
            }),
            proptest::collection::vec(byte, 0..40).prop_map(|body| frame(&body)),
        ]
    }

    proptest! {
        /// However a body of lines and frames is cut into chunks and blocks, and whenever
        /// records are taken, the same records come in the same order, and the bytes after the
        /// last whole record (a line or frame cut short) are left.
        #[test]
        fn any_chunking_gives_the_same_records(
            records in proptest::collection::vec(record(), 0..12),
            cut_tail in 0usize..50,
            cuts in proptest::collection::vec((0usize..600, any::<bool>()), 0..20),
            block_bytes in prop_oneof![1usize..20, Just(SPLIT_BLOCK_BYTES)],
        ) {
            let mut body = records.concat();
            body.truncate(body.len().saturating_sub(cut_tail));
            let (expected, tail) = reference(&body);
            let mut at: Vec<(usize, bool)> = cuts
                .into_iter()
                .map(|(cut, take)| (cut.min(body.len()), take))
                .collect();
            at.sort_unstable();
            let mut splitter = RecordSplitter::with_block_bytes(block_bytes);
            let mut found = Vec::new();
            let mut from = 0;
            for (cut, take) in at.into_iter().chain([(body.len(), true)]) {
                splitter.push(&body[from..cut]);
                from = cut;
                if take {
                    while let Some(record) = splitter.next_record() {
                        found.push(owned(record.expect("a record")));
                    }
                }
            }
            prop_assert_eq!(found, expected);
            prop_assert_eq!(splitter.queued(), tail);
        }

        /// Any bytes at all (lines as the old splitter split them, frames by their heads) give
        /// the reference's records.
        #[test]
        fn any_bytes_give_the_references_records(
            body in proptest::collection::vec(
                prop_oneof![Just(b'\n'), Just(b'x'), Just(FRAME_MARK), Just(0u8), any::<u8>()],
                0..400,
            ),
            chunk in 1usize..50,
            block_bytes in prop_oneof![1usize..20, Just(SPLIT_BLOCK_BYTES)],
        ) {
            let (expected, tail) = reference(&body);
            let chunks: Vec<&[u8]> = body.chunks(chunk).collect();
            let (found, left) = split(block_bytes, &chunks);
            prop_assert_eq!(found, expected);
            prop_assert_eq!(left, tail);
        }
    }
}
