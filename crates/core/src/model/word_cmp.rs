//! Ids and names compared eight bytes at a time, for the join's hot loops.
//!
//! In wasm32 `==` and `cmp` on strings call `memcmp`, which is a byte loop there (and, from the
//! report pages' chunk, an indirect call into the main module): matching two runs of 800,000
//! trajectories spent a third of its time in it. These compare words instead, on every target
//! (natively they are as quick as libc's `memcmp` on ids this short, and one code path is
//! tested here).

use std::cmp::Ordering;

/// Whether `a` and `b` are the same text (`a == b`).
#[inline]
pub(crate) fn same_text(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let ((a_words, a_tail), (b_words, b_tail)) = (a.as_chunks::<8>(), b.as_chunks::<8>());
    a_words
        .iter()
        .zip(b_words)
        .all(|(x, y)| u64::from_ne_bytes(*x) == u64::from_ne_bytes(*y))
        && a_tail.iter().zip(b_tail).all(|(x, y)| x == y)
}

/// The order of `a` and `b` by their bytes (`a.cmp(b)`).
#[inline]
pub(crate) fn text_order(a: &str, b: &str) -> Ordering {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let ((a_words, _), (b_words, _)) = (a.as_chunks::<8>(), b.as_chunks::<8>());
    let mut words = 0;
    for (x, y) in a_words.iter().zip(b_words) {
        // Big-endian: the first differing byte decides, as in a byte-wise comparison.
        let (x, y) = (u64::from_be_bytes(*x), u64::from_be_bytes(*y));
        if x != y {
            return x.cmp(&y);
        }
        words += 1;
    }
    let rest = words * 8;
    for (x, y) in a[rest..].iter().zip(&b[rest..]) {
        if x != y {
            return x.cmp(y);
        }
    }
    a.len().cmp(&b.len())
}

/// A string key compared by [`same_text`] and [`text_order`] (the join's walk as listed).
#[derive(Debug, Clone, Copy)]
pub(crate) struct WordKey<'a>(pub &'a str);

impl PartialEq for WordKey<'_> {
    fn eq(&self, other: &Self) -> bool {
        same_text(self.0, other.0)
    }
}

impl Eq for WordKey<'_> {}

impl PartialOrd for WordKey<'_> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for WordKey<'_> {
    fn cmp(&self, other: &Self) -> Ordering {
        text_order(self.0, other.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXTS: [&str; 14] = [
        "",
        "a",
        "ab",
        "abcdefg",
        "abcdefgh",
        "abcdefgi",
        "abcdefghi",
        "abcdefgh\u{0}",
        "trj_basev2_cf-126207_1",
        "trj_basev2_cf-126207_10",
        "trj_basev2_cf-126208_1",
        "trj_basev2_cf-126207_",
        "Zürich ✓ 東京",
        "Zürich ✓ 東京!",
    ];

    #[test]
    fn agree_with_the_standard_comparisons() {
        for a in TEXTS {
            for b in TEXTS {
                assert_eq!(same_text(a, b), a == b, "{a:?} == {b:?}");
                assert_eq!(text_order(a, b), a.cmp(b), "{a:?} cmp {b:?}");
                assert_eq!(WordKey(a).cmp(&WordKey(b)), a.cmp(b));
                assert_eq!(WordKey(a) == WordKey(b), a == b);
            }
        }
    }

    #[test]
    fn every_byte_position_decides() {
        // Texts of 1 to 24 bytes differing in one byte, at each position, either way.
        for len in 1..=24 {
            let base = vec![b'm'; len];
            for at in 0..len {
                for other in [b'a', b'z', 0xFF] {
                    let mut changed = base.clone();
                    changed[at] = other;
                    let (a, b) = (
                        String::from_utf8_lossy(&base).into_owned(),
                        String::from_utf8_lossy(&changed).into_owned(),
                    );
                    assert_eq!(same_text(&a, &b), a == b);
                    assert_eq!(text_order(&a, &b), a.cmp(&b), "{len} bytes, at {at}");
                    assert_eq!(text_order(&b, &a), b.cmp(&a));
                }
            }
        }
    }
}
