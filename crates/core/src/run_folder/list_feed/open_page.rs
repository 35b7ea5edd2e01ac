//! A page read member by member as its bytes arrive ([`OpenPage`]): one of a megabyte or more
//! that has not arrived whole (see [`OPEN_PAGE_BYTES`]), its items read one at a time, its
//! other members in their plain form or, with an escape, by serde_json.

use std::borrow::Cow;

use serde::de::IgnoredAny;

use super::super::list::{ListLayout, PlainPageFields};
use super::{after_value, ListFeed, Stage, Stop, WaitingItems};
use crate::large_list::{once, value_length, Cursor, PlainItem};

/// A page at least this large that has not arrived whole is read member by member, item by
/// item, as its bytes arrive ([`OpenPage`]), instead of waiting for all of it and decoding it
/// in one step: a file that is one page of every item (an export's own layout) would otherwise
/// be held whole and decoded at once, the page frozen for seconds.
pub(super) const OPEN_PAGE_BYTES: usize = 1 << 20;

/// Where a page read member by member stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum PageAt {
    /// After `{`: a member or the page's end.
    First,
    /// After a comma: a member.
    Member,
    /// After a member: a comma or the page's end.
    AfterMember,
    /// After `"items": [`: an item or the array's end.
    FirstItem,
    /// After a comma in `items`: an item.
    Item,
    /// After an item: a comma or the array's end.
    AfterItem,
}

/// A page read member by member as its bytes arrive (see [`OPEN_PAGE_BYTES`]), in its plain
/// form: its items as a page's items are read ([`Cursor::item_sharing`](crate::large_list::Cursor),
/// their strings kept as [`WaitingItems`]), its other members null, booleans, strings or
/// numbers (a key or a string with an escape read by serde_json, as the whole read reads it).
/// Anything else, or a field twice, ends the feed unexpectedly: the whole read then answers,
/// as for any other surprise.
#[derive(Debug, Clone, Copy)]
pub(super) struct OpenPage {
    at: PageAt,
    /// `items` seen.
    items_seen: bool,
    /// Its other members.
    fields: PlainPageFields,
}

impl<T: PlainItem> ListFeed<T> {
    /// Whether the first value, at `at`, is a page too large to wait for whole (see
    /// [`OPEN_PAGE_BYTES`]): an object not whole within its first megabyte whose plain members
    /// lead to `"items": [`. Its layout is then that of pages without decoding it first; should the page
    /// turn out otherwise, reading it ends unexpectedly and the whole read answers.
    pub(super) fn large_page_begins(&self) -> bool {
        let rest = &self.text[self.at..];
        // A value whole within its first megabyte is decoded whole.
        let head = &rest.as_bytes()[..rest.len().min(self.open_page_bytes)];
        if self.ended || rest.len() < self.open_page_bytes || value_length(head).is_some() {
            return false;
        }
        let mut cursor = Cursor::new(rest);
        let mut items_next = false;
        let read = cursor.object(|key, cursor| {
            if key == "items" {
                items_next = cursor.peek() == Some(b'[');
                // Stop here: the answer is known.
                return None;
            }
            cursor.skip_scalar()
        });
        read.is_none() && items_next
    }

    /// Starts reading the page at `at` (its `{`) member by member.
    pub(super) fn open_page(&mut self) {
        let Stage::Value { layout, .. } = self.stage else {
            return;
        };
        self.at += 1;
        self.retry_at = 0;
        self.open_page = Some(OpenPage {
            at: PageAt::First,
            items_seen: false,
            fields: PlainPageFields::default(),
        });
        self.stage = Stage::InPage { layout };
    }

    /// One step of the page read member by member: a member, an item, or a separator.
    pub(super) fn page_step(&mut self, layout: ListLayout) -> Result<(), Stop> {
        let Some(mut page) = self.open_page else {
            return Err(Stop::Unexpected);
        };
        let next = self.next_byte()?;
        page.at = match (page.at, next) {
            (PageAt::First | PageAt::AfterMember, b'}') => {
                if !page.items_seen {
                    // `items` is required.
                    return Err(Stop::Unexpected);
                }
                self.at += 1;
                self.truncated = page.fields.more_follow();
                self.open_page = None;
                self.stage = after_value(layout);
                return Ok(());
            }
            (PageAt::AfterMember, b',') => {
                self.at += 1;
                PageAt::Member
            }
            (PageAt::First | PageAt::Member, b'"') => self.page_member(&mut page)?,
            (PageAt::FirstItem, b']') | (PageAt::AfterItem, b']') => {
                self.at += 1;
                PageAt::AfterMember
            }
            (PageAt::AfterItem, b',') => {
                self.at += 1;
                PageAt::Item
            }
            (PageAt::FirstItem | PageAt::Item, _) => {
                let start = self.at;
                let mut cursor = Cursor::new(&self.text[start..]);
                let texts = WaitingItems::texts(&mut self.waiting, self.items.len());
                match cursor.item_sharing::<T>(texts) {
                    Some(item) => {
                        let end = start + cursor.at();
                        self.push_waiting(item, end);
                        self.at = end;
                        PageAt::AfterItem
                    }
                    None => return Err(self.cut_or_unexpected(start)),
                }
            }
            _ => return Err(Stop::Unexpected),
        };
        self.open_page = Some(page);
        Ok(())
    }

    /// A member of the page read member by member (at its key): where the page is next.
    /// (`page` is the caller's copy, kept only when the step succeeds.) A key or a string value
    /// with an escape is read by serde_json, as the whole read reads it ([`escaped_key`],
    /// [`escaped_string_length`]).
    fn page_member(&mut self, page: &mut OpenPage) -> Result<PageAt, Stop> {
        let start = self.at;
        let text = &self.text[start..];
        let mut cursor = Cursor::new(text);
        let (key, after_key) = match cursor.string() {
            Some(key) => (Cow::Borrowed(key), start + cursor.at()),
            None => match escaped_key(text) {
                Some((key, length)) => (Cow::Owned(key), start + length),
                None => return Err(self.cut_or_unexpected(start)),
            },
        };
        let mut cursor = Cursor::new(&self.text[after_key..]);
        if !cursor.eat(b':') {
            return Err(self.cut_or_unexpected(after_key + cursor.at()));
        }
        let value = after_key + cursor.at();
        if key == "items" {
            once(&mut page.items_seen).ok_or(Stop::Unexpected)?;
            return match cursor.peek() {
                Some(b'[') => {
                    self.at = after_key + cursor.at() + 1;
                    Ok(PageAt::FirstItem)
                }
                Some(_) => Err(Stop::Unexpected),
                None => Err(Stop::NeedMore),
            };
        }
        let end = match page.fields.member(&key, &mut cursor) {
            Some(()) => after_key + cursor.at(),
            // Not `has_more` or `has_next_page` (null or a boolean, or refused): a string
            // with an escape, skipped.
            None if !matches!(&*key, "has_more" | "has_next_page") => {
                match escaped_string_length(&self.text[value..]) {
                    Some(length) => value + length,
                    None => return Err(self.cut_or_unexpected(value)),
                }
            }
            None => return Err(self.cut_or_unexpected(value)),
        };
        if !self.ended && end == self.text.len() {
            // A number the next bytes may go on: read it again with them.
            return Err(Stop::NeedMore);
        }
        self.at = end;
        Ok(PageAt::AfterMember)
    }

    /// Why what starts at `from` could not be read: the bytes so far end inside it (more are
    /// needed; the feed waits where it is), or it is not what a page read member by member
    /// reads. (An item nested deeper than a page's item is read alone is taken for cut: the
    /// feed waits for the file's end, then the whole read answers.)
    fn cut_or_unexpected(&self, from: usize) -> Stop {
        let rest = self.text.as_bytes()[from..].trim_ascii_start();
        if !self.ended && (rest.is_empty() || value_length(rest).is_none()) {
            Stop::NeedMore
        } else {
            Stop::Unexpected
        }
    }
}

/// The key at the start of `text` (its opening quote) when it has an escape (or a control
/// character): decoded by serde_json, as the whole read decodes a page's keys, and its length.
/// `None` when the key is cut or serde_json refuses it.
fn escaped_key(text: &str) -> Option<(String, usize)> {
    let length = value_length(text.as_bytes())?;
    let key = serde_json::from_str::<String>(text.get(..length)?).ok()?;
    Some((key, length))
}

/// The length of the string at the start of `text` (after whitespace) when serde_json skips it
/// as the whole read skips an unknown member's value (its escapes checked): a string with an
/// escape, which the plain scanner leaves. `None` when it is no string, is cut, or is refused.
fn escaped_string_length(text: &str) -> Option<usize> {
    let string = text.trim_start_matches([' ', '\n', '\r', '\t']);
    if !string.starts_with('"') {
        return None;
    }
    let length = value_length(string.as_bytes())?;
    serde_json::from_str::<IgnoredAny>(string.get(..length)?).ok()?;
    Some(text.len() - string.len() + length)
}
