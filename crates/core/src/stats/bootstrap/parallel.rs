//! The per-task bootstrap split over the machine's cores, drawing exactly what the one
//! sequential stream draws, so a report is the same natively (any core count) and in the
//! browser (one thread).
//!
//! Resample k's draws are the accepted 32-bit halves k·n … (k+1)·n − 1 of the stream (n tasks);
//! Lemire's method rejects a half by its own value, so the stream of accepted halves is fixed,
//! but where resample k starts in the raw stream depends on how many halves were rejected
//! before it. With T segments of resamples, segment t starts no earlier than raw half
//! Pₜ = firstₜ·n. Two parallel passes:
//! 1. the rejected halves in each segment's raw range [Pₜ, Pₜ₊₁) are counted (no table
//!    lookups: a fraction of a draw's cost), every range cut in as many pieces as there are
//!    threads, so all of them count;
//! 2. segment t jumps the generator to Pₜ ([`Xoshiro256::jumped`](super::Xoshiro256::jumped)),
//!    skips as many accepted halves as were rejected before Pₜ, and draws its resamples.

use super::rng::HalfDraws;
use super::{compact_sums, Resample};
use crate::parallel::{cores, map_in_parallel};

/// Below this many draws (B · n) one thread is quicker than starting others.
const PARALLEL_MIN_DRAWS: u64 = 2_000_000;

/// At most this many threads.
const MAX_THREADS: usize = 16;

/// The resample sums of [`compact_sums`] for the stream of `seed`, computed on the machine's
/// cores; `None` when one thread should do it (a small bootstrap, or one core).
pub(super) fn resample_sums(
    steps: &[i32],
    bound: u32,
    resamples: usize,
    seed: u64,
) -> Option<Vec<Resample>> {
    if (resamples as u64).saturating_mul(u64::from(bound)) < PARALLEL_MIN_DRAWS {
        return None;
    }
    split_sums(steps, bound, resamples, seed, cores().min(MAX_THREADS))
}

/// [`resample_sums`] over `threads` segments; `None` for fewer than two.
fn split_sums(
    steps: &[i32],
    bound: u32,
    resamples: usize,
    seed: u64,
    threads: usize,
) -> Option<Vec<Resample>> {
    let segments = threads.min(resamples);
    if segments < 2 {
        return None;
    }
    let firsts: Vec<usize> = (0..=segments).map(|t| t * resamples / segments).collect();
    let n = u64::from(bound);
    // Pass 1: the rejected halves in each segment's raw range but the last's, every range cut
    // in `threads` pieces, thread j counting the j-th piece of each (all threads busy).
    let pieces: Vec<usize> = (0..threads).collect();
    let counts = map_in_parallel(&pieces, |&j| {
        (0..segments - 1)
            .map(|t| {
                let (start, end) = (firsts[t] as u64 * n, firsts[t + 1] as u64 * n);
                let piece = |k: u64| start + (end - start) * k / threads as u64;
                let (from, to) = (piece(j as u64), piece(j as u64 + 1));
                HalfDraws::at(seed, from).count_rejections(to - from, bound)
            })
            .collect::<Vec<u64>>()
    });
    let mut rejected = vec![0u64; segments - 1];
    for piece in counts {
        rejected
            .iter_mut()
            .zip(piece)
            .for_each(|(sum, count)| *sum += count);
    }
    // Pass 2: each segment from its exact place in the stream, after the accepted halves that
    // make up for those rejected before it.
    let segment_starts: Vec<(usize, u64)> = (0..segments)
        .scan(0u64, |before, t| {
            let skip = *before;
            *before += rejected.get(t).copied().unwrap_or(0);
            Some((t, skip))
        })
        .collect();
    let parts = map_in_parallel(&segment_starts, |&(t, skip)| {
        let mut draws = HalfDraws::at(seed, firsts[t] as u64 * n);
        for _ in 0..skip {
            draws.below(bound);
        }
        compact_sums(steps, bound, &mut draws, firsts[t + 1] - firsts[t])
    });
    Some(parts.into_iter().flatten().collect())
}

#[cfg(test)]
mod tests {
    use super::super::rng::Xoshiro256;
    use super::*;

    fn steps(n: usize) -> Vec<i32> {
        let mut rng = Xoshiro256::from_seed(n as u64);
        (0..n)
            .map(|_| rng.below(2_000_000_001) as i32 - 1_000_000_000)
            .collect()
    }

    fn sums(resamples: &[Resample]) -> Vec<(f64, u64)> {
        resamples.iter().map(|r| (r.sum, r.size)).collect()
    }

    #[test]
    fn every_split_draws_what_the_sequential_stream_draws() {
        for (n, resamples, seed) in [(2usize, 7usize, 1u64), (13, 40, 2), (403, 101, 20_261_014)] {
            let steps = steps(n);
            let sequential = sums(&compact_sums(
                &steps,
                n as u32,
                &mut HalfDraws::new(Xoshiro256::from_seed(seed)),
                resamples,
            ));
            for threads in 2..=6 {
                let split = split_sums(&steps, n as u32, resamples, seed, threads)
                    .map(|parts| sums(&parts));
                assert_eq!(
                    split.as_ref(),
                    Some(&sequential),
                    "n {n}, B {resamples}, {threads} threads"
                );
            }
        }
    }

    #[test]
    fn rejections_before_a_segment_shift_it_exactly() {
        // 3·2¹⁵ tasks: Lemire's method rejects 1.5 in 10⁵ halves, about 150 over these
        // 10⁷ draws, so later segments start well after their first possible half.
        let n = 3 << 15;
        let steps = steps(n);
        let threshold = (n as u32).wrapping_neg() % n as u32;
        assert_eq!(threshold, 1 << 16);
        let sequential = sums(&compact_sums(
            &steps,
            n as u32,
            &mut HalfDraws::new(Xoshiro256::from_seed(9)),
            100,
        ));
        let split = split_sums(&steps, n as u32, 100, 9, 3).map(|parts| sums(&parts));
        assert_eq!(split, Some(sequential));
        let skipped = HalfDraws::at(9, 0).count_rejections(33 * n as u64, n as u32);
        assert!(skipped > 0, "the first segment rejects some halves");
    }

    #[test]
    fn one_thread_or_one_resample_is_left_to_the_sequential_loop() {
        let steps = steps(50);
        assert!(split_sums(&steps, 50, 10, 1, 1).is_none());
        assert!(split_sums(&steps, 50, 1, 1, 4).is_none());
        assert!(
            resample_sums(&steps, 50, 10, 1).is_none(),
            "500 draws: not worth a thread"
        );
    }
}
