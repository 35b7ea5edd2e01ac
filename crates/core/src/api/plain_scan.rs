//! A hand-written reader of the two large lists' items (trajectories and trajectory rewards)
//! and their pages in their plain form, for the list files and the API's pages read at scale:
//! serde_json spent most of the CLI's time on them.
//!
//! The plain form is what every exporter writes: an object whose keys and strings have no
//! escapes (nor control characters, which JSON refuses), whose numbers are at most 2^53 in
//! their digits with a power of ten up to 22 (converted with one exact operation, so correctly
//! rounded, as serde_json converts them), and whose fields hold only null, booleans, plain
//! strings, numbers and (a trajectory's) a plain rollout object. Anything else (an escape, a
//! nested value not read here, a field twice, a required field missing, a type the full types
//! refuse, the text's end) makes a scanner answer `None`: serde then decodes the item as it
//! always did, and accepts or refuses it. Within a page, an item that is not plain is read by
//! serde alone, where it lies ([`Cursor::item_sharing`]), and the page's other items are
//! still scanned. A scanner never accepts what serde refuses, nor reads a value differently:
//! the fields here mirror [`super::LeanTrajectory`] and [`super::LeanReward`], and property
//! tests compare the two readers on mutated items, numbers and pages.

use std::sync::Arc;

use serde::de::DeserializeOwned;

use super::lean::TrajectoryFacts;

/// An item a list feed may read without serde when it is in its plain form (see the module).
pub trait PlainItem: DeserializeOwned {
    /// The item at the start of `text`, and its length, when it is in its plain form; `None`
    /// leaves it to serde. The default reads nothing: every item goes to serde.
    fn scan_plain(text: &str) -> Option<(Self, usize)> {
        let _ = text;
        None
    }

    /// [`Self::scan_plain`] for an item read beside others (a page's): its strings may be
    /// appended to `shared` rather than given an allocation of their own, and the item is
    /// then whole only once [`Self::share`] has given it that text. The default reads as
    /// `scan_plain`.
    fn scan_plain_sharing(text: &str, shared: &mut SharedTexts) -> Option<(Self, usize)> {
        let _ = shared;
        Self::scan_plain(text)
    }

    /// Gives `items` (read by [`Self::scan_plain_sharing`] with `shared`, or whole, by serde)
    /// the text gathered in `shared`. The default has nothing to give.
    fn share(items: &mut [Self], shared: SharedTexts) {
        let _ = (items, shared);
    }
}

/// The strings of items read together (a page's), gathered to be kept in a few texts of
/// about [`SharedTexts::CHUNK`] bytes rather than one per item: 800,000 trajectories then take
/// about 8,000 allocations, not 800,000. Offsets count from the first item's strings, across
/// the texts.
#[derive(Debug, Default)]
pub struct SharedTexts {
    /// The texts filled, each with the offset it starts at.
    filled: Vec<(usize, Arc<str>)>,
    /// The text being filled, from `start`.
    text: String,
    start: usize,
    /// Room was given in the text being filled (perhaps none: an item's strings may be empty).
    given: bool,
}

impl SharedTexts {
    /// The length a text is filled to before the next is begun: within an allocator's small
    /// sizes (jemalloc's end at 14 KiB; a first version holding a page's texts in blocks of up
    /// to 64 KiB made the CLI's memory grow by a third), large enough that an allocation
    /// serves dozens of items.
    const CHUNK: usize = 8 << 10;

    /// The text to append the next item's strings to, `length` bytes in all, and the offset
    /// they start at: the text being filled, or a new one when it has no room left (an item
    /// is never split). `None` past 4 GiB of strings.
    pub(crate) fn room(&mut self, length: usize) -> Option<(&mut String, u32)> {
        if !self.text.is_empty() && self.text.len() + length > Self::CHUNK {
            self.filled
                .push((self.start, Arc::from(self.text.as_str())));
            self.start += self.text.len();
            self.text.clear();
            self.given = false;
        }
        let at = self.start + self.text.len();
        u32::try_from(at.checked_add(length)?).ok()?;
        self.given = true;
        Some((&mut self.text, at as u32))
    }

    /// The texts, each with the offset it starts at, in order: at least one, when any item
    /// was given room.
    pub(crate) fn into_texts(mut self) -> Vec<(usize, Arc<str>)> {
        if self.given {
            self.filled
                .push((self.start, Arc::from(self.text.as_str())));
        }
        self.filled
    }
}

// Items and pages read by serde alone: their lists are short, or kept whole.
impl PlainItem for serde_json::Value {}
impl PlainItem for super::BenchmarkListItem {}
impl PlainItem for super::BenchmarkSpecTask {}
impl PlainItem for super::ChronicleJob {}
impl PlainItem for super::ChronicleTrial {}
impl PlainItem for super::EvalRun {}
impl PlainItem for super::EvalTrajectoryReward {}
impl PlainItem for super::Step {}
impl PlainItem for super::SuiteEvalRun {}
impl PlainItem for super::TrainingCheckpoint {}
impl PlainItem for super::TrainingRun {}
impl PlainItem for super::TrajectoryMetadata {}
impl<T: DeserializeOwned> PlainItem for super::ChroniclePage<T> {}
impl PlainItem for super::AgentListPage {}
impl PlainItem for super::AgentTrainingEvaluationSeriesPage {}
impl PlainItem for super::EvalRemainingWorkPage {}
impl PlainItem for super::HeldOutRewardsByStepPage {}

/// Marks a field seen; `None` when it was already (a field twice, which serde refuses).
pub(crate) fn once(seen: &mut bool) -> Option<()> {
    (!std::mem::replace(seen, true)).then_some(())
}

/// A page object in its plain form: its `items` (required, each read by `T`'s scanner, their
/// strings kept in shared texts: [`PlainItem::share`]) appended to `items`, every other member
/// handed to `member`, which reads its value or answers `None`. `None` leaves `items` longer,
/// by items not yet whole: the caller drops what it appended. Past `limit` bytes, no more
/// items are read (`None`, the cursor past the limit): the caller tells a page too large to
/// read whole by that.
pub(crate) fn scan_page_object<'a, T: PlainItem>(
    cursor: &mut Cursor<'a>,
    items: &mut Vec<T>,
    limit: usize,
    mut member: impl FnMut(&'a str, &mut Cursor<'a>) -> Option<()>,
) -> Option<()> {
    let mut items_seen = false;
    let first = items.len();
    let mut shared = SharedTexts::default();
    cursor.object(|key, cursor| {
        if key != "items" {
            return member(key, cursor);
        }
        once(&mut items_seen)?;
        cursor.array(|cursor| {
            if cursor.at() > limit {
                return None;
            }
            items.push(cursor.item_sharing(&mut shared)?);
            Some(())
        })
    })?;
    T::share(&mut items[first..], shared);
    items_seen.then_some(())
}

/// The cursor page's fields besides `items`: `next_cursor` (a string or null, as the
/// contract's `Option<String>` with a default), `has_more` (required), and `eval_run_id`
/// (required) when `with_run_id`.
pub(crate) struct PageFields<'a> {
    /// `next_cursor`.
    pub next_cursor: Option<&'a str>,
    /// `has_more`.
    pub has_more: bool,
    /// `eval_run_id`, when asked for.
    pub eval_run_id: Option<&'a str>,
}

/// A cursor page ([`super::Page`], or [`super::EvalTrajectoryRewardsPage`] `with_run_id`) in
/// its plain form: its items and other fields, and its length.
pub(crate) fn scan_cursor_page<'a, T: PlainItem>(
    text: &'a str,
    with_run_id: bool,
) -> Option<(Vec<T>, PageFields<'a>, usize)> {
    let mut cursor = Cursor::new(text);
    let mut items = Vec::new();
    let mut next_cursor = None;
    let mut has_more = None;
    let mut eval_run_id = None;
    let mut seen = [false; 3];
    scan_page_object(&mut cursor, &mut items, usize::MAX, |key, cursor| {
        match key {
            "next_cursor" => {
                once(&mut seen[0])?;
                next_cursor = cursor.optional_string()?;
            }
            "has_more" => {
                once(&mut seen[1])?;
                has_more = Some(cursor.optional_bool()??);
            }
            "eval_run_id" if with_run_id => {
                once(&mut seen[2])?;
                eval_run_id = Some(cursor.string()?);
            }
            _ => cursor.skip_scalar()?,
        }
        Some(())
    })?;
    if with_run_id && eval_run_id.is_none() {
        return None;
    }
    let fields = PageFields {
        next_cursor,
        has_more: has_more?,
        eval_run_id,
    };
    Some((items, fields, cursor.at()))
}

/// Powers of ten a `f64` holds exactly.
const EXACT_POWERS_OF_TEN: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// Integers a `f64` holds exactly are below this.
const EXACT_INTEGERS: u64 = 1 << 53;

/// A JSON number as written: its digits as an integer (`None` past [`EXACT_INTEGERS`]), the
/// power of ten they are scaled by, and its form.
#[derive(Debug, Clone, Copy)]
struct Number {
    negative: bool,
    digits: Option<u64>,
    /// Digit count of the integer part and fraction together.
    digit_count: usize,
    /// `None` when the exponent is too long to matter here.
    exponent: Option<i32>,
    /// Written without a fraction or an exponent.
    integer: bool,
}

impl Number {
    /// Its value, when one exact operation gives it (as serde_json computes it then).
    fn exact_f64(self) -> Option<f64> {
        let digits = self.digits? as f64;
        let exponent = self.exponent?;
        let power = *EXACT_POWERS_OF_TEN.get(exponent.unsigned_abs() as usize)?;
        let magnitude = if exponent >= 0 {
            digits * power
        } else {
            digits / power
        };
        Some(if self.negative { -magnitude } else { magnitude })
    }

    /// Whether an `i64` field takes it (an integer serde_json reads as one: not `-0`, which
    /// it reads as a float).
    fn fits_i64(self) -> bool {
        self.integer && self.digit_count <= 18 && !(self.negative && self.digits == Some(0))
    }
}

/// A position in JSON text, read forward.
pub(crate) struct Cursor<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Cursor<'a> {
    /// At the start of `text`.
    pub(crate) fn new(text: &'a str) -> Self {
        Self { text, at: 0 }
    }

    /// Bytes read.
    pub(crate) fn at(&self) -> usize {
        self.at
    }

    fn bytes(&self) -> &'a [u8] {
        self.text.as_bytes()
    }

    /// The next byte after whitespace, not consumed.
    pub(crate) fn peek(&mut self) -> Option<u8> {
        let bytes = self.bytes();
        while let Some(&byte) = bytes.get(self.at) {
            if !matches!(byte, b' ' | b'\n' | b'\r' | b'\t') {
                return Some(byte);
            }
            self.at += 1;
        }
        None
    }

    /// Consumes `byte` when it comes next (after whitespace).
    pub(crate) fn eat(&mut self, byte: u8) -> bool {
        let next = self.peek() == Some(byte);
        self.at += usize::from(next);
        next
    }

    /// Consumes `word` when it comes next (after whitespace).
    fn word(&mut self, word: &[u8]) -> bool {
        self.peek();
        let next = self.bytes()[self.at..].starts_with(word);
        if next {
            self.at += word.len();
        }
        next
    }

    /// Consumes `null` when it comes next.
    pub(crate) fn null(&mut self) -> bool {
        self.word(b"null")
    }

    /// A string without escapes or control characters, its quotes consumed.
    pub(crate) fn string(&mut self) -> Option<&'a str> {
        if !self.eat(b'"') {
            return None;
        }
        let start = self.at;
        let end = start + plain_string_length(&self.bytes()[start..])?;
        self.at = end + 1;
        // The text is UTF-8 and the quotes are ASCII, so both ends are character boundaries.
        self.text.get(start..end)
    }

    /// A string, or null.
    pub(crate) fn optional_string(&mut self) -> Option<Option<&'a str>> {
        if self.null() {
            Some(None)
        } else {
            self.string().map(Some)
        }
    }

    /// A number in JSON's grammar.
    fn number(&mut self) -> Option<Number> {
        self.peek();
        let bytes = self.bytes();
        let mut at = self.at;
        let negative = bytes.get(at) == Some(&b'-');
        at += usize::from(negative);
        let mut digits = Some(0u64);
        let mut digit_count = 0;
        let push = |digit: u8, digits: &mut Option<u64>| {
            *digits = digits
                .map(|value| value * 10 + u64::from(digit - b'0'))
                .filter(|&value| value < EXACT_INTEGERS);
        };
        match bytes.get(at) {
            Some(b'0') => {
                at += 1;
                digit_count += 1;
                if bytes.get(at).is_some_and(u8::is_ascii_digit) {
                    return None;
                }
            }
            Some(b'1'..=b'9') => {
                while let Some(&digit) = bytes.get(at).filter(|byte| byte.is_ascii_digit()) {
                    push(digit, &mut digits);
                    digit_count += 1;
                    at += 1;
                }
            }
            _ => return None,
        }
        let mut scale: i64 = 0;
        let mut integer = true;
        if bytes.get(at) == Some(&b'.') {
            integer = false;
            at += 1;
            let first = at;
            while let Some(&digit) = bytes.get(at).filter(|byte| byte.is_ascii_digit()) {
                push(digit, &mut digits);
                digit_count += 1;
                scale -= 1;
                at += 1;
            }
            if at == first {
                return None;
            }
        }
        let mut exponent = Some(scale);
        if matches!(bytes.get(at), Some(b'e' | b'E')) {
            integer = false;
            at += 1;
            let negative_exponent = bytes.get(at) == Some(&b'-');
            at += usize::from(matches!(bytes.get(at), Some(b'+' | b'-')));
            let first = at;
            let mut written: Option<i64> = Some(0);
            while let Some(&digit) = bytes.get(at).filter(|byte| byte.is_ascii_digit()) {
                written = written
                    .map(|value| value * 10 + i64::from(digit - b'0'))
                    .filter(|&value| value < 1 << 20);
                at += 1;
            }
            if at == first {
                return None;
            }
            exponent = written.map(|written| match negative_exponent {
                true => scale - written,
                false => scale + written,
            });
        }
        // A number the text's end may cut: the caller's next byte must be a delimiter.
        self.at = at;
        Some(Number {
            negative,
            digits,
            digit_count,
            exponent: exponent.and_then(|exponent| i32::try_from(exponent).ok()),
            integer,
        })
    }

    /// A number read as an `f64` field reads it, when exact (see the module).
    pub(crate) fn f64(&mut self) -> Option<f64> {
        self.number()?.exact_f64()
    }

    /// A number or null, as an `Option<f64>` field reads it.
    pub(crate) fn optional_f64(&mut self) -> Option<Option<f64>> {
        if self.null() {
            Some(None)
        } else {
            self.f64().map(Some)
        }
    }

    /// Null, or an integer an `Option<i64>` field takes; not kept.
    pub(crate) fn optional_i64(&mut self) -> Option<()> {
        if self.null() {
            return Some(());
        }
        self.number()?.fits_i64().then_some(())
    }

    /// Null, true or false, as an `Option<bool>` field reads it.
    pub(crate) fn optional_bool(&mut self) -> Option<Option<bool>> {
        if self.null() {
            Some(None)
        } else if self.word(b"true") {
            Some(Some(true))
        } else if self.word(b"false") {
            Some(Some(false))
        } else {
            None
        }
    }

    /// A value of a field not read: null, a boolean, a plain string or a number.
    pub(crate) fn skip_scalar(&mut self) -> Option<()> {
        match self.peek()? {
            b'"' => self.string().map(drop),
            b'-' | b'0'..=b'9' => self.number().map(drop),
            _ => self.optional_bool().map(drop),
        }
    }

    /// A page's item: read by its plain scanner ([`PlainItem::scan_plain_sharing`], its
    /// strings appended to `shared`: whole once [`PlainItem::share`] gave it that text), or,
    /// when it is not plain (one trajectory in fifty has a harness diagnostic, an object), by
    /// serde_json alone, where it lies, so that its page's other items are still scanned. An
    /// item serde refuses, or nested deeper than [`MAX_ITEM_DEPTH`], answers `None` (its page
    /// goes to serde whole).
    pub(crate) fn item_sharing<T: PlainItem>(&mut self, shared: &mut SharedTexts) -> Option<T> {
        self.peek()?;
        let rest = &self.text[self.at..];
        let (item, length) = match T::scan_plain_sharing(rest, shared) {
            Some(scanned) => scanned,
            None => {
                let length = value_length(rest.as_bytes())?;
                (serde_json::from_str(&rest[..length]).ok()?, length)
            }
        };
        self.at += length;
        Some(item)
    }

    /// An array, each element read by `element` (the cursor before it).
    pub(crate) fn array(&mut self, mut element: impl FnMut(&mut Self) -> Option<()>) -> Option<()> {
        if !self.eat(b'[') {
            return None;
        }
        if self.eat(b']') {
            return Some(());
        }
        loop {
            element(self)?;
            match self.peek()? {
                b',' => self.at += 1,
                b']' => {
                    self.at += 1;
                    return Some(());
                }
                _ => return None,
            }
        }
    }

    /// An object, each member handed to `member` with its key (the cursor before its value);
    /// `member` reads the value or answers `None`. A key seen twice answers `None` only when
    /// `member` says so (it knows which keys it reads).
    pub(crate) fn object(
        &mut self,
        mut member: impl FnMut(&'a str, &mut Self) -> Option<()>,
    ) -> Option<()> {
        if !self.eat(b'{') {
            return None;
        }
        if self.eat(b'}') {
            return Some(());
        }
        loop {
            let key = self.string()?;
            if !self.eat(b':') {
                return None;
            }
            member(key, self)?;
            match self.peek()? {
                b',' => self.at += 1,
                b'}' => {
                    self.at += 1;
                    return Some(());
                }
                _ => return None,
            }
        }
    }
}

/// How deep an item read by serde alone ([`Cursor::item_sharing`]) may nest: far below
/// serde_json's limit of 128, which counts the page and array around an item when the page is
/// read whole, and not when the item is read alone; within this depth both read it alike.
const MAX_ITEM_DEPTH: usize = 64;

/// The length of the JSON value at the start of `bytes` (no whitespace before it), found by
/// its brackets and strings alone, when it nests at most [`MAX_ITEM_DEPTH`] deep; not
/// checked otherwise (serde reads it next). `None` when it does not end within `bytes`.
pub(crate) fn value_length(bytes: &[u8]) -> Option<usize> {
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    for (at, &byte) in bytes.iter().enumerate() {
        if in_string {
            match byte {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => {
                    in_string = false;
                    if depth == 0 {
                        return Some(at + 1);
                    }
                }
                _ => {}
            }
            continue;
        }
        match byte {
            b'"' => in_string = true,
            b'{' | b'[' => {
                depth += 1;
                if depth > MAX_ITEM_DEPTH {
                    return None;
                }
            }
            b'}' | b']' if depth == 0 => return Some(at),
            b'}' | b']' => {
                depth -= 1;
                if depth == 0 {
                    return Some(at + 1);
                }
            }
            b',' | b' ' | b'\n' | b'\r' | b'\t' if depth == 0 => return Some(at),
            _ => {}
        }
    }
    None
}

/// The length of a string's text up to its closing quote, when it has no escape and no
/// control character; `None` otherwise, or when the quote is not in `bytes`. (A byte at a
/// time: the strings are short, and eight at a time was no faster.)
fn plain_string_length(bytes: &[u8]) -> Option<usize> {
    for (at, &byte) in bytes.iter().enumerate() {
        if byte == b'"' {
            return Some(at);
        }
        if byte == b'\\' || byte < 0x20 {
            return None;
        }
    }
    None
}

/// A listed trajectory's facts ([`super::LeanTrajectory`]'s fields), in its plain form.
pub(crate) fn scan_trajectory<'a>(cursor: &mut Cursor<'a>) -> Option<TrajectoryFacts<'a>> {
    let mut facts = TrajectoryFacts {
        id: "",
        task: None,
        reward: None,
        created_at: "",
        status: None,
        termination_reason: None,
        rollout_status: None,
        rollout_termination_reason: None,
    };
    let mut seen = [false; 12 + OPTIONAL_STRING_FIELDS];
    cursor.object(|key, cursor| {
        match key {
            "trajectory_id" => {
                once(&mut seen[0])?;
                facts.id = cursor.string()?;
            }
            "organization_id" => {
                once(&mut seen[1])?;
                cursor.string()?;
            }
            "source" => {
                once(&mut seen[2])?;
                cursor.string()?;
            }
            "created_at" => {
                once(&mut seen[3])?;
                facts.created_at = cursor.string()?;
            }
            "status" => {
                once(&mut seen[4])?;
                facts.status = cursor.optional_string()?;
            }
            "termination_reason" => {
                once(&mut seen[5])?;
                facts.termination_reason = cursor.optional_string()?;
            }
            "reward" => {
                once(&mut seen[6])?;
                facts.reward = cursor.optional_f64()?;
            }
            "task_id" => {
                once(&mut seen[7])?;
                facts.task = cursor.optional_string()?;
            }
            "num_steps" => {
                once(&mut seen[8])?;
                cursor.optional_i64()?;
            }
            "policy_step" => {
                once(&mut seen[9])?;
                cursor.optional_i64()?;
            }
            "rollout" => {
                once(&mut seen[10])?;
                if !cursor.null() {
                    let (status, reason) = scan_rollout(cursor)?;
                    facts.rollout_status = Some(status);
                    facts.rollout_termination_reason = reason;
                }
            }
            // Null-or-object: only null is plain.
            "model_association_metadata" => {
                once(&mut seen[11])?;
                cursor.null().then_some(())?;
            }
            _ => match optional_string_field(key) {
                Some(bit) => {
                    once(&mut seen[12 + bit])?;
                    cursor.optional_string()?;
                }
                None => cursor.skip_scalar()?,
            },
        }
        Some(())
    })?;
    // Required: the id, the organization, the source, the creation time.
    seen[..4].iter().all(|&seen| seen).then_some(facts)
}

/// How many of a trajectory's fields are a string or null and not read.
const OPTIONAL_STRING_FIELDS: usize = 8;

/// Which of those fields `key` names.
fn optional_string_field(key: &str) -> Option<usize> {
    Some(match key {
        "dataset_id" => 0,
        "dataset_name" => 1,
        "dataset_source" => 2,
        "dataset_gcs_prefix" => 3,
        "trace_id" => 4,
        "model_id" => 5,
        "model_association_source" => 6,
        "training_run_id" => 7,
        _ => return None,
    })
}

/// A rollout's status and termination reason ([`super::LeanRollout`]'s fields).
fn scan_rollout<'a>(cursor: &mut Cursor<'a>) -> Option<(&'a str, Option<&'a str>)> {
    let mut status = "";
    let mut reason = None;
    let mut seen = [false; 4];
    cursor.object(|key, cursor| {
        match key {
            "rollout_id" => {
                once(&mut seen[0])?;
                cursor.string()?;
            }
            "status" => {
                once(&mut seen[1])?;
                status = cursor.string()?;
            }
            "termination_reason" => {
                once(&mut seen[2])?;
                reason = cursor.optional_string()?;
            }
            // Null-or-object: only null is plain.
            "harness_diagnostic" => {
                once(&mut seen[3])?;
                cursor.null().then_some(())?;
            }
            _ => cursor.skip_scalar()?,
        }
        Some(())
    })?;
    (seen[0] && seen[1]).then_some((status, reason))
}

/// A trajectory reward's id, reward and task ([`super::LeanReward`]'s fields).
pub(crate) fn scan_reward<'a>(cursor: &mut Cursor<'a>) -> Option<(&'a str, f64, Option<&'a str>)> {
    let mut id = "";
    let mut reward = 0.0;
    let mut task = None;
    let mut seen = [false; 3];
    cursor.object(|key, cursor| {
        match key {
            "trajectory_id" => {
                once(&mut seen[0])?;
                id = cursor.string()?;
            }
            "reward" => {
                once(&mut seen[1])?;
                reward = cursor.f64()?;
            }
            "task_id" => {
                once(&mut seen[2])?;
                task = cursor.optional_string()?;
            }
            _ => cursor.skip_scalar()?,
        }
        Some(())
    })?;
    (seen[0] && seen[1]).then_some((id, reward, task))
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::api::{
        decode, decode_plain, AsRewardFacts, AsTrajectoryFacts, PackedReward, PackedRewardsPage,
        PackedTrajectory, PackedTrajectoryPage,
    };

    /// What follows an item in a list: the scanner must stop at the item's end.
    const TAIL: &str = " ,{\"next\":1}]";

    /// A number in JSON's grammar: up to 20 digits before and after the point, an exponent.
    fn number_text() -> impl Strategy<Value = String> {
        let exponent = (
            prop::sample::select(vec!["e", "E"]),
            prop::sample::select(vec!["", "+", "-"]),
            "[0-9]{1,3}",
        );
        (
            any::<bool>(),
            "(0|[1-9][0-9]{0,19})",
            prop::option::of("[0-9]{1,20}"),
            prop::option::of(exponent),
        )
            .prop_map(|(negative, integer, fraction, exponent)| {
                let mut text = if negative {
                    "-".to_owned()
                } else {
                    String::new()
                };
                text.push_str(&integer);
                if let Some(fraction) = fraction {
                    text.push('.');
                    text.push_str(&fraction);
                }
                if let Some((e, sign, digits)) = exponent {
                    text.push_str(e);
                    text.push_str(sign);
                    text.push_str(&digits);
                }
                text
            })
    }

    /// Any value a field may hold, plain or not, valid JSON or not.
    fn value_text() -> impl Strategy<Value = String> {
        prop_oneof![
            3 => "[a-zA-Z0-9 _:.-]{0,12}".prop_map(|text| format!("\"{text}\"")),
            3 => number_text(),
            2 => prop::sample::select(vec!["null", "true", "false"]).prop_map(str::to_owned),
            2 => prop::sample::select(vec![
                "\"tâche é\"",
                "\"a\\\"b\"",
                "\"\\u0041\"",
                "\"a\\nb\"",
                "\"a\u{1}b\"",
                "\"tab\there\"",
                "\"\\\\\"",
                "{}",
                "{\"a\":1}",
                "[]",
                "[1,2]",
                "{\"rollout_id\":\"r\",\"status\":\"RUNNING\"}",
                "{\"rollout_id\":\"r\",\"status\":\"X\",\"termination_reason\":null,\"harness_diagnostic\":null,\"extra\":1.5}",
                "{\"rollout_id\":\"r\",\"status\":\"X\",\"harness_diagnostic\":{}}",
                "{\"rollout_id\":\"r\",\"status\":\"X\",\"status\":\"Y\"}",
                "{\"status\":\"X\"}",
                "{\"rollout_id\":\"r\",\"status\":null}",
                "nul",
                "nulll",
                "tru",
                "\"cut",
                "-",
                "-0",
                "01",
                "1.",
                ".5",
                "1e",
                "+1",
                "1e400",
                "9007199254740993",
                "9223372036854775808",
            ])
            .prop_map(str::to_owned),
        ]
    }

    /// Whitespace JSON allows between tokens, or none.
    fn space() -> impl Strategy<Value = &'static str> {
        prop::sample::select(vec!["", "", " ", "\n  ", "\t", "\r\n"])
    }

    /// An object of `keys` with any values, after (or not) the required fields in plain form.
    fn object_text(
        required: &'static [(&'static str, &'static str)],
        keys: Vec<&'static str>,
    ) -> impl Strategy<Value = String> {
        (
            any::<bool>(),
            prop::collection::vec(
                (prop::sample::select(keys), value_text(), space(), space()),
                0..8,
            ),
            space(),
        )
            .prop_map(move |(with_required, members, end)| {
                let mut parts: Vec<String> = Vec::new();
                if with_required {
                    parts.extend(
                        required
                            .iter()
                            .map(|(key, value)| format!("\"{key}\":{value}")),
                    );
                }
                parts.extend(members.into_iter().map(|(key, value, before, after)| {
                    format!("{before}\"{key}\"{after}:{before}{value}{after}")
                }));
                format!("{{{}{end}}}", parts.join(","))
            })
    }

    const TRAJECTORY_REQUIRED: &[(&str, &str)] = &[
        ("trajectory_id", "\"tr-1\""),
        ("organization_id", "\"org\""),
        ("source", "\"eval\""),
        ("created_at", "\"2026-11-01T00:00:00Z\""),
    ];

    const TRAJECTORY_KEYS: &[&str] = &[
        "trajectory_id",
        "organization_id",
        "source",
        "created_at",
        "status",
        "termination_reason",
        "reward",
        "task_id",
        "num_steps",
        "policy_step",
        "rollout",
        "model_association_metadata",
        "dataset_id",
        "training_run_id",
        "extra",
    ];

    const REWARD_REQUIRED: &[(&str, &str)] = &[("trajectory_id", "\"tr-1\""), ("reward", "0.5")];

    const REWARD_KEYS: &[&str] = &["trajectory_id", "reward", "task_id", "extra"];

    /// Bits of a reward, so that -0.0 and 0.0 differ.
    fn bits(reward: Option<f64>) -> Option<u64> {
        reward.map(f64::to_bits)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]

        /// Whatever the scanner reads of a trajectory, serde reads the same (to the reward's
        /// bits), and the scanner stops at the item's end.
        #[test]
        fn a_scanned_trajectory_is_what_serde_decodes(
            object in object_text(TRAJECTORY_REQUIRED, TRAJECTORY_KEYS.to_vec()),
        ) {
            let text = format!("{object}{TAIL}");
            if let Some((scanned, length)) = PackedTrajectory::scan_plain(&text) {
                prop_assert_eq!(length, object.len());
                let decoded = decode::<PackedTrajectory>(object.as_bytes());
                prop_assert!(decoded.is_ok(), "serde refuses what was scanned: {:?}", decoded);
                let decoded = decoded.unwrap();
                prop_assert_eq!(scanned.facts(), decoded.facts());
                prop_assert_eq!(bits(scanned.listed_reward()), bits(decoded.listed_reward()));
            }
        }

        /// The same for a trajectory reward.
        #[test]
        fn a_scanned_reward_is_what_serde_decodes(
            object in object_text(REWARD_REQUIRED, REWARD_KEYS.to_vec()),
        ) {
            let text = format!("{object}{TAIL}");
            if let Some((scanned, length)) = PackedReward::scan_plain(&text) {
                prop_assert_eq!(length, object.len());
                let decoded = decode::<PackedReward>(object.as_bytes());
                prop_assert!(decoded.is_ok(), "serde refuses what was scanned: {:?}", decoded);
                let decoded = decoded.unwrap();
                prop_assert_eq!(
                    (scanned.trajectory_id(), scanned.task_id()),
                    (decoded.trajectory_id(), decoded.task_id())
                );
                prop_assert_eq!(scanned.reward().to_bits(), decoded.reward().to_bits());
            }
        }

        /// A number the scanner converts has serde_json's value to the bit; one of at most 15
        /// digits and an exponent of at most 7 either way is always converted.
        #[test]
        fn a_scanned_number_has_serde_jsons_value(number in number_text()) {
            let object = format!("{{\"trajectory_id\":\"t\",\"reward\":{number}}}");
            let decoded = decode::<PackedReward>(object.as_bytes()).map(|reward| reward.reward().to_bits());
            match PackedReward::scan_plain(&object) {
                Some((scanned, _)) => prop_assert_eq!(Ok(scanned.reward().to_bits()), decoded),
                None => {
                    let cursor_number = Cursor::new(&number).number().unwrap();
                    let short = cursor_number.digit_count <= 15
                        && cursor_number.exponent.is_some_and(|exponent| exponent.abs() <= 7);
                    prop_assert!(!short, "{} was left to serde", number);
                }
            }
        }
    }

    /// A page: items (plain or not) and the page's own fields, any of them twice or missing.
    fn page_text(
        item: impl Strategy<Value = String>,
        keys: Vec<&'static str>,
    ) -> impl Strategy<Value = String> {
        (
            prop::collection::vec(item, 0..4),
            prop::collection::vec((prop::sample::select(keys), value_text()), 0..4),
            any::<bool>(),
            any::<bool>(),
            space(),
        )
            .prop_map(|(items, members, with_required, items_first, end)| {
                let mut parts: Vec<String> = Vec::new();
                if with_required {
                    parts.push(r#""eval_run_id":"er","has_more":false"#.to_owned());
                }
                parts.extend(
                    members
                        .into_iter()
                        .map(|(key, value)| format!("\"{key}\":{value}")),
                );
                let items = format!("\"items\":[{}]", items.join(", "));
                if items_first {
                    parts.insert(0, items);
                } else {
                    parts.push(items);
                }
                format!("{{{}}}{end}", parts.join(","))
            })
    }

    const PAGE_KEYS: &[&str] = &["next_cursor", "has_more", "eval_run_id", "items", "extra"];

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1500))]

        /// An API page decodes the same through the scanner as through serde alone: the same
        /// page, or the same error.
        #[test]
        fn a_page_decodes_as_serde_decodes_it(
            rewards in page_text(
                prop_oneof![
                    2 => Just(r#"{"trajectory_id":"t","reward":1.0,"task_id":"a"}"#.to_owned()),
                    1 => object_text(REWARD_REQUIRED, REWARD_KEYS.to_vec()),
                ],
                PAGE_KEYS.to_vec(),
            ),
            trajectories in page_text(
                prop_oneof![
                    2 => Just(r#"{"trajectory_id":"t","organization_id":"o","source":"eval","created_at":"c"}"#.to_owned()),
                    1 => object_text(TRAJECTORY_REQUIRED, TRAJECTORY_KEYS.to_vec()),
                ],
                PAGE_KEYS.to_vec(),
            ),
        ) {
            prop_assert_eq!(
                decode_plain::<PackedRewardsPage>(rewards.as_bytes()),
                decode::<PackedRewardsPage>(rewards.as_bytes())
            );
            prop_assert_eq!(
                decode_plain::<PackedTrajectoryPage>(trajectories.as_bytes()),
                decode::<PackedTrajectoryPage>(trajectories.as_bytes())
            );
        }
    }

    /// Pages as the API sends them are read by the scanner.
    #[test]
    fn plain_pages_are_scanned() {
        let item = r#"{"trajectory_id":"t","reward":1.0,"task_id":"a"}"#;
        let page = format!(
            r#"{{"eval_run_id":"er","items":[{item},{item}],"next_cursor":"c2","has_more":true}}"#
        );
        let (scanned, length) = PackedRewardsPage::scan_plain(&page).expect("plain");
        assert_eq!(length, page.len());
        assert_eq!(
            scanned,
            decode::<PackedRewardsPage>(page.as_bytes()).unwrap()
        );
        assert_eq!(scanned.next_cursor.as_deref(), Some("c2"));
        // No run id, or has_more null: serde's (which refuses both).
        let without_run = page.replace(r#""eval_run_id":"er","#, "");
        assert!(PackedRewardsPage::scan_plain(&without_run).is_none());
        let null_more = page.replace("true", "null");
        assert!(PackedRewardsPage::scan_plain(&null_more).is_none());
        let trajectories = r#"{"items":[],"next_cursor":null,"has_more":false}"#;
        let (scanned, _) = PackedTrajectoryPage::scan_plain(trajectories).expect("plain");
        assert_eq!(
            scanned,
            decode::<PackedTrajectoryPage>(trajectories.as_bytes()).unwrap()
        );
    }

    /// Items as exporters write them are read by the scanner, not left to serde.
    #[test]
    fn plain_items_are_scanned() {
        let trajectories = [
            r#"{"trajectory_id": "tr-a-000001-0", "organization_id": "org", "source": "eval", "status": "completed", "termination_reason": "ENV_DONE", "reward": 1.0, "num_steps": 12, "created_at": "2026-11-01T00:00:00Z", "task_id": "task-000001"}"#,
            r#"{"trajectory_id":"t","organization_id":"o","dataset_id":null,"model_association_metadata":null,"source":"eval","status":"paused_new","termination_reason":null,"reward":null,"num_steps":-3,"created_at":"c","task_id":"tâche","policy_step":400,"rollout":{"rollout_id":"r","status":"QUEUED_NEW","termination_reason":"X","harness_diagnostic":null},"extra":[]}"#,
            r#"{"trajectory_id":"t","organization_id":"o","source":"eval","created_at":"c","rollout":null,"reward":-0.25e1}"#,
        ];
        for (index, text) in trajectories.iter().enumerate() {
            let scanned = PackedTrajectory::scan_plain(text);
            // The second has an array in a field not read: serde's.
            if index == 1 {
                assert!(scanned.is_none());
                let plain = text.replace(r#","extra":[]"#, "");
                let (scanned, length) = PackedTrajectory::scan_plain(&plain).expect("plain");
                assert_eq!(length, plain.len());
                let decoded: PackedTrajectory = decode(plain.as_bytes()).unwrap();
                assert_eq!(scanned, decoded);
                assert_eq!(scanned.facts().rollout_termination_reason, Some("X"));
                continue;
            }
            let (scanned, length) = PackedTrajectory::scan_plain(text).expect("plain");
            assert_eq!(length, text.len());
            assert_eq!(
                scanned,
                decode::<PackedTrajectory>(text.as_bytes()).unwrap()
            );
        }
        let reward = r#"{"trajectory_id":"t","reward":0.1,"task_id":null}"#;
        let (scanned, _) = PackedReward::scan_plain(reward).expect("plain");
        assert_eq!(scanned, decode::<PackedReward>(reward.as_bytes()).unwrap());
    }

    /// What serde refuses, or reads otherwise than the scanner would, is left to serde.
    #[test]
    fn what_serde_refuses_is_not_scanned() {
        let cases = [
            // A field twice, a required field missing, a wrong type.
            r#"{"trajectory_id":"t","trajectory_id":"u","reward":1}"#,
            r#"{"trajectory_id":"t","reward":1,"reward":1}"#,
            r#"{"trajectory_id":"t"}"#,
            r#"{"reward":1}"#,
            r#"{"trajectory_id":"t","reward":null}"#,
            r#"{"trajectory_id":1,"reward":1}"#,
            // An escape, a control character, a number out of range or not exact.
            r#"{"trajectory_id":"t\"","reward":1}"#,
            "{\"trajectory_id\":\"t\u{7}\",\"reward\":1}",
            r#"{"trajectory_id":"t","reward":1e400}"#,
            r#"{"trajectory_id":"t","reward":9007199254740993}"#,
            r#"{"trajectory_id":"t","reward":1e23}"#,
            // Not JSON, or cut.
            r#"{"trajectory_id":"t","reward":01}"#,
            r#"{"trajectory_id":"t","reward":1,}"#,
            r#"{"trajectory_id":"t","reward":1"#,
            r#"{"trajectory_id":"t","reward":1 "task_id":null}"#,
        ];
        for case in cases {
            assert!(PackedReward::scan_plain(case).is_none(), "{case}");
        }
        let trajectory_cases = [
            r#"{"trajectory_id":"t","organization_id":"o","source":"eval","created_at":"c","num_steps":-0}"#,
            r#"{"trajectory_id":"t","organization_id":"o","source":"eval","created_at":"c","num_steps":1.0}"#,
            r#"{"trajectory_id":"t","organization_id":"o","source":"eval","created_at":"c","num_steps":9223372036854775808}"#,
            r#"{"trajectory_id":"t","organization_id":"o","source":"eval","created_at":"c","dataset_id":1}"#,
            r#"{"trajectory_id":"t","organization_id":"o","source":"eval","created_at":"c","dataset_id":null,"dataset_id":null}"#,
            r#"{"trajectory_id":"t","organization_id":"o","source":"eval","created_at":"c","rollout":{"status":"X"}}"#,
            r#"{"trajectory_id":"t","organization_id":"o","source":"eval"}"#,
        ];
        for case in trajectory_cases {
            assert!(PackedTrajectory::scan_plain(case).is_none(), "{case}");
        }
    }
}
