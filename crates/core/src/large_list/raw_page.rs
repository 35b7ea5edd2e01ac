//! A cursor page read only as far as paging needs it: its cursor, whether more follow, how many
//! items it holds and its fingerprint (its first and last items' text, hashed), its items
//! skipped by their brackets and strings, never decoded. The server's list streams walk the
//! API's pages with the paginator's guards and pass each page on as it came, for the reader to
//! decode; a full decode there would be done only to be thrown away.
//!
//! A page in its plain form (see [`super`]; the items may hold anything) is scanned; any other
//! goes to serde whole, as the contract's page of JSON values. The scan does not check the
//! items: a malformed item is the reader's to refuse, when it decodes the line.

use std::hash::{Hash, Hasher};

use serde::{Deserialize, Deserializer};

use super::cursor::{value_length, Cursor};
use super::page_scan::once;
use super::plain_item::PlainItem;
use crate::api::{page_fingerprint, ChroniclePage, CursorPage, Page};

/// One item of a [`RawPage`]: counted, not read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Skipped;

/// A cursor page with its items skipped (see the module). `CHRONICLE` says whose form: the
/// Trajectory API's (`has_more`, required) or Chronicle's (`has_next_page`, false when absent).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawPage<const CHRONICLE: bool> {
    items: Vec<Skipped>,
    next_cursor: Option<String>,
    has_more: bool,
    fingerprint: Option<u64>,
}

/// A Trajectory API page ([`Page`], or a rewards page) with its items skipped.
pub type RawTrajectoryPage = RawPage<false>;
/// A Chronicle page ([`ChroniclePage`]) with its items skipped.
pub type RawChroniclePage = RawPage<true>;

impl<const CHRONICLE: bool> RawPage<CHRONICLE> {
    /// The key saying whether more pages follow.
    const MORE_KEY: &'static str = if CHRONICLE {
        "has_next_page"
    } else {
        "has_more"
    };
}

/// The fingerprint [`page_fingerprint`] would give, from the items' texts: their count and
/// the first and last item's text, hashed; `None` under 2 items.
fn text_fingerprint(count: usize, first: &str, last: &str) -> Option<u64> {
    if count < 2 {
        return None;
    }
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    (count, first, last).hash(&mut hasher);
    Some(hasher.finish())
}

/// What a page's scan hands on as it passes each part ([`RawPage::scan_reading`]): a reader
/// that writes the page again in another form reads it once, beside what paging needs.
pub(crate) trait PageReader<'a> {
    /// A member other than the items, and its value's text (a scalar).
    fn member(&mut self, key: &'a str, value: &'a str);
    /// The items' array begins (`true`) or ends.
    fn items(&mut self, begin: bool);
    /// Reads and consumes the item `cursor` is at (its whitespace passed); `None` when it
    /// cannot: the item is then skipped by its brackets and given whole to
    /// [`Self::whole_item`].
    fn item(&mut self, cursor: &mut Cursor<'a>) -> Option<()>;
    /// An item [`Self::item`] could not read, as it came.
    fn whole_item(&mut self, text: &'a str);
}

/// Reads nothing: the items are skipped by their brackets.
struct Skipping;

impl<'a> PageReader<'a> for Skipping {
    fn member(&mut self, _: &'a str, _: &'a str) {}
    fn items(&mut self, _: bool) {}
    fn item(&mut self, _: &mut Cursor<'a>) -> Option<()> {
        None
    }
    fn whole_item(&mut self, _: &'a str) {}
}

/// The text `read` consumed of `cursor`'s value (its whitespace passed first), and its result.
fn read_text<'a, T>(
    cursor: &mut Cursor<'a>,
    read: impl FnOnce(&mut Cursor<'a>) -> Option<T>,
) -> Option<(T, &'a str)> {
    cursor.peek()?;
    let (rest, from) = (cursor.rest(), cursor.at());
    let value = read(cursor)?;
    Some((value, rest.get(..cursor.at() - from)?))
}

impl<const CHRONICLE: bool> RawPage<CHRONICLE> {
    /// The page at the start of `text` in its plain form, and its length, each part handed
    /// to `reader` as it is passed (see [`PageReader`]); `None` when the page is not plain.
    pub(crate) fn scan_reading<'a>(
        text: &'a str,
        reader: &mut impl PageReader<'a>,
    ) -> Option<(Self, usize)> {
        let mut cursor = Cursor::new(text);
        let (mut count, mut first, mut last) = (0usize, "", "");
        let (mut next_cursor, mut has_more) = (None, None);
        let mut seen = [false; 3];
        cursor.object(|key, cursor| {
            match key {
                "items" => {
                    once(&mut seen[0])?;
                    reader.items(true);
                    cursor.array(|cursor| {
                        cursor.peek()?;
                        let rest = cursor.rest();
                        let mut item = Cursor::new(rest);
                        let length = match reader.item(&mut item) {
                            Some(()) => item.at(),
                            None => {
                                let length = value_length(rest.as_bytes())?;
                                reader.whole_item(rest.get(..length)?);
                                length
                            }
                        };
                        last = &rest[..length];
                        if count == 0 {
                            first = last;
                        }
                        count += 1;
                        cursor.advance(length);
                        Some(())
                    })?;
                    reader.items(false);
                }
                "next_cursor" => {
                    once(&mut seen[1])?;
                    let (value, value_text) = read_text(cursor, Cursor::optional_string)?;
                    next_cursor = value;
                    reader.member(key, value_text);
                }
                key if key == Self::MORE_KEY => {
                    once(&mut seen[2])?;
                    let (value, value_text) = read_text(cursor, Cursor::optional_bool)?;
                    has_more = value;
                    reader.member(key, value_text);
                }
                _ => reader.member(key, read_text(cursor, Cursor::skip_scalar)?.1),
            }
            Some(())
        })?;
        if !seen[0] {
            return None;
        }
        let has_more = match has_more {
            Some(more) => more,
            // Chronicle's `has_next_page` may be absent; the Trajectory API's may not be null.
            None if CHRONICLE && !seen[2] => false,
            None => return None,
        };
        let page = Self {
            items: vec![Skipped; count],
            next_cursor: next_cursor.map(str::to_owned),
            has_more,
            fingerprint: text_fingerprint(count, first, last),
        };
        Some((page, cursor.at()))
    }
}

impl<const CHRONICLE: bool> PlainItem for RawPage<CHRONICLE> {
    fn scan_plain(text: &str) -> Option<(Self, usize)> {
        Self::scan_reading(text, &mut Skipping)
    }
}

impl<'de, const CHRONICLE: bool> Deserialize<'de> for RawPage<CHRONICLE> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let (items, next_cursor, has_more) = if CHRONICLE {
            let page = ChroniclePage::<serde_json::Value>::deserialize(deserializer)?;
            (page.items, page.next_cursor, page.has_next_page)
        } else {
            let page = Page::<serde_json::Value>::deserialize(deserializer)?;
            (page.items, page.next_cursor, page.has_more)
        };
        Ok(Self {
            fingerprint: page_fingerprint(&items),
            items: vec![Skipped; items.len()],
            next_cursor,
            has_more,
        })
    }
}

impl<const CHRONICLE: bool> CursorPage for RawPage<CHRONICLE> {
    type Item = Skipped;
    fn items(&self) -> &[Skipped] {
        &self.items
    }
    fn into_items(self) -> Vec<Skipped> {
        self.items
    }
    fn next_cursor(&self) -> Option<&str> {
        self.next_cursor.as_deref()
    }
    fn has_more(&self) -> bool {
        self.has_more
    }
    fn fingerprint(&self) -> Option<u64> {
        self.fingerprint
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::large_list::decode_plain;

    #[test]
    fn a_plain_page_is_counted_and_a_page_serde_reads_gives_the_same() {
        let body = r#"{"items":[{"a":"x\"}","b":[1,{"c":2}]},{"a":"y"},7],"next_cursor":"c2","has_more":true,"eval_run_id":"r"}"#;
        let scanned = <RawTrajectoryPage as PlainItem>::scan_plain(body)
            .expect("plain")
            .0;
        assert_eq!(scanned.items().len(), 3);
        assert_eq!(scanned.next_cursor(), Some("c2"));
        assert!(scanned.has_more());
        assert!(scanned.fingerprint().is_some());
        // A key with an escape is not plain: serde reads the page, to the same fields.
        let escaped = body.replace("\"eval_run_id\"", "\"eval\\u005frun_id\"");
        assert!(<RawTrajectoryPage as PlainItem>::scan_plain(&escaped).is_none());
        let read: RawTrajectoryPage = decode_plain(escaped.as_bytes()).expect("serde");
        assert_eq!(read.items().len(), 3);
        assert_eq!(read.next_cursor(), Some("c2"));
    }

    #[test]
    fn the_forms_differ_in_their_more_key_and_bad_pages_are_refused() {
        let chronicle: RawChroniclePage =
            decode_plain(br#"{"items":[],"limit":100}"#).expect("no has_next_page: false");
        assert!(!chronicle.has_more());
        let chronicle: RawChroniclePage =
            decode_plain(br#"{"items":[1],"has_next_page":true,"next_cursor":"n"}"#).unwrap();
        assert!(chronicle.has_more());
        assert!(decode_plain::<RawTrajectoryPage>(br#"{"items":[]}"#).is_err());
        assert!(decode_plain::<RawTrajectoryPage>(br#"{"items":[1,2],"has_more":false"#).is_err());
        assert!(decode_plain::<RawTrajectoryPage>(br#"{"has_more":false}"#).is_err());
        // Two pages with the same ends and length are the same page; another end is not.
        let a: RawTrajectoryPage = decode_plain(br#"{"items":[1,2,3],"has_more":false}"#).unwrap();
        let b: RawTrajectoryPage = decode_plain(br#"{"items":[1,9,3],"has_more":false}"#).unwrap();
        let c: RawTrajectoryPage = decode_plain(br#"{"items":[1,2,4],"has_more":false}"#).unwrap();
        assert_eq!(a.fingerprint(), b.fingerprint());
        assert_ne!(a.fingerprint(), c.fingerprint());
    }
}
