//! Hash maps keyed by identifiers, with a fast hasher.
//!
//! Identifiers come from the user's own runs, so resistance to crafted collisions (what the
//! standard hasher pays for) buys nothing here, while joins over millions of ids are hot.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A hash map with [`IdHasher`].
pub(crate) type IdMap<K, V> = HashMap<K, V, BuildHasherDefault<IdHasher>>;

/// Hashes 8-byte words with a folded multiply: the 128-bit product of the state (mixed with
/// the word) and an odd constant, high half xor low half, so every input bit reaches every
/// output bit. Structured ids (long shared prefixes and suffixes) then spread evenly, which a
/// plain multiply-rotate does not manage.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct IdHasher {
    hash: u64,
}

/// An odd constant with well-mixed bits.
const MULTIPLIER: u64 = 0x517c_c1b7_2722_0a95;

/// Mixed into every word so that a zero state and a zero word do not multiply to zero.
const OFFSET: u64 = 0x243f_6a88_85a3_08d3;

impl IdHasher {
    fn add(&mut self, word: u64) {
        let product = u128::from(self.hash ^ word ^ OFFSET) * u128::from(MULTIPLIER);
        self.hash = (product as u64) ^ ((product >> 64) as u64);
    }
}

impl Hasher for IdHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let mut word = [0u8; 8];
            word.copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut word = [0u8; 8];
            word[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(word) ^ ((rest.len() as u64) << 59));
        }
    }

    fn write_u8(&mut self, value: u8) {
        self.add(u64::from(value));
    }

    fn write_u32(&mut self, value: u32) {
        self.add(u64::from(value));
    }

    fn write_u64(&mut self, value: u64) {
        self.add(value);
    }

    fn write_usize(&mut self, value: usize) {
        self.add(value as u64);
    }

    fn finish(&self) -> u64 {
        self.hash
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distinct_ids_hash_apart_and_maps_work() {
        let mut map: IdMap<Box<str>, u32> = IdMap::default();
        for index in 0..10_000u32 {
            map.insert(format!("task-{index}").into(), index);
        }
        assert_eq!(map.get("task-1234"), Some(&1234));
        assert_eq!(map.get("task-10000"), None);
        let hash = |text: &str| {
            let mut hasher = IdHasher::default();
            hasher.write(text.as_bytes());
            hasher.finish()
        };
        assert_ne!(hash("ab"), hash("ab\0"));
        assert_ne!(hash("abcdefgh1"), hash("abcdefgh2"));
        // Ids sharing long prefixes and suffixes do not collide on the full 64 bits.
        let hashes: std::collections::HashSet<u64> = (0..200_000)
            .map(|index| {
                hash(&format!(
                    "tr_run_{}_{}_aaaaaaaaaaaaaaaa",
                    index / 8,
                    index % 8
                ))
            })
            .collect();
        assert_eq!(hashes.len(), 200_000);
    }
}
