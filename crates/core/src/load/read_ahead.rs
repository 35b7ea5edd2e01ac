//! Asking our server to read ahead the lists of the runs a load gets to only later
//! (`GET /stream/v1/prefetch`, [`crate::client::list_stream::prefetch_path`]).
//!
//! A browser opens at most six connections to one server: a comparison of six runs asks for
//! thirteen lists, and those of the last runs wait for a connection while the first ones are
//! walked (each as long as a cursor chain behind the API). A store told to
//! ([`LoadStore::read_ahead_after`], the viewer: the CLI asks for every list at once) names
//! those later runs to the server in one request at the load's start, when the server offers
//! it (its capabilities' `prefetch`, in proxy mode with its cache); the server walks their
//! lists into its cache meanwhile, and the load's own requests, when they get a connection,
//! are served what was kept, after the API's consent. One request per run set, no retry, its
//! answer not read: reading ahead only ever saves time.

use std::cell::{Cell, RefCell};
use std::collections::HashSet;

use crate::client::list_stream::{prefetch_path, KEPT_FORM, PACKED_FORM};
use crate::client::{TrajectoryClient, Transport};

use super::forms::ListForm;
use super::store::LoadStore;
use super::stream_source::ListSource;

/// What a store knows of reading ahead: whether to, whether the server offers it, and the runs
/// already named.
#[derive(Debug, Default)]
pub struct ReadAhead {
    /// Runs of a load read at once, from its first connections (`None`: no reading ahead).
    after: Cell<Option<usize>>,
    offered: Cell<bool>,
    named: RefCell<HashSet<String>>,
}

impl ReadAhead {
    pub(super) fn set_after(&self, first: usize) {
        self.after.set(Some(first));
    }

    pub(super) fn set_offered(&self, offered: bool) {
        self.offered.set(offered);
    }

    /// The runs of `run_ids` to name: after the first ones, each once.
    fn take(&self, run_ids: &[String]) -> Vec<String> {
        let Some(first) = self.after.get().filter(|_| self.offered.get()) else {
            return Vec::new();
        };
        let mut named = self.named.borrow_mut();
        run_ids
            .iter()
            .skip(first)
            .filter(|run| named.insert((*run).clone()))
            .cloned()
            .collect()
    }
}

/// Names the runs of `run_ids` after the first ones to the server to read ahead, in the form
/// the store reads streams in, when the store is told to and the server offers it.
pub(super) async fn read_ahead<T: Transport, F: ListForm>(
    client: &TrajectoryClient<T>,
    store: &LoadStore<F>,
    run_ids: &[String],
) {
    let form = match store.list_source() {
        ListSource::ContractPages => return,
        ListSource::ServerStream => None,
        ListSource::KeptStream => Some(KEPT_FORM),
        ListSource::PackedStream => Some(PACKED_FORM),
    };
    let runs = store.read_ahead.take(run_ids);
    if runs.is_empty() {
        return;
    }
    let request = client.request(&prefetch_path(&runs, form));
    // Only ever saves time: a refusal or a failure leaves the lists to be walked when asked.
    let _ = client.transport().send(request).await;
}
