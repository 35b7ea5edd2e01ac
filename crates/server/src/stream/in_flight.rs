//! The walks of finished runs' lists under way, so that one list is walked once however many
//! ask for it at the same time, and a run's other list is walked beside the first.
//!
//! A browser opens at most six connections to one server: a comparison of six runs asks for
//! thirteen lists (two per run, and the benchmark's tasks) in three waves, each as long as one
//! list's cursor chain (80 pages 50 ms apart behind a slow API: 4 s). So when a finished run's
//! list is read and not kept, the server starts reading the run's other list too
//! ([`sibling`]), into the cache; the page's own request for it, a wave later, waits for that
//! walk ([`InFlight::begin`]) and is then served what was kept, after asking the API again
//! (the consent is never skipped).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use eval_compare_core::client::list_stream::StreamedList;
use tokio::sync::watch;

use super::form::ItemForm;
use crate::cache::Entry;

/// What a walk in flight is known by: the list, its owner and the record it was read for.
type Key = (String, String, String);

fn key_of(entry: &Entry) -> Key {
    (
        entry.list.clone(),
        entry.owner.clone(),
        entry.record_sha.clone(),
    )
}

/// The walks under way (shared by every stream of a server).
#[derive(Debug, Default)]
pub struct InFlight {
    walks: Mutex<HashMap<Key, watch::Receiver<()>>>,
}

/// A walk registered in [`InFlight`]; dropping it (the walk ended, kept or not) lets those
/// waiting for it go on.
#[derive(Debug)]
pub struct Walking {
    flight: Arc<InFlight>,
    key: Key,
    _ended: watch::Sender<()>,
}

impl Drop for Walking {
    fn drop(&mut self) {
        if let Ok(mut walks) = self.flight.walks.lock() {
            walks.remove(&self.key);
        }
    }
}

/// Another walk of the same list is under way; [`Busy::ended`] waits for it.
#[derive(Debug)]
pub struct Busy(watch::Receiver<()>);

impl Busy {
    /// Waits until the walk ended (kept, failed or dropped).
    pub async fn ended(mut self) {
        while self.0.changed().await.is_ok() {}
    }
}

impl InFlight {
    /// Registers a walk of `entry`, or says one is already under way.
    pub fn begin(flight: &Arc<InFlight>, entry: &Entry) -> Result<Walking, Busy> {
        let key = key_of(entry);
        let mut walks = flight
            .walks
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(walk) = walks.get(&key) {
            return Err(Busy(walk.clone()));
        }
        let (ended, waiting) = watch::channel(());
        walks.insert(key.clone(), waiting);
        Ok(Walking {
            flight: Arc::clone(flight),
            key,
            _ended: ended,
        })
    }
}

/// The run's other list, read beside `list` (trials and tasks have none).
pub fn sibling(list: StreamedList) -> Option<StreamedList> {
    match list {
        StreamedList::Rewards => Some(StreamedList::Trajectories),
        StreamedList::Trajectories => Some(StreamedList::Rewards),
        StreamedList::Trials | StreamedList::Tasks => None,
    }
}

/// `entry` for `list` in `form` of the same owner and record.
pub fn entry_for(entry: &Entry, list: StreamedList, form: ItemForm) -> Entry {
    Entry {
        list: form.cache_name(list),
        ..entry.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(list: &str, record: &str) -> Entry {
        Entry {
            upstream: "http://up".into(),
            list: list.into(),
            owner: "run".into(),
            record_sha: record.into(),
        }
    }

    #[test]
    fn a_second_walk_waits_for_the_first_and_another_record_does_not() {
        let flight = Arc::new(InFlight::default());
        let first = InFlight::begin(&flight, &entry("trajectories", "r1")).expect("first");
        let busy = InFlight::begin(&flight, &entry("trajectories", "r1")).expect_err("busy");
        assert!(InFlight::begin(&flight, &entry("trajectories", "r2")).is_ok());
        assert!(InFlight::begin(&flight, &entry("trajectory-rewards", "r1")).is_ok());
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async move {
            let waiter = tokio::spawn(busy.ended());
            tokio::task::yield_now().await;
            assert!(!waiter.is_finished());
            drop(first);
            waiter.await.unwrap();
        });
        assert!(
            InFlight::begin(&flight, &entry("trajectories", "r1")).is_ok(),
            "ended walks are forgotten"
        );
        assert_eq!(
            entry_for(
                &entry("trajectories", "r1"),
                StreamedList::Rewards,
                ItemForm::Api
            )
            .list,
            "trajectory-rewards"
        );
        assert_eq!(
            entry_for(
                &entry("trajectories+kept", "r1"),
                StreamedList::Rewards,
                ItemForm::Kept
            )
            .list,
            "trajectory-rewards+kept"
        );
        assert_eq!(sibling(StreamedList::Tasks), None);
    }
}
