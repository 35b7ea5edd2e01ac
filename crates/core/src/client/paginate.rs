//! Following cursor pagination page by page, keeping what was read when a page fails, and
//! stopping a list whose pages would never end (see [`PageCap`]).

use std::marker::PhantomData;

use crate::api::CursorPage;
use crate::large_list::PlainItem;
use crate::text::plural;

use super::error::{redacted_excerpt, ApiError};
use super::page_guard::{read_so_far, PageCap, PageGuard, Runaway};
use super::query::Query;
use super::trajectory_client::TrajectoryClient;
use super::transport::Transport;

/// Largest page the contract allows on most lists.
pub const MAX_PAGE_LIMIT: u32 = 200;

/// Where a paginated load stands after a page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageProgress {
    /// Pages read so far (including those of a resumed load).
    pub pages_read: u32,
    /// Items read so far (including those of a resumed load).
    pub items_read: usize,
    /// Whether more pages follow.
    pub has_more: bool,
}

/// The items of a list as far as they could be read.
///
/// Complete when `error` is `None`. Otherwise `resume_cursor` is where to continue
/// (`None`: from the start) with [`Paginator::resume`], without reading the first pages again.
#[derive(Debug, Clone, PartialEq)]
pub struct PartialList<T> {
    /// Items read, in list order.
    pub items: Vec<T>,
    /// Cursor of the page that failed.
    pub resume_cursor: Option<String>,
    /// Why reading stopped early.
    pub error: Option<ApiError>,
    /// Pages read.
    pub pages_read: u32,
}

impl<T> PartialList<T> {
    /// Nothing read yet.
    pub fn empty() -> Self {
        Self {
            items: Vec::new(),
            resume_cursor: None,
            error: None,
            pages_read: 0,
        }
    }

    /// Whether every page was read.
    pub fn is_complete(&self) -> bool {
        self.error.is_none()
    }

    /// The items when complete, else the error.
    pub fn into_result(self) -> Result<Vec<T>, ApiError> {
        match self.error {
            None => Ok(self.items),
            Some(error) => Err(error),
        }
    }
}

/// Longest excerpt of a cursor quoted in an error message.
const CURSOR_EXCERPT_CHARS: usize = 40;

/// Reads one list page by page. Nothing is sent until [`Paginator::next_page`] is called;
/// cancel by dropping the future.
///
/// Every read ends: a page with more items than the limit asked for, a next cursor already
/// followed (a cycle A → B → A), a page repeating an earlier one, and a page beyond the
/// [`PageCap`] are errors ([`ApiError::UnexpectedResponse`] naming the list and what was seen).
#[derive(Debug)]
pub struct Paginator<'c, T, P> {
    client: &'c TrajectoryClient<T>,
    path: String,
    query: Query,
    first_page_query: Query,
    limit: u32,
    max_limit: u32,
    cursor: Option<String>,
    finished: bool,
    pages_read: u32,
    pages_before: u32,
    items_read: usize,
    cap: PageCap,
    guard: PageGuard,
    page: PhantomData<fn() -> P>,
}

impl<'c, T, P> Paginator<'c, T, P> {
    /// A paginator over `path` with fixed `query` parameters; `first_page_query` is sent only
    /// on a request without a cursor (parameters that cannot be combined with one).
    pub(crate) fn new(
        client: &'c TrajectoryClient<T>,
        path: String,
        query: Query,
        first_page_query: Query,
        max_limit: u32,
    ) -> Self {
        Self {
            client,
            path,
            query,
            first_page_query,
            limit: max_limit,
            max_limit,
            cursor: None,
            finished: false,
            pages_read: 0,
            pages_before: 0,
            items_read: 0,
            cap: PageCap::unknown(),
            guard: PageGuard::default(),
            page: PhantomData,
        }
    }

    /// The same list with its pages decoded as `Q` (the same page in another form, such as
    /// the packed one the load engine keeps).
    pub fn decoding<Q>(self) -> Paginator<'c, T, Q> {
        Paginator {
            client: self.client,
            path: self.path,
            query: self.query,
            first_page_query: self.first_page_query,
            limit: self.limit,
            max_limit: self.max_limit,
            cursor: self.cursor,
            finished: self.finished,
            pages_read: self.pages_read,
            pages_before: self.pages_before,
            items_read: self.items_read,
            cap: self.cap,
            guard: self.guard,
            page: PhantomData,
        }
    }

    /// Caps the pages this list may take (by default [`PageCap::unknown`]); the cap counts the
    /// pages read before a resumed read too (see [`Paginator::continuing`]).
    pub fn with_cap(mut self, cap: PageCap) -> Self {
        self.cap = cap;
        self
    }

    /// Continues a read that stopped after `pages_read` pages and `items_read` items, at
    /// `cursor` (`None`: from the start); those count towards the cap and in messages.
    pub fn continuing(
        mut self,
        cursor: Option<String>,
        pages_read: u32,
        items_read: usize,
    ) -> Self {
        self.cursor = cursor;
        self.pages_before = pages_read;
        self.items_read = items_read;
        self
    }

    /// Recognises the cursors and pages of `guard` (taken from a read that stopped, see
    /// [`Paginator::take_guard`]) as already read.
    pub fn with_guard(mut self, guard: PageGuard) -> Self {
        self.guard = guard;
        self
    }

    /// The cursors followed and pages read so far, to resume with [`Paginator::with_guard`].
    pub fn take_guard(&mut self) -> PageGuard {
        std::mem::take(&mut self.guard)
    }

    /// Sets the page size (1 to the endpoint's maximum, 200 on most lists; the default is the
    /// maximum).
    pub fn with_limit(mut self, limit: u32) -> Result<Self, ApiError> {
        if limit == 0 || limit > self.max_limit {
            return Err(ApiError::InvalidArgument(format!(
                "page limit {limit} is outside 1..={}",
                self.max_limit
            )));
        }
        self.limit = limit;
        Ok(self)
    }

    /// Starts at this cursor instead of the first page (`None`: the first page).
    pub fn starting_at(mut self, cursor: Option<String>) -> Self {
        self.cursor = cursor;
        self
    }

    /// The endpoint's largest page.
    pub fn max_limit(&self) -> u32 {
        self.max_limit
    }

    /// The cursor the next request will send (`None` before the first page).
    pub fn cursor(&self) -> Option<&str> {
        self.cursor.as_deref()
    }

    /// Whether the last page has been read.
    pub fn is_finished(&self) -> bool {
        self.finished
    }

    /// Pages read by this paginator.
    pub fn pages_read(&self) -> u32 {
        self.pages_read
    }

    /// The list's path, naming it in messages.
    pub fn path(&self) -> &str {
        &self.path
    }

    fn path_and_query(&self) -> String {
        let mut query = self.query.clone();
        match &self.cursor {
            Some(cursor) => query.push("cursor", cursor.clone()),
            None => query.extend(&self.first_page_query),
        }
        query.push("limit", self.limit.to_string());
        format!("{}{}", self.path, query.to_query_string())
    }
}

impl<T: Transport, P: CursorPage + PlainItem> Paginator<'_, T, P> {
    /// Reads the next page; `None` once the last page was read. After an error the position is
    /// unchanged, so calling again retries the same page (a page refused as never-ending is
    /// refused again).
    pub async fn next_page(&mut self) -> Option<Result<P, ApiError>> {
        if self.finished {
            return None;
        }
        let number = self.pages_before + self.pages_read + 1;
        let max_pages = self.cap.max_pages(self.limit);
        if number > max_pages {
            return Some(Err(self.stopped(format!(
                "more pages are announced beyond the cap of {}",
                self.cap.describe(self.limit)
            ))));
        }
        let page: P = match self.client.get_plain(&self.path_and_query()).await {
            Ok(page) => page,
            Err(error) => return Some(Err(error)),
        };
        if let Err(error) = self.check(&page, number) {
            return Some(Err(error));
        }
        let next = page
            .has_more()
            .then(|| page.next_cursor().map(str::to_owned));
        self.guard.follow(self.cursor.as_deref(), number);
        self.pages_read += 1;
        self.items_read += page.items().len();
        self.finished = next.is_none();
        self.cursor = next.flatten();
        Some(Ok(page))
    }

    /// Refuses page `number` when it breaks the contract or would make the read loop.
    fn check(&mut self, page: &P, number: u32) -> Result<(), ApiError> {
        let items = page.items().len();
        if items > self.limit as usize {
            return Err(self.refused(format!(
                "page {number} holds {}, more than the limit of {} asked for",
                plural(items as u64, "item", "items"),
                self.limit
            )));
        }
        if page.has_more() {
            match page.next_cursor() {
                None => {
                    return Err(self.refused(format!(
                        "page {number} says more follow but gives no next_cursor"
                    )))
                }
                Some(next) if Some(next) == self.cursor.as_deref() => {
                    return Err(self.stopped(format!(
                        "page {number} gives its own cursor as next_cursor; stopping to avoid a loop"
                    )))
                }
                Some(next) => {
                    if let Some(Runaway::Cycle { page: earlier }) = self.guard.check_cursor(next) {
                        return Err(self.stopped(format!(
                            "page {number} gives as next_cursor \"{}\", the cursor page {earlier} was read with (a cycle)",
                            self.quoted(next)
                        )));
                    }
                }
            }
        }
        if let Some(Runaway::Repeat { page: earlier }) =
            self.guard.check_page(page.fingerprint(), number)
        {
            return Err(self.stopped(format!(
                "page {number} repeats the items of page {earlier} (the same {} from first to last)",
                plural(items as u64, "item", "items")
            )));
        }
        Ok(())
    }

    /// A page that breaks the contract, in a message naming the list.
    fn refused(&self, what: String) -> ApiError {
        unexpected(format!("the list {}: {what}", self.path))
    }

    /// A list stopped because it would not end, in a message naming the list and what was
    /// read.
    fn stopped(&self, why: String) -> ApiError {
        unexpected(format!(
            "the list {} does not end: {why}; stopped after {}",
            self.path,
            read_so_far(self.pages_before + self.pages_read, self.items_read)
        ))
    }

    /// A cursor for a message: the key redacted, then cut short.
    fn quoted(&self, cursor: &str) -> String {
        redacted_excerpt(
            cursor,
            self.client.config().api_key.as_ref(),
            CURSOR_EXCERPT_CHARS,
        )
    }

    /// Reads every remaining page, calling `on_page` after each; stops at the first page that
    /// fails (after retries) and keeps what was read.
    pub async fn collect_all(self, on_page: impl FnMut(&P, PageProgress)) -> PartialList<P::Item> {
        self.collect_onto(PartialList::empty(), on_page).await
    }

    /// Continues a load that stopped early: reads from its `resume_cursor` and appends to its
    /// items, so the pages already read are not fetched again.
    pub async fn resume(
        self,
        partial: PartialList<P::Item>,
        on_page: impl FnMut(&P, PageProgress),
    ) -> PartialList<P::Item> {
        let cursor = partial.resume_cursor.clone();
        let (pages, items) = (partial.pages_read, partial.items.len());
        self.continuing(cursor, pages, items)
            .collect_onto(partial, on_page)
            .await
    }

    async fn collect_onto(
        mut self,
        mut list: PartialList<P::Item>,
        mut on_page: impl FnMut(&P, PageProgress),
    ) -> PartialList<P::Item> {
        list.error = None;
        loop {
            match self.next_page().await {
                None => {
                    list.resume_cursor = None;
                    return list;
                }
                Some(Ok(page)) => {
                    list.pages_read += 1;
                    let progress = PageProgress {
                        pages_read: list.pages_read,
                        items_read: list.items.len() + page.items().len(),
                        has_more: !self.finished,
                    };
                    on_page(&page, progress);
                    list.items.extend(page.into_items());
                }
                Some(Err(error)) => {
                    list.resume_cursor = self.cursor.clone();
                    list.error = Some(error);
                    return list;
                }
            }
        }
    }
}

fn unexpected(message: String) -> ApiError {
    ApiError::UnexpectedResponse {
        message,
        request_id: None,
    }
}
