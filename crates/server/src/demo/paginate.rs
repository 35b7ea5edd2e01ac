//! Keyset pagination over an in-memory list.
//!
//! Each entry has a unique sort key; a page starts after the key its cursor names. Lists that
//! grow (the running evaluation) therefore never repeat or skip an item already paged past,
//! and no snapshot is held, as the contract says.

use eval_compare_core::api::Page;

use super::cursor;
use super::query::Order;
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
}
