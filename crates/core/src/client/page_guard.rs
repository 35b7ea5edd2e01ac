//! What makes every paginated read end: a cap on pages derived from how long the list should be,
//! the cursors already followed (a cycle A → B → A stops), and pages that repeat an earlier one.

use std::collections::HashMap;

use crate::text::plural;

#[cfg(doc)]
use crate::api::CursorPage;

/// Pages a list of unknown length may take: 400,000 items in pages of 200.
pub const DEFAULT_MAX_PAGES: u32 = 2_000;
/// Pages no list may take, whatever the API says is there: 20 million items in pages of 200.
pub const MAX_PAGES_CEILING: u32 = 100_000;
/// Extra pages allowed beyond those the expected items fill (besides 10% of them).
const HEADROOM_PAGES: u32 = 2;

/// How many pages a list may take before its read is stopped, and what that rests on.
///
/// With an expected number of items (e.g. the run's `total_rollouts` for its rewards), the cap
/// is the pages those items fill at the page size asked for, plus 10% (rounded up) and
/// 2 pages of headroom; with nothing known it is [`DEFAULT_MAX_PAGES`]. Never more than
/// [`MAX_PAGES_CEILING`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageCap {
    expected_items: Option<u64>,
    basis: String,
}

impl Default for PageCap {
    fn default() -> Self {
        Self::unknown()
    }
}

impl PageCap {
    /// The cap of a list nothing says the length of.
    pub fn unknown() -> Self {
        Self {
            expected_items: None,
            basis: "the fixed cap for a list of unknown length".to_owned(),
        }
    }

    /// The cap of a list expected to hold about `items` items, `basis` saying who says so
    /// (e.g. "run er_1's total_rollouts").
    pub fn expected(items: u64, basis: impl Into<String>) -> Self {
        Self {
            expected_items: Some(items),
            basis: basis.into(),
        }
    }

    /// The items expected, when known.
    pub fn expected_items(&self) -> Option<u64> {
        self.expected_items
    }

    /// The most pages of `limit` items the list may take.
    pub fn max_pages(&self, limit: u32) -> u32 {
        let Some(items) = self.expected_items else {
            return DEFAULT_MAX_PAGES;
        };
        let filled = items.div_ceil(u64::from(limit.max(1)));
        let cap = filled
            .saturating_add(filled.div_ceil(10))
            .saturating_add(u64::from(HEADROOM_PAGES));
        u32::try_from(cap)
            .unwrap_or(u32::MAX)
            .min(MAX_PAGES_CEILING)
    }

    /// The cap and what it rests on, for an error message.
    pub(crate) fn describe(&self, limit: u32) -> String {
        let pages = plural(u64::from(self.max_pages(limit)), "page", "pages");
        match self.expected_items {
            None => format!("{pages}, {}", self.basis),
            Some(items) => format!(
                "{pages}, derived from {} ({} expected, in pages of {limit}, with 10% + {HEADROOM_PAGES} pages of headroom)",
                self.basis,
                plural(items, "item", "items")
            ),
        }
    }
}

/// Why a list was stopped by its guard.
pub(crate) enum Runaway {
    /// The next cursor is one already followed.
    Cycle {
        /// The 1-based page that cursor fetched.
        page: u32,
    },
    /// The page's items are those of an earlier page.
    Repeat {
        /// The 1-based earlier page.
        page: u32,
    },
}

/// The cursors followed and the pages read so far of one list; kept with a list that stopped
/// (see [`ListLoad`](crate::load::ListLoad)), so a resumed read still recognises a cycle or a
/// repeat instead of reading those pages again.
///
/// A page is recognised by its [`CursorPage::fingerprint`]: its number of items and its first
/// and last items (their JSON, hashed): in a list each item is listed once, so a page with the same first and last item
/// as an earlier page reads the same stretch again. A list that shifts while being read (an
/// item inserted before the cursor) repeats at most one item at a page boundary, never two, so
/// it is not taken for a loop; that is also why pages of fewer than 2 items are not compared
/// (a one-item page repeated by such a shift is no loop). The cursor set and the page cap end
/// the reads this check cannot see.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PageGuard {
    cursors: HashMap<String, u32>,
    pages: HashMap<u64, u32>,
}

impl PageGuard {
    /// Notes that `cursor` fetches page `page` (1-based, counting the pages read before).
    pub(crate) fn follow(&mut self, cursor: Option<&str>, page: u32) {
        if let Some(cursor) = cursor {
            self.cursors.entry(cursor.to_owned()).or_insert(page);
        }
    }

    /// Whether `next` was already followed.
    pub(crate) fn check_cursor(&self, next: &str) -> Option<Runaway> {
        self.cursors.get(next).map(|&page| Runaway::Cycle { page })
    }

    /// Checks page `page` (by its [`CursorPage::fingerprint`]) against the pages read before,
    /// then remembers it.
    pub(crate) fn check_page(&mut self, fingerprint: Option<u64>, page: u32) -> Option<Runaway> {
        let fingerprint = fingerprint?;
        if let Some(&earlier) = self.pages.get(&fingerprint) {
            return Some(Runaway::Repeat { page: earlier });
        }
        self.pages.insert(fingerprint, page);
        None
    }
}

/// `3 pages and 600 items read`, for messages.
pub(crate) fn read_so_far(pages: u32, items: usize) -> String {
    format!(
        "{} and {} read",
        plural(u64::from(pages), "page", "pages"),
        plural(items as u64, "item", "items")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cap_leaves_headroom_over_the_expected_items() {
        // 1,000 items in pages of 200: 5 pages, + 1 (10%) + 2.
        assert_eq!(PageCap::expected(1_000, "x").max_pages(200), 8);
        // 1,640 items: 9 pages, + 1 + 2.
        assert_eq!(PageCap::expected(1_640, "x").max_pages(200), 12);
        assert_eq!(PageCap::expected(0, "x").max_pages(200), 2);
        assert_eq!(PageCap::expected(100_000, "x").max_pages(200), 500 + 50 + 2);
        assert_eq!(
            PageCap::expected(u64::MAX, "x").max_pages(1),
            MAX_PAGES_CEILING
        );
        assert_eq!(PageCap::unknown().max_pages(200), DEFAULT_MAX_PAGES);
    }

    #[test]
    fn a_page_is_a_repeat_only_with_the_same_length_and_ends() {
        use crate::api::page_fingerprint;

        let mut guard = PageGuard::default();
        let mut check = |items: &[&str], page| guard.check_page(page_fingerprint(items), page);
        assert!(check(&["a", "b", "c"], 1).is_none());
        // One item shifted over the boundary is not a repeat.
        assert!(check(&["c", "d", "e"], 2).is_none());
        assert!(check(&["a", "c"], 3).is_none());
        assert!(check(&[], 4).is_none());
        assert!(check(&[], 5).is_none());
        assert!(check(&["z"], 7).is_none());
        assert!(check(&["z"], 8).is_none());
        assert!(matches!(
            check(&["a", "x", "c"], 6),
            Some(Runaway::Repeat { page: 1 })
        ));
    }
}
