//! Chronicle trials' steps and durations, read on request: the trials list carries neither, so
//! each trial's detail is read on its own (`GET /v1/backtests/jobs/{jobId}/trials/{trialId}`)
//! through the per-trajectory read engine (`per_trajectory.rs`: a few at a time, progress,
//! Cancel keeps what was read, the next call reads only what is missing, given up after
//! failures in a row or at its deadline), into the [`LoadStore`]. Of each detail only its
//! [`TrialEffort`] is kept; [`LoadStore::attach_trial_details`] puts them on the run set's
//! Chronicle runs, where the report's trial effort reads them.

use std::collections::HashMap;

use crate::client::{ApiError, TrajectoryClient, Transport};
use crate::model::{RunSet, TrialEffort, TrialRef};

use super::component_stop::{ComponentReadLimits, ComponentStop};
use super::components::ComponentProgress;
use super::forms::ListForm;
use super::per_trajectory::{read_each, ReadKind};
use super::progress::LoadEvent;
use super::store::LoadStore;

/// The key a trial's read is kept under: its job and its id (trial ids are unique in a job
/// only: two jobs may run the same trial).
pub fn trial_read_key(target: &TrialRef) -> String {
    format!("{}\u{1f}{}", target.job_id, target.trial_id)
}

/// The keys of `targets`, in order (what [`LoadStore::trial_detail_progress`] takes).
pub fn trial_read_keys(targets: &[TrialRef]) -> Vec<String> {
    targets.iter().map(trial_read_key).collect()
}

impl<F: ListForm> LoadStore<F> {
    /// Where reading the details of the trials `keys` ([`trial_read_keys`]) stands.
    pub fn trial_detail_progress(&self, keys: &[String]) -> ComponentProgress {
        self.trial_details.progress(keys)
    }

    /// Attaches every trial effort read to the Chronicle runs of `set`; returns how many.
    pub fn attach_trial_details(&self, set: &mut RunSet, targets: &[TrialRef]) -> usize {
        let read = self.trial_details.read.borrow();
        let efforts: HashMap<TrialRef, TrialEffort> = targets
            .iter()
            .filter_map(|target| Some((target.clone(), *read.get(&trial_read_key(target))?)))
            .collect();
        set.attach_trial_efforts(&efforts)
    }

    /// Attaches the trial efforts read for any counted trial of `set`'s Chronicle runs (what
    /// [`LoadStore::chronicle_run_set`] does); returns how many.
    pub(super) fn attach_read_trial_details(&self, set: &mut RunSet) -> usize {
        if self.trial_details.read.borrow().is_empty() {
            return 0;
        }
        let runs: Vec<_> = set.run_indices().collect();
        let targets = set.trial_detail_targets(&runs);
        self.attach_trial_details(set, &targets)
    }

    /// Forgets the trial reads in progress (their future was dropped): they count as not read,
    /// and the next [`load_trial_details`] asks for them again.
    pub fn cancel_trial_detail_reads(&self) {
        self.trial_details.cancel();
    }
}

/// Reads the details of the trials `targets` not read yet (again those that failed), at most
/// `limits.concurrency` at a time, telling `notify` after each; gives up as
/// [`load_components`](super::load_components) does and says why.
pub async fn load_trial_details<T: Transport, F: ListForm>(
    client: &TrajectoryClient<T>,
    store: &LoadStore<F>,
    targets: &[TrialRef],
    limits: &ComponentReadLimits,
    notify: &dyn Fn(LoadEvent<'_>),
) -> Option<ComponentStop> {
    let keys = trial_read_keys(targets);
    let by_key: HashMap<&str, &TrialRef> = keys.iter().map(String::as_str).zip(targets).collect();
    let fetch = |key: &str| {
        let target = by_key.get(key).copied().ok_or_else(|| {
            ApiError::InvalidArgument(format!(
                "no trial is read under `{}`",
                key.replace('\u{1f}', "/")
            ))
        });
        async move {
            let target = target?;
            let detail = client
                .chronicle_trial(&target.job_id, &target.trial_id)
                .await?;
            Ok(TrialEffort::from_detail(&detail))
        }
    };
    let kind = ReadKind {
        fetch,
        event: &|trajectory_id, ok| LoadEvent::Components { trajectory_id, ok },
    };
    read_each(
        client.transport(),
        &store.trial_details,
        &keys,
        limits,
        notify,
        kind,
    )
    .await
}
