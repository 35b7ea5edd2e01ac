//! Matching a run's two listings (trajectory metadata and trajectory rewards) on trajectory id.
//!
//! Listings already in id order are walked side by side as listed, front to back. Otherwise
//! (real trajectory ids are random, so a listing in task order is in no id order) each id is
//! hashed once to 32 bits ([`IdHasher`], folded), both listings are sorted by (hash, listing
//! index) ([`KeySort`]), which sorts integers, not strings, and walked side by side, hash group
//! by hash group; within
//! a group of several items the ids themselves are compared, so two ids that share a hash are
//! never taken for one. A group of one reward and one metadata item (nearly every group) is
//! paired without reading the ids, which were most of the join's time (each read is a cache
//! miss at a random place of both listings); [`IdJoin::reward_metadata`] compares the pair's
//! ids when asked for it, by a caller that reads both items anyway. No hash table either way.

use std::hash::Hasher;
use std::ops::Range;

use super::id_list::IdList;
use super::id_map::IdHasher;
use super::key_sort::{key_hash, key_index, KeySort};
use super::word_cmp::{same_text, text_order, WordKey};

/// Marker for "none" in the index columns.
const NONE: u32 = u32::MAX;

/// Which items of the two listings share an id (empty by default: two empty listings).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct IdJoin {
    /// Per metadata item: the index of the first metadata item with its id, when it repeats one.
    metadata_first: Vec<u32>,
    /// Per reward item: the index of the first reward item with its id, when it repeats one.
    reward_first: Vec<u32>,
    /// Per reward item: the index of the first metadata item with its id, when there is one.
    reward_metadata: Vec<u32>,
}

/// The 32-bit hash an id is grouped by: [`IdHasher`]'s 64 bits, folded.
fn id_hash(id: &str) -> u32 {
    let mut hasher = IdHasher::default();
    hasher.write(id.as_bytes());
    let hash = hasher.finish();
    (hash >> 32) as u32 ^ hash as u32
}

/// Where an [`IdJoinBuild`] stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    /// Checking whether both listings are in id order already (then walked as listed).
    Order,
    /// Hashing and sorting the metadata's ids.
    MetadataKeys,
    /// Hashing and sorting the rewards' ids.
    RewardKeys,
    /// Walking both sorted listings from these positions.
    Walk { m: usize, r: usize },
    /// Walking both listings, in id order as listed, from these positions.
    WalkListed { m: usize, r: usize },
    /// Done.
    Done,
}

/// An [`IdJoin`] being computed a step at a time: the keys of each listing are hashed a number
/// of items a step and sorted a radix pass a step ([`KeySort`]), then the walk goes a number
/// of items a step. The listings are passed to every step (the
/// same ones: only indices are kept between steps).
#[derive(Debug, Clone)]
pub(crate) struct IdJoinBuild {
    stage: Stage,
    metadata_keys: Vec<u64>,
    reward_keys: Vec<u64>,
    /// The keys of the listing being sorted.
    sorting: KeySort,
    join: IdJoin,
    hash: fn(&str) -> u32,
}

impl IdJoinBuild {
    /// A join of listings of `metadata` and `rewards` items; `None` when one holds
    /// `u32::MAX - 1` items or more (the builder's limit too).
    pub(crate) fn new(metadata: usize, rewards: usize) -> Option<Self> {
        Self::with_hash(metadata, rewards, id_hash)
    }

    /// [`Self::new`] with `hash` grouping the ids (a test gives every id the same hash).
    fn with_hash(metadata: usize, rewards: usize, hash: fn(&str) -> u32) -> Option<Self> {
        if metadata >= NONE as usize || rewards >= NONE as usize {
            return None;
        }
        Some(IdJoinBuild {
            stage: Stage::Order,
            metadata_keys: Vec::new(),
            reward_keys: Vec::new(),
            sorting: KeySort::default(),
            join: IdJoin {
                metadata_first: vec![NONE; metadata],
                reward_first: vec![NONE; rewards],
                reward_metadata: vec![NONE; rewards],
            },
            hash,
        })
    }

    /// Items of the listings walked so far and in all (hashing passes each item once, the
    /// walk once more).
    pub(crate) fn progress(&self) -> (usize, usize) {
        let (metadata, rewards) = (self.join.metadata_first.len(), self.join.reward_first.len());
        let hashed = self.sorting.hashed();
        let walked = match self.stage {
            Stage::Order => 0,
            Stage::MetadataKeys => hashed,
            Stage::RewardKeys => metadata + hashed,
            Stage::Walk { m, r } | Stage::WalkListed { m, r } => metadata + rewards + m + r,
            Stage::Done => 2 * (metadata + rewards),
        };
        (walked, 2 * (metadata + rewards))
    }

    /// One step: the check of the listings' order, about `budget` ids hashed or a radix pass
    /// over a listing's keys, or the walk for about `budget` items; true once the join is
    /// complete. `metadata` and `rewards` must be the listings it was made for.
    pub(crate) fn advance(
        &mut self,
        metadata: &(impl IdList + ?Sized),
        rewards: &(impl IdList + ?Sized),
        budget: usize,
    ) -> bool {
        match self.stage {
            Stage::Order => {
                // Listings in id order are walked as listed: front to back, no keys.
                self.stage = if in_id_order(metadata) && in_id_order(rewards) {
                    Stage::WalkListed { m: 0, r: 0 }
                } else {
                    Stage::MetadataKeys
                };
            }
            Stage::MetadataKeys => {
                if self.sorting.advance(metadata, self.hash, budget) {
                    self.metadata_keys = std::mem::take(&mut self.sorting).into_keys();
                    self.stage = Stage::RewardKeys;
                }
            }
            Stage::RewardKeys => {
                if self.sorting.advance(rewards, self.hash, budget) {
                    self.reward_keys = std::mem::take(&mut self.sorting).into_keys();
                    self.stage = Stage::Walk { m: 0, r: 0 };
                }
            }
            Stage::Walk { m, r } => {
                self.stage = match self.walk(metadata, rewards, (m, r), budget) {
                    Some((m, r)) => Stage::Walk { m, r },
                    None => Stage::Done,
                };
            }
            Stage::WalkListed { m, r } => {
                // Listings in id order: walked id by id, as listed.
                let join = &mut self.join;
                let stopped = merge_runs(
                    (metadata.len(), rewards.len()),
                    (|i| WordKey(metadata.id(i)), |i| WordKey(rewards.id(i))),
                    (m, r),
                    budget,
                    |m, r| join.record(m.map(|i| i as u32), r.map(|i| i as u32)),
                );
                self.stage = stopped.map_or(Stage::Done, |(m, r)| Stage::WalkListed { m, r });
            }
            Stage::Done => {}
        }
        self.stage == Stage::Done
    }

    /// The join, taken out; `None` until [`Self::advance`] returned true, and after.
    pub(crate) fn take_join(&mut self) -> Option<IdJoin> {
        if self.stage != Stage::Done {
            return None;
        }
        self.metadata_keys = Vec::new();
        self.reward_keys = Vec::new();
        Some(std::mem::take(&mut self.join))
    }

    /// Walks the hash groups from `at` for about `budget` items; where it stopped, `None` at
    /// the end.
    fn walk(
        &mut self,
        metadata: &(impl IdList + ?Sized),
        rewards: &(impl IdList + ?Sized),
        at: (usize, usize),
        budget: usize,
    ) -> Option<(usize, usize)> {
        let (metadata_keys, reward_keys, join) =
            (&self.metadata_keys, &self.reward_keys, &mut self.join);
        merge_runs(
            (metadata_keys.len(), reward_keys.len()),
            (|p| key_hash(metadata_keys[p]), |p| key_hash(reward_keys[p])),
            at,
            budget,
            |m, r| {
                let (group_metadata, group_rewards) = (&metadata_keys[m], &reward_keys[r]);
                if group_metadata.len() <= 1 && group_rewards.len() <= 1 {
                    // One item, or a pair whose ids `reward_metadata` compares.
                    join.record(indices(group_metadata), indices(group_rewards));
                    return;
                }
                let first_id = group_metadata
                    .first()
                    .map(|&key| metadata.id(key_index(key) as usize))
                    .or_else(|| {
                        group_rewards
                            .first()
                            .map(|&key| rewards.id(key_index(key) as usize))
                    });
                let same = |id: &str| first_id.is_some_and(|first| same_text(id, first));
                let one_id = indices(group_metadata).all(|i| same(metadata.id(i as usize)))
                    && indices(group_rewards).all(|i| same(rewards.id(i as usize)));
                if one_id {
                    join.record(indices(group_metadata), indices(group_rewards));
                } else {
                    join.record_shared_hash(group_metadata, group_rewards, metadata, rewards);
                }
            },
        )
    }
}

impl IdJoin {
    /// Matches the ids of `metadata` (in listing order) with those of `rewards`, at once.
    #[cfg(test)]
    fn new(metadata: &[&str], rewards: &[&str]) -> Option<IdJoin> {
        Self::with_hash(metadata, rewards, id_hash)
    }

    /// [`Self::new`] with `hash` grouping the ids, a few items a step.
    #[cfg(test)]
    fn with_hash(metadata: &[&str], rewards: &[&str], hash: fn(&str) -> u32) -> Option<IdJoin> {
        let mut build = IdJoinBuild::with_hash(metadata.len(), rewards.len(), hash)?;
        while !build.advance(metadata, rewards, 3) {}
        build.take_join()
    }

    /// Records one id's items of each listing, each in listing order.
    fn record(
        &mut self,
        mut metadata: impl Iterator<Item = u32>,
        rewards: impl Iterator<Item = u32> + Clone,
    ) {
        let first_metadata = metadata.next();
        if let Some(first) = first_metadata {
            for index in metadata {
                self.metadata_first[index as usize] = first;
            }
        }
        let mut repeats = rewards.clone();
        if let Some(first) = repeats.next() {
            for index in repeats {
                self.reward_first[index as usize] = first;
            }
            for index in rewards {
                self.reward_metadata[index as usize] = first_metadata.unwrap_or(NONE);
            }
        }
    }

    /// Records a hash group that holds several ids (a repeated id beside another, or a hash
    /// shared by different ids): split by id, each id's items kept in listing order.
    fn record_shared_hash(
        &mut self,
        metadata_keys: &[u64],
        reward_keys: &[u64],
        metadata: &(impl IdList + ?Sized),
        rewards: &(impl IdList + ?Sized),
    ) {
        fn by_id(keys: &[u64], ids: &(impl IdList + ?Sized)) -> Vec<u64> {
            let mut sorted = keys.to_vec();
            let id = |key: &u64| ids.id(key_index(*key) as usize);
            // Stable: within an id, listing order (the keys are already in it).
            sorted.sort_by(|a, b| id(a).cmp(id(b)));
            sorted
        }
        let metadata_keys = by_id(metadata_keys, metadata);
        let reward_keys = by_id(reward_keys, rewards);
        merge_runs(
            (metadata_keys.len(), reward_keys.len()),
            (
                |p| metadata.id(key_index(metadata_keys[p]) as usize),
                |p| rewards.id(key_index(reward_keys[p]) as usize),
            ),
            (0, 0),
            usize::MAX,
            |m, r| self.record(indices(&metadata_keys[m]), indices(&reward_keys[r])),
        );
    }

    /// The first metadata item with the id of metadata item `index`, when `index` repeats it.
    pub(crate) fn metadata_first(&self, index: usize) -> Option<usize> {
        some_index(self.metadata_first.get(index))
    }

    /// The first reward item with the id of reward item `index`, when `index` repeats it.
    pub(crate) fn reward_first(&self, index: usize) -> Option<usize> {
        some_index(self.reward_first.get(index))
    }

    /// The first metadata item of `metadata` (the listing joined) with the id of reward item
    /// `index`, whose id is `reward_id`, when there is one. A pair alone in its hash group is
    /// confirmed here, by comparing its ids: two ids sharing a hash are then neither's match,
    /// as a walk comparing them would have found.
    pub(crate) fn reward_metadata(
        &self,
        index: usize,
        reward_id: &str,
        metadata: &(impl IdList + ?Sized),
    ) -> Option<usize> {
        some_index(self.reward_metadata.get(index))
            .filter(|&first| first < metadata.len() && same_text(metadata.id(first), reward_id))
    }
}

fn some_index(value: Option<&u32>) -> Option<usize> {
    value
        .copied()
        .filter(|&value| value != NONE)
        .map(|value| value as usize)
}

/// The listing indices of `keys`, in order.
fn indices(keys: &[u64]) -> impl Iterator<Item = u32> + Clone + '_ {
    keys.iter().map(|&key| key_index(key))
}

/// Whether `ids` are in ascending order (equal ones side by side); stops at the first that
/// is not.
fn in_id_order(ids: &(impl IdList + ?Sized)) -> bool {
    (1..ids.len()).all(|index| text_order(ids.id(index - 1), ids.id(index)).is_le())
}

/// Walks two sequences of `lengths`, each in ascending order of its `keys`, side by side from
/// `at`: for each key, smallest first, hands its run in each (either may be empty) to `group`,
/// until about `budget` items are passed. Where it stopped; `None` once both are passed.
fn merge_runs<K: Ord>(
    lengths: (usize, usize),
    keys: (impl Fn(usize) -> K, impl Fn(usize) -> K),
    at: (usize, usize),
    budget: usize,
    mut group: impl FnMut(Range<usize>, Range<usize>),
) -> Option<(usize, usize)> {
    let ((a_len, b_len), (a_key, b_key), (mut a, mut b)) = (lengths, keys, at);
    let stop = (a + b).saturating_add(budget.max(1));
    while a + b < stop {
        let key = match (a < a_len, b < b_len) {
            (true, true) => a_key(a).min(b_key(b)),
            (true, false) => a_key(a),
            (false, true) => b_key(b),
            (false, false) => return None,
        };
        let a_end = (a..a_len).find(|&i| a_key(i) != key).unwrap_or(a_len);
        let b_end = (b..b_len).find(|&i| b_key(i) != key).unwrap_or(b_len);
        group(a..a_end, b..b_end);
        (a, b) = (a_end, b_end);
    }
    (a < a_len || b < b_len).then_some((a, b))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn join(metadata: &[&str], rewards: &[&str]) -> IdJoin {
        IdJoin::new(metadata, rewards).unwrap()
    }

    const METADATA: [&str; 4] = ["c", "a", "b", "a"];
    const REWARDS: [&str; 5] = ["b", "x", "a", "b", "x"];

    /// The metadata item matching each reward of `rewards`.
    fn matches(found: &IdJoin, metadata: &[&str], rewards: &[&str]) -> Vec<Option<usize>> {
        (0..rewards.len())
            .map(|i| found.reward_metadata(i, rewards[i], metadata))
            .collect()
    }

    /// What joining [`METADATA`] with [`REWARDS`] must find, whatever the hash.
    fn check(found: &IdJoin) {
        assert_eq!(found.metadata_first(3), Some(1));
        assert_eq!(found.metadata_first(1), None);
        assert_eq!(found.metadata_first(0), None);
        assert_eq!(
            matches(found, &METADATA, &REWARDS),
            [Some(2), None, Some(1), Some(2), None]
        );
        assert_eq!(found.reward_first(3), Some(0));
        assert_eq!(found.reward_first(4), Some(1));
        assert_eq!(found.reward_first(0), None);
        assert_eq!(found.reward_first(2), None);
    }

    #[test]
    fn matches_repeats_and_misses_in_any_order() {
        check(&join(&METADATA, &REWARDS));
    }

    #[test]
    fn ids_sharing_a_hash_are_told_apart() {
        let with = |hash: fn(&str) -> u32| IdJoin::with_hash(&METADATA, &REWARDS, hash).unwrap();
        // Every id one hash; then some hashes shared, some not.
        check(&with(|_| 7));
        check(&with(|id| u32::from(id.as_bytes()[0] % 2)));
    }

    #[test]
    fn a_pair_alone_in_its_hash_group_matches_only_when_its_ids_are_the_same() {
        // "p" and "q" share a hash, and each is alone on its side: paired unread, then told
        // apart when the match is asked for; "r" (another hash) matches itself.
        let hash = |id: &str| u32::from(id == "r");
        let found = IdJoin::with_hash(&["p", "r"], &["r", "q"], hash).unwrap();
        assert_eq!(matches(&found, &["p", "r"], &["r", "q"]), [Some(1), None]);
        assert_eq!(found.metadata_first(0), None);
        assert_eq!(found.reward_first(1), None);
    }

    #[test]
    fn listings_in_id_order_are_walked_as_listed() {
        let found = join(&["a", "a", "b", "c"], &["a", "b", "b", "x", "x"]);
        let metadata_first: Vec<_> = (0..4).map(|i| found.metadata_first(i)).collect();
        let reward_first: Vec<_> = (0..5).map(|i| found.reward_first(i)).collect();
        let reward_metadata = matches(&found, &["a", "a", "b", "c"], &["a", "b", "b", "x", "x"]);
        assert_eq!(metadata_first, [None, Some(0), None, None]);
        assert_eq!(reward_first, [None, None, Some(1), None, Some(3)]);
        assert_eq!(reward_metadata, [Some(0), Some(2), Some(2), None, None]);
        // The same found through the hashes, the listings out of order.
        let found = join(&["c", "b", "a", "a"], &["x", "b", "a", "b", "x"]);
        assert_eq!(found.metadata_first(3), Some(2));
        assert_eq!(found.reward_first(3), Some(1));
        assert_eq!(found.reward_first(4), Some(0));
        let reward_metadata = matches(&found, &["c", "b", "a", "a"], &["x", "b", "a", "b", "x"]);
        assert_eq!(reward_metadata, [None, Some(1), Some(2), Some(1), None]);
    }

    #[test]
    fn empty_listings_join() {
        let found = join(&[], &["a"]);
        assert_eq!(found.reward_metadata(0, "a", &[][..]), None);
        assert_eq!(join(&["a"], &[]).metadata_first(0), None);
    }
}
