//! A list file read as its bytes arrive ([`ListFeed`]), a step at a time: the viewer reads a
//! file of hundreds of megabytes a few megabytes at a time and decodes them in slices, so the
//! page never holds the whole file nor stops for long; the CLI reads a run folder's lists the
//! same way from disk ([`read_list`]), never holding a file whole either.
//!
//! Bytes are checked as UTF-8 as they are pushed (and kept as text: serde_json then need not
//! check each string again); values are decoded one by one where they lie
//! (each array element, or each JSON Lines value: an item, or a page whose items are appended),
//! the separators between them checked. A value in its plain form (what exporters write) is
//! read by a hand-written scanner ([`PlainItem`]: trajectories and rewards), any other by
//! serde_json, which accepts and refuses what it always did. A value cut by the end of what
//! arrived waits for more, and is tried again only once what arrived from its start has
//! doubled, so a value of many chunks is decoded a few times, not once per chunk. A page of a
//! megabyte or more (a file that is one page holding every item) does not wait to be whole:
//! it is read member by member and item by item as it arrives ([`OpenPage`]), so the feed
//! holds at most about two megabytes of it and no step reads much more than its budget.
//! Anything unexpected (a value that does not decode, a separator out of place, bytes after
//! the end, bytes that are not UTF-8) ends the feed with [`Feed::Unexpected`]: the caller then
//! reads the whole file with [`parse_list`](super::parse_list), whose answer (its error, naming
//! the file, line and JSON path) is the one. What a feed reads is what `parse_list` reads:
//! the same items, layout and truncation. One exception, named: serde_json refuses values
//! nested 128 deep, and a whole read counts the array (and page) around an item where a feed
//! does not, so an item nested 125 to 127 levels deep inside (in a field no report reads) is
//! read by a feed and refused by the whole read.

use serde::de::DeserializeOwned;

use super::list::{more_follow, scan_plain_page, FilePage, ListLayout, PageScan, ParsedList};
use super::page_shape::IsPage;
use crate::large_list::{PlainItem, SharedTexts};

mod open_page;

use open_page::{OpenPage, OPEN_PAGE_BYTES};

/// Whether a layout's values are an array's elements (else JSON values one after another).
fn in_array(layout: ListLayout) -> bool {
    matches!(layout, ListLayout::Items | ListLayout::PageArray)
}

/// Where a feed stands after a value of `layout`: at an array's separator, or at the next
/// value.
fn after_value(layout: ListLayout) -> Stage {
    if in_array(layout) {
        Stage::Separator { layout }
    } else {
        Stage::Value {
            layout,
            expect_value: false,
        }
    }
}

/// Whether a layout's values are pages (else items).
fn pages(layout: ListLayout) -> bool {
    matches!(layout, ListLayout::PageArray | ListLayout::PageLines)
}

/// Where a [`ListFeed`] stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    /// Before the first value: the layout is not known yet.
    Start,
    /// A value next (`expect_value`: after a comma, where an array may not end).
    Value {
        layout: ListLayout,
        expect_value: bool,
    },
    /// Inside a page read member by member ([`OpenPage`]): one too large to wait for whole.
    InPage { layout: ListLayout },
    /// An array's separator next: a comma, or its end.
    Separator { layout: ListLayout },
    /// After an array's end: only whitespace may follow.
    Closed { layout: ListLayout },
    /// Read, or ended unexpectedly.
    Done,
}

/// What [`ListFeed::advance`] ended with.
#[derive(Debug, Clone, PartialEq)]
pub enum Feed<T> {
    /// The budget is spent; more steps are needed.
    Working,
    /// Every byte pushed is decoded: push more (or [`ListFeed::end`] the file).
    NeedMore,
    /// The file is read.
    Read(ParsedList<T>),
    /// Something unexpected: read the whole file with [`parse_list`](super::parse_list) for
    /// the answer.
    Unexpected,
}

/// Why a step cannot go on.
enum Stop {
    /// The bytes so far end inside what comes next.
    NeedMore,
    Unexpected,
}

/// Items read one at a time (a bare array's or JSON Lines' items, an open page's) keep their
/// strings in texts shared with the items read next, as a page's items do: 800,000 items take
/// about 8,000 allocations, not 800,000. They are whole once given those texts
/// ([`PlainItem::share`]): every [`SHARE_EVERY`] items, and when the list is read.
#[derive(Debug)]
struct WaitingItems {
    /// The first item that may wait (the items before it are whole).
    first: usize,
    texts: SharedTexts,
}

impl WaitingItems {
    /// The texts the next item read one at a time appends its strings to: those of the items
    /// waiting, or new ones, the items waiting from `first` (the next item's index).
    fn texts(waiting: &mut Option<Self>, first: usize) -> &mut SharedTexts {
        &mut waiting
            .get_or_insert_with(|| WaitingItems {
                first,
                texts: SharedTexts::default(),
            })
            .texts
    }
}

/// Items read one at a time are given their shared texts at least this often, so the texts'
/// offsets stay far from their 4 GiB bound.
const SHARE_EVERY: usize = 1 << 14;

/// What [`ListFeed::scan_plain`] did with the value at `at`.
enum Scanned {
    /// Read: where it ends.
    Read(usize),
    /// A page too large to read whole, opened to be read member by member.
    Opened,
    /// Left to serde.
    Other,
}

/// A list file read as its bytes arrive; see the module's documentation.
#[derive(Debug)]
pub struct ListFeed<T> {
    /// The text pushed (checked as UTF-8 as it came) and not consumed yet (the consumed part
    /// is dropped at the next push): values are decoded from text, whose strings serde_json
    /// then need not check again.
    text: String,
    /// The bytes of a character the last push cut, waiting for the rest of it.
    cut: Vec<u8>,
    /// Where the next value (or separator) starts in `text` (always before an ASCII byte).
    at: usize,
    /// Bytes dropped from the front of `text`, consumed.
    dropped: usize,
    /// Whether the first bytes were looked at for a byte order mark.
    started: bool,
    /// No more bytes will come.
    ended: bool,
    /// Bytes that are not UTF-8 were pushed.
    not_utf8: bool,
    stage: Stage,
    items: Vec<T>,
    /// The file's size in bytes, when known ([`ListFeed::sized`]): the items' room is then
    /// reserved for the count the file's size projects, not grown by copying.
    size: Option<u64>,
    truncated: bool,
    /// After a value was found cut: the bytes from `at` that must have arrived before it is
    /// decoded again (twice those it was tried on), so a value of many chunks is decoded a
    /// few times, not once per chunk.
    retry_at: usize,
    /// The page being read member by member, when one is.
    open_page: Option<OpenPage>,
    /// Items read one at a time waiting for their shared texts, when any.
    waiting: Option<WaitingItems>,
    /// How large a page that has not arrived whole must be to be read member by member.
    open_page_bytes: usize,
    /// Values decoded, whole or cut (for the tests).
    #[cfg(test)]
    attempts: usize,
}

impl<T> Default for ListFeed<T> {
    fn default() -> Self {
        Self {
            text: String::new(),
            cut: Vec::new(),
            at: 0,
            dropped: 0,
            started: false,
            ended: false,
            not_utf8: false,
            stage: Stage::Start,
            items: Vec::new(),
            size: None,
            truncated: false,
            retry_at: 0,
            open_page: None,
            waiting: None,
            open_page_bytes: OPEN_PAGE_BYTES,
            #[cfg(test)]
            attempts: 0,
        }
    }
}

impl<T: PlainItem> ListFeed<T> {
    /// A feed with nothing pushed yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// A feed for a file of `size` bytes: whenever its items fill their room, room is reserved
    /// for as many as the bytes read so far project over the whole file (and a sixteenth
    /// more), so a list of 800,000 items is not copied as it grows, and not held twice while
    /// it is (the CLI's read). The room reserved ahead never takes more memory than the
    /// file's size; what is left of it once the file is read (a sixteenth at most) is kept.
    pub fn sized(size: u64) -> Self {
        Self {
            size: Some(size),
            ..Self::default()
        }
    }

    /// The feed reading member by member every page that has not arrived whole and is at
    /// least `bytes` long (by default 1 MiB): for the tests, which read small pages so.
    pub fn opening_pages_from(mut self, bytes: usize) -> Self {
        self.open_page_bytes = bytes;
        self
    }

    /// Bytes of the file consumed so far (decoded, or skipped as a byte order mark or
    /// whitespace): its progress against the file's size.
    pub fn consumed(&self) -> usize {
        self.dropped + self.at
    }

    /// The file's next bytes.
    pub fn push(&mut self, bytes: &[u8]) {
        if self.at > 0 {
            self.text.drain(..self.at);
            self.dropped += self.at;
            self.at = 0;
        }
        if self.not_utf8 {
            return;
        }
        let mut bytes = bytes;
        // First the rest of a character the last push cut.
        while !self.cut.is_empty() {
            let Some((&first, rest)) = bytes.split_first() else {
                return;
            };
            self.cut.push(first);
            bytes = rest;
            match std::str::from_utf8(&self.cut) {
                Ok(character) => {
                    self.text.push_str(character);
                    self.cut.clear();
                }
                Err(error) if error.error_len().is_none() => {}
                Err(_) => {
                    self.not_utf8 = true;
                    return;
                }
            }
        }
        match std::str::from_utf8(bytes) {
            Ok(text) => self.text.push_str(text),
            // A character cut by this push's end: its start waits for the next push.
            Err(error) if error.error_len().is_none() => {
                let (whole, cut) = bytes.split_at(error.valid_up_to());
                // Checked again to have it as text (no unsafe here): only when a push cuts
                // a character, a few milliseconds for 8 MiB.
                match std::str::from_utf8(whole) {
                    Ok(text) => self.text.push_str(text),
                    Err(_) => self.not_utf8 = true,
                }
                self.cut.extend_from_slice(cut);
            }
            Err(_) => self.not_utf8 = true,
        }
    }

    /// No more bytes: the file ends with what was pushed.
    pub fn end(&mut self) {
        self.ended = true;
        if !self.cut.is_empty() {
            self.not_utf8 = true;
        }
    }

    /// Goes on for about `budget` bytes of values.
    pub fn advance(&mut self, budget: usize) -> Feed<T> {
        if self.stage == Stage::Done {
            return Feed::Unexpected;
        }
        if self.not_utf8 {
            return self.unexpected();
        }
        if self.text.len() - self.at < self.retry_at && !self.ended {
            return Feed::NeedMore;
        }
        let mut left = budget.max(1);
        loop {
            let before = self.at;
            match self.step() {
                Ok(true) => {
                    let layout = match self.stage {
                        Stage::Closed { layout } | Stage::Value { layout, .. } => layout,
                        _ => ListLayout::Items,
                    };
                    self.stage = Stage::Done;
                    self.share_waiting();
                    return Feed::Read(ParsedList {
                        items: std::mem::take(&mut self.items),
                        layout,
                        truncated: self.truncated,
                    });
                }
                Ok(false) => {}
                Err(Stop::NeedMore) if self.ended => return self.unexpected(),
                Err(Stop::NeedMore) => return Feed::NeedMore,
                Err(Stop::Unexpected) => return self.unexpected(),
            }
            left = left.saturating_sub((self.at - before).max(1));
            if left == 0 {
                return Feed::Working;
            }
        }
    }

    fn unexpected(&mut self) -> Feed<T> {
        self.stage = Stage::Done;
        self.items = Vec::new();
        self.waiting = None;
        Feed::Unexpected
    }

    /// The text from `at` on, as bytes.
    fn rest(&self) -> &[u8] {
        &self.text.as_bytes()[self.at..]
    }

    /// Skips whitespace; the next byte, or why there is none.
    fn next_byte(&mut self) -> Result<u8, Stop> {
        let skipped = self
            .rest()
            .iter()
            .position(|byte| !matches!(byte, b' ' | b'\n' | b'\r' | b'\t'));
        match skipped {
            Some(offset) => {
                self.at += offset;
                Ok(self.text.as_bytes()[self.at])
            }
            None => {
                self.at = self.text.len();
                Err(Stop::NeedMore)
            }
        }
    }

    /// One step: a value decoded, a separator read, or the layout found; `Ok(true)` when
    /// the file is read.
    fn step(&mut self) -> Result<bool, Stop> {
        match self.stage {
            Stage::Start => {
                if !self.started {
                    if self.text.is_empty() && !self.ended {
                        return Err(Stop::NeedMore);
                    }
                    self.started = true;
                    if self.text.starts_with('\u{feff}') {
                        self.at += '\u{feff}'.len_utf8();
                    }
                }
                let first = match self.next_byte() {
                    Ok(byte) => byte,
                    // An empty file: the whole read says so.
                    Err(Stop::NeedMore) if self.ended => return Err(Stop::Unexpected),
                    Err(stop) => return Err(stop),
                };
                let layout = if first == b'[' {
                    let start = self.at;
                    self.at += 1;
                    let layout = match self.next_byte() {
                        Ok(b']') => Ok(ListLayout::Items),
                        Ok(_) if self.large_page_begins() => Ok(ListLayout::PageArray),
                        // Told as the whole read tells it ([`IsPage`]); a first element
                        // that is not JSON is no page: its items are read, and refused.
                        Ok(_) => match self.decode::<IsPage>() {
                            Ok((IsPage(true), _)) => Ok(ListLayout::PageArray),
                            Ok(_) | Err(Stop::Unexpected) => Ok(ListLayout::Items),
                            Err(stop) => Err(stop),
                        },
                        Err(stop) => Err(stop),
                    };
                    // Back before the first element: it is decoded as what it is next (or,
                    // when more bytes are needed, before the array: the layout waits too).
                    self.at = start + usize::from(layout.is_ok());
                    layout?
                } else if self.large_page_begins() {
                    ListLayout::PageLines
                } else {
                    let start = self.at;
                    let page = match self.decode::<IsPage>() {
                        Ok((IsPage(page), _)) => page,
                        // Not a page, as above.
                        Err(Stop::Unexpected) => false,
                        Err(stop) => return Err(stop),
                    };
                    self.at = start;
                    if page {
                        ListLayout::PageLines
                    } else {
                        ListLayout::ItemLines
                    }
                };
                self.stage = Stage::Value {
                    layout,
                    expect_value: false,
                };
                Ok(false)
            }
            Stage::Value {
                layout,
                expect_value,
            } => {
                let next = match self.next_byte() {
                    Ok(byte) => byte,
                    Err(Stop::NeedMore) if self.ended && !in_array(layout) => return Ok(true),
                    Err(stop) => return Err(stop),
                };
                if in_array(layout) && next == b']' && !expect_value {
                    self.at += 1;
                    self.stage = Stage::Closed { layout };
                    return Ok(false);
                }
                let start = self.at;
                let decoded = match self.scan_plain(layout) {
                    Scanned::Read(end) => Ok(end),
                    Scanned::Opened => return Ok(false),
                    Scanned::Other if pages(layout) => {
                        self.decode::<FilePage<T>>().map(|(page, end)| {
                            self.truncated = more_follow(page.has_more, page.has_next_page);
                            self.make_room(page.items.len(), end);
                            self.items.extend(page.items);
                            end
                        })
                    }
                    Scanned::Other => self.decode::<T>().map(|(item, end)| {
                        self.make_room(1, end);
                        self.items.push(item);
                        end
                    }),
                };
                match decoded {
                    Ok(end) => self.at = end,
                    Err(Stop::NeedMore)
                        if pages(layout)
                            && !self.ended
                            && self.text.len() - start >= self.open_page_bytes
                            && self.text.as_bytes()[start] == b'{' =>
                    {
                        self.at = start;
                        self.open_page();
                        return Ok(false);
                    }
                    Err(stop) => {
                        self.at = start;
                        return Err(stop);
                    }
                }
                self.stage = after_value(layout);
                Ok(false)
            }
            Stage::InPage { layout } => self.page_step(layout).map(|()| false),
            Stage::Separator { layout } => {
                match self.next_byte()? {
                    b',' => {
                        self.stage = Stage::Value {
                            layout,
                            expect_value: true,
                        }
                    }
                    b']' => self.stage = Stage::Closed { layout },
                    _ => return Err(Stop::Unexpected),
                }
                self.at += 1;
                Ok(false)
            }
            Stage::Closed { .. } => match self.next_byte() {
                Err(Stop::NeedMore) if self.ended => Ok(true),
                Err(stop) => Err(stop),
                Ok(_) => Err(Stop::Unexpected),
            },
            Stage::Done => Err(Stop::Unexpected),
        }
    }

    /// Room for `incoming` more items, decoded up to `end` of the text: when they do not fit,
    /// room for the items the file's size projects (see [`Self::sized`]), else the usual
    /// growth.
    fn make_room(&mut self, incoming: usize, end: usize) {
        let needed = self.items.len().saturating_add(incoming);
        if needed <= self.items.capacity() {
            return;
        }
        let Some(size) = self.size else {
            return;
        };
        let consumed = (self.dropped + end).max(1) as u128;
        let projected = needed as u128 * u128::from(size) / consumed;
        let projected = projected + projected / 16;
        // Never more room ahead than the file's size in memory.
        let at_most = u128::from(size) / std::mem::size_of::<T>().max(1) as u128;
        let wanted = usize::try_from(projected.min(at_most)).unwrap_or(usize::MAX);
        if wanted > needed {
            // A refusal leaves the usual growth to the push.
            let _ = self.items.try_reserve_exact(wanted - self.items.len());
        }
    }

    /// Appends `item`, read one at a time by [`PlainItem::scan_plain_sharing`] with the waiting
    /// items' texts, decoded up to `end` of the text; gives the waiting items their texts
    /// every [`SHARE_EVERY`] items.
    fn push_waiting(&mut self, item: T, end: usize) {
        self.make_room(1, end);
        self.items.push(item);
        if self
            .waiting
            .as_ref()
            .is_some_and(|waiting| self.items.len() - waiting.first >= SHARE_EVERY)
        {
            self.share_waiting();
        }
    }

    /// Gives the items waiting for their shared texts those texts (the items read whole
    /// among them, by serde or with their page, keep theirs).
    fn share_waiting(&mut self) {
        if let Some(waiting) = self.waiting.take() {
            if let Some(items) = self.items.get_mut(waiting.first..) {
                T::share(items, waiting.texts);
            }
        }
    }

    /// Reads the value at `at` without serde when it is in its plain form ([`PlainItem`]): a
    /// page's items, or an item, appended; or opens a page too large to read whole.
    fn scan_plain(&mut self, layout: ListLayout) -> Scanned {
        let rest = &self.text[self.at..];
        let (length, truncated) = if pages(layout) {
            let mut page = Vec::new();
            // A page still plain a megabyte in is read member by member if not whole yet.
            let limit = match self.ended {
                true => usize::MAX,
                false => self.open_page_bytes,
            };
            let (length, truncated) = match scan_plain_page(rest, &mut page, limit) {
                PageScan::Read { length, truncated } => (length, truncated),
                PageScan::Large => {
                    self.open_page();
                    return Scanned::Opened;
                }
                PageScan::Other => return Scanned::Other,
            };
            self.make_room(page.len(), self.at + length);
            self.items.append(&mut page);
            (length, truncated)
        } else {
            let texts = WaitingItems::texts(&mut self.waiting, self.items.len());
            let Some((item, length)) = T::scan_plain_sharing(rest, texts) else {
                return Scanned::Other;
            };
            self.push_waiting(item, self.at + length);
            (length, self.truncated)
        };
        self.truncated = truncated;
        self.retry_at = 0;
        Scanned::Read(self.at + length)
    }

    /// Decodes the value at `at`: it and where it ends. A value the bytes so far cut (or may
    /// cut: a number at their very end) waits for more.
    fn decode<V: DeserializeOwned>(&mut self) -> Result<(V, usize), Stop> {
        #[cfg(test)]
        {
            self.attempts += 1;
        }
        let decoded = self.decode_here();
        self.retry_at = match decoded {
            Err(Stop::NeedMore) => 2 * (self.text.len() - self.at),
            _ => 0,
        };
        decoded
    }

    /// [`Self::decode`], once.
    fn decode_here<V: DeserializeOwned>(&self) -> Result<(V, usize), Stop> {
        let rest = &self.text[self.at..];
        let delimited = matches!(rest.as_bytes().first(), Some(b'[' | b'{' | b'"'));
        let mut stream = serde_json::Deserializer::from_str(rest).into_iter::<V>();
        match stream.next() {
            Some(Ok(value)) => {
                let end = stream.byte_offset();
                if end == rest.len() && !delimited && !self.ended {
                    return Err(Stop::NeedMore);
                }
                Ok((value, self.at + end))
            }
            Some(Err(error)) if !self.ended && (error.is_eof() || at_end(rest, &error)) => {
                Err(Stop::NeedMore)
            }
            None if !self.ended => Err(Stop::NeedMore),
            _ => Err(Stop::Unexpected),
        }
    }
}

/// Whether serde_json's `error` lies at the very end of `text`: a number the end cuts after
/// its `-`, `.`, `e` or `e-` is an invalid number, not an end of file, to serde_json when it
/// skips a member (`1e` then EOF), so more bytes may still make it whole.
fn at_end(text: &str, error: &serde_json::Error) -> bool {
    let lines = text.bytes().filter(|&byte| byte == b'\n').count() + 1;
    let column = text.len() - text.rfind('\n').map_or(0, |newline| newline + 1);
    error.line() == lines && error.column() >= column
}

/// A list file read from `source` (a file on disk, say) `chunk` bytes at a time, each chunk
/// decoded as it comes (`budget` bytes a step): the reader's memory is a chunk, not the file.
/// `size`, the file's size when known, sizes the items' room ([`ListFeed::sized`]).
/// `Ok(None)` when the feed ended unexpectedly: [`parse_list`](super::parse_list) on the whole
/// file then gives the answer (its error).
pub fn read_list<T: PlainItem>(
    source: impl std::io::Read,
    size: Option<u64>,
    chunk: usize,
    budget: usize,
) -> std::io::Result<Option<ParsedList<T>>> {
    let feed = match size {
        Some(size) => ListFeed::<T>::sized(size),
        None => ListFeed::<T>::new(),
    };
    read_list_with(feed, source, chunk, budget)
}

/// [`read_list`] with a feed set up by the caller (a test's, say).
pub fn read_list_with<T: PlainItem>(
    mut feed: ListFeed<T>,
    mut source: impl std::io::Read,
    chunk: usize,
    budget: usize,
) -> std::io::Result<Option<ParsedList<T>>> {
    let mut buffer = vec![0; chunk.max(1)];
    let mut pushed = 0;
    loop {
        match feed.advance(budget) {
            Feed::Working => {}
            Feed::NeedMore => match source.read(&mut buffer) {
                Ok(0) => feed.end(),
                Ok(read) => {
                    feed.push(&buffer[..read]);
                    pushed += read;
                }
                Err(error) if error.kind() == std::io::ErrorKind::Interrupted => {}
                Err(error) => return Err(error),
            },
            Feed::Read(list) => {
                debug_assert_eq!(feed.consumed(), pushed, "every byte consumed");
                return Ok(Some(list));
            }
            Feed::Unexpected => return Ok(None),
        }
    }
}

#[cfg(test)]
mod tests;
