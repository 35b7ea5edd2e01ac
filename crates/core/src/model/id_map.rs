//! Hash maps keyed by identifiers, with a fast hasher.
//!
//! Identifiers come from the user's own runs, so resistance to crafted collisions (what the
//! standard hasher pays for) buys nothing here, while joins over millions of ids are hot.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// A hash map with [`IdHasher`].
pub(crate) type IdMap<K, V> = HashMap<K, V, BuildHasherDefault<IdHasher>>;

/// A hash set with [`IdHasher`].
pub(crate) type IdSet<K> = HashSet<K, BuildHasherDefault<IdHasher>>;

/// Multiply-rotate hashing of 8-byte words (the scheme of the Firefox and rustc hashers).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct IdHasher {
    hash: u64,
}

/// An odd constant with well-mixed bits (from the golden ratio family).
const MULTIPLIER: u64 = 0x517c_c1b7_2722_0a95;

impl IdHasher {
    fn add(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(MULTIPLIER);
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
    }
}
