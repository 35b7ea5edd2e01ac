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
}

/// Implements [`CursorPage`] for a page struct with `items`, `next_cursor` and `has_more` fields.
macro_rules! impl_cursor_page {
    ($page:ty, $item:ty) => {
        impl $crate::api::page::CursorPage for $page {
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
        }
    };
}
pub(crate) use impl_cursor_page;

impl<T> CursorPage for Page<T> {
    type Item = T;
    fn items(&self) -> &[T] {
        &self.items
    }
    fn into_items(self) -> Vec<T> {
        self.items
    }
    fn next_cursor(&self) -> Option<&str> {
        self.next_cursor.as_deref()
    }
    fn has_more(&self) -> bool {
        self.has_more
    }
}
