//! Reading one list file in any of the three layouts a run folder may use.

use std::cell::Cell;

use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

use crate::api::{decode, decode_seed, DecodeError};
use crate::large_list::{once, scan_page_object, Cursor, PlainItem};

use super::page_shape::IsPage;
use super::RunFolderError;

/// How a list file is laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ListLayout {
    /// One JSON array of items.
    Items,
    /// One JSON array of the API's page objects (`{"items": [...], "has_more": …}`, or
    /// Chronicle's `{"items": [...], "has_next_page": …}`).
    PageArray,
    /// JSON values one after another (JSON Lines), each a page object.
    PageLines,
    /// JSON values one after another (JSON Lines), each an item.
    ItemLines,
}

/// The items of a list file and what reading it found.
#[derive(Debug, Clone, PartialEq)]
pub struct ParsedList<T> {
    /// Every item, in file order.
    pub items: Vec<T>,
    /// The layout detected.
    pub layout: ListLayout,
    /// Whether the last page says more followed (`has_more: true`, or Chronicle's
    /// `has_next_page: true`): the export stopped early.
    pub truncated: bool,
}

/// A page as stored in a file: the items, and whether more followed.
#[derive(Debug, Deserialize)]
pub(super) struct FilePage<T> {
    pub(super) items: Vec<T>,
    #[serde(default)]
    pub(super) has_more: Option<bool>,
    /// Chronicle's name for `has_more`.
    #[serde(default)]
    pub(super) has_next_page: Option<bool>,
}

/// Parses a list file, detecting its layout from its contents. `file` names it in errors.
pub fn parse_list<'a, T: Deserialize<'a>>(
    file: &str,
    bytes: &'a [u8],
) -> Result<ParsedList<T>, RunFolderError> {
    let body = strip_bom(bytes);
    let Some(&first) = body.iter().find(|byte| !byte.is_ascii_whitespace()) else {
        return Err(RunFolderError::Empty {
            file: file.to_owned(),
        });
    };
    let error = |source: DecodeError| RunFolderError::Decode {
        file: file.to_owned(),
        line: None,
        source,
    };
    if first == b'[' {
        if first_element_is_page(body) {
            // Every page's items appended to one list as read: no list per page to copy.
            let mut items = Vec::new();
            let truncated = decode_seed(body, PageArray { items: &mut items }).map_err(error)?;
            Ok(ParsedList {
                items,
                layout: ListLayout::PageArray,
                truncated,
            })
        } else {
            let items: Vec<T> = decode(body).map_err(error)?;
            Ok(ParsedList {
                items,
                layout: ListLayout::Items,
                truncated: false,
            })
        }
    } else {
        parse_lines(file, body)
    }
}

/// JSON values one after another (JSON Lines, or pretty objects back to back): each a page,
/// or each an item, as the first value decides.
fn parse_lines<'a, T: Deserialize<'a>>(
    file: &str,
    body: &'a [u8],
) -> Result<ParsedList<T>, RunFolderError> {
    let mut pages: Option<Vec<FilePage<T>>> = None;
    let mut items: Vec<T> = Vec::new();
    let mut stream = serde_json::Deserializer::from_slice(body).into_iter::<IgnoredAny>();
    let mut start = 0;
    while let Some(scanned) = stream.next() {
        let rest = body.get(start..).unwrap_or_default();
        let skipped = rest.len() - rest.trim_ascii_start().len();
        // Counted only for an error: counting for every value took time quadratic in the
        // values (74 s for 16,000 lines in a debug build).
        let line = || line_of(body, start + skipped);
        let located = |source: DecodeError| RunFolderError::Decode {
            file: file.to_owned(),
            line: Some(line()),
            source,
        };
        if scanned.is_err() {
            // Not valid JSON from here: decoding the rest names where and why.
            return Err(match decode::<Value>(rest.trim_ascii_start()) {
                Err(source) => located(source),
                Ok(_) => RunFolderError::Layout {
                    file: file.to_owned(),
                    message: format!("line {}: not a sequence of JSON values", line()),
                },
            });
        }
        let end = stream.byte_offset();
        let value = body.get(start..end).unwrap_or_default().trim_ascii_start();
        let page_layout = match &pages {
            Some(_) => true,
            None if items.is_empty() => {
                serde_json::from_slice::<IsPage>(value).is_ok_and(|page| page.0)
            }
            None => false,
        };
        if page_layout {
            let page: FilePage<T> = decode(value).map_err(located)?;
            pages.get_or_insert_with(Vec::new).push(page);
        } else {
            items.push(decode(value).map_err(located)?);
        }
        start = end;
    }
    Ok(match pages {
        Some(pages) => from_pages(pages, ListLayout::PageLines),
        None => ParsedList {
            items,
            layout: ListLayout::ItemLines,
            truncated: false,
        },
    })
}

fn from_pages<T>(pages: Vec<FilePage<T>>, layout: ListLayout) -> ParsedList<T> {
    let truncated = pages
        .last()
        .is_some_and(|page| page.has_more == Some(true) || page.has_next_page == Some(true));
    // Sized up front: collecting a flat_map grows the Vec by doubling, copying every item
    // (hundreds of bytes each) several times over on a large run.
    let mut items = Vec::with_capacity(pages.iter().map(|page| page.items.len()).sum());
    for page in pages {
        items.extend(page.items);
    }
    ParsedList {
        items,
        layout,
        truncated,
    }
}

/// An array of pages ([`FilePage`]'s shape), every page's items appended to `items` as they are
/// read; its value is whether the last page said more followed.
struct PageArray<'v, T> {
    items: &'v mut Vec<T>,
}

impl<'de, T: Deserialize<'de>> DeserializeSeed<'de> for PageArray<'_, T> {
    type Value = bool;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<bool, D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de, T: Deserialize<'de>> Visitor<'de> for PageArray<'_, T> {
    type Value = bool;
    fn expecting(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("a sequence")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<bool, A::Error> {
        let mut truncated = false;
        while let Some(last) = seq.next_element_seed(PageInto {
            items: &mut *self.items,
        })? {
            truncated = last;
        }
        Ok(truncated)
    }
}

/// One page decoded as [`FilePage`] is (the same fields, defaults and errors), its items
/// appended to `items`; its value is whether it says more followed.
struct PageInto<'v, T> {
    items: &'v mut Vec<T>,
}

/// [`FilePage`]'s fields.
const PAGE_FIELDS: &[&str] = &["items", "has_more", "has_next_page"];

impl<'de, T: Deserialize<'de>> DeserializeSeed<'de> for PageInto<'_, T> {
    type Value = bool;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<bool, D::Error> {
        deserializer.deserialize_struct("FilePage", PAGE_FIELDS, self)
    }
}

/// What [`scan_plain_page`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum PageScan {
    /// The page: its length, and whether it says more followed.
    Read { length: usize, truncated: bool },
    /// Plain past the limit it was given: a page too large to read whole.
    Large,
    /// Not plain, or cut by the text's end: serde's.
    Other,
}

/// The page at the start of `text` in its plain form (an object of plain items; see
/// [`PlainItem`]), its items appended to `items`. Anything else, with `items` as they were,
/// leaves the page to serde ([`FilePage`]), which reads it the same or refuses it; a page still
/// plain `limit` bytes in is [`PageScan::Large`] (its items not kept).
pub(super) fn scan_plain_page<T: PlainItem>(
    text: &str,
    items: &mut Vec<T>,
    limit: usize,
) -> PageScan {
    let before = items.len();
    let mut cursor = Cursor::new(text);
    let mut fields = PlainPageFields::default();
    let read = scan_page_object(&mut cursor, items, limit, |key, cursor| {
        fields.member(key, cursor)
    });
    if read.is_none() {
        items.truncate(before);
        return if cursor.at() > limit {
            PageScan::Large
        } else {
            PageScan::Other
        };
    }
    PageScan::Read {
        length: cursor.at(),
        truncated: fields.more_follow(),
    }
}

/// A [`FilePage`]'s members besides `items`, read in their plain form (the plain page scan's,
/// and a page read member by member).
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct PlainPageFields {
    /// `has_more`, `has_next_page` seen.
    seen: [bool; 2],
    has_more: Option<bool>,
    has_next_page: Option<bool>,
}

impl PlainPageFields {
    /// Reads the value of the member `key` (not `items`): `has_more` or `has_next_page` (null
    /// or a boolean, once each), any other a plain scalar. `None` when it is not that.
    pub(super) fn member(&mut self, key: &str, cursor: &mut Cursor<'_>) -> Option<()> {
        match key {
            "has_more" => {
                once(&mut self.seen[0])?;
                self.has_more = cursor.optional_bool()?;
            }
            "has_next_page" => {
                once(&mut self.seen[1])?;
                self.has_next_page = cursor.optional_bool()?;
            }
            _ => cursor.skip_scalar()?,
        }
        Some(())
    }

    /// Whether the page says more followed.
    pub(super) fn more_follow(&self) -> bool {
        more_follow(self.has_more, self.has_next_page)
    }
}

pub(super) fn more_follow(has_more: Option<bool>, has_next_page: Option<bool>) -> bool {
    has_more == Some(true) || has_next_page == Some(true)
}

impl<'de, T: Deserialize<'de>> Visitor<'de> for PageInto<'_, T> {
    type Value = bool;
    fn expecting(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("struct FilePage")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<bool, A::Error> {
        if seq
            .next_element_seed(Items { items: self.items })?
            .is_none()
        {
            return Err(de::Error::invalid_length(
                0,
                &"struct FilePage with 3 elements",
            ));
        }
        let has_more = seq.next_element::<Option<bool>>()?.flatten();
        let has_next_page = seq.next_element::<Option<bool>>()?.flatten();
        Ok(more_follow(has_more, has_next_page))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<bool, A::Error> {
        let mut items_read = false;
        let mut has_more: Option<Option<bool>> = None;
        let mut has_next_page: Option<Option<bool>> = None;
        while let Some(key) = map.next_key::<std::borrow::Cow<'_, str>>()? {
            match &*key {
                "items" if items_read => return Err(de::Error::duplicate_field("items")),
                "items" => {
                    map.next_value_seed(Items {
                        items: &mut *self.items,
                    })?;
                    items_read = true;
                }
                "has_more" if has_more.is_some() => {
                    return Err(de::Error::duplicate_field("has_more"))
                }
                "has_more" => has_more = Some(map.next_value()?),
                "has_next_page" if has_next_page.is_some() => {
                    return Err(de::Error::duplicate_field("has_next_page"))
                }
                "has_next_page" => has_next_page = Some(map.next_value()?),
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        if !items_read {
            return Err(de::Error::missing_field("items"));
        }
        Ok(more_follow(has_more.flatten(), has_next_page.flatten()))
    }
}

/// A page's `items`, appended to `items`.
struct Items<'v, T> {
    items: &'v mut Vec<T>,
}

impl<'de, T: Deserialize<'de>> DeserializeSeed<'de> for Items<'_, T> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de, T: Deserialize<'de>> Visitor<'de> for Items<'_, T> {
    type Value = ();
    fn expecting(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("a sequence")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while let Some(item) = seq.next_element()? {
            self.items.push(item);
        }
        Ok(())
    }
}

/// Whether the first element of a JSON array is a page. Only the first element is read: the
/// visitor answers, then stops the decoder with an error, so the rest of the file is not
/// scanned. An array whose first element is malformed answers `false`, so that decoding it as
/// items reports the error with its path.
fn first_element_is_page(body: &[u8]) -> bool {
    struct FirstIsPage<'a>(&'a Cell<bool>);
    impl<'de> Visitor<'de> for FirstIsPage<'_> {
        type Value = ();
        fn expecting(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            formatter.write_str("a JSON array")
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
            let first: Option<IsPage> = seq.next_element()?;
            self.0.set(first.is_some_and(|page| page.0));
            Err(serde::de::Error::custom("answered after the first element"))
        }
    }
    let answer = Cell::new(false);
    let mut deserializer = serde_json::Deserializer::from_slice(body);
    let _stopped = deserializer.deserialize_seq(FirstIsPage(&answer));
    answer.get()
}

/// `bytes` without a leading UTF-8 byte order mark.
pub(super) fn strip_bom(bytes: &[u8]) -> &[u8] {
    bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes)
}

/// 1-based line of a byte offset.
fn line_of(body: &[u8], offset: usize) -> usize {
    body.get(..offset)
        .map_or(0, |before| before.iter().filter(|&&b| b == b'\n').count())
        + 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::large_list::PackedReward;

    /// A page in its plain form is scanned as serde reads it; one that is not (an item serde
    /// refuses or nested deep, a field twice, no items, not an object) is left to serde,
    /// nothing appended.
    #[test]
    fn a_plain_page_is_scanned_as_serde_reads_it() {
        let item = r#"{"trajectory_id":"t","reward":0.5,"task_id":"a"}"#;
        let plain =
            format!(r#"{{"items": [{item}, {item}], "next_cursor": "c", "has_more": true}}"#);
        let mut items = vec![decode::<PackedReward>(item.as_bytes()).unwrap()];
        let PageScan::Read { length, truncated } =
            scan_plain_page(&format!("{plain},"), &mut items, usize::MAX)
        else {
            panic!("not read")
        };
        let page: FilePage<PackedReward> = decode(plain.as_bytes()).unwrap();
        assert_eq!((length, truncated), (plain.len(), true));
        assert_eq!(items[1..], page.items[..]);
        assert_eq!(items.len(), 3);
        // An item not plain (an escape) is read by serde where it lies, the others scanned.
        let escaped = r#"{"trajectory_id":"t\u0031","reward":0.5}"#;
        let mixed = format!(r#"{{"items":[{item},{escaped},{item}]}}"#);
        let mut read: Vec<PackedReward> = Vec::new();
        assert_eq!(
            scan_plain_page(&mixed, &mut read, usize::MAX),
            PageScan::Read {
                length: mixed.len(),
                truncated: false
            }
        );
        let page: FilePage<PackedReward> = decode(mixed.as_bytes()).unwrap();
        assert_eq!(read, page.items);
        // An item serde refuses, or nested too deep to read alone as in its page: serde's.
        let refused = r#"{"trajectory_id":"t"}"#;
        let deep = format!(
            r#"{{"trajectory_id":"t","reward":1,"x":{}null{}}}"#,
            "[".repeat(70),
            "]".repeat(70)
        );
        let left_to_serde = [
            format!(r#"{{"items":[{item},{refused}]}}"#),
            format!(r#"{{"items":[{item},{deep}]}}"#),
            format!(r#"{{"items":[{item}],"items":[]}}"#),
            format!(r#"{{"items":[{item}],"has_more":1}}"#),
            format!(r#"{{"items":[{item}],"extra":{{}}}}"#),
            r#"{"has_more":false}"#.to_owned(),
            format!(r#"[[{item}]]"#),
            format!(r#"{{"items":[{item}]"#),
        ];
        // Still plain past its limit: too large to read whole.
        assert_eq!(scan_plain_page(&mixed, &mut items, 10), PageScan::Large);
        assert_eq!(items.len(), 3);
        for page in left_to_serde {
            assert_eq!(
                scan_plain_page(&page, &mut items, usize::MAX),
                PageScan::Other,
                "{page}"
            );
            assert_eq!(items.len(), 3, "{page}");
        }
    }

    /// A page array read page by page into one list gives what decoding [`FilePage`]s gives:
    /// the same items, the same truncation, the same errors.
    #[test]
    fn page_array_seed_decodes_as_file_pages() {
        let cases = [
            r#"[{"items":[1,2]},{"items":[3],"has_more":false}]"#,
            r#"[{"items":[1]},{"items":[2],"has_more":true}]"#,
            r#"[{"items":[1]},{"items":[2],"has_next_page":true,"x":{"y":[]}}]"#,
            r#"[{"items":[1]},{"items":[2],"has_more":null}]"#,
            r#"[{"items":[1]},[[2],true]]"#,
            r#"[{"items":[1]},[[2]]]"#,
            r#"[{"items":[1]},[]]"#,
            r#"[{"items":[1]},{"items":[2],"items":[3]}]"#,
            r#"[{"items":[1]},{"has_more":true,"has_more":true,"items":[]}]"#,
            r#"[{"items":[1]},{"has_more":true}]"#,
            r#"[{"items":[1]},{"items":[2],"has_more":"x"}]"#,
            r#"[{"items":[1]},{"items":["a"]}]"#,
            r#"[{"items":[1]},{"items":[2]}"#,
            r#"[{"items":[1]},3]"#,
        ];
        for case in cases {
            let expected = decode::<Vec<FilePage<u32>>>(case.as_bytes())
                .map(|pages| from_pages(pages, ListLayout::PageArray));
            let mut items = Vec::new();
            let read =
                decode_seed(case.as_bytes(), PageArray { items: &mut items }).map(|truncated| {
                    ParsedList {
                        items,
                        layout: ListLayout::PageArray,
                        truncated,
                    }
                });
            assert_eq!(read, expected, "{case}");
        }
    }
}
