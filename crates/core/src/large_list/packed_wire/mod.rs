//! The packed wire form of the two large lists' pages: a page of trajectories or of rewards
//! as a frame of bytes whose items' texts are laid out as the packed items keep them, so that
//! the reader decodes it at about the speed of a copy, where a page line in JSON is scanned
//! character by character ([`super::decode_plain`]). The server's streams send it when asked;
//! the bytes are a third to a sixth of the kept form's.
//!
//! **Frame.** `0xFF`, the body's length (`u32`, little-endian), the body. JSON never starts
//! with `0xFF` (no UTF-8 text holds it), so in one stream a frame is told from a JSON line by
//! its first byte, and its end by its length: a reader never scans a frame for `\n`
//! ([`frame_length`]).
//!
//! **Body.** Numbers are unsigned LEB128 (`varint`; a step count zigzag-encoded first).
//! - the kind: `1` a page of trajectories, `2` a page of rewards (this is version 1 of the
//!   form: another version is another kind);
//! - the page's flags: bit 0 `has_more`, bit 1 a `next_cursor` follows;
//! - the page's strings: their count, each one's length, then their texts one after another
//!   (UTF-8, checked once for the page); each string of the page is there once;
//! - the `next_cursor` (when flagged) and, for rewards, the `eval_run_id`: a string's index;
//! - the items' count, then each item: a byte whose bit `i` says text slot `i` is present
//!   (the slots of [`super::facts`]: a trajectory's 7, a reward's 2), the index of each present
//!   text, then a byte saying how its numbers follow (bits 0–1: no reward, an `f64`, or an
//!   `f32` that is the reward exactly; bits 2–3: no step count, or a varint), then them.
//!
//! The body ends with its last item. The reader checks every count, index and length against
//! the bytes there are and the frame's bounds ([`MAX_FRAME_ITEMS`], [`MAX_FRAME_TEXTS`]: what
//! it allocates is bounded whatever a frame says), refuses
//! an item the JSON form could not give (a required text missing, a reward not finite, a
//! rollout's termination reason without its status), and reports what is wrong and where
//! ([`PackedPageError`]), never panicking.
//!
//! The writer decodes the page line as the reader of a JSON line would ([`super::decode_plain`]:
//! by the plain scanner, or by serde where an item is not plain) and writes what it read, so a
//! frame decodes to what its line decodes to; a line that decoder refuses is not packed (the
//! server sends it as it is, and the reader refuses it as it always did).
//!
//! Hand-written: the format is a few varints and strings, fast to read only when read in
//! place; a serialization crate would add a dependency to the viewer for less control over
//! what a hostile frame can make the reader allocate.

mod read;
mod unpacked;
mod write;

use super::facts::{reward_slot, slot};
use super::packed::{PackedRewardsPage, PackedTrajectoryPage};

// The wire's slot numbers are the packed forms': a change to the slots is a new kind.
const _: () = assert!(slot::COUNT == 7 && reward_slot::COUNT == 2);

/// A frame's first byte, which no JSON text starts with.
pub const FRAME_MARK: u8 = 0xFF;
/// The frame's head: the mark and the body's length.
pub const FRAME_HEAD: usize = 5;
/// The largest body a frame may have: a page too large is sent as its JSON line.
pub const MAX_FRAME_BODY: usize = 64 << 20;
/// The most items a frame may hold (the API's pages hold 200 at most): what the reader
/// allocates for them is bounded whatever the frame says.
pub const MAX_FRAME_ITEMS: usize = 1 << 16;
/// The most bytes a frame's items' texts may take in all, each text counted as often as items
/// name it: a page's strings are written once, so a small frame could otherwise name a long
/// string many times over. A page line's items' texts are never longer than the line.
pub const MAX_FRAME_TEXTS: usize = MAX_FRAME_BODY;
/// The most strings a frame may hold: each of its items' texts, its cursor, its run id.
const MAX_FRAME_STRINGS: usize = 7 * MAX_FRAME_ITEMS + 2;

/// The body's kind byte: a page of trajectories (version 1).
const KIND_TRAJECTORIES: u8 = 1;
/// The body's kind byte: a page of rewards (version 1).
const KIND_REWARDS: u8 = 2;

/// The page flags: more pages follow.
const PAGE_HAS_MORE: u8 = 1;
/// The page flags: a `next_cursor` follows.
const PAGE_CURSOR: u8 = 2;

/// An item's numbers byte: its reward (bits 0–1).
const REWARD_MASK: u8 = 0b11;
const REWARD_NONE: u8 = 0;
const REWARD_F64: u8 = 1;
const REWARD_F32: u8 = 2;
/// An item's numbers byte: its step count (bits 2–3).
const STEPS_SHIFT: u8 = 2;
const STEPS_NONE: u8 = 0;
const STEPS_VARINT: u8 = 1;

/// Why a packed frame was refused: what was wrong, and the byte of the frame where.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a packed page: {what} (byte {at} of the frame)")]
pub struct PackedPageError {
    /// What was wrong.
    pub what: &'static str,
    /// Where, in bytes from the frame's start.
    pub at: usize,
}

/// Whether a record of a stream that starts with `first` is a packed frame (else a JSON line).
pub fn is_frame_start(first: u8) -> bool {
    first == FRAME_MARK
}

/// The length of the frame at the start of `buffered` (a record starting with
/// [`FRAME_MARK`]), head included, once its head is there: `Ok(None)` while fewer than
/// [`FRAME_HEAD`] bytes are; an error when it is not a frame or says a body larger than
/// [`MAX_FRAME_BODY`].
pub fn frame_length(buffered: &[u8]) -> Result<Option<usize>, PackedPageError> {
    match buffered.first() {
        None => return Ok(None),
        Some(&FRAME_MARK) => {}
        Some(_) => return Err(error("not a frame: its first byte is not 0xFF", 0)),
    }
    let Some(head) = buffered.get(1..FRAME_HEAD) else {
        return Ok(None);
    };
    let mut length = [0u8; 4];
    length.copy_from_slice(head);
    let body = u32::from_le_bytes(length) as usize;
    if body > MAX_FRAME_BODY {
        return Err(error("a body larger than 64 MiB", 1));
    }
    Ok(Some(FRAME_HEAD + body))
}

/// A page the packed wire form carries: written from its JSON line, read from its frame.
pub trait PackedPage: Sized {
    /// The frame of a page line (the API's page in its full or kept form, ending in `\n` or
    /// not); `None` when the line is not such a page, or too large: send the line as it is.
    fn encode_packed(line: &[u8]) -> Option<Vec<u8>>;
    /// The page in `frame` (a whole frame, head included).
    fn decode_packed(frame: &[u8]) -> Result<Self, PackedPageError>;
}

impl PackedPage for PackedTrajectoryPage {
    fn encode_packed(line: &[u8]) -> Option<Vec<u8>> {
        write::trajectory_page(line)
    }
    fn decode_packed(frame: &[u8]) -> Result<Self, PackedPageError> {
        read::trajectory_page(frame)
    }
}

impl PackedPage for PackedRewardsPage {
    fn encode_packed(line: &[u8]) -> Option<Vec<u8>> {
        write::reward_page(line)
    }
    fn decode_packed(frame: &[u8]) -> Result<Self, PackedPageError> {
        read::reward_page(frame)
    }
}

/// The frame of a page line of trajectories ([`PackedPage::encode_packed`]).
pub fn encode_trajectory_page(line: &[u8]) -> Option<Vec<u8>> {
    PackedTrajectoryPage::encode_packed(line)
}

/// The frame of a page line of trajectory rewards ([`PackedPage::encode_packed`]).
pub fn encode_reward_page(line: &[u8]) -> Option<Vec<u8>> {
    PackedRewardsPage::encode_packed(line)
}

/// The page of trajectories in `frame` ([`PackedPage::decode_packed`]).
pub fn decode_trajectory_page(frame: &[u8]) -> Result<PackedTrajectoryPage, PackedPageError> {
    PackedTrajectoryPage::decode_packed(frame)
}

/// The page of trajectory rewards in `frame` ([`PackedPage::decode_packed`]).
pub fn decode_reward_page(frame: &[u8]) -> Result<PackedRewardsPage, PackedPageError> {
    PackedRewardsPage::decode_packed(frame)
}

/// The error `what` at byte `at`.
fn error(what: &'static str, at: usize) -> PackedPageError {
    PackedPageError { what, at }
}
