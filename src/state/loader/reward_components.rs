//! Reads made one trajectory at a time on request, through the core's engine: reward components
//! ([`load_components`]) and token counts ([`load_tokens`]). Each kind is an [`OnDemandRead`]
//! (its task in flight and whether it runs): within the core's limits, cancellable, what was
//! read kept, the run set rebuilt with it once the read ends, gives up or is cancelled.

use std::future::Future;
use std::rc::Rc;
use std::sync::Arc;

use eval_compare_core::client::TrajectoryClient;
use eval_compare_core::load::{
    load_components, load_tokens, ComponentProgress, ComponentReadLimits, LoadEvent, LoadStore,
    TokenTargets,
};
use futures::future::{AbortHandle, Abortable};
use leptos::prelude::*;
use leptos::task::spawn_local;

use super::throttle::ProgressThrottle;
use super::Loader;
use crate::transport::FetchTransport;

/// One kind of read on request: the task in flight, and whether one runs (tracked).
#[derive(Debug, Clone, Copy)]
pub(super) struct OnDemandRead {
    in_flight: StoredValue<Option<AbortHandle>>,
    pub(super) loading: RwSignal<bool>,
}

impl OnDemandRead {
    /// No read yet.
    pub(super) fn new() -> Self {
        Self {
            in_flight: StoredValue::new(None),
            loading: RwSignal::new(false),
        }
    }

    /// Drops the read in flight and releases what it had claimed in the store (`release`), so
    /// the next read asks for it again.
    pub(super) fn abort(&self, store: Option<Rc<LoadStore>>, release: fn(&LoadStore)) {
        if let Some(handle) = self.in_flight.try_update_value(Option::take).flatten() {
            handle.abort();
            if let Some(store) = store {
                release(&store);
            }
        }
        self.loading.try_set(false);
    }
}

impl Loader {
    /// Runs `read` (made from the store's client and store) as the read of `kind`, in place of
    /// the one in flight; progress ticks as it goes, and the run set is rebuilt once it ends.
    pub(super) fn start_read<Fut>(
        &self,
        kind: OnDemandRead,
        release: fn(&LoadStore),
        read: impl FnOnce(TrajectoryClient<FetchTransport>, Rc<LoadStore>, ProgressThrottle) -> Fut
            + 'static,
    ) where
        Fut: Future<Output = ()> + 'static,
    {
        let Some(config) = self.config.get_value() else {
            return;
        };
        kind.abort(self.store.try_get_value(), release);
        let (handle, registration) = AbortHandle::new_pair();
        kind.in_flight.set_value(Some(handle));
        let store = self.store.get_value();
        let (generation, loading) = (self.generation, kind.loading);
        loading.set(true);
        spawn_local(async move {
            let client = TrajectoryClient::new(config, FetchTransport::default());
            let reading = read(client, store, ProgressThrottle::default());
            if Abortable::new(reading, registration).await.is_ok() {
                loading.try_set(false);
                generation.try_update(|generation| *generation += 1);
            }
        });
    }

    /// Reads the reward components of `trajectory_ids` not read yet (those that failed again),
    /// within [`ComponentReadLimits::for_reads`] (a few at a time, given up after failures in a
    /// row or at a deadline: the progress then says why), with the store's configuration.
    pub fn load_components(&self, trajectory_ids: Vec<String>) {
        let tick = self.tick;
        self.start_read(
            self.components,
            LoadStore::cancel_component_reads,
            move |client, store, throttle| async move {
                let notify = move |_: LoadEvent<'_>| throttle.notify(tick);
                let limits = ComponentReadLimits::for_reads(trajectory_ids.len());
                load_components(&client, &store, &trajectory_ids, &limits, &notify).await;
            },
        );
    }

    /// Reads the token counts of `targets` not read yet (those that failed again), from each
    /// one's last step, within the same limits as the components.
    pub fn load_tokens(&self, targets: Arc<TokenTargets>) {
        let tick = self.tick;
        self.start_read(
            self.tokens,
            LoadStore::cancel_token_reads,
            move |client, store, throttle| async move {
                let notify = move |_: LoadEvent<'_>| throttle.notify(tick);
                let limits = ComponentReadLimits::for_reads(targets.ids.len());
                load_tokens(&client, &store, &targets, &limits, &notify).await;
            },
        );
    }

    /// Stops reading components; what was read is kept and enters the run set.
    pub fn cancel_components(&self) {
        if self.components.loading.get_untracked() {
            self.abort_components();
            self.bump();
        }
    }

    /// Stops reading tokens; what was read is kept and enters the run set.
    pub fn cancel_tokens(&self) {
        if self.tokens.loading.get_untracked() {
            self.abort_tokens();
            self.bump();
        }
    }

    /// Whether components are being read (tracked).
    pub fn components_loading(&self) -> bool {
        self.components.loading.get()
    }

    /// Whether tokens are being read (tracked).
    pub fn tokens_loading(&self) -> bool {
        self.tokens.loading.get()
    }

    /// Where reading the components of `trajectory_ids` stands (tracked: ticks as they arrive).
    pub fn component_progress(&self, trajectory_ids: &[String]) -> ComponentProgress {
        self.tick.track();
        self.generation.track();
        self.store
            .with_value(|store| store.component_progress(trajectory_ids))
    }

    /// Where reading the tokens of `trajectory_ids` stands (tracked: ticks as they arrive).
    pub fn token_progress(&self, trajectory_ids: &[String]) -> ComponentProgress {
        self.tick.track();
        self.generation.track();
        self.store
            .with_value(|store| store.token_progress(trajectory_ids))
    }

    /// Drops the component read in flight and releases the reads it had claimed in the store,
    /// so the next read asks for them again.
    pub(super) fn abort_components(&self) {
        self.components.abort(
            self.store.try_get_value(),
            LoadStore::cancel_component_reads,
        );
    }

    /// Drops the token read in flight, as [`Self::abort_components`].
    pub(super) fn abort_tokens(&self) {
        self.tokens
            .abort(self.store.try_get_value(), LoadStore::cancel_token_reads);
    }
}
