//! Reading finished runs' lists ahead into the cache (`GET /stream/v1/prefetch?run=…&form=…`,
//! proxy mode with a cache; offered in the capabilities' `prefetch`).
//!
//! A browser opens at most six connections to one server, so a comparison of six runs gets its
//! thirteen lists in waves, each as long as one list's cursor chain (behind an API answering
//! 50 ms late, 80 pages: 4 s). The page names the runs whose lists it will ask for only in a
//! later wave; for each, the server asks the API for the run's record with the caller's key
//! (once) and, when the run is finished, walks those of its lists not kept yet into the cache,
//! at most [`READ_AHEAD_WALKS`] walks at a time across the server. The page's own request,
//! when a connection is free, waits for that walk ([`super::in_flight`]) and is then served
//! what was kept after the API's consent, as any kept list is. Nothing is answered but how many
//! runs were taken: what is read ahead only ever saves time, and a list not read ahead (a
//! running run, a refusal, a failure) is walked for the page's request as before.

use std::sync::Arc;

use axum::extract::{RawQuery, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use bytes::Bytes;
use eval_compare_core::client::list_stream::{
    StreamResume, StreamedList, FORM_PARAM, PREFETCH_MAX_RUNS, PREFETCH_RUN_PARAM,
    STREAM_PREFETCH_PATH,
};
use eval_compare_core::client::ClientConfig;
use tokio::sync::mpsc;

use super::in_flight::{self, InFlight, Walking};
use super::{caller_config, take_kept, walk, ItemForm, PageTransport, StreamState, LINES_AHEAD};
use crate::cache::{Asked, Entry, ListCache};
use crate::error::ApiError;

/// The most read-ahead walks under way at once, across the server (more wait their turn).
pub const READ_AHEAD_WALKS: usize = 8;

/// `GET /stream/v1/prefetch`: 202 with the number of runs taken, or the request's error.
pub(super) async fn prefetch(
    State(state): State<StreamState>,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
) -> Response {
    let Some(cache) = state.cache.clone() else {
        return ApiError::no_route("GET", STREAM_PREFETCH_PATH).into_response();
    };
    let asked = runs_of(query.as_deref()).and_then(|asked| {
        let config = caller_config(&state.origin, &headers)?;
        Ok((asked, config))
    });
    let ((runs, form), config) = match asked {
        Ok(asked) => asked,
        Err(error) => return error.into_response(),
    };
    let taken = runs.len();
    for run in runs {
        let (state, cache, config) = (state.clone(), Arc::clone(&cache), config.clone());
        tokio::spawn(async move { read_ahead(&state, &cache, config, form, &run).await });
    }
    let taken = serde_json::json!({ "runs": taken });
    (StatusCode::ACCEPTED, Json(taken)).into_response()
}

/// The runs a read-ahead names (each once, in order) and the form it asks for.
fn runs_of(query: Option<&str>) -> Result<(Vec<String>, ItemForm), ApiError> {
    let pairs: Vec<(String, String)> = serde_urlencoded::from_str(query.unwrap_or(""))
        .map_err(|_| ApiError::invalid_request("query", "The query string does not decode."))?;
    let (mut runs, mut form) = (Vec::<String>::new(), ItemForm::Api);
    for (name, value) in pairs {
        match name.as_str() {
            PREFETCH_RUN_PARAM => {
                if value.is_empty() || value.contains(['/', '\\']) || value == "." || value == ".."
                {
                    return Err(ApiError::invalid_request(
                        PREFETCH_RUN_PARAM,
                        "A run id is empty, contains a path separator or is a dot segment.",
                    ));
                }
                if !runs.contains(&value) {
                    runs.push(value);
                }
            }
            FORM_PARAM => form = ItemForm::asked(&value)?,
            other => {
                return Err(ApiError::invalid_request(
                    other.to_owned(),
                    "Unknown query parameter; a read-ahead takes run (repeated) and form.",
                ))
            }
        }
    }
    if runs.is_empty() || runs.len() > PREFETCH_MAX_RUNS {
        return Err(ApiError::invalid_request(
            PREFETCH_RUN_PARAM,
            format!("Name from 1 to {PREFETCH_MAX_RUNS} runs."),
        ));
    }
    Ok((runs, form))
}

/// Reads both lists of the run `owner` in `form` into the cache when the API answers its
/// record (asked once) as finished, each unless kept already or being walked; the record's
/// request and each walk take a turn of [`READ_AHEAD_WALKS`].
async fn read_ahead(
    state: &StreamState,
    cache: &Arc<ListCache>,
    config: ClientConfig,
    form: ItemForm,
    owner: &str,
) {
    let rewards = StreamedList::Rewards;
    let asked = {
        let Ok(_turn) = state.read_ahead.acquire().await else {
            return;
        };
        let transport = PageTransport::new(state.origin.clone());
        let form = ItemForm::of(rewards, form);
        cache
            .ask_record(&config, &transport, rewards, form, owner)
            .await
    };
    let Asked::Finished(entry) = asked else {
        return;
    };
    let walks = [rewards, StreamedList::Trajectories].map(|list| {
        let (form, config) = (ItemForm::of(list, form), config.clone());
        let entry = in_flight::entry_for(&entry, list, form);
        async move {
            let Ok(_turn) = state.read_ahead.acquire().await else {
                return;
            };
            if cache.holds(&entry).await {
                return;
            }
            let Ok(walking) = InFlight::begin(&state.in_flight, &entry) else {
                return;
            };
            walk_into_cache(state, cache, config, (list, form), entry, walking, None).await;
        }
    });
    futures::future::join_all(walks).await;
}

/// Walks `list` of `entry`'s run in `form` from its start, its lines going nowhere but the
/// cache (kept when the walk is complete); `walking` is let go at the end.
pub(super) async fn walk_into_cache(
    state: &StreamState,
    cache: &ListCache,
    config: ClientConfig,
    (list, form): (StreamedList, ItemForm),
    entry: Entry,
    walking: Walking,
    expected: Option<u64>,
) {
    let (lines, mut reader) = mpsc::channel::<Bytes>(LINES_AHEAD);
    let drain = tokio::spawn(async move { while reader.recv().await.is_some() {} });
    let resume = StreamResume {
        expected,
        ..StreamResume::default()
    };
    let transport = PageTransport::new(state.origin.clone());
    let outcome = walk::walk(
        config,
        transport,
        list,
        form,
        &entry.owner,
        resume,
        true,
        &lines,
        &state.task_order,
    )
    .await;
    drop(lines);
    let _ = drain.await;
    if let (_, Some(kept)) = take_kept(outcome) {
        cache.store(entry, kept.lines, kept.pages, kept.items).await;
    }
    drop(walking);
}
