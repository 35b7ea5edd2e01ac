//! A listing's ids as (64-bit hash, listing index) keys, ordered by hash and, within a hash, by
//! index, computed a step at a time: hashing a number of ids a step, then a least-significant-
//! digit radix sort, one pass over the keys (one byte of the hash) a step. Eight passes of a
//! counting scatter are stable, so keys hashed in index order end ordered by (hash, index): the
//! order `sort_unstable` gives the distinct pairs, without a step as long as a whole sort of
//! 800,000 keys.

use super::id_list::IdList;
use crate::radix::{radix_pass, RadixKey};

/// Radix passes to order 64-bit hashes.
const PASSES: u32 = <(u64, u32)>::DIGITS;

/// Keys being computed: hashed so far, then sorted by the first `pass` digits.
#[derive(Debug, Clone, Default)]
pub(crate) struct KeySort {
    keys: Vec<(u64, u32)>,
    spare: Vec<(u64, u32)>,
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
        hash: fn(&str) -> u64,
        budget: usize,
    ) -> bool {
        let len = ids.len();
        if self.keys.len() < len {
            self.keys.reserve_exact(len - self.keys.len());
            let end = len.min(self.keys.len().saturating_add(budget.max(1)));
            for index in self.keys.len()..end {
                // Listing indices fit in u32: the join refuses longer listings.
                self.keys.push((hash(ids.id(index)), index as u32));
            }
            return len < 2 && self.keys.len() == len;
        }
        if self.pass < PASSES {
            radix_pass(&mut self.keys, &mut self.spare, self.pass);
            self.pass += 1;
        }
        self.pass == PASSES || len < 2
    }

    /// The keys, in order once [`Self::advance`] returned true.
    pub(crate) fn into_keys(self) -> Vec<(u64, u32)> {
        self.keys
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A hash that spreads ids over all 64 bits and collides on purpose for some.
    fn hash(id: &str) -> u64 {
        let n: u64 = id.parse().unwrap_or(0);
        if n.is_multiple_of(7) {
            42
        } else {
            n.wrapping_mul(0x9E37_79B9_7F4A_7C15)
                .rotate_left((n % 64) as u32)
        }
    }

    #[test]
    fn stepwise_keys_are_the_sorted_pairs() {
        for len in [0usize, 1, 2, 3, 17, 1000] {
            let ids: Vec<String> = (0..len).map(|i| ((i * 7919) % 1013).to_string()).collect();
            let ids: Vec<&str> = ids.iter().map(String::as_str).collect();
            let mut expected: Vec<(u64, u32)> = ids
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
                assert_eq!(sort.into_keys(), expected, "{len} ids, budget {budget}");
            }
        }
    }
}
