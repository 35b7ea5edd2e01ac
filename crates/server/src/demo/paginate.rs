//! Keyset pagination over an in-memory list.
//!
//! Each entry has a unique sort key; a page starts after the key its cursor names. Lists that
//! grow (the running evaluation) therefore never repeat or skip an item already paged past,
//! and no snapshot is held, as the contract says.
//!
//! Small lists are built whole, sorted and cut ([`paginate`]); the large ones (a run's
//! attempts, a benchmark's tasks) keep their order computed once and are cut in place
//! ([`paginate_ordered`]: the cursor's key found by binary search, the list's filters applied
//! while walking), with the same pages and cursors.

use std::ops::Range;

use eval_compare_core::api::Page;

use super::cursor;
use super::query::{Order, Query};
use crate::error::ApiError;

/// One page of a list.
#[derive(Debug, Clone, PartialEq)]
pub struct Slice<T> {
    /// Items of this page.
    pub items: Vec<T>,
    /// Cursor of the next page, when one follows.
    pub next_cursor: Option<String>,
    /// Whether another page follows.
    pub has_more: bool,
}

impl<T> Slice<T> {
    /// This slice with each item turned into another (the cursor and `has_more` kept).
    pub fn map<U>(self, f: impl FnMut(T) -> U) -> Slice<U> {
        Slice {
            items: self.items.into_iter().map(f).collect(),
            next_cursor: self.next_cursor,
            has_more: self.has_more,
        }
    }

    /// This slice as the contract's plain page shape.
    pub fn into_page(self) -> Page<T> {
        Page {
            items: self.items,
            next_cursor: self.next_cursor,
            has_more: self.has_more,
        }
    }
}

/// What a request asks of a list: its scope (list and filters), page size and cursor.
#[derive(Debug, Clone)]
pub struct PageRequest<'a> {
    /// The collection scope cursors are bound to.
    pub scope: String,
    /// Page size.
    pub limit: usize,
    /// The cursor given, if any.
    pub cursor: Option<&'a str>,
}

/// The page size and cursor of a list request.
///
/// Handlers read it where they used to validate `limit`, so a bad `limit` is still reported
/// before the parameters read after it; the cursor is only decoded when the page is cut.
#[derive(Debug, Clone, Copy)]
pub struct Pager<'a> {
    limit: usize,
    cursor: Option<&'a str>,
}

impl<'a> Pager<'a> {
    /// `limit` (1 to `max`, 25 when absent; 422 otherwise) and `cursor` of `query`.
    pub fn new(query: &'a Query, max: usize) -> Result<Self, ApiError> {
        Ok(Self {
            limit: query.limit(max)?,
            cursor: query.cursor(),
        })
    }

    /// Like [`Pager::new`], with page size `default` when `limit` is absent.
    pub fn with_default(query: &'a Query, max: usize, default: usize) -> Result<Self, ApiError> {
        if query.one("limit").is_none() {
            return Ok(Self {
                limit: default,
                cursor: query.cursor(),
            });
        }
        Self::new(query, max)
    }

    /// The page size.
    pub fn limit(&self) -> usize {
        self.limit
    }

    /// Sorts `entries` by key in `order` and cuts this request's page; cursors are bound to
    /// `scope` (the list and its filters), so one from another scope answers 400.
    pub fn slice<T>(
        &self,
        entries: Vec<(String, T)>,
        order: Order,
        scope: String,
    ) -> Result<Slice<T>, ApiError> {
        let request = PageRequest {
            scope,
            limit: self.limit,
            cursor: self.cursor,
        };
        paginate(entries, order, &request)
    }

    /// The page this request asks of the list `scope`.
    pub fn request(&self, scope: String) -> PageRequest<'a> {
        PageRequest {
            scope,
            limit: self.limit,
            cursor: self.cursor,
        }
    }

    /// [`Pager::slice`] in the contract's plain page shape.
    pub fn page<T>(
        &self,
        entries: Vec<(String, T)>,
        order: Order,
        scope: String,
    ) -> Result<Page<T>, ApiError> {
        self.slice(entries, order, scope).map(Slice::into_page)
    }
}

/// Sorts `entries` by key in `order` and cuts the page `request` asks for.
pub fn paginate<T>(
    mut entries: Vec<(String, T)>,
    order: Order,
    request: &PageRequest<'_>,
) -> Result<Slice<T>, ApiError> {
    match order {
        Order::Asc => entries.sort_by(|a, b| a.0.cmp(&b.0)),
        Order::Desc => entries.sort_by(|a, b| b.0.cmp(&a.0)),
    }
    let start = match request.cursor {
        None => 0,
        Some(token) => {
            let after = cursor::decode(&request.scope, token)?;
            match order {
                Order::Asc => entries.partition_point(|(key, _)| *key <= after),
                Order::Desc => entries.partition_point(|(key, _)| *key >= after),
            }
        }
    };
    let mut rest = entries.into_iter().skip(start);
    let page: Vec<(String, T)> = rest.by_ref().take(request.limit).collect();
    let has_more = rest.next().is_some();
    let next_cursor = match page.last() {
        Some((key, _)) if has_more => Some(cursor::encode(&request.scope, key)),
        _ => None,
    };
    Ok(Slice {
        items: page.into_iter().map(|(_, item)| item).collect(),
        next_cursor,
        has_more,
    })
}

/// A list kept in ascending key order: positions `positions` (the others are known not to be in
/// it now), the sort key at each (unique, ascending with the position), and whether the entry
/// at a position is in the list now (its filters and visibility).
#[derive(Debug, Clone)]
pub struct OrderedList<K, F> {
    /// The positions that may hold entries.
    pub positions: Range<usize>,
    /// The sort key at a position.
    pub key: K,
    /// Whether the entry at a position is in the list.
    pub keep: F,
}

/// The first position of `positions` at which `before` is false (`before` is true on a prefix).
fn first_not(positions: &Range<usize>, before: impl Fn(usize) -> bool) -> usize {
    let (mut low, mut high) = (positions.start, positions.end);
    while low < high {
        let mid = low + (high - low) / 2;
        if before(mid) {
            low = mid + 1;
        } else {
            high = mid;
        }
    }
    low
}

/// Cuts the page `request` asks for from a list kept in order, walking from the cursor's key
/// (found by binary search) in `order` and rendering only the page's entries: the same page
/// and cursor as [`paginate`] on the kept entries, in O(log n + the positions walked).
pub fn paginate_ordered<T>(
    list: OrderedList<impl Fn(usize) -> String, impl Fn(usize) -> bool>,
    mut render: impl FnMut(usize) -> T,
    order: Order,
    request: &PageRequest<'_>,
) -> Result<Slice<T>, ApiError> {
    let after = match request.cursor {
        None => None,
        Some(token) => Some(cursor::decode(&request.scope, token)?),
    };
    let positions = list.positions.clone();
    let mut walk: Box<dyn Iterator<Item = usize>> = match (order, &after) {
        (Order::Asc, None) => Box::new(positions),
        (Order::Asc, Some(after)) => {
            let start = first_not(&positions, |p| (list.key)(p) <= *after);
            Box::new(start..positions.end)
        }
        (Order::Desc, None) => Box::new(positions.rev()),
        (Order::Desc, Some(after)) => {
            let end = first_not(&positions, |p| (list.key)(p) < *after);
            Box::new((positions.start..end).rev())
        }
    };
    let mut kept = walk.by_ref().filter(|&p| (list.keep)(p));
    let page: Vec<usize> = kept.by_ref().take(request.limit).collect();
    let has_more = kept.next().is_some();
    let next_cursor = match page.last() {
        Some(&last) if has_more => Some(cursor::encode(&request.scope, &(list.key)(last))),
        _ => None,
    };
    Ok(Slice {
        items: page.into_iter().map(&mut render).collect(),
        next_cursor,
        has_more,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn walk(keys: &[&str], order: Order, limit: usize) -> Vec<String> {
        let mut seen = Vec::new();
        let mut cursor: Option<String> = None;
        loop {
            let entries = keys
                .iter()
                .map(|k| (k.to_string(), k.to_string()))
                .collect();
            let request = PageRequest {
                scope: "s".into(),
                limit,
                cursor: cursor.as_deref(),
            };
            let Ok(page) = paginate(entries, order, &request) else {
                panic!("page failed")
            };
            seen.extend(page.items);
            if !page.has_more {
                assert!(page.next_cursor.is_none());
                return seen;
            }
            cursor = page.next_cursor;
        }
    }

    #[test]
    fn walks_every_item_once_in_order() {
        let keys = ["d", "a", "c", "b", "e", "g", "f"];
        assert_eq!(
            walk(&keys, Order::Asc, 3),
            ["a", "b", "c", "d", "e", "f", "g"]
        );
        assert_eq!(
            walk(&keys, Order::Desc, 2),
            ["g", "f", "e", "d", "c", "b", "a"]
        );
        assert_eq!(walk(&keys, Order::Asc, 7), walk(&keys, Order::Asc, 200));
        assert!(walk(&[], Order::Asc, 5).is_empty());
    }

    #[test]
    fn items_added_before_the_cursor_are_not_repeated() {
        let request = PageRequest {
            scope: "s".into(),
            limit: 2,
            cursor: None,
        };
        let entries = |keys: &[&str]| keys.iter().map(|k| (k.to_string(), ())).collect::<Vec<_>>();
        let first = paginate(entries(&["b", "d", "f"]), Order::Asc, &request).ok();
        let next = first.and_then(|p| p.next_cursor);
        let request = PageRequest {
            cursor: next.as_deref(),
            ..request
        };
        let second = paginate(
            entries(&["a", "b", "c", "d", "e", "f"]),
            Order::Asc,
            &request,
        )
        .ok();
        assert_eq!(second.map(|p| p.items.len()), Some(2)); // "e", "f"
    }

    #[test]
    fn ordered_lists_page_like_sorted_ones() {
        let keys: Vec<String> = (0..40).map(|i| format!("k{i:03}")).collect();
        let keep = |p: usize| p % 3 != 1;
        for order in [Order::Asc, Order::Desc] {
            for limit in [1, 4, 13, 40] {
                let mut cursor: Option<String> = None;
                loop {
                    let request = PageRequest {
                        scope: "s".into(),
                        limit,
                        cursor: cursor.as_deref(),
                    };
                    let entries = (0..40)
                        .filter(|&p| keep(p))
                        .map(|p| (keys[p].clone(), p))
                        .collect();
                    let sorted = paginate(entries, order, &request).ok();
                    let list = OrderedList {
                        positions: 0..40,
                        key: |p: usize| keys[p].clone(),
                        keep,
                    };
                    let ordered = paginate_ordered(list, |p| p, order, &request).ok();
                    assert_eq!(sorted, ordered, "{order:?} {limit}");
                    match ordered.and_then(|page| page.next_cursor) {
                        Some(next) => cursor = Some(next),
                        None => break,
                    }
                }
            }
        }
    }
}
