//! Cursor-paginated list responses.

use serde::{Deserialize, Serialize};

/// One page of a cursor-paginated list: the contract's `PaginatedResponse_<Item>_` shape.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Page<T> {
    /// Items of this page, in the endpoint's order.
    pub items: Vec<T>,
    /// Cursor of the next page; null on the last page.
    #[serde(default)]
    pub next_cursor: Option<String>,
    /// Whether another page follows.
    pub has_more: bool,
}

/// What every paginated response offers, so one paginator can follow any list.
pub trait CursorPage {
    /// The listed item.
    type Item;
    /// Items of this page.
    fn items(&self) -> &[Self::Item];
    /// Consumes the page, keeping its items.
    fn into_items(self) -> Vec<Self::Item>;
    /// Cursor of the next page, if any.
    fn next_cursor(&self) -> Option<&str>;
    /// Whether another page follows.
    fn has_more(&self) -> bool;
    /// What tells this page from another: a hash of its length and its first and last items'
    /// JSON; `None` for a page of fewer than 2 items (see [`page_fingerprint`]).
    fn fingerprint(&self) -> Option<u64>;
}

/// A hash of `items`' length and the JSON of their first and last items; `None` for fewer than
/// 2 items (or items that do not serialize). The paginator stops a list whose page repeats an
/// earlier one by it.
pub fn page_fingerprint<I: Serialize>(items: &[I]) -> Option<u64> {
    use std::hash::{Hash, Hasher};

    if items.len() < 2 {
        return None;
    }
    let first = serde_json::to_string(items.first()?).ok()?;
    let last = serde_json::to_string(items.last()?).ok()?;
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    (items.len(), first, last).hash(&mut hasher);
    Some(hasher.finish())
}

/// Implements [`CursorPage`] for a page struct with `items`, `next_cursor` and `has_more` fields;
/// `[T]` before the page names its type parameters (each a serializable item).
macro_rules! impl_cursor_page {
    ([$($param:ident),*] $page:ty, $item:ty) => {
        impl<$($param: serde::Serialize),*> $crate::api::page::CursorPage for $page {
            type Item = $item;
            fn items(&self) -> &[$item] {
                &self.items
            }
            fn into_items(self) -> Vec<$item> {
                self.items
            }
            fn next_cursor(&self) -> Option<&str> {
                self.next_cursor.as_deref()
            }
            fn has_more(&self) -> bool {
                self.has_more
            }
            fn fingerprint(&self) -> Option<u64> {
                $crate::api::page::page_fingerprint(&self.items)
            }
        }
    };
    ($page:ty, $item:ty) => {
        $crate::api::page::impl_cursor_page!([] $page, $item);
    };
}
pub(crate) use impl_cursor_page;

impl_cursor_page!([T] Page<T>, T);
