//! A list file read a step at a time ([`ListSteps`]), so a page can read a file of hundreds of
//! megabytes in slices and stay responsive between them. Run to its end in one step it is
//! [`parse_list`] itself.
//!
//! A step first checks that the file is UTF-8 (a chunk at a time), then decodes its values one
//! by one where they lie (each array element, or each JSON Lines value: an item, or a page
//! whose items are appended), checking the separators between them. Anything unexpected (a
//! value that does not decode, a separator out of place, bytes after the end) makes the step
//! read the whole file with [`parse_list`] instead, whose result (its error, naming the file,
//! line and JSON path) is the answer: a file reads to the same items, layout and truncation,
//! or fails with the same error, however it is stepped. One exception, named: serde_json
//! refuses values nested 128 deep, and a whole read counts the array (and page) around an item
//! where a step does not, so an item nested 125 to 127 levels deep inside (in a field no report
//! reads) is refused by the one and read by the other.

use serde::Deserialize;
use serde_json::Value;

use super::list::{
    first_element_is_page, is_page, more_follow, parse_list, strip_bom, FilePage, ListLayout,
    ParsedList,
};
use super::RunFolderError;

/// Bytes checked as UTF-8 per unit of budget: checking is far cheaper than decoding.
const CHECKED_PER_BUDGET: usize = 8;

/// What the values of a list file are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Values {
    /// Elements of a JSON array, each an item.
    ArrayItems,
    /// Elements of a JSON array, each a page.
    ArrayPages,
    /// JSON values one after another, each an item.
    LineItems,
    /// JSON values one after another, each a page.
    LinePages,
}

impl Values {
    fn in_array(self) -> bool {
        matches!(self, Values::ArrayItems | Values::ArrayPages)
    }

    fn pages(self) -> bool {
        matches!(self, Values::ArrayPages | Values::LinePages)
    }

    fn layout(self) -> ListLayout {
        match self {
            Values::ArrayItems => ListLayout::Items,
            Values::ArrayPages => ListLayout::PageArray,
            Values::LineItems => ListLayout::ItemLines,
            Values::LinePages => ListLayout::PageLines,
        }
    }
}

/// Where a [`ListSteps`] stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    /// Checking that the body is UTF-8, up to `at`.
    Checking { at: usize },
    /// Decoding values from `at`; `expect_value` after a comma (an array may not end there).
    Decoding {
        values: Values,
        at: usize,
        expect_value: bool,
    },
    /// Read.
    Done,
}

/// Why stepping stopped short: the whole file is read at once instead, to give its answer.
struct Unexpected;

/// A list file read a step at a time; see the module's documentation.
#[derive(Debug)]
pub struct ListSteps<'a, T> {
    file: &'static str,
    bytes: &'a [u8],
    /// The body after any byte order mark.
    body: &'a [u8],
    stage: Stage,
    items: Vec<T>,
    truncated: bool,
}

impl<'a, T: Deserialize<'a>> ListSteps<'a, T> {
    /// A read of `bytes`, the list file `file` (named in errors), not started.
    pub fn new(file: &'static str, bytes: &'a [u8]) -> Self {
        Self {
            file,
            bytes,
            body: strip_bom(bytes),
            stage: Stage::Checking { at: 0 },
            items: Vec::new(),
            truncated: false,
        }
    }

    /// The work of the whole read, in the units [`Self::advance`]'s budget counts: a byte
    /// decoded is one, a byte checked as UTF-8 a [`CHECKED_PER_BUDGET`]th.
    pub fn work(&self) -> usize {
        list_work(self.bytes)
    }

    /// The work done so far, from 0 to [`Self::work`].
    pub fn done(&self) -> usize {
        match self.stage {
            Stage::Checking { at } => at / CHECKED_PER_BUDGET,
            Stage::Decoding { at, .. } => self.body.len() / CHECKED_PER_BUDGET + at,
            Stage::Done => self.work(),
        }
    }

    /// Goes on for about `budget` bytes of decoding; `Some` when the file is read. A budget
    /// covering the whole file, before any step, reads it with [`parse_list`] at once.
    pub fn advance(&mut self, budget: usize) -> Option<Result<ParsedList<T>, RunFolderError>> {
        if self.stage == (Stage::Checking { at: 0 }) && budget >= self.bytes.len() {
            self.stage = Stage::Done;
            return Some(parse_list(self.file, self.bytes));
        }
        match self.step(budget.max(1)) {
            Ok(false) => None,
            Ok(true) => {
                let values = self.values();
                self.stage = Stage::Done;
                Some(Ok(ParsedList {
                    items: std::mem::take(&mut self.items),
                    layout: values.map_or(ListLayout::Items, Values::layout),
                    truncated: self.truncated,
                }))
            }
            Err(Unexpected) => {
                self.stage = Stage::Done;
                self.items = Vec::new();
                Some(parse_list(self.file, self.bytes))
            }
        }
    }

    fn values(&self) -> Option<Values> {
        match self.stage {
            Stage::Decoding { values, .. } => Some(values),
            _ => None,
        }
    }

    /// One step; `Ok(true)` when the file is read.
    fn step(&mut self, budget: usize) -> Result<bool, Unexpected> {
        let mut left = budget;
        loop {
            match self.stage {
                Stage::Checking { at } => {
                    let end = at
                        .saturating_add(left.saturating_mul(CHECKED_PER_BUDGET).max(64))
                        .min(self.body.len());
                    let checked = match std::str::from_utf8(&self.body[at..end]) {
                        Ok(_) => end,
                        // A character cut by the chunk's end: checked with the next chunk.
                        Err(error) if error.error_len().is_none() && end < self.body.len() => {
                            at + error.valid_up_to()
                        }
                        Err(_) => return Err(Unexpected),
                    };
                    left = left.saturating_sub((checked - at) / CHECKED_PER_BUDGET);
                    self.stage = if checked == self.body.len() {
                        self.first_values()?
                    } else {
                        Stage::Checking { at: checked }
                    };
                }
                Stage::Decoding {
                    values,
                    at,
                    expect_value,
                } => {
                    let Some(next) = self.next_value(values, at, expect_value)? else {
                        return Ok(true);
                    };
                    left = left.saturating_sub(next - at);
                    self.stage = next_stage(self.body, values, next)?;
                }
                Stage::Done => return Ok(true),
            }
            if left == 0 {
                return Ok(false);
            }
        }
    }

    /// Where decoding starts, and what the values are: an array's first element, or the first
    /// JSON Lines value, says whether they are pages (as [`parse_list`] decides).
    fn first_values(&self) -> Result<Stage, Unexpected> {
        let start = skip_whitespace(self.body, 0);
        let values = match self.body.get(start) {
            None => return Err(Unexpected),
            Some(b'[') if first_element_is_page(self.body) => Values::ArrayPages,
            Some(b'[') => Values::ArrayItems,
            Some(_) => {
                let mut stream =
                    serde_json::Deserializer::from_slice(&self.body[start..]).into_iter::<Value>();
                match stream.next() {
                    Some(Ok(value)) if is_page(&value) => Values::LinePages,
                    Some(Ok(_)) => Values::LineItems,
                    _ => return Err(Unexpected),
                }
            }
        };
        Ok(Stage::Decoding {
            values,
            at: if values.in_array() { start + 1 } else { start },
            expect_value: false,
        })
    }

    /// Decodes the value at `at` (after whitespace) into the items; its end, or `None` at the
    /// end of the values (an array's `]` where no value is expected, or the end of the body).
    fn next_value(
        &mut self,
        values: Values,
        at: usize,
        expect_value: bool,
    ) -> Result<Option<usize>, Unexpected> {
        let start = skip_whitespace(self.body, at);
        match self.body.get(start) {
            None if !values.in_array() => return Ok(None),
            None => return Err(Unexpected),
            Some(b']') if values.in_array() && !expect_value => {
                return match skip_whitespace(self.body, start + 1) == self.body.len() {
                    true => Ok(None),
                    false => Err(Unexpected),
                };
            }
            Some(_) => {}
        }
        let rest = &self.body[start..];
        let end = if values.pages() {
            let mut stream = serde_json::Deserializer::from_slice(rest).into_iter::<FilePage<T>>();
            let page = match stream.next() {
                Some(Ok(page)) => page,
                _ => return Err(Unexpected),
            };
            self.truncated = more_follow(page.has_more, page.has_next_page);
            self.items.extend(page.items);
            stream.byte_offset()
        } else {
            let mut stream = serde_json::Deserializer::from_slice(rest).into_iter::<T>();
            match stream.next() {
                Some(Ok(item)) => self.items.push(item),
                _ => return Err(Unexpected),
            }
            stream.byte_offset()
        };
        Ok(Some(start + end))
    }
}

/// [`ListSteps::work`] of a file's `bytes`, without starting a read.
pub(super) fn list_work(bytes: &[u8]) -> usize {
    let body = strip_bom(bytes).len();
    body + body / CHECKED_PER_BUDGET
}

/// The stage after a value ending at `end`: an array's separator (a comma, or its end) is
/// checked here; JSON Lines values need none.
fn next_stage(body: &[u8], values: Values, end: usize) -> Result<Stage, Unexpected> {
    if !values.in_array() {
        return Ok(Stage::Decoding {
            values,
            at: end,
            expect_value: false,
        });
    }
    let after = skip_whitespace(body, end);
    match body.get(after) {
        Some(b',') => Ok(Stage::Decoding {
            values,
            at: after + 1,
            expect_value: true,
        }),
        Some(b']') => Ok(Stage::Decoding {
            values,
            at: after,
            expect_value: false,
        }),
        _ => Err(Unexpected),
    }
}

/// The first byte at or after `at` that is not JSON whitespace (or the body's length).
fn skip_whitespace(body: &[u8], at: usize) -> usize {
    body.iter()
        .skip(at)
        .position(|byte| !matches!(byte, b' ' | b'\n' | b'\r' | b'\t'))
        .map_or(body.len(), |offset| at + offset)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Files at the edges of every layout, valid and not, read in steps of every budget up to
    /// beyond their size, as [`parse_list`] reads them at once.
    #[test]
    fn edge_files_read_in_steps_as_at_once() {
        let long = "é".repeat(100);
        let cases: Vec<String> = [
            "[]",
            " [ ] \n",
            "[1,2,3]",
            "[1 2]",
            "[1 x 2]",
            "[1;2]",
            "[1,]",
            "[,1]",
            "[1]x",
            "[1] [2]",
            "[1,2",
            "[1,2,",
            "[",
            "",
            "  \n",
            "\u{feff}[1]",
            "\u{feff}",
            "1 2 3",
            "1\n2\n",
            "1,2",
            "12",
            "[1]]",
            r#"[{"items":[1]},{"items":[2],"has_more":true}]"#,
            r#"[{"items":[1]} {"items":[2]}]"#,
            r#"[{"items":[1]},{"items":[2]}"#,
            r#"[{"items":[1]},3]"#,
            r#"{"items":[1]} {"items":[2],"has_more":true}"#,
            r#"{"items":[1]}{"items":[2],"has_next_page":true}"#,
            r#"{"items":[1]}x"#,
            r#"{"items":[1]} 3"#,
            r#"1 {"items":[2]}"#,
            r#"{"items":"x"} {"items":[2]}"#,
            r#"[{"items":"x"},{"items":[2]}]"#,
            "[\"a\"]",
            "[1.5e3, -0, 1e400]",
        ]
        .iter()
        .map(|case| case.to_string())
        .chain([
            format!("[1, 2]   {}", " ".repeat(200)),
            format!(r#"{{"items":[1],"x":"{long}"}} {{"items":[2]}}"#),
            format!(r#"[{{"items":[1],"x":"{long}"}}]"#),
        ])
        .collect();
        let mut byte_cases: Vec<Vec<u8>> =
            cases.iter().map(|case| case.as_bytes().to_vec()).collect();
        // Not UTF-8: in a string, and cut at the end.
        byte_cases.push(b"[1,\"\xff\"]".to_vec());
        byte_cases.push(format!("[\"{long}").into_bytes()[..150].to_vec());
        for bytes in &byte_cases {
            let at_once = parse_list::<serde_json::Value>("f.json", bytes);
            for budget in 1..bytes.len() + 3 {
                let mut steps = ListSteps::<serde_json::Value>::new("f.json", bytes);
                let in_steps = loop {
                    if let Some(result) = steps.advance(budget) {
                        break result;
                    }
                };
                assert_eq!(
                    in_steps,
                    at_once,
                    "{} in steps of {budget}",
                    String::from_utf8_lossy(bytes)
                );
                assert_eq!(steps.done(), steps.work());
            }
        }
    }
}
