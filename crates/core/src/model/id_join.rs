//! Matching a run's two listings (trajectory metadata and trajectory rewards) on trajectory id
//! by a sort-merge: linear when a listing is already in id order (the API lists both in order
//! of task id, and ids usually follow their task), sorted once otherwise. No hash table: the
//! join reads both listings front to back, which keeps it cache-friendly at millions of ids.

/// Marker for "none" in the index columns.
const NONE: u32 = u32::MAX;

/// Which items of the two listings share an id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct IdJoin {
    /// Per metadata item: the index of the first metadata item with its id, when it repeats one.
    metadata_first: Vec<u32>,
    /// Per reward item: the index of the first reward item with its id, when it repeats one.
    reward_first: Vec<u32>,
    /// Per reward item: the index of the first metadata item with its id, when there is one.
    reward_metadata: Vec<u32>,
}

impl IdJoin {
    /// Matches the ids of `metadata` (in listing order) with those of `rewards`.
    ///
    /// Each listing may hold at most `u32::MAX - 1` items (the builder's limit too); beyond
    /// that `None`.
    pub(crate) fn new<'a>(
        metadata: impl ExactSizeIterator<Item = &'a str>,
        rewards: impl ExactSizeIterator<Item = &'a str>,
    ) -> Option<IdJoin> {
        let metadata = sorted_by_id(metadata)?;
        let rewards = sorted_by_id(rewards)?;
        let mut join = IdJoin {
            metadata_first: vec![NONE; metadata.len()],
            reward_first: vec![NONE; rewards.len()],
            reward_metadata: vec![NONE; rewards.len()],
        };
        let (mut m, mut r) = (0, 0);
        while m < metadata.len() || r < rewards.len() {
            // The smallest id not yet passed, and its group in each listing.
            let id = match (metadata.get(m), rewards.get(r)) {
                (Some(&(a, _)), Some(&(b, _))) => a.min(b),
                (Some(&(a, _)), None) => a,
                (None, Some(&(b, _))) => b,
                (None, None) => break,
            };
            let m_end = group_end(&metadata, m, id);
            let r_end = group_end(&rewards, r, id);
            let first_metadata = metadata.get(m).filter(|_| m < m_end).map(|&(_, i)| i);
            if let Some(first) = first_metadata {
                for &(_, index) in &metadata[m + 1..m_end] {
                    join.metadata_first[index as usize] = first;
                }
            }
            if let Some(&(_, first)) = rewards.get(r).filter(|_| r < r_end) {
                for &(_, index) in &rewards[r + 1..r_end] {
                    join.reward_first[index as usize] = first;
                }
                for &(_, index) in &rewards[r..r_end] {
                    join.reward_metadata[index as usize] = first_metadata.unwrap_or(NONE);
                }
            }
            m = m_end;
            r = r_end;
        }
        Some(join)
    }

    /// The first metadata item with the id of metadata item `index`, when `index` repeats it.
    pub(crate) fn metadata_first(&self, index: usize) -> Option<usize> {
        some_index(self.metadata_first.get(index))
    }

    /// The first reward item with the id of reward item `index`, when `index` repeats it.
    pub(crate) fn reward_first(&self, index: usize) -> Option<usize> {
        some_index(self.reward_first.get(index))
    }

    /// The first metadata item with the id of reward item `index`, when there is one.
    pub(crate) fn reward_metadata(&self, index: usize) -> Option<usize> {
        some_index(self.reward_metadata.get(index))
    }
}

fn some_index(value: Option<&u32>) -> Option<usize> {
    value
        .copied()
        .filter(|&value| value != NONE)
        .map(|value| value as usize)
}

/// The ids with their listing index, ordered by id and, within an id, by index. A listing
/// already in id order is only checked, not sorted.
fn sorted_by_id<'a>(ids: impl ExactSizeIterator<Item = &'a str>) -> Option<Vec<(&'a str, u32)>> {
    if ids.len() >= NONE as usize {
        return None;
    }
    let mut sorted: Vec<(&str, u32)> = ids.zip(0u32..).collect();
    if !sorted.is_sorted_by(|a, b| a.0 <= b.0) {
        // Stable: equal ids keep their listing order.
        sorted.sort_by(|a, b| a.0.cmp(b.0));
    }
    Some(sorted)
}

/// The end of the run of `id` starting at `start` in `sorted` (`start` when it does not start
/// there).
fn group_end(sorted: &[(&str, u32)], start: usize, id: &str) -> usize {
    let mut end = start;
    while sorted.get(end).is_some_and(|&(other, _)| other == id) {
        end += 1;
    }
    end
}

#[cfg(test)]
mod tests {
    use super::*;

    fn join(metadata: &[&str], rewards: &[&str]) -> IdJoin {
        IdJoin::new(metadata.iter().copied(), rewards.iter().copied()).unwrap()
    }

    #[test]
    fn matches_repeats_and_misses_in_any_order() {
        let found = join(&["c", "a", "b", "a"], &["b", "x", "a", "b", "x"]);
        assert_eq!(found.metadata_first(3), Some(1));
        assert_eq!(found.metadata_first(1), None);
        assert_eq!(found.reward_metadata(0), Some(2));
        assert_eq!(found.reward_metadata(1), None);
        assert_eq!(found.reward_metadata(2), Some(1));
        assert_eq!(found.reward_first(3), Some(0));
        assert_eq!(found.reward_first(4), Some(1));
        assert_eq!(found.reward_first(0), None);
    }

    #[test]
    fn empty_listings_join() {
        let found = join(&[], &["a"]);
        assert_eq!(found.reward_metadata(0), None);
        assert_eq!(join(&["a"], &[]).metadata_first(0), None);
    }
}
