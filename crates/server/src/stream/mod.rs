//! The list streams: `GET /stream/v1/eval/{run}/trajectory-rewards`,
//! `GET /stream/v1/eval/{run}/trajectories`, `GET /stream/v1/backtests/jobs/{job}/trials` and
//! `GET /stream/v1/benchmarks/{bench}/tasks`
//! answer a whole list in one response, read by the server page by page from the upstream (proxy
//! mode) or the demo's own router (demo mode), and `GET /stream/v1/capabilities` says they are
//! offered. The form (JSON Lines of the API's pages, then the trailer every stream ends with)
//! and the resume parameters are the core's, written once in
//! [`eval_compare_core::client::list_stream`]; `?form=kept` asks for the trajectories and their
//! rewards with only the fields the model keeps, `?form=packed` for that form packed into
//! frames ([`form`], both offered in the capabilities' `forms`); the paging and its guards are the core's
//! [`Paginator`](eval_compare_core::client::Paginator) ([`walk`]).
//!
//! The caller's `X-API-Key` and `Trajectory-API-Version` go with every page request (as the
//! proxy forwards them; never logged, never in a URL). A first page the API refuses is answered
//! with the API's own status and body; a failure after it ends the stream with a trailer naming
//! the page. In proxy mode with a cache, finished runs' lists are served from it after the
//! API's consent ([`crate::cache`]); a list walked is walked once however many ask for it at
//! once, a finished run's other list is read beside it ([`in_flight`]), and the page may ask
//! for the lists of runs it reads later to be read ahead ([`read_ahead`]). A run's
//! trajectories are asked in the order of its rewards where the API sorts so ([`task_order`]).

mod form;
mod in_flight;
mod page;
mod read_ahead;
mod task_order;
mod transport;
mod walk;

use std::sync::Arc;

use axum::body::Body;
use axum::extract::{Path, RawQuery, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use bytes::Bytes;
use eval_compare_core::client::list_stream::{
    StreamCapabilities, StreamResume, StreamedList, CURSOR_PARAM, EXPECTED_PARAM, FORM_PARAM,
    ITEMS_PARAM, KEPT_FORM, PACKED_FORM, PACKED_STREAM_CONTENT_TYPE, PAGES_PARAM,
    STREAM_CAPABILITIES_PATH, STREAM_CONTENT_TYPE, STREAM_PREFETCH_PATH, STREAM_PROTOCOL,
};
use eval_compare_core::client::{ApiKey, ClientConfig, HttpResponse, API_VERSION_HEADER};
use futures::StreamExt;
use tokio::sync::{mpsc, oneshot, Semaphore};

use crate::cache::{Consent, Entry, ListCache};
use crate::error::ApiError;
use in_flight::{InFlight, Walking};
use task_order::TaskOrder;

pub use form::ItemForm;
pub use transport::{PageOrigin, PageTransport};
pub use walk::WalkEnd;

/// Lines a stream may have read ahead of its reader.
const LINES_AHEAD: usize = 16;

/// How long after a finished run's list is read and not kept its other list is read too,
/// unless the page asked for it meanwhile ([`in_flight`]): a page asks for every list at once
/// when it has connections enough, and then nothing is read twice.
const SIBLING_DELAY: std::time::Duration = std::time::Duration::from_millis(1500);

/// What the stream handlers share.
#[derive(Debug, Clone)]
pub struct StreamState {
    origin: PageOrigin,
    cache: Option<Arc<ListCache>>,
    in_flight: Arc<InFlight>,
    task_order: Arc<TaskOrder>,
    /// Turns for read-ahead walks ([`read_ahead::READ_AHEAD_WALKS`]).
    read_ahead: Arc<Semaphore>,
}

impl StreamState {
    /// Streams reading from `origin`, keeping finished runs in `cache` when given.
    pub fn new(origin: PageOrigin, cache: Option<Arc<ListCache>>) -> Self {
        Self {
            origin,
            cache,
            in_flight: Arc::default(),
            task_order: Arc::default(),
            read_ahead: Arc::new(Semaphore::new(read_ahead::READ_AHEAD_WALKS)),
        }
    }
}

/// The routes of the list streams.
pub fn router(state: StreamState) -> Router {
    Router::new()
        .route(STREAM_CAPABILITIES_PATH, get(capabilities))
        .route(STREAM_PREFETCH_PATH, get(read_ahead::prefetch))
        .route(
            "/stream/v1/eval/{run}/trajectory-rewards",
            get(|state, path, headers, query| {
                list(StreamedList::Rewards, state, path, headers, query)
            }),
        )
        .route(
            "/stream/v1/eval/{run}/trajectories",
            get(|state, path, headers, query| {
                list(StreamedList::Trajectories, state, path, headers, query)
            }),
        )
        .route(
            "/stream/v1/benchmarks/{bench}/tasks",
            get(|state, path, headers, query| {
                list(StreamedList::Tasks, state, path, headers, query)
            }),
        )
        .route(
            "/stream/v1/backtests/jobs/{job}/trials",
            get(|state, path, headers, query| {
                list(StreamedList::Trials, state, path, headers, query)
            }),
        )
        .with_state(state)
}

async fn capabilities(State(state): State<StreamState>) -> Response {
    let offered = StreamCapabilities {
        list_streams: STREAM_PROTOCOL,
        lists: StreamedList::ALL
            .iter()
            .map(|list| list.name().to_owned())
            .collect(),
        cache: state.cache.is_some(),
        forms: vec![KEPT_FORM.to_owned(), PACKED_FORM.to_owned()],
        prefetch: state.cache.is_some(),
    };
    let mut response = Json(offered).into_response();
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// The resume position a query asks for, and the form it asks for.
fn resume_of(query: Option<&str>) -> Result<(StreamResume, ItemForm), ApiError> {
    let pairs: Vec<(String, String)> = serde_urlencoded::from_str(query.unwrap_or(""))
        .map_err(|_| ApiError::invalid_request("query", "The query string does not decode."))?;
    let mut resume = StreamResume::default();
    let mut form = ItemForm::Api;
    for (name, value) in pairs {
        let number = |what: &str| {
            value.parse::<u64>().map_err(|_| {
                ApiError::invalid_request(
                    what.to_owned(),
                    format!("`{what}` must be a whole number."),
                )
            })
        };
        match name.as_str() {
            CURSOR_PARAM => resume.cursor = Some(value.clone()),
            PAGES_PARAM => {
                resume.pages = u32::try_from(number(PAGES_PARAM)?).map_err(|_| {
                    ApiError::invalid_request(PAGES_PARAM, "`pages_read` is too large.")
                })?;
            }
            ITEMS_PARAM => resume.items = number(ITEMS_PARAM)?,
            EXPECTED_PARAM => resume.expected = Some(number(EXPECTED_PARAM)?),
            FORM_PARAM => form = ItemForm::asked(&value)?,
            other => {
                return Err(ApiError::invalid_request(
                    other.to_owned(),
                    "Unknown query parameter; a stream takes cursor, pages_read, items_read, expected_items and form.",
                ))
            }
        }
    }
    Ok((resume, form))
}

/// The client configuration of a caller: the origin's base, the caller's key and version.
fn caller_config(origin: &PageOrigin, headers: &HeaderMap) -> Result<ClientConfig, ApiError> {
    let mut config = ClientConfig::new(origin.base_url())
        .map_err(|e| ApiError::server_failure(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?;
    if let Some(value) = headers.get("x-api-key") {
        let key = value
            .to_str()
            .ok()
            .and_then(|text| ApiKey::new(text).ok())
            .ok_or_else(|| {
                ApiError::invalid_request(
                    "X-API-Key",
                    "The API key has a character that cannot be sent in a header.",
                )
            })?;
        config = config.with_api_key(key);
    }
    if let Some(version) = headers
        .get(API_VERSION_HEADER)
        .and_then(|v| v.to_str().ok())
    {
        config.api_version = version.trim().to_owned();
    }
    Ok(config)
}

async fn list(
    list: StreamedList,
    State(state): State<StreamState>,
    Path(owner): Path<String>,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
) -> Response {
    match answer(list, &state, owner, &headers, query.as_deref()).await {
        Ok(response) => response,
        Err(error) => error.into_response(),
    }
}

async fn answer(
    list: StreamedList,
    state: &StreamState,
    owner: String,
    headers: &HeaderMap,
    query: Option<&str>,
) -> Result<Response, ApiError> {
    if owner.contains(['/', '\\']) || owner == "." || owner == ".." {
        // As the proxy refuses them: an id that would leave its path segment upstream.
        return Err(ApiError::invalid_request(
            "id",
            "The id contains a path separator or is a dot segment.",
        ));
    }
    let (resume, asked) = resume_of(query)?;
    let form = ItemForm::of(list, asked);
    let config = caller_config(&state.origin, headers)?;
    let transport = PageTransport::new(state.origin.clone());
    let mut keep = None;
    if let (Some(cache), None) = (&state.cache, &resume.cursor) {
        let asked = (list, form);
        match from_cache(state, cache, &config, &transport, asked, &owner, &resume).await {
            Ok(response) => return Ok(response),
            Err(walk) => keep = walk,
        }
    }
    let (lines, mut reader) = mpsc::channel::<Bytes>(LINES_AHEAD);
    let (ended, end) = oneshot::channel::<WalkEnd>();
    let (cache, task_order) = (state.cache.clone(), Arc::clone(&state.task_order));
    tokio::spawn(async move {
        let outcome = walk::walk(
            config,
            transport,
            list,
            form,
            &owner,
            resume,
            keep.is_some(),
            &lines,
            &task_order,
        )
        .await;
        drop(lines);
        let (outcome, kept) = take_kept(outcome);
        if let (Some(kept), Some((entry, walking)), Some(cache)) = (kept, keep, cache) {
            cache.store(entry, kept.lines, kept.pages, kept.items).await;
            drop(walking);
        }
        let _ = ended.send(outcome);
    });
    let Some(first) = reader.recv().await else {
        return Ok(match end.await {
            Ok(WalkEnd::Refused(answer)) => passed_on(answer),
            _ => ApiError::server_failure(
                StatusCode::BAD_GATEWAY,
                "The list's stream ended before its first line.",
            )
            .into_response(),
        });
    };
    let rest = futures::stream::unfold(reader, |mut reader| async move {
        reader.recv().await.map(|line| (line, reader))
    });
    let body = futures::stream::once(async move { first })
        .chain(rest)
        .map(Ok::<Bytes, std::convert::Infallible>);
    Ok(streamed(Body::from_stream(body), form))
}

/// A complete walk's kept lines, taken out of its end.
struct Kept {
    lines: Vec<Bytes>,
    pages: u32,
    items: u64,
}

fn take_kept(outcome: WalkEnd) -> (WalkEnd, Option<Kept>) {
    match outcome {
        WalkEnd::Sent {
            end,
            kept: Some(lines),
        } => {
            let kept = Kept {
                lines,
                pages: end.pages_read,
                items: end.items_read,
            };
            (WalkEnd::Sent { end, kept: None }, Some(kept))
        }
        other => (other, None),
    }
}

/// The cache's answer to a read of `list` from its start: the API's refusal, or the kept list,
/// both after the API's consent; otherwise (`Err`) the entry to keep the walk under, when the
/// run finished, registered as in flight. A walk of the same list under way is waited for and
/// the API asked again; the run's other list is read beside this one ([`in_flight`]).
async fn from_cache(
    state: &StreamState,
    cache: &Arc<ListCache>,
    config: &ClientConfig,
    transport: &PageTransport,
    (list, form): (StreamedList, ItemForm),
    owner: &str,
    resume: &StreamResume,
) -> Result<Response, Option<(Entry, Walking)>> {
    for attempt in 0..2 {
        match cache.consent(config, transport, list, form, owner).await {
            Consent::Refused(answer) => return Ok(passed_on(answer)),
            Consent::Serve(pieces) => return Ok(streamed(Body::from_stream(pieces), form)),
            Consent::Read(None) | Consent::NotKept => return Err(None),
            Consent::Read(Some(entry)) => match InFlight::begin(&state.in_flight, &entry) {
                Ok(walking) => {
                    read_sibling(state, cache, config, (list, form), &entry, resume.expected);
                    return Err(Some((entry, walking)));
                }
                Err(busy) if attempt == 0 => busy.ended().await,
                Err(_) => return Err(None),
            },
        }
    }
    Err(None)
}

/// After [`SIBLING_DELAY`], reads the other list of `entry`'s run into the cache, unless it is
/// kept already or the page asked for it meanwhile (see [`in_flight`]); the lines go nowhere
/// but the cache.
fn read_sibling(
    state: &StreamState,
    cache: &Arc<ListCache>,
    config: &ClientConfig,
    (list, form): (StreamedList, ItemForm),
    entry: &Entry,
    expected: Option<u64>,
) {
    let Some(other) = in_flight::sibling(list) else {
        return;
    };
    let entry = in_flight::entry_for(entry, other, form);
    let (state, config, cache) = (state.clone(), config.clone(), Arc::clone(cache));
    tokio::spawn(async move {
        tokio::time::sleep(SIBLING_DELAY).await;
        if cache.holds(&entry).await {
            return;
        }
        let Ok(walking) = InFlight::begin(&state.in_flight, &entry) else {
            return;
        };
        let asked = (other, form);
        read_ahead::walk_into_cache(&state, &cache, config, asked, entry, walking, expected).await;
    });
}

/// A 200 stream of lines (and frames, in the packed form).
fn streamed(body: Body, form: ItemForm) -> Response {
    let mut response = Response::new(body);
    let headers = response.headers_mut();
    let content_type = match form {
        ItemForm::Packed => PACKED_STREAM_CONTENT_TYPE,
        ItemForm::Api | ItemForm::Kept => STREAM_CONTENT_TYPE,
    };
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// The API's own answer, passed on: its status, JSON body and the headers that matter.
pub fn passed_on(answer: HttpResponse) -> Response {
    let json = answer.header("content-type").is_some_and(|value| {
        let essence = value
            .split(';')
            .next()
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase();
        essence == "application/json"
            || (essence.starts_with("application/") && essence.ends_with("+json"))
    });
    if !json {
        return ApiError::upstream_refused(format!(
            "The upstream API answered {} without JSON; the server passes on only JSON.",
            answer.status
        ))
        .into_response();
    }
    let mut response = Response::new(Body::from(answer.body));
    *response.status_mut() = StatusCode::from_u16(answer.status).unwrap_or(StatusCode::BAD_GATEWAY);
    let headers = response.headers_mut();
    for (name, value) in &answer.headers {
        let lower = name.to_ascii_lowercase();
        if crate::proxy::RESPONSE_HEADERS.contains(&lower.as_str()) {
            if let (Ok(name), Ok(value)) = (
                header::HeaderName::from_bytes(lower.as_bytes()),
                HeaderValue::from_str(value),
            ) {
                headers.append(name, value);
            }
        }
    }
    response
}
