//! How far a load of runs is and how long it may still take, from its pace so far: what a
//! reader of a load of 16,000 pages wants to know besides each list's bar.

use super::list::{ListKind, Phase};
use super::progress::RunProgress;

/// Items of a load's lists read so far, and how many there will be at most.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ItemsRead {
    /// Items read.
    pub read: u64,
    /// Items there will be once every list is read: a list still loading counts its known
    /// length (an upper bound: a run's planned rollouts), one that ended what it read.
    pub planned: u64,
}

impl ItemsRead {
    /// The items read and planned over the runs' own lists (trajectory rewards, trajectories,
    /// trials); a benchmark's task list, shared and short, is left out. `None` while a list
    /// still loading has no known length, or when nothing is planned.
    pub fn of(runs: &[RunProgress]) -> Option<Self> {
        let mut items = Self {
            read: 0,
            planned: 0,
        };
        for list in runs
            .iter()
            .flat_map(|run| &run.lists)
            .filter(|list| list.kind != ListKind::Tasks)
        {
            let read = list.items as u64;
            let planned = match list.phase {
                Phase::Waiting | Phase::Loading => list.total?.max(read),
                Phase::Complete | Phase::Failed(_) | Phase::Cancelled => read,
            };
            items.read += read;
            items.planned += planned;
        }
        (items.planned > 0).then_some(items)
    }

    /// The share read, from 0 to 1.
    pub fn share(&self) -> f64 {
        self.read as f64 / self.planned as f64
    }
}

/// An estimate is given only after this long, so the first pages' pace (a cold server, the
/// run records read first) does not make it swing.
pub const PACE_MIN_ELAPSED_MS: f64 = 2_000.0;

/// An estimate is given only once this share of the planned items was read while watched.
pub const PACE_MIN_SHARE: f64 = 0.01;

/// The pace of one load: where it stood when first seen. Start a new one for each load (a
/// Retry or a Cancel then load again included): a resumed load's pace is its own.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct LoadPace {
    first: Option<(f64, u64)>,
}

impl LoadPace {
    /// A pace not yet started.
    pub fn new() -> Self {
        Self::default()
    }

    /// The time left at the average pace since the load was first seen, in milliseconds,
    /// given `items` at `now_ms`; `None` until [`PACE_MIN_ELAPSED_MS`] passed and
    /// [`PACE_MIN_SHARE`] of the planned items were read. Fewer items read than when first
    /// seen (a list started over: its cursor expired) starts the pace again.
    pub fn time_left_ms(&mut self, now_ms: f64, items: ItemsRead) -> Option<f64> {
        let (start_ms, start_read) = match self.first {
            Some((start_ms, start_read)) if start_read <= items.read && start_ms <= now_ms => {
                (start_ms, start_read)
            }
            _ => {
                self.first = Some((now_ms, items.read));
                return None;
            }
        };
        let elapsed = now_ms - start_ms;
        let done = (items.read - start_read) as f64;
        if elapsed < PACE_MIN_ELAPSED_MS || done < items.planned as f64 * PACE_MIN_SHARE {
            return None;
        }
        let left = items.planned.saturating_sub(items.read) as f64;
        Some(left * elapsed / done)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::ListProgress;

    fn list(kind: ListKind, items: usize, total: Option<u64>, phase: Phase) -> ListProgress {
        ListProgress {
            kind,
            pages: 1,
            items,
            total,
            phase,
        }
    }

    fn run(lists: Vec<ListProgress>) -> RunProgress {
        RunProgress {
            run_id: "eval_a".to_owned(),
            name: None,
            record: Phase::Complete,
            running: false,
            rollouts: None,
            lists,
            settings_reads: Vec::new(),
            refresh_error: None,
        }
    }

    #[test]
    fn items_count_the_runs_lists_and_an_ended_list_as_read() {
        let runs = [
            run(vec![
                list(ListKind::Rewards, 400, Some(1_000), Phase::Loading),
                list(ListKind::Trajectories, 600, Some(1_000), Phase::Loading),
                list(ListKind::Tasks, 200, Some(250), Phase::Loading),
            ]),
            run(vec![
                // Done short of its planned length: it plans what it read.
                list(ListKind::Rewards, 900, Some(1_000), Phase::Complete),
                list(ListKind::Trajectories, 300, Some(1_000), Phase::Cancelled),
                // Read beyond its known length: plans what it read.
                list(ListKind::Trials, 120, Some(100), Phase::Loading),
            ]),
        ];
        let items = ItemsRead::of(&runs).expect("every length known");
        assert_eq!(
            items,
            ItemsRead {
                read: 400 + 600 + 900 + 300 + 120,
                planned: 1_000 + 1_000 + 900 + 300 + 120,
            }
        );
        assert!((items.share() - 2_320.0 / 3_320.0).abs() < 1e-12);
    }

    #[test]
    fn no_items_while_a_loading_list_has_no_known_length() {
        let unknown = [run(vec![
            list(ListKind::Rewards, 400, Some(1_000), Phase::Loading),
            list(ListKind::Trajectories, 0, None, Phase::Waiting),
        ])];
        assert_eq!(ItemsRead::of(&unknown), None);
        // An ended list needs no length; a task list is not counted at all.
        let known = [run(vec![
            list(ListKind::Rewards, 400, None, Phase::Complete),
            list(ListKind::Tasks, 0, None, Phase::Loading),
        ])];
        assert_eq!(
            ItemsRead::of(&known),
            Some(ItemsRead {
                read: 400,
                planned: 400
            })
        );
        assert_eq!(ItemsRead::of(&[run(Vec::new())]), None);
    }

    fn items(read: u64, planned: u64) -> ItemsRead {
        ItemsRead { read, planned }
    }

    #[test]
    fn time_left_is_the_rest_at_the_pace_since_first_seen() {
        let mut pace = LoadPace::new();
        assert_eq!(pace.time_left_ms(1_000.0, items(100, 10_100)), None);
        // 1 s in: too soon, whatever the share.
        assert_eq!(pace.time_left_ms(2_000.0, items(5_100, 10_100)), None);
        // 4 s in, 2,000 items read since: 500 a second, 8,000 left → 16 s.
        let left = pace
            .time_left_ms(5_000.0, items(2_100, 10_100))
            .expect("an estimate");
        assert!((left - 16_000.0).abs() < 1e-9, "{left}");
        // Everything read: nothing left.
        assert_eq!(pace.time_left_ms(9_000.0, items(10_100, 10_100)), Some(0.0));
    }

    #[test]
    fn no_estimate_before_a_share_is_read() {
        let mut pace = LoadPace::new();
        assert_eq!(pace.time_left_ms(0.0, items(0, 100_000)), None);
        // 10 s, but under 1% read since first seen.
        assert_eq!(pace.time_left_ms(10_000.0, items(999, 100_000)), None);
        assert!(pace.time_left_ms(10_000.0, items(1_000, 100_000)).is_some());
    }

    #[test]
    fn fewer_items_than_first_seen_start_the_pace_again() {
        let mut pace = LoadPace::new();
        assert_eq!(pace.time_left_ms(0.0, items(5_000, 10_000)), None);
        assert!(pace.time_left_ms(5_000.0, items(7_000, 10_000)).is_some());
        // A list started over, fewer items read: a new start, no estimate yet.
        assert_eq!(pace.time_left_ms(6_000.0, items(100, 10_000)), None);
        assert_eq!(pace.time_left_ms(7_000.0, items(2_000, 10_000)), None);
        let left = pace
            .time_left_ms(8_000.0, items(2_100, 10_000))
            .expect("2 s since the new start");
        assert!((left - 7_900.0).abs() < 1e-9, "{left}");
    }
}
