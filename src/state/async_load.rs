//! Running an asynchronous load from a component: its state as a signal, a Retry callback, and
//! cancellation.
//!
//! Starting the load again, or the owning component going away, drops the previous attempt's
//! future; the transport aborts its in-flight HTTP request when its future is dropped.

use std::future::Future;
use std::sync::{Arc, Mutex};

use futures::future::{AbortHandle, Abortable};
use leptos::prelude::*;
use leptos::task::spawn_local;

/// Where a load stands.
#[derive(Debug, Clone, PartialEq)]
pub enum LoadState<T, E> {
    /// The load is in progress.
    Loading,
    /// The data arrived.
    Loaded(T),
    /// The load failed.
    Failed(E),
}

/// The attempt in flight, if any; shared by the (re)start callback and the cleanup.
#[derive(Default, Clone)]
struct InFlight(Arc<Mutex<Option<AbortHandle>>>);

impl InFlight {
    /// Cancels the current attempt and remembers `next` (if any) as the new one.
    fn replace(&self, next: Option<AbortHandle>) {
        if let Ok(mut slot) = self.0.lock() {
            if let Some(previous) = std::mem::replace(&mut *slot, next) {
                previous.abort();
            }
        }
    }
}

/// Starts `fetch` now and returns its state and a callback that starts it again (Retry).
///
/// A new start cancels the previous attempt, so a late answer can never overwrite a newer one;
/// the attempt in flight is cancelled when the calling component is cleaned up.
pub fn use_load<T, E, F, Fut>(fetch: F) -> (ReadSignal<LoadState<T, E>>, Callback<()>)
where
    T: Send + Sync + 'static,
    E: Send + Sync + 'static,
    F: Fn() -> Fut + 'static,
    Fut: Future<Output = Result<T, E>> + 'static,
{
    let (state, set_state) = signal(LoadState::Loading);
    let fetch = StoredValue::new_local(fetch);
    let in_flight = InFlight::default();

    let start = {
        let in_flight = in_flight.clone();
        Callback::new(move |()| {
            let Some(future) = fetch.try_with_value(|fetch| fetch()) else {
                return;
            };
            let (handle, registration) = AbortHandle::new_pair();
            in_flight.replace(Some(handle));
            set_state.set(LoadState::Loading);
            spawn_local(async move {
                if let Ok(result) = Abortable::new(future, registration).await {
                    set_state.try_set(match result {
                        Ok(data) => LoadState::Loaded(data),
                        Err(error) => LoadState::Failed(error),
                    });
                }
            });
        })
    };
    on_cleanup(move || in_flight.replace(None));
    start.run(());
    (state, start)
}

/// Runs `future` until it ends or the calling component is cleaned up, whichever comes first.
///
/// For background work owned by a view, such as polling the progress of running evaluations.
pub fn spawn_scoped(future: impl Future<Output = ()> + 'static) {
    let (handle, registration) = AbortHandle::new_pair();
    let in_flight = InFlight::default();
    in_flight.replace(Some(handle));
    on_cleanup(move || in_flight.replace(None));
    spawn_local(async move {
        // An aborted future simply stops; there is nothing to report.
        let _ = Abortable::new(future, registration).await;
    });
}
