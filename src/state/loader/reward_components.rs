//! Reading reward components on request: per trajectory, through the core's engine
//! ([`load_components`]), within its limits, cancellable, what was read kept.

use eval_compare_core::client::TrajectoryClient;
use eval_compare_core::load::{load_components, ComponentProgress, ComponentReadLimits, LoadEvent};
use futures::future::{AbortHandle, Abortable};
use leptos::prelude::*;
use leptos::task::spawn_local;

use super::throttle::ProgressThrottle;
use super::Loader;
use crate::transport::FetchTransport;

impl Loader {
    /// Reads the reward components of `trajectory_ids` not read yet (those that failed again),
    /// within [`ComponentReadLimits::for_reads`] (a few at a time, given up after failures in a
    /// row or at a deadline: the progress then says why), with the store's configuration;
    /// progress ticks as they arrive, and the run set is rebuilt with them once the read ends,
    /// gives up or is cancelled.
    pub fn load_components(&self, trajectory_ids: Vec<String>) {
        let Some(config) = self.config.get_value() else {
            return;
        };
        self.abort_components();
        let (handle, registration) = AbortHandle::new_pair();
        self.components_in_flight.set_value(Some(handle));
        let store = self.store.get_value();
        let (tick, generation, loading) = (self.tick, self.generation, self.components_loading);
        loading.set(true);
        spawn_local(async move {
            let client = TrajectoryClient::new(config, FetchTransport::default());
            let throttle = ProgressThrottle::default();
            let notify = move |_: LoadEvent<'_>| throttle.notify(tick);
            let limits = ComponentReadLimits::for_reads(trajectory_ids.len());
            let read = load_components(&client, &store, &trajectory_ids, &limits, &notify);
            if Abortable::new(read, registration).await.is_ok() {
                loading.try_set(false);
                generation.try_update(|generation| *generation += 1);
            }
        });
    }

    /// Stops reading components; what was read is kept and enters the run set.
    pub fn cancel_components(&self) {
        if self.components_loading.get_untracked() {
            self.abort_components();
            self.bump();
        }
    }

    /// Whether components are being read (tracked).
    pub fn components_loading(&self) -> bool {
        self.components_loading.get()
    }

    /// Where reading the components of `trajectory_ids` stands (tracked: ticks as they arrive).
    pub fn component_progress(&self, trajectory_ids: &[String]) -> ComponentProgress {
        self.tick.track();
        self.generation.track();
        self.store
            .with_value(|store| store.component_progress(trajectory_ids))
    }

    /// Drops the component read in flight and releases the reads it had claimed in the store,
    /// so the next read asks for them again.
    pub(super) fn abort_components(&self) {
        if let Some(handle) = self
            .components_in_flight
            .try_update_value(Option::take)
            .flatten()
        {
            handle.abort();
            if let Some(store) = self.store.try_get_value() {
                store.cancel_component_reads();
            }
        }
        self.components_loading.try_set(false);
    }
}
