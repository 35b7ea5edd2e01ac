//! Walking one list's cursor chain with the core's own [`Paginator`] (its page cap, cursor
//! cycles, repeated and oversized pages) over a [`PageTransport`], each page sent on as one line
//! as it arrives (in the packed form, a frame where the codec packs the page), then the trailer
//! ([`ListStreamEnd`]). The pages are read as [`StreamPage`]s:
//! only what the guards need, the items skipped, never decoded (the reader decodes each line;
//! decoding it here too was work thrown away), the line made in the same read. The caller's
//! key and contract version go with every page request, as the proxy forwards them.

use bytes::Bytes;
use eval_compare_core::api::{CursorPage, TrajectoryPage};
use eval_compare_core::client::list_stream::{
    ListStreamEnd, StreamFailure, StreamResume, StreamedList,
};
use eval_compare_core::client::retry::status_is_retryable;
use eval_compare_core::client::{
    ApiError, ClientConfig, HttpResponse, PageCap, Paginator, TrajectoryClient, TransportError,
};
use tokio::sync::mpsc;

use super::form::ItemForm;
use super::page::{
    ApiRewards, ApiTasks, ApiTrajectories, ApiTrials, KeptRewards, KeptTasks, KeptTrajectories,
    LineForm, PackedRewards, PackedTrajectories, StreamPage,
};
use super::task_order::{asks_again, TaskOrder};
use super::transport::PageTransport;

/// Where a walk's lines go; `false` when the reader went away.
pub type LineSender = mpsc::Sender<Bytes>;

/// How a walk ended.
#[derive(Debug)]
pub enum WalkEnd {
    /// The first page failed with the API's answer, before anything was sent: to be passed on.
    Refused(HttpResponse),
    /// The trailer was sent (complete or not); for a complete walk, its page lines.
    Sent {
        /// The trailer.
        end: ListStreamEnd,
        /// Every page line sent, when asked to keep them and the walk is complete.
        kept: Option<Vec<Bytes>>,
    },
    /// The reader went away.
    Gone,
}

/// Walks `list` of `owner` from `resume`, sending a line per page in `form` to `lines` (the
/// first only once the first page is read, so a refusal can still be passed on as it came);
/// keeps the lines sent when `keep`. A run's trajectories are asked in task order unless the
/// API refused it ([`TaskOrder`]).
#[allow(clippy::too_many_arguments)]
pub async fn walk(
    config: ClientConfig,
    transport: PageTransport,
    list: StreamedList,
    form: ItemForm,
    owner: &str,
    resume: StreamResume,
    keep: bool,
    lines: &LineSender,
    task_order: &TaskOrder,
) -> WalkEnd {
    let client = TrajectoryClient::new(config, transport.clone());
    let cap = resume.expected.map_or_else(PageCap::unknown, |items| {
        PageCap::expected(items, "the items the caller expects")
    });
    let walking = Walking {
        transport: &transport,
        cap,
        resume,
        keep,
        lines,
    };
    match (list, form) {
        (StreamedList::Rewards, ItemForm::Kept) => {
            let pages = client.trajectory_rewards(owner);
            walking.pages::<KeptRewards, _>(pages).await
        }
        (StreamedList::Rewards, ItemForm::Packed) => {
            let pages = client.trajectory_rewards(owner);
            walking.pages::<PackedRewards, _>(pages).await
        }
        (StreamedList::Rewards, ItemForm::Api) => {
            let pages = client.trajectory_rewards(owner);
            walking.pages::<ApiRewards, _>(pages).await
        }
        (StreamedList::Trajectories, form) => {
            walking.trajectories(&client, owner, form, task_order).await
        }
        (StreamedList::Tasks, ItemForm::Api) => {
            let pages = client.benchmark_tasks(owner, None);
            walking.pages::<ApiTasks, _>(pages).await
        }
        (StreamedList::Tasks, ItemForm::Kept | ItemForm::Packed) => {
            let pages = client.benchmark_tasks(owner, None);
            walking.pages::<KeptTasks, _>(pages).await
        }
        (StreamedList::Trials, _) => {
            let pages = client.chronicle_trials(owner);
            walking.pages::<ApiTrials, _>(pages).await
        }
    }
}

/// What a walk of one list needs besides its pages.
#[derive(Clone)]
struct Walking<'w> {
    transport: &'w PageTransport,
    cap: PageCap,
    resume: StreamResume,
    keep: bool,
    lines: &'w LineSender,
}

impl Walking<'_> {
    /// Walks a run's trajectories in task order, or in the API's default order once the API
    /// refused task order; a first page refused in task order is asked again in the default
    /// order (a fresh walk answered so notes the refusal in `order`; a resumed one does not,
    /// its cursor may be the refusal's cause).
    async fn trajectories(
        self,
        client: &TrajectoryClient<PageTransport>,
        owner: &str,
        form: ItemForm,
        order: &TaskOrder,
    ) -> WalkEnd {
        if !order.asked() {
            return self
                .trajectory_pages(form, client.trajectories_of_run(owner))
                .await;
        }
        let fresh = self.resume.cursor.is_none();
        let again = self.clone();
        let pages = client.trajectories_of_run_in_task_order(owner);
        match self.trajectory_pages(form, pages).await {
            WalkEnd::Refused(answer) if asks_again(answer.status) => {
                let pages = client.trajectories_of_run(owner);
                let end = again.trajectory_pages(form, pages).await;
                if fresh && !matches!(end, WalkEnd::Refused(_)) {
                    order.note_refused();
                }
                end
            }
            end => end,
        }
    }

    /// Walks a run's trajectories in `form`.
    async fn trajectory_pages(
        self,
        form: ItemForm,
        pages: Result<Paginator<'_, PageTransport, TrajectoryPage>, ApiError>,
    ) -> WalkEnd {
        match form {
            ItemForm::Kept => self.pages::<KeptTrajectories, _>(pages).await,
            ItemForm::Packed => self.pages::<PackedTrajectories, _>(pages).await,
            ItemForm::Api => self.pages::<ApiTrajectories, _>(pages).await,
        }
    }

    /// Walks `paginator`'s pages, each read as a [`StreamPage`] of form `F`.
    async fn pages<F: LineForm, Q>(
        self,
        paginator: Result<Paginator<'_, PageTransport, Q>, ApiError>,
    ) -> WalkEnd {
        let Walking {
            transport,
            cap,
            resume,
            keep,
            lines,
        } = self;
        let (pages_before, items_before) = (resume.pages, resume.items);
        let mut paginator = match paginator
            .map(Paginator::decoding::<StreamPage<F>>)
            .and_then(|p| {
                let limit = p.max_limit();
                p.with_limit(limit)
            }) {
            Ok(paginator) => paginator.with_cap(cap).continuing(
                resume.cursor,
                resume.pages,
                usize::try_from(resume.items).unwrap_or(usize::MAX),
            ),
            Err(error) => {
                let end = failed(pages_before, items_before, pages_before + 1, &error);
                return send_end(lines, end, None).await;
            }
        };
        let mut kept = keep.then(Vec::new);
        let (mut pages, mut items) = (pages_before, items_before);
        loop {
            match paginator.next_page().await {
                None => {
                    let end = ListStreamEnd::complete(pages, items);
                    return send_end(lines, end, kept).await;
                }
                Some(Ok(mut page)) => {
                    let Some(line) = page.take_line() else {
                        let error = ApiError::UnexpectedResponse {
                            message: "the page's bytes were not kept".to_owned(),
                            request_id: None,
                        };
                        return send_end(lines, failed(pages, items, pages + 1, &error), None)
                            .await;
                    };
                    pages += 1;
                    items += page.items().len() as u64;
                    let line = Bytes::from(line);
                    if let Some(kept) = kept.as_mut() {
                        kept.push(line.clone());
                    }
                    if lines.send(line).await.is_err() {
                        return WalkEnd::Gone;
                    }
                }
                Some(Err(error)) => {
                    if pages == pages_before && matches!(error, ApiError::Http(_)) {
                        if let Some(answer) = transport.take_last() {
                            return WalkEnd::Refused(answer);
                        }
                    }
                    return send_end(lines, failed(pages, items, pages + 1, &error), None).await;
                }
            }
        }
    }
}

async fn send_end(lines: &LineSender, end: ListStreamEnd, kept: Option<Vec<Bytes>>) -> WalkEnd {
    if lines.send(Bytes::from(end.to_line())).await.is_err() {
        return WalkEnd::Gone;
    }
    WalkEnd::Sent { end, kept }
}

/// The trailer of a walk that stopped at `page` with `error`.
fn failed(pages: u32, items: u64, page: u32, error: &ApiError) -> ListStreamEnd {
    let (failure, status, code, retryable) = match error {
        ApiError::Http(http) => (
            StreamFailure::Http,
            Some(http.status),
            http.code.clone(),
            status_is_retryable(http.status),
        ),
        ApiError::Transport(TransportError::Limit(_)) => {
            (StreamFailure::Transport, None, None, false)
        }
        ApiError::Transport(_) => (StreamFailure::Transport, None, None, true),
        ApiError::Decode {
            truncated: true, ..
        } => (StreamFailure::Transport, None, None, true),
        _ => (StreamFailure::Contract, None, None, false),
    };
    ListStreamEnd {
        complete: false,
        pages_read: pages,
        items_read: items,
        failed_page: Some(page),
        failure: Some(failure),
        status,
        code,
        message: Some(error.to_string()),
        retryable,
    }
}
