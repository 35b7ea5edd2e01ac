//! Chronicle trials' steps and durations read on request through the core's engine
//! ([`load_trial_details`]), as the reward components and tokens are
//! (`reward_components.rs`): one request per counted trial, cancellable, what was read kept and
//! attached to the run set ([`LoadStore::chronicle_run_set`]) once the read ends.

use std::sync::Arc;

use eval_compare_core::load::{
    load_trial_details, ComponentProgress, ComponentReadLimits, LoadEvent, LoadStore,
};
use eval_compare_core::model::TrialRef;

use leptos::prelude::*;

use super::Loader;

impl Loader {
    /// Reads the details of the trials `targets` not read yet (those that failed again), within
    /// [`ComponentReadLimits::for_reads`], with the store's configuration.
    pub fn load_trial_details(&self, targets: Arc<Vec<TrialRef>>) {
        let tick = self.tick;
        self.start_read(
            self.trial_details,
            LoadStore::cancel_trial_detail_reads,
            move |client, store, throttle| async move {
                let notify = move |_: LoadEvent<'_>| throttle.notify(tick);
                let limits = ComponentReadLimits::for_reads(targets.len());
                load_trial_details(&client, &store, &targets, &limits, &notify).await;
            },
        );
    }

    /// Stops reading trial details; what was read is kept and enters the run set.
    pub fn cancel_trial_details(&self) {
        if self.trial_details.loading.get_untracked() {
            self.abort_trial_details();
            self.bump();
        }
    }

    /// Whether trial details are being read (tracked).
    pub fn trial_details_loading(&self) -> bool {
        self.trial_details.loading.get()
    }

    /// Where reading the trials `keys` (`load::trial_read_keys`) stands (tracked).
    pub fn trial_detail_progress(&self, keys: &[String]) -> ComponentProgress {
        self.tick.track();
        self.generation.track();
        self.store
            .with_value(|store| store.trial_detail_progress(keys))
    }

    /// Drops the read in flight and releases what it had claimed in the store.
    pub(super) fn abort_trial_details(&self) {
        self.trial_details.abort(
            self.store.try_get_value(),
            LoadStore::cancel_trial_detail_reads,
        );
    }
}
