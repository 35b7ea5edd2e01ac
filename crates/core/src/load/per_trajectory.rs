//! The one engine of reads made one trajectory at a time on request (reward components, token
//! counts): each kind says how one trajectory is read and what is kept of it; the engine claims
//! the ids not read yet, reads a few at a time, keeps each outcome as it arrives, gives up after
//! failures in a row or at the whole read's deadline ([`ComponentReadLimits`]), and says where
//! it stands ([`ComponentProgress`]). What was read stays; a Cancel (dropping the future, then
//! [`TrajectoryReads::cancel`]) keeps it, and the next read asks only for what is missing.

use std::future::Future;
use std::pin::pin;

use futures::future::{select, Either};
use futures::StreamExt;

use crate::client::{ApiError, Transport};

use super::component_reads::TrajectoryReads;
use super::component_stop::{Breaker, ComponentReadLimits, ComponentStop, ComponentStopCause};
use super::components::ComponentProgress;
use super::progress::LoadEvent;

impl<V> TrajectoryReads<V> {
    /// Where reading `trajectory_ids` stands.
    pub fn progress(&self, trajectory_ids: &[String]) -> ComponentProgress {
        let (read, failed, pending) = (
            self.read.borrow(),
            self.failed.borrow(),
            self.pending.borrow(),
        );
        let mut progress = ComponentProgress {
            wanted: trajectory_ids.len(),
            stopped: self.stopped.borrow().clone(),
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

    /// Forgets the reads in progress (their future was dropped): they count as not read, and
    /// the next read asks for them again.
    pub fn cancel(&self) {
        self.pending.borrow_mut().clear();
    }
}

/// How one kind of read reaches a trajectory and tells of it.
pub(super) struct ReadKind<'k, Fetch> {
    /// Reads one trajectory, by id.
    pub fetch: Fetch,
    /// The event told after each read (trajectory id, whether it was read).
    pub event: &'k dyn for<'e> Fn(&'e str, bool) -> LoadEvent<'e>,
}

/// Reads the trajectories `trajectory_ids` not read yet (again those that failed) into `reads`
/// with `kind`, at most `limits.concurrency` at a time; tells `notify` after each read. Ids
/// being read by another call are left to it. Gives up after `limits.failures_in_a_row`
/// trajectories in a row failed, or when `limits.deadline_ms` passed on `transport`'s clock
/// (reads in flight are dropped and count as not read): returns why, also kept for
/// [`TrajectoryReads::progress`] until the next call.
pub(super) async fn read_each<V, T, Fetch, Fut>(
    transport: &T,
    reads: &TrajectoryReads<V>,
    trajectory_ids: &[String],
    limits: &ComponentReadLimits,
    notify: &dyn Fn(LoadEvent<'_>),
    kind: ReadKind<'_, Fetch>,
) -> Option<ComponentStop>
where
    T: Transport,
    Fetch: Fn(&str) -> Fut,
    Fut: Future<Output = Result<V, ApiError>>,
{
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
    let deadline = transport.now_unix_ms().saturating_add(limits.deadline_ms);
    let cause = {
        let reading = read_until_tripped(reads, &claimed, limits, notify, &kind);
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
async fn read_until_tripped<V, Fetch, Fut>(
    reads: &TrajectoryReads<V>,
    claimed: &[&String],
    limits: &ComponentReadLimits,
    notify: &dyn Fn(LoadEvent<'_>),
    kind: &ReadKind<'_, Fetch>,
) -> Option<ComponentStopCause>
where
    Fetch: Fn(&str) -> Fut,
    Fut: Future<Output = Result<V, ApiError>>,
{
    let mut breaker = Breaker::new(limits.failures_in_a_row);
    let fetch = &kind.fetch;
    let mut outcomes = futures::stream::iter(claimed.iter().copied())
        .map(|id| async move { (id, fetch(id).await) })
        .buffer_unordered(limits.concurrency.max(1));
    while let Some((id, outcome)) = outcomes.next().await {
        reads.pending.borrow_mut().remove(id);
        let (ok, tripped) = match outcome {
            Ok(value) => {
                reads.failed.borrow_mut().remove(id);
                reads.read.borrow_mut().insert(id.clone(), value);
                (true, breaker.record(Ok(())))
            }
            Err(error) => {
                let tripped = breaker.record(Err(&error));
                reads.failed.borrow_mut().insert(id.clone(), error);
                (false, tripped)
            }
        };
        notify((kind.event)(id, ok));
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
