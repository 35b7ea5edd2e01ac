//! Following cursor pagination page by page, keeping what was read when a page fails.

use std::marker::PhantomData;

use serde::de::DeserializeOwned;

use crate::api::CursorPage;

use super::error::ApiError;
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

/// Reads one list page by page. Nothing is sent until [`Paginator::next_page`] is called;
/// cancel by dropping the future.
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
            page: PhantomData,
        }
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

impl<T: Transport, P: CursorPage + DeserializeOwned> Paginator<'_, T, P> {
    /// Reads the next page; `None` once the last page was read. After an error the position is
    /// unchanged, so calling again retries the same page.
    pub async fn next_page(&mut self) -> Option<Result<P, ApiError>> {
        if self.finished {
            return None;
        }
        let page: P = match self.client.get(&self.path_and_query()).await {
            Ok(page) => page,
            Err(error) => return Some(Err(error)),
        };
        let next = if page.has_more() {
            match page.next_cursor() {
                None => {
                    return Some(Err(unexpected(
                        "a page says more follow but gives no next_cursor",
                    )))
                }
                Some(next) if Some(next) == self.cursor.as_deref() => {
                    return Some(Err(unexpected(
                        "a page gives its own cursor as next_cursor; stopping to avoid a loop",
                    )))
                }
                Some(next) => Some(next.to_owned()),
            }
        } else {
            None
        };
        self.pages_read += 1;
        self.finished = next.is_none();
        self.cursor = next;
        Some(Ok(page))
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
        self.starting_at(cursor)
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

fn unexpected(message: &str) -> ApiError {
    ApiError::UnexpectedResponse {
        message: message.to_owned(),
        request_id: None,
    }
}
