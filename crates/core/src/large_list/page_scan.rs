//! Pages in their plain form: a page object's items read by their scanner, and the cursor
//! pages' own fields ([`Page`], [`EvalTrajectoryRewardsPage`]).

use super::cursor::Cursor;
use super::plain_item::PlainItem;
use super::shared_texts::SharedTexts;
use crate::api::{EvalTrajectoryRewardsPage, Page};

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

/// A cursor page ([`Page`], or [`EvalTrajectoryRewardsPage`] `with_run_id`) in
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

impl<T: PlainItem> PlainItem for Page<T> {
    fn scan_plain(text: &str) -> Option<(Self, usize)> {
        let (items, fields, length) = scan_cursor_page(text, false)?;
        let page = Page {
            items,
            next_cursor: fields.next_cursor.map(str::to_owned),
            has_more: fields.has_more,
        };
        Some((page, length))
    }
}

impl<R: PlainItem> PlainItem for EvalTrajectoryRewardsPage<R> {
    fn scan_plain(text: &str) -> Option<(Self, usize)> {
        let (items, fields, length) = scan_cursor_page(text, true)?;
        let page = EvalTrajectoryRewardsPage {
            eval_run_id: fields.eval_run_id?.to_owned(),
            items,
            next_cursor: fields.next_cursor.map(str::to_owned),
            has_more: fields.has_more,
        };
        Some((page, length))
    }
}
