//! One list read page by page: where it stands and what arrived.

use crate::client::{paths, ApiError, PageGuard, MAX_PAGE_LIMIT};
use crate::run_folder::{REWARDS_FILE, TASKS_FILE, TRAJECTORIES_FILE, TRIALS_FILE};
use crate::text::noun;

/// Items per page requested from every Trajectory list (Chronicle's lists take their largest
/// page, 100).
pub const PAGE_LIMIT: u32 = MAX_PAGE_LIMIT;

/// The lists read for a comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ListKind {
    /// `GET /api/v1/eval/{run}/trajectory-rewards`.
    Rewards,
    /// `GET /api/v1/trajectories?eval_run_id={run}`.
    Trajectories,
    /// `GET /api/v1/benchmarks/{bench}/tasks`.
    Tasks,
    /// `GET /v1/backtests/jobs/{job}/trials` (Chronicle).
    Trials,
}

impl ListKind {
    /// The list's name for people.
    pub fn label(self) -> &'static str {
        match self {
            ListKind::Rewards => "trajectory rewards",
            ListKind::Trajectories => "trajectories",
            ListKind::Tasks => "benchmark tasks",
            ListKind::Trials => "trials",
        }
    }

    /// The list's name as its run folder file is named (`trajectory-rewards`), in progress
    /// lines and messages.
    pub fn name(self) -> &'static str {
        let file = match self {
            ListKind::Rewards => REWARDS_FILE,
            ListKind::Trajectories => TRAJECTORIES_FILE,
            ListKind::Tasks => TASKS_FILE,
            ListKind::Trials => TRIALS_FILE,
        };
        file.strip_suffix(".json").unwrap_or(file)
    }

    /// What owns the list: `run`, `benchmark` or `job`.
    pub fn owner_noun(self) -> &'static str {
        match self {
            ListKind::Rewards | ListKind::Trajectories => "run",
            ListKind::Tasks => "benchmark",
            ListKind::Trials => "job",
        }
    }

    /// The path the list of `owner` is read from, with the id as given (for messages).
    pub fn path(self, owner: &str) -> String {
        match self {
            ListKind::Rewards => paths::trajectory_rewards(owner),
            ListKind::Trajectories => paths::trajectories_of_run(owner),
            ListKind::Tasks => paths::benchmark_tasks(owner),
            ListKind::Trials => paths::chronicle_trials(owner),
        }
    }
}

/// Where a request or a list stands.
#[derive(Debug, Clone, PartialEq)]
pub enum Phase {
    /// Not started.
    Waiting,
    /// In progress.
    Loading,
    /// Everything was read.
    Complete,
    /// Stopped by a failure (after the client's retries).
    Failed(ApiError),
    /// Stopped by the user.
    Cancelled,
}

impl Phase {
    /// Whether nothing is in progress or pending.
    pub fn is_settled(&self) -> bool {
        !matches!(self, Phase::Waiting | Phase::Loading)
    }

    /// Whether it stopped before the end (failed or cancelled).
    pub fn is_stopped(&self) -> bool {
        matches!(self, Phase::Failed(_) | Phase::Cancelled)
    }
}

/// A list read page by page: what arrived so far and where to continue.
#[derive(Debug, Clone, PartialEq)]
pub struct ListLoad<T> {
    /// Items read, in list order.
    pub items: Vec<T>,
    /// Pages read.
    pub pages_read: u32,
    /// Cursor of the next page to read (`None`: the first page, or nothing left once complete).
    pub resume_cursor: Option<String>,
    /// Where it stands.
    pub phase: Phase,
    /// The cursors followed and pages read, so a resumed read still recognises a cycle or a
    /// repeat (empty after a Cancel: the cap still counts every page).
    pub followed: PageGuard,
}

impl<T> Default for ListLoad<T> {
    fn default() -> Self {
        Self {
            items: Vec::new(),
            pages_read: 0,
            resume_cursor: None,
            phase: Phase::Waiting,
            followed: PageGuard::default(),
        }
    }
}

/// The most items a list reserves room for ahead of reading them, whatever its run claims
/// (beyond that it grows as it fills): a run claiming billions of rollouts does not make the
/// page set aside memory for them.
const RESERVE_AT_MOST: usize = 1 << 20;

impl<T> ListLoad<T> {
    /// Makes room for the items the list is expected to hold in all (its page cap's basis, when
    /// known; at most [`RESERVE_AT_MOST`]), so a list of 800,000 never grows by copying itself
    /// (a block of a third of a second in the browser, and twice the memory while it lasts).
    pub fn reserve_expected(&mut self, expected: Option<u64>) {
        if let Some(expected) = expected {
            let expected = usize::try_from(expected)
                .unwrap_or(usize::MAX)
                .min(RESERVE_AT_MOST);
            let wanted = expected.saturating_sub(self.items.len());
            self.items.reserve(wanted);
        }
    }

    /// What stopped the list early, as a phrase for the coverage ledger ("3 pages (600 items)
    /// read, then …"); `None` when it is complete.
    pub fn missing(&self, kind: ListKind) -> Option<String> {
        let (pages, items) = (self.pages_read, self.items.len());
        let read = format!(
            "{pages} {} ({items} {}) read",
            noun(u64::from(pages), "page", "pages"),
            noun(items as u64, "item", "items")
        );
        match &self.phase {
            Phase::Failed(error) => Some(format!(
                "{}: {read}, then a page failed: {error}",
                kind.label()
            )),
            Phase::Cancelled => Some(format!(
                "{}: {read}, then loading was cancelled",
                kind.label()
            )),
            Phase::Waiting | Phase::Loading => Some(format!("{}: {read} so far", kind.label())),
            Phase::Complete => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn room_is_reserved_for_the_items_expected_within_a_bound() {
        let mut list = ListLoad::<u8>::default();
        list.reserve_expected(None);
        assert_eq!(list.items.capacity(), 0);
        list.items.extend([1, 2, 3]);
        list.reserve_expected(Some(1_000));
        assert!(list.items.capacity() >= 1_000);
        let mut claimed = ListLoad::<u8>::default();
        claimed.reserve_expected(Some(u64::MAX));
        let capacity = claimed.items.capacity();
        assert!((RESERVE_AT_MOST..2 * RESERVE_AT_MOST).contains(&capacity));
    }
}
