//! The second source of a list's pages: the server's streamed list
//! ([`crate::client::list_stream`]), one response per list instead of one request per page. The
//! engine gets the same pages in the same order as from [`read_list`], lands them in the same
//! [`ListLoad`] with the same [`LoadEvent`]s, and a stream that stopped (an error trailer, a
//! body cut without its trailer, a Cancel) keeps what was read and resumes at the next page's
//! cursor. [`ListSource`] in the [`LoadStore`](super::LoadStore) says which source a load uses;
//! plain paging stays with [`read_list`]. In the packed form a page may come as a frame
//! ([`crate::large_list::PackedPage`]), decoded by its own reader to the same page.

use std::cell::RefCell;

use crate::api::CursorPage;
use crate::client::list_stream::{
    ListStreamEnd, Record, StreamCapabilities, StreamResume, StreamedList, FORM_PARAM, KEPT_FORM,
    PACKED_FORM, STREAM_CAPABILITIES_PATH,
};
use crate::client::retry::{backoff_ms, transport_error_is_retryable};
use crate::client::{ApiError, PageCap, Paginator, TrajectoryClient, Transport, TransportError};
use crate::large_list::{decode_plain, PackedPage, PlainItem};

use super::engine::read_list;
use super::forms::ListForm;
use super::list::{ListKind, ListLoad, Phase};
use super::progress::LoadEvent;
use super::store::LoadStore;
use super::stream_slices::{stream_lines, Handed};

/// Where a load reads its runs' and jobs' lists from.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum ListSource {
    /// The API's cursor pages, one request each (the contract; any API).
    #[default]
    ContractPages,
    /// The server's streamed lists, one response each (only our own server offers them).
    ServerStream,
    /// The server's streamed lists in their kept form (`?form=kept`): the trajectories and
    /// their rewards with only the fields the model keeps, decoded by the same decoders to
    /// the same items.
    KeptStream,
    /// The server's streamed lists in the packed form (`?form=packed`): the kept form's pages
    /// of trajectories and rewards as frames, decoded by [`PackedPage::decode_packed`] to the
    /// same items; the lists without a packed form (tasks, trials) in the kept form.
    PackedStream,
}

impl ListSource {
    /// How the load panel and the CLI say it ("Lists: …").
    pub fn describe(self) -> &'static str {
        match self {
            ListSource::ContractPages => "read page by page from the API",
            ListSource::ServerStream => "streamed whole by the server",
            ListSource::KeptStream => {
                "streamed whole by the server, only the fields the comparison reads"
            }
            ListSource::PackedStream => "streamed whole by the server, packed",
        }
    }
}

/// Asks the server once whether it streams lists (`GET /stream/v1/capabilities`, one
/// request, no retry): [`ListSource::PackedStream`] when it offers every list and the packed
/// form, [`ListSource::KeptStream`] when the kept form, [`ListSource::ServerStream`] when it
/// offers every list, else
/// [`ListSource::ContractPages`] (an API that is not our server answers 404, or nothing).
pub async fn probe_list_source<T: Transport>(client: &TrajectoryClient<T>) -> ListSource {
    source_of(probe_capabilities(client).await.as_ref())
}

/// The server's stream capabilities, when it answers them.
async fn probe_capabilities<T: Transport>(
    client: &TrajectoryClient<T>,
) -> Option<StreamCapabilities> {
    let answer = client
        .transport()
        .send(client.request(STREAM_CAPABILITIES_PATH))
        .await;
    answer
        .ok()
        .filter(|answer| answer.status == 200)
        .and_then(|answer| crate::api::decode::<StreamCapabilities>(&answer.body).ok())
}

/// Where lists are read from, given the server's capabilities (see [`probe_list_source`]).
fn source_of(offered: Option<&StreamCapabilities>) -> ListSource {
    match offered {
        Some(offered) if StreamedList::ALL.iter().all(|&list| offered.offers(list)) => {
            let offers = |name: &str| offered.forms.iter().any(|form| form == name);
            if offers(PACKED_FORM) && offers(KEPT_FORM) {
                ListSource::PackedStream
            } else if offers(KEPT_FORM) {
                ListSource::KeptStream
            } else {
                ListSource::ServerStream
            }
        }
        _ => ListSource::ContractPages,
    }
}

/// Chooses where `store` reads its lists from, once: [`probe_list_source`] the first time,
/// the same choice after (a new store, as for another address or key, asks again). A store of
/// the records whole (not read from frames, [`ListForm::PACKED_WIRE`]: a run folder written
/// to disk) reads the server's stream in the API's own form: the kept and packed forms leave
/// out the optional fields the model does not read, which a run folder keeps. Notes whether
/// the server reads runs ahead ([`super::read_ahead`]).
pub async fn choose_list_source<T: Transport, F: ListForm>(
    client: &TrajectoryClient<T>,
    store: &LoadStore<F>,
) -> ListSource {
    if let Some(source) = store.chosen_list_source() {
        return source;
    }
    let offered = probe_capabilities(client).await;
    store
        .read_ahead
        .set_offered(offered.as_ref().is_some_and(|offered| offered.prefetch));
    let source = match source_of(offered.as_ref()) {
        ListSource::PackedStream | ListSource::KeptStream if !F::PACKED_WIRE => {
            ListSource::ServerStream
        }
        source => source,
    };
    store.set_list_source(source);
    source
}

/// The streamed list of a list kind, when the server streams it.
fn streamed(kind: ListKind) -> Option<StreamedList> {
    match kind {
        ListKind::Rewards => Some(StreamedList::Rewards),
        ListKind::Trajectories => Some(StreamedList::Trajectories),
        ListKind::Trials => Some(StreamedList::Trials),
        ListKind::Tasks => Some(StreamedList::Tasks),
    }
}

/// Reads the list `kind` of `owner` from `source`: streamed by the server when it is
/// [`ListSource::ServerStream`] (or [`ListSource::KeptStream`], [`ListSource::PackedStream`])
/// and the list is one it streams, else page by page with
/// `paginator` ([`read_list`]). The same list, progress, cancel and resume either way.
#[allow(clippy::too_many_arguments)]
pub(super) async fn read_list_from<T, P>(
    source: ListSource,
    client: &TrajectoryClient<T>,
    kind: ListKind,
    owner: &str,
    paginator: Result<Paginator<'_, T, P>, ApiError>,
    cap: PageCap,
    list: &RefCell<ListLoad<P::Item>>,
    notify: &dyn Fn(LoadEvent<'_>),
) where
    T: Transport,
    P: CursorPage + PlainItem + PackedPage,
{
    let form = match source {
        ListSource::ContractPages => {
            return read_list(kind, owner, paginator, cap, list, notify).await
        }
        ListSource::ServerStream => None,
        ListSource::KeptStream => Some(KEPT_FORM),
        ListSource::PackedStream => Some(match kind {
            ListKind::Rewards | ListKind::Trajectories => PACKED_FORM,
            ListKind::Trials | ListKind::Tasks => KEPT_FORM,
        }),
    };
    match streamed(kind) {
        Some(stream) => {
            read_streamed::<T, P>(client, kind, (stream, form), owner, cap, list, notify).await
        }
        None => read_list(kind, owner, paginator, cap, list, notify).await,
    }
}

/// How one streamed response ended.
enum Ended {
    /// The trailer said the list is complete.
    Complete,
    /// It stopped: why, and whether it is worth asking again at once.
    Stopped(ApiError, bool),
}

/// Reads a streamed list into `list` from where it stopped; see the module's documentation.
/// A stream cut off (no trailer) or failing in a way worth retrying is asked again from its
/// next page, the client's retry policy counting the tries that brought no page; in `form`
/// (the API's when `None`).
async fn read_streamed<T, P>(
    client: &TrajectoryClient<T>,
    kind: ListKind,
    (stream, form): (StreamedList, Option<&'static str>),
    owner: &str,
    cap: PageCap,
    list: &RefCell<ListLoad<P::Item>>,
    notify: &dyn Fn(LoadEvent<'_>),
) where
    T: Transport,
    P: CursorPage + PlainItem + PackedPage,
{
    {
        let mut list = list.borrow_mut();
        match &list.phase {
            Phase::Complete | Phase::Loading => return,
            Phase::Failed(error) if error.is_invalid_cursor() => *list = ListLoad::default(),
            _ => {}
        }
        list.phase = Phase::Loading;
        list.reserve_expected(cap.expected_items());
    }
    notify(LoadEvent::Moved);
    let policy = client.config().retry;
    let mut fruitless = 0;
    let outcome = loop {
        let pages_before = list.borrow().pages_read;
        let asked = (stream, form);
        match stream_once::<T, P>(client, kind, asked, owner, &cap, list, notify).await {
            Ended::Complete => break Ok(()),
            Ended::Stopped(error, retryable) => {
                if list.borrow().pages_read > pages_before {
                    fruitless = 0;
                }
                if !retryable || fruitless >= policy.max_retries {
                    break Err(error);
                }
                client
                    .transport()
                    .sleep(backoff_ms(&policy, fruitless))
                    .await;
                fruitless += 1;
            }
        }
    };
    let (pages, items, phase) = {
        let mut list = list.borrow_mut();
        match outcome {
            Ok(()) => {
                list.phase = Phase::Complete;
                list.resume_cursor = None;
            }
            Err(error) => list.phase = Phase::Failed(error),
        }
        (list.pages_read, list.items.len(), list.phase.clone())
    };
    notify(LoadEvent::ListEnded {
        kind,
        owner,
        pages,
        items,
        phase: &phase,
    });
}

/// One streamed response, its pages landed in `list` as their lines arrive, decoded in slices
/// that leave the page its turns ([`stream_lines`]); in `form` (the API's when `None`), a
/// frame decoded by [`PackedPage::decode_packed`] and never taken for the trailer.
async fn stream_once<T, P>(
    client: &TrajectoryClient<T>,
    kind: ListKind,
    (stream, form): (StreamedList, Option<&'static str>),
    owner: &str,
    cap: &PageCap,
    list: &RefCell<ListLoad<P::Item>>,
    notify: &dyn Fn(LoadEvent<'_>),
) -> Ended
where
    T: Transport,
    P: CursorPage + PlainItem + PackedPage,
{
    let path = match stream.path(owner) {
        Ok(path) => path,
        Err(error) => return Ended::Stopped(error, false),
    };
    let resume = {
        let list = list.borrow();
        StreamResume {
            cursor: list.resume_cursor.clone(),
            pages: list.pages_read,
            items: list.items.len() as u64,
            expected: cap.expected_items(),
        }
    };
    if resume.pages > 0 && resume.cursor.is_none() {
        // Pages were read but no cursor follows them: the list was read to its end before.
        return Ended::Complete;
    }
    let mut path_and_query = format!("{path}{}", resume.to_query_string());
    if let Some(form) = form {
        let joint = if path_and_query.contains('?') {
            '&'
        } else {
            '?'
        };
        path_and_query.push_str(&format!("{joint}{FORM_PARAM}={form}"));
    }
    let key_sent = client.config().api_key.is_some();
    let mut trailer: Option<ListStreamEnd> = None;
    let max_pages = cap.max_pages(stream_limit(stream));
    let mut on_line = |record: Handed<'_>| -> Result<(), ApiError> {
        let record = record.map_err(|error| unexpected(&path, &format!("{error}")))?;
        let page = match record {
            Record::Line(line) => {
                if line.trim_ascii().is_empty() {
                    return Ok(());
                }
                if trailer.is_some() {
                    return Err(unexpected(&path, "a line after the trailer"));
                }
                if let Some(end) = ListStreamEnd::parse(line) {
                    trailer = Some(end);
                    return Ok(());
                }
                decode_plain::<P>(line)
                    .map_err(|error| unexpected(&path, &format!("a page line: {error}")))?
            }
            Record::Frame(frame) => {
                if trailer.is_some() {
                    return Err(unexpected(&path, "a frame after the trailer"));
                }
                P::decode_packed(frame).map_err(|error| unexpected(&path, &format!("{error}")))?
            }
        };
        let (pages, items, has_more) = {
            let mut list = list.borrow_mut();
            if list.pages_read >= max_pages {
                return Err(unexpected(&path, "more pages than its page cap"));
            }
            let next = page
                .has_more()
                .then(|| page.next_cursor().map(str::to_owned))
                .flatten();
            list.pages_read += 1;
            list.items.extend(page.into_items());
            list.resume_cursor = next;
            (
                list.pages_read,
                list.items.len(),
                list.resume_cursor.is_some(),
            )
        };
        notify(LoadEvent::Page {
            kind,
            owner,
            pages,
            items,
            has_more,
        });
        Ok(())
    };
    let request = client.request(&path_and_query);
    let sent = match stream_lines(client.transport(), request, &mut on_line).await {
        Ok(sent) => sent,
        Err(bad_line) => return Ended::Stopped(bad_line, false),
    };
    match sent {
        Err(error) => {
            let retryable = transport_error_is_retryable(&error)
                || (trailer.is_none() && !matches!(error, TransportError::Aborted));
            Ended::Stopped(client.failure(Err(error), stream.service()), retryable)
        }
        Ok(response) if !(200..300).contains(&response.status) => {
            let retryable = crate::client::retry::response_is_retryable(&response);
            Ended::Stopped(client.failure(Ok(response), stream.service()), retryable)
        }
        Ok(_) => match trailer {
            Some(end) => match end.error(stream, owner, key_sent) {
                None => Ended::Complete,
                Some(error) => Ended::Stopped(error, end.retryable),
            },
            None => Ended::Stopped(
                ApiError::Transport(TransportError::Other(format!(
                    "the server's stream {path} was cut off after {} (no trailer)",
                    crate::text::plural(u64::from(list.borrow().pages_read), "page", "pages")
                ))),
                true,
            ),
        },
    }
}

/// The page size the server asks the API for on `stream` (the endpoint's largest).
fn stream_limit(stream: StreamedList) -> u32 {
    match stream {
        StreamedList::Trials => crate::client::CHRONICLE_MAX_LIMIT,
        StreamedList::Rewards | StreamedList::Trajectories | StreamedList::Tasks => {
            crate::client::MAX_PAGE_LIMIT
        }
    }
}

fn unexpected(path: &str, what: &str) -> ApiError {
    ApiError::UnexpectedResponse {
        message: format!("the server's stream {path} sent {what}"),
        request_id: None,
    }
}
