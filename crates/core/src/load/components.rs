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

use std::pin::pin;

use futures::future::{select, Either};
use futures::StreamExt;

use crate::client::{ApiError, TrajectoryClient, Transport};
use crate::model::{components_from_api, RunSet};

use super::component_reads::ComponentReads;
use super::component_stop::{Breaker, ComponentReadLimits, ComponentStop, ComponentStopCause};
use super::forms::ListForm;
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

/// The trajectories of `set` whose components would be read, counted without listing them:
/// [`component_targets`]' length when no trajectory id is in two runs (trajectory ids are
/// unique across runs in the API), else an upper bound. Cheap at millions of trajectories.
pub fn component_target_count(set: &RunSet) -> usize {
    set.runs()
        .iter()
        .map(|run| run.component_target_count())
        .sum()
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
        let reads = &self.components;
        let (read, failed, pending) = (
            reads.read.borrow(),
            reads.failed.borrow(),
            reads.pending.borrow(),
        );
        let mut progress = ComponentProgress {
            wanted: trajectory_ids.len(),
            stopped: reads.stopped.borrow().clone(),
            ..ComponentProgress::default()
        };
        for id in trajectory_ids {
            if read.contains_key(id) {
                progress.read += 1;
            } else if pending.contains(id) {
                progress.pending += 1;
            } else if let Some(error) = failed.get(id) {
                progress.failed += 1;
                if progress.first_error.is_none() {
                    progress.first_error = Some((id.clone(), error.clone()));
                }
            }
        }
        progress
    }

    /// Attaches every component read to the trajectories of `set`; returns how many.
    pub fn attach_components(&self, set: &mut RunSet) -> usize {
        set.attach_component_map(&self.components.read.borrow())
    }

    /// Forgets the component reads in progress (their future was dropped): they count as not
    /// read, and the next [`load_components`] asks for them again.
    pub fn cancel_component_reads(&self) {
        self.components.pending.borrow_mut().clear();
    }
}

/// Reads the components of the trajectories `trajectory_ids` not read yet (again those that
/// failed), at most `limits.concurrency` requests at a time; tells `notify` after each read. Ids
/// being read by another call are left to it. Gives up after `limits.failures_in_a_row`
/// trajectories in a row failed, or when `limits.deadline_ms` passed on the transport's clock
/// (reads in flight are dropped and count as not read): returns why, also kept for
/// [`LoadStore::component_progress`] until the next call.
pub async fn load_components<T: Transport, F: ListForm>(
    client: &TrajectoryClient<T>,
    store: &LoadStore<F>,
    trajectory_ids: &[String],
    limits: &ComponentReadLimits,
    notify: &dyn Fn(LoadEvent<'_>),
) -> Option<ComponentStop> {
    let reads = &store.components;
    reads.stopped.replace(None);
    let claimed: Vec<&String> = {
        let (read, mut claimed) = (reads.read.borrow(), reads.pending.borrow_mut());
        trajectory_ids
            .iter()
            .filter(|id| !read.contains_key(*id) && claimed.insert((*id).clone()))
            .collect()
    };
    if claimed.is_empty() {
        return None;
    }
    notify(LoadEvent::Moved);
    let transport = client.transport();
    let deadline = transport.now_unix_ms().saturating_add(limits.deadline_ms);
    let cause = {
        let reading = read_until_tripped(client, reads, &claimed, limits, notify);
        match select(pin!(reading), pin!(deadline_passes(transport, deadline))).await {
            Either::Left((cause, _)) => cause,
            Either::Right(((), _)) => Some(ComponentStopCause::Deadline(limits.deadline_ms)),
        }
    }?;
    {
        let mut pending = reads.pending.borrow_mut();
        for id in &claimed {
            pending.remove(*id);
        }
    }
    let read = {
        let read = reads.read.borrow();
        trajectory_ids
            .iter()
            .filter(|id| read.contains_key(*id))
            .count()
    };
    let stop = ComponentStop {
        cause,
        read,
        wanted: trajectory_ids.len(),
    };
    reads.stopped.replace(Some(stop.clone()));
    notify(LoadEvent::Moved);
    Some(stop)
}

/// Reads `claimed`, storing each outcome as it arrives, until all are read or the breaker trips
/// (then returns why; the reads still in flight are dropped with the returned future's stream).
async fn read_until_tripped<T: Transport>(
    client: &TrajectoryClient<T>,
    reads: &ComponentReads,
    claimed: &[&String],
    limits: &ComponentReadLimits,
    notify: &dyn Fn(LoadEvent<'_>),
) -> Option<ComponentStopCause> {
    let mut breaker = Breaker::new(limits.failures_in_a_row);
    let mut outcomes = futures::stream::iter(claimed.iter().copied())
        .map(|id| async move { (id, client.trajectory(id, true).await) })
        .buffer_unordered(limits.concurrency.max(1));
    while let Some((id, outcome)) = outcomes.next().await {
        reads.pending.borrow_mut().remove(id);
        let (ok, tripped) = match outcome {
            Ok(trajectory) => {
                reads.failed.borrow_mut().remove(id);
                reads.read.borrow_mut().insert(
                    id.clone(),
                    components_from_api(&trajectory.reward_components),
                );
                (true, breaker.record(Ok(())))
            }
            Err(error) => {
                let tripped = breaker.record(Err(&error));
                reads.failed.borrow_mut().insert(id.clone(), error);
                (false, tripped)
            }
        };
        notify(LoadEvent::Components {
            trajectory_id: id,
            ok,
        });
        if tripped.is_some() {
            return tripped;
        }
    }
    None
}

/// Completes once the transport's clock reaches `deadline` (ms since the epoch). A clock that
/// stood still through a whole sleep (a test's) never reaches it.
async fn deadline_passes<T: Transport>(transport: &T, deadline: u64) {
    loop {
        let before = transport.now_unix_ms();
        if before >= deadline {
            return;
        }
        transport.sleep(deadline - before).await;
        if transport.now_unix_ms() == before {
            std::future::pending::<()>().await;
        }
    }
}
