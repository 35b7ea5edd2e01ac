//! A listing's ids as keys of one 64-bit word each, a 32-bit hash of the id above its listing
//! index, ordered by hash and, within a hash, by index, computed a step at a time: hashing a
//! number of ids a step, then a least-significant-digit radix sort of the hash's four bytes,
//! one pass over the keys a step. The passes are stable, so keys hashed in index order end
//! ordered by (hash, index): the order `sort_unstable` gives them, without a step as long as a
//! whole sort of 800,000 keys.
//!
//! A 32-bit hash, not 64: the keys are half as large and sorted in half the passes, which was
//! most of the sort's time. Ids sharing a hash are told apart by the join
//! ([`super::id_join`]), which compares the ids of any hash group holding more than one; among
//! a run's 1.6 million listed items a few hundred such groups are expected, each a few items.

use super::id_list::IdList;
use crate::radix::radix_pass;

/// The byte of the key its first radix pass sorts by: the hash's lowest.
const FIRST_DIGIT: u32 = 4;

/// Radix passes to order the 32-bit hashes.
const PASSES: u32 = 4;

/// The key of the id hashing to `hash`, at listing index `index`.
pub(crate) fn key(hash: u32, index: u32) -> u64 {
    (u64::from(hash) << 32) | u64::from(index)
}

/// The hash a key was made of: what the join groups keys by.
pub(crate) fn key_hash(key: u64) -> u32 {
    (key >> 32) as u32
}

/// The listing index a key was made of.
pub(crate) fn key_index(key: u64) -> u32 {
    key as u32
}

/// Keys being computed: hashed so far, then sorted by the first `pass` bytes of the hash.
#[derive(Debug, Clone, Default)]
pub(crate) struct KeySort {
    keys: Vec<u64>,
    spare: Vec<u64>,
    pass: u32,
}

impl KeySort {
    /// Ids hashed so far.
    pub(crate) fn hashed(&self) -> usize {
        self.keys.len()
    }

    /// One step over `ids` (the same listing each step): hashes up to `budget` more ids, or,
    /// once all are, does one radix pass; true once the keys are in order.
    pub(crate) fn advance(
        &mut self,
        ids: &(impl IdList + ?Sized),
        hash: fn(&str) -> u32,
        budget: usize,
    ) -> bool {
        let len = ids.len();
        if self.keys.len() < len {
            self.keys.reserve_exact(len - self.keys.len());
            let end = len.min(self.keys.len().saturating_add(budget.max(1)));
            for index in self.keys.len()..end {
                // Listing indices fit in u32: the join refuses longer listings.
                self.keys.push(key(hash(ids.id(index)), index as u32));
            }
            return len < 2 && self.keys.len() == len;
        }
        if self.pass < PASSES {
            radix_pass(&mut self.keys, &mut self.spare, FIRST_DIGIT + self.pass);
            self.pass += 1;
        }
        self.pass == PASSES || len < 2
    }

    /// The keys, in order once [`Self::advance`] returned true.
    pub(crate) fn into_keys(self) -> Vec<u64> {
        self.keys
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A hash that spreads ids over all 32 bits and collides on purpose for some.
    fn hash(id: &str) -> u32 {
        let n: u64 = id.parse().unwrap_or(0);
        if n.is_multiple_of(7) {
            42
        } else {
            let mixed = n
                .wrapping_mul(0x9E37_79B9_7F4A_7C15)
                .rotate_left((n % 64) as u32);
            (mixed >> 32) as u32 ^ mixed as u32
        }
    }

    #[test]
    fn stepwise_keys_are_the_sorted_pairs() {
        for len in [0usize, 1, 2, 3, 17, 1000] {
            let ids: Vec<String> = (0..len).map(|i| ((i * 7919) % 1013).to_string()).collect();
            let ids: Vec<&str> = ids.iter().map(String::as_str).collect();
            let mut expected: Vec<(u32, u32)> = ids
                .iter()
                .zip(0u32..)
                .map(|(id, index)| (hash(id), index))
                .collect();
            expected.sort_unstable();
            for budget in [1, 5, 1 << 20] {
                let mut sort = KeySort::default();
                let mut steps = 0;
                while !sort.advance(ids.as_slice(), hash, budget) {
                    steps += 1;
                    assert!(
                        steps <= len + PASSES as usize + 1,
                        "{len} ids, budget {budget}"
                    );
                }
                assert_eq!(sort.hashed(), len);
                let keys: Vec<(u32, u32)> = sort
                    .into_keys()
                    .into_iter()
                    .map(|key| (key_hash(key), key_index(key)))
                    .collect();
                assert_eq!(keys, expected, "{len} ids, budget {budget}");
            }
        }
    }
}
