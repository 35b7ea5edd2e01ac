//! The kept form of the two large lists' pages: each item with only the fields the model keeps
//! and those the full type requires ([`Read::in_kept_form`], from the one field table in
//! [`super::facts`]), the page's other members, the items' order and everything else as they
//! came. The server's streams send it when asked (`?form=kept`); the reader decodes it with
//! the same decoder as the full form, to the same facts: a field left out is optional and
//! read by no one.
//!
//! A field is left out only after it is checked as the full type checks it (as the plain
//! scanner does, [`super::item_scan`]), so an item the full type refuses is refused in either
//! form: an item that is not in its plain form, has a field twice, of the wrong type or
//! missing, is passed on whole, and a page that is not plain is passed on as it came.
//! Hand-written on the scanner's [`Cursor`]: serde would decode and re-encode every value.

use super::cursor::{value_length, Cursor};
use super::facts::{Read, Table, REWARD, ROLLOUT, TRAJECTORY};
use super::raw_page::{PageReader, RawTrajectoryPage};

/// A page line of listed trajectories (a [`crate::api::Page`] of `TrajectoryMetadata`, ending
/// in `\n` or not) in its kept form, ending in `\n`; `None`: send it as it is.
pub fn kept_trajectory_page(line: &[u8]) -> Option<Vec<u8>> {
    kept_page(line, &TRAJECTORY)
}

/// A page line of trajectory rewards in its kept form (see [`kept_trajectory_page`]).
pub fn kept_reward_page(line: &[u8]) -> Option<Vec<u8>> {
    kept_page(line, &REWARD)
}

/// A page line of a benchmark's tasks in its kept form (see [`kept_trajectory_page`]): each
/// task with its id, label, split and categories, what the model reads
/// (`task_scan.rs`); its input message, runtime, command, build status and
/// environment (most of a task's bytes) left out.
pub fn kept_task_page(line: &[u8]) -> Option<Vec<u8>> {
    project_page(line, super::task_scan::kept_task)
}

/// A page of listed trajectories, the body of the API's answer, read once for a stream: what
/// paging needs, its line in the kept form (the same bytes as [`kept_trajectory_page`] of its
/// line as a stream sends it) and the page's length; `None` when the
/// page is not in its plain form (read it as a [`RawTrajectoryPage`] and project its line).
pub fn read_kept_trajectory_page(text: &str) -> Option<(RawTrajectoryPage, Vec<u8>, usize)> {
    read_kept_page(text, &TRAJECTORY)
}

/// A page of trajectory rewards read once for a stream (see [`read_kept_trajectory_page`]).
pub fn read_kept_reward_page(text: &str) -> Option<(RawTrajectoryPage, Vec<u8>, usize)> {
    read_kept_page(text, &REWARD)
}

fn read_kept_page(text: &str, table: &Table) -> Option<(RawTrajectoryPage, Vec<u8>, usize)> {
    let mut writer = KeptWriter {
        table,
        out: Vec::with_capacity(text.len() / 2),
        first: true,
        first_item: true,
    };
    writer.out.push(b'{');
    let (page, length) = RawTrajectoryPage::scan_reading(text, &mut writer)?;
    writer.out.extend_from_slice(b"}\n");
    Some((page, writer.out, length))
}

/// Writes a page in its kept form as its scan passes it ([`PageReader`]).
struct KeptWriter<'t> {
    table: &'t Table,
    out: Vec<u8>,
    first: bool,
    first_item: bool,
}

impl<'a> PageReader<'a> for KeptWriter<'_> {
    fn member(&mut self, key: &'a str, value: &'a str) {
        separate(&mut self.out, &mut self.first);
        push_key(&mut self.out, key);
        self.out.extend_from_slice(value.as_bytes());
    }

    fn items(&mut self, begin: bool) {
        if begin {
            separate(&mut self.out, &mut self.first);
            push_key(&mut self.out, "items");
            self.out.push(b'[');
            self.first_item = true;
        } else {
            self.out.push(b']');
        }
    }

    fn item(&mut self, cursor: &mut Cursor<'a>) -> Option<()> {
        separate(&mut self.out, &mut self.first_item);
        let start = self.out.len();
        let kept = kept_item(cursor, self.table, &mut self.out);
        if kept.is_none() {
            self.out.truncate(start);
        }
        kept
    }

    fn whole_item(&mut self, text: &'a str) {
        // As in a page's line: JSON's line breaks (whitespace only) made spaces.
        let spaced = text.bytes().map(|b| match b {
            b'\n' | b'\r' => b' ',
            b => b,
        });
        self.out.extend(spaced);
    }
}

/// The page's members copied, its items' projected by `table`.
fn kept_page(line: &[u8], table: &Table) -> Option<Vec<u8>> {
    project_page(line, |cursor, out| kept_item(cursor, table, out))
}

/// The page's members copied, each of its items projected by `project`, which writes an
/// item's kept form or gives `None` when the item is not in its plain form (then what it wrote
/// is dropped and the item copied whole).
fn project_page(
    line: &[u8],
    project: impl Fn(&mut Cursor<'_>, &mut Vec<u8>) -> Option<()>,
) -> Option<Vec<u8>> {
    let text = std::str::from_utf8(line).ok()?;
    let mut cursor = Cursor::new(text);
    let mut out = Vec::with_capacity(text.len() / 2);
    out.push(b'{');
    let mut first = true;
    cursor.object(|key, cursor| {
        separate(&mut out, &mut first);
        push_key(&mut out, key);
        if key != "items" {
            out.extend_from_slice(value_text(cursor)?.as_bytes());
            return Some(());
        }
        out.push(b'[');
        let mut first_item = true;
        cursor.array(|cursor| {
            separate(&mut out, &mut first_item);
            let item = value_text(cursor)?;
            let start = out.len();
            if project(&mut Cursor::new(item), &mut out).is_none() {
                out.truncate(start);
                out.extend_from_slice(item.as_bytes());
            }
            Some(())
        })?;
        out.push(b']');
        Some(())
    })?;
    if !cursor.rest().trim_ascii().is_empty() {
        return None;
    }
    out.extend_from_slice(b"}\n");
    Some(out)
}

/// The text of the value at the cursor (found by its brackets and strings), consumed.
fn value_text<'a>(cursor: &mut Cursor<'a>) -> Option<&'a str> {
    cursor.peek()?;
    let rest = cursor.rest();
    let length = value_length(rest.as_bytes())?;
    cursor.advance(length);
    rest.get(..length)
}

fn separate(out: &mut Vec<u8>, first: &mut bool) {
    if !std::mem::replace(first, false) {
        out.push(b',');
    }
}

/// A plain key (no escapes: the scanner's strings have none), quoted, and its colon.
fn push_key(out: &mut Vec<u8>, key: &str) {
    out.push(b'"');
    out.extend_from_slice(key.as_bytes());
    out.extend_from_slice(b"\":");
}

/// An item in its plain form with `table`'s fields, its kept fields written to `out`; `None`
/// when the scanner would not read it (then `out` holds a part, dropped by the caller).
fn kept_item(cursor: &mut Cursor<'_>, table: &Table, out: &mut Vec<u8>) -> Option<()> {
    let mut seen = 0u32;
    let mut first = true;
    out.push(b'{');
    let mut members = cursor.members()?;
    while let Some(key) = members.next_key(cursor)? {
        let Some(index) = table.index(key) else {
            cursor.skip_scalar()?;
            continue;
        };
        if seen & (1 << index) != 0 {
            return None;
        }
        seen |= 1 << index;
        let read = table.fields[index].1;
        if read.in_kept_form() {
            separate(out, &mut first);
            push_key(out, key);
        }
        if read == Read::Rollout {
            if cursor.null() {
                out.extend_from_slice(b"null");
            } else {
                kept_item(cursor, &ROLLOUT, out)?;
            }
            continue;
        }
        cursor.peek()?;
        let rest = cursor.rest();
        let from = cursor.at();
        checked(read, cursor)?;
        if read.in_kept_form() {
            out.extend_from_slice(rest.get(..cursor.at() - from)?.as_bytes());
        }
    }
    out.push(b'}');
    table.has_required(seen).then_some(())
}

/// Reads a field's value as the plain scanner does ([`super::item_scan`]): `None` when not of
/// its type or not plain.
fn checked(read: Read, cursor: &mut Cursor<'_>) -> Option<()> {
    match read {
        Read::Text(_) | Read::CheckText => cursor.string().map(drop),
        Read::OptionalText(_) | Read::CheckOptionalText => cursor.optional_string().map(drop),
        Read::Number => cursor.f64().map(drop),
        Read::OptionalNumber => cursor.optional_f64().map(drop),
        Read::OptionalInteger => cursor.optional_integer().map(drop),
        Read::CheckOptionalInteger => cursor.optional_i64(),
        // Null-or-object: only null is plain; a rollout is read by its own table.
        Read::CheckOptionalObject | Read::CheckOptionalDiagnostic | Read::Rollout => {
            cursor.null().then_some(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::{Page, TrajectoryMetadata};
    use crate::large_list::{decode_plain, AsTrajectoryFacts, PackedTrajectory};

    const ITEM: &str = r#"{"trajectory_id":"t1","organization_id":"o","dataset_id":"d","dataset_name":null,"trace_id":"x","model_id":"m","model_association_metadata":null,"source":"eval","status":"brand_new_state","termination_reason":"odd_reason","reward":0.5,"num_steps":7,"created_at":"2026-01-01T00:00:00Z","training_run_id":null,"task_id":"k","policy_step":3,"extra":1,"rollout":{"rollout_id":"r","status":"completed","termination_reason":null,"harness_diagnostic":null}}"#;

    fn page(items: &[&str]) -> String {
        format!(
            r#"{{"items":[{}],"next_cursor":"c","has_more":true}}"#,
            items.join(",")
        )
    }

    #[test]
    fn the_kept_form_leaves_out_only_unread_optional_fields_and_reads_the_same() {
        let full = page(&[ITEM, ITEM]);
        let kept = kept_trajectory_page(full.as_bytes()).expect("plain");
        let kept_text = std::str::from_utf8(&kept).unwrap();
        for gone in [
            "dataset_id",
            "trace_id",
            "policy_step",
            "extra",
            "harness_diagnostic",
        ] {
            assert!(!kept_text.contains(gone), "{gone} left out: {kept_text}");
        }
        for here in [
            "organization_id",
            "brand_new_state",
            "odd_reason",
            "rollout_id",
            "\"c\"",
        ] {
            assert!(kept_text.contains(here), "{here} kept: {kept_text}");
        }
        let a: Page<TrajectoryMetadata> = decode_plain(full.as_bytes()).unwrap();
        let b: Page<TrajectoryMetadata> = decode_plain(&kept).unwrap();
        let c: Page<PackedTrajectory> = decode_plain(&kept).unwrap();
        assert_eq!(a.items.len(), 2);
        for ((a, b), c) in a.items.iter().zip(&b.items).zip(&c.items) {
            assert_eq!(a.facts(), b.facts());
            assert_eq!(a.facts(), c.facts());
        }
        assert_eq!((a.next_cursor, a.has_more), (b.next_cursor, b.has_more));
    }

    /// A body as a stream's line: line breaks made spaces, `\n` appended.
    fn line_of(body: &str) -> Vec<u8> {
        let mut line = body.replace(['\n', '\r'], " ").into_bytes();
        line.push(b'\n');
        line
    }

    #[test]
    fn a_page_read_once_gives_the_projected_line_and_the_raw_page() {
        use crate::api::CursorPage;
        use crate::large_list::RawTrajectoryPage;
        let diagnosed = ITEM.replace(
            r#""harness_diagnostic":null"#,
            "\"harness_diagnostic\":{\n\"kind\":\r\"x\"}",
        );
        let bad = ITEM.replace(r#""dataset_id":"d""#, r#""dataset_id":5"#);
        let bodies = [
            page(&[ITEM, ITEM]),
            page(&[ITEM, &diagnosed, &bad, ITEM]),
            page(&[]),
            format!("{{\n \"items\" : [ {ITEM} ,\r\n{diagnosed} ],\"n\":-1.5e3,\"next_cursor\":null,\"has_more\":false}}\n"),
        ];
        for body in &bodies {
            let (read, line, length) = read_kept_trajectory_page(body).expect("plain");
            let expected = kept_trajectory_page(&line_of(body)).unwrap();
            assert_eq!(
                String::from_utf8(line).unwrap(),
                String::from_utf8(expected).unwrap()
            );
            assert!(body[length..].trim_ascii().is_empty());
            let raw: RawTrajectoryPage = decode_plain(body.as_bytes()).unwrap();
            assert_eq!(
                read, raw,
                "what paging needs, as the raw page's scan reads it"
            );
            assert_eq!(read.items().len(), raw.items().len());
        }
        let rewards = r#"{"items":[{"trajectory_id":"t","reward":1,"task_id":null,"x":2},{"trajectory_id":"u","reward":0.5,"task_id":"k"}],"has_more":false,"eval_run_id":"r"}"#;
        let (_, line, _) = read_kept_reward_page(rewards).unwrap();
        assert_eq!(line, kept_reward_page(&line_of(rewards)).unwrap());
        // Not plain (a member that is an object, an escaped key): read otherwise.
        let nested = page(&[ITEM]).replace("\"has_more\"", "\"meta\":{},\"has_more\"");
        assert!(read_kept_trajectory_page(&nested).is_none());
        let escaped = page(&[ITEM]).replace("\"has_more\"", "\"has\\u005fmore\"");
        assert!(read_kept_trajectory_page(&escaped).is_none());
    }

    #[test]
    fn an_item_the_full_type_refuses_is_passed_on_whole() {
        let bad = ITEM.replace(r#""dataset_id":"d""#, r#""dataset_id":5"#);
        let twice = ITEM.replace(r#""extra":1"#, r#""trace_id":"y""#);
        let missing = ITEM.replace(r#""source":"eval","#, "");
        for item in [&bad, &twice, &missing] {
            let full = page(&[ITEM, item]);
            let kept = kept_trajectory_page(full.as_bytes()).expect("page plain");
            let kept_text = std::str::from_utf8(&kept).unwrap();
            assert!(kept_text.contains(item.as_str()), "whole: {kept_text}");
            assert!(decode_plain::<Page<TrajectoryMetadata>>(&kept).is_err());
            assert!(decode_plain::<Page<TrajectoryMetadata>>(full.as_bytes()).is_err());
        }
        // An escape in the page's keys: not plain, sent as it came.
        let escaped = page(&[ITEM]).replace("\"has_more\"", "\"has\\u005fmore\"");
        assert!(kept_trajectory_page(escaped.as_bytes()).is_none());
        // A harness diagnostic (an object) is not plain: the item whole, its diagnostic kept.
        let diagnosed = ITEM.replace(
            r#""harness_diagnostic":null"#,
            r#""harness_diagnostic":{"kind":"x"}"#,
        );
        let kept = kept_trajectory_page(page(&[&diagnosed]).as_bytes()).unwrap();
        assert!(std::str::from_utf8(&kept).unwrap().contains(&diagnosed));
    }
}
