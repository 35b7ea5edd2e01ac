//! Reward components of a comparison's trajectories, read on request: the lists of a run carry
//! no components, so each trajectory is read on its own
//! (`GET /api/v1/trajectories/{id}?include_reward_components=true`), a few at a time, into the
//! [`LoadStore`]. What was read stays (a cache for the store's API and key); a failed read is
//! kept with its error and read again on the next call; a Cancel (dropping the future, then
//! [`LoadStore::cancel_component_reads`]) keeps everything read. A read gives up when the API
//! has stopped answering ([`ComponentReadLimits`]: failures in a row, an overall deadline),
//! keeping what was read and saying why ([`ComponentStop`]); the next call continues.
//! [`LoadStore::run_set`] attaches what was read, so the report's per-component deltas cover it.

use std::collections::HashSet;

use crate::client::{ApiError, TrajectoryClient, Transport};
use crate::model::{components_from_api, RunSet};

use super::component_stop::{ComponentReadLimits, ComponentStop};
use super::forms::ListForm;
use super::per_trajectory::{read_each, ReadKind};
use super::progress::LoadEvent;
use super::store::LoadStore;

/// Trajectory reads in flight at once while reading components (each is one small request).
pub const COMPONENT_CONCURRENCY: usize = 6;

/// Where reading the components of some trajectories stands.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ComponentProgress {
    /// Trajectories asked for.
    pub wanted: usize,
    /// Of those, read.
    pub read: usize,
    /// Of those, whose last read failed.
    pub failed: usize,
    /// Of those, queued or being read by a load in progress.
    pub pending: usize,
    /// The error of the first failed read (in id order), to show.
    pub first_error: Option<(String, ApiError)>,
    /// Why the last read gave up before it ended (see [`ComponentReadLimits`]).
    pub stopped: Option<ComponentStop>,
}

impl ComponentProgress {
    /// Whether every trajectory asked for was read.
    pub fn is_complete(&self) -> bool {
        self.read == self.wanted
    }

    /// Trajectories neither read nor failed nor pending: not asked yet, or cancelled.
    pub fn not_read(&self) -> usize {
        self.wanted
            .saturating_sub(self.read + self.failed + self.pending)
    }
}

/// What a read made on request (reward components, tokens) takes, told before any target is
/// gathered.
#[derive(Debug, Clone, PartialEq)]
pub enum ReadOffer<T> {
    /// Nothing to read.
    Nothing,
    /// More than the limit would be read: about this many.
    TooMany(usize),
    /// Within the limit: the targets themselves.
    Targets(T),
}

impl<T> ReadOffer<T> {
    /// The offer of a read of `counted` targets (counted without gathering them: exact unless
    /// a trajectory id is in two runs, which the API's unique ids never are) at most `limit` of
    /// which are read: a comparison of 100,000 tasks x 8 samples is told "too many" at the cost
    /// of a loop instead of 1.6 million ids copied and hashed (2 s of the page's main thread).
    /// A count past `limit` but within twice `limit` is checked by `gather`ing the targets (and
    /// their number), so an offer is never refused for repeated ids alone.
    pub fn of(counted: usize, limit: usize, gather: impl FnOnce() -> (T, usize)) -> Self {
        if counted > limit.saturating_mul(2) {
            return Self::TooMany(counted);
        }
        if counted == 0 {
            return Self::Nothing;
        }
        match gather() {
            (_, 0) => Self::Nothing,
            (_, wanted) if wanted > limit => Self::TooMany(wanted),
            (targets, _) => Self::Targets(targets),
        }
    }
}

/// What reading the components of `set` takes, reading at most `limit` trajectories
/// ([`ReadOffer::of`] over [`component_targets`]).
pub fn component_offer(set: &RunSet, limit: usize) -> ReadOffer<Vec<String>> {
    let counted = set
        .runs()
        .iter()
        .map(|run| run.component_target_count())
        .sum();
    ReadOffer::of(counted, limit, || {
        let targets = component_targets(set);
        let wanted = targets.len();
        (targets, wanted)
    })
}

/// The trajectories of `set` whose components would enter the report, every run in order,
/// each id once (see [`crate::model::components_count`]): what reading components asks for.
pub fn component_targets(set: &RunSet) -> Vec<String> {
    let mut seen = HashSet::new();
    set.runs()
        .iter()
        .flat_map(|run| run.component_targets())
        .filter(|id| seen.insert(*id))
        .map(str::to_owned)
        .collect()
}

impl<F: ListForm> LoadStore<F> {
    /// Where reading the components of `trajectory_ids` stands.
    pub fn component_progress(&self, trajectory_ids: &[String]) -> ComponentProgress {
        self.components.progress(trajectory_ids)
    }

    /// Attaches every component read to the trajectories of `set`; returns how many.
    pub fn attach_components(&self, set: &mut RunSet) -> usize {
        set.attach_component_map(&self.components.read.borrow())
    }

    /// Forgets the component reads in progress (their future was dropped): they count as not
    /// read, and the next [`load_components`] asks for them again.
    pub fn cancel_component_reads(&self) {
        self.components.cancel();
    }
}

/// Reads the components of the trajectories `trajectory_ids` not read yet (again those that
/// failed), at most `limits.concurrency` requests at a time; tells `notify` after each read. Ids
/// being read by another call are left to it. Gives up after `limits.failures_in_a_row`
/// trajectories in a row failed, or when `limits.deadline_ms` passed on the transport's clock
/// (reads in flight are dropped and count as not read): returns why, also kept for
/// [`LoadStore::component_progress`] until the next call. The engine is
/// [`per_trajectory`](super::per_trajectory)'s, shared with the token counts.
pub async fn load_components<T: Transport, F: ListForm>(
    client: &TrajectoryClient<T>,
    store: &LoadStore<F>,
    trajectory_ids: &[String],
    limits: &ComponentReadLimits,
    notify: &dyn Fn(LoadEvent<'_>),
) -> Option<ComponentStop> {
    let kind = ReadKind {
        fetch: |id: &str| {
            let id = id.to_owned();
            async move {
                let trajectory = client.trajectory(&id, true).await?;
                Ok(components_from_api(&trajectory.reward_components))
            }
        },
        event: &|trajectory_id, ok| LoadEvent::Components { trajectory_id, ok },
    };
    read_each(
        client.transport(),
        &store.components,
        trajectory_ids,
        limits,
        notify,
        kind,
    )
    .await
}
