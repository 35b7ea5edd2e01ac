//! The per-task bootstrap split over the machine's cores, drawing exactly what the one
//! sequential stream draws, so a report is the same natively (any core count) and in the
//! browser (one thread).
//!
//! Resample k's draws are the accepted 32-bit halves k·n … (k+1)·n − 1 of the stream (n tasks);
//! Lemire's method rejects a half by its own value, so the stream of accepted halves is fixed,
//! but where resample k starts in the raw stream depends on how many halves were rejected
//! before it. With T segments of resamples, segment t starts no earlier than raw half
//! Pₜ = firstₜ·n, exactly δₜ accepted halves early where δₜ counts the rejections before Pₜ.
//! Two ways to draw each segment from its exact place:
//! * **Shifted** ([`shifted_sums`], when rejections are rare): every segment draws its
//!   resamples from Pₜ as if nothing before it were rejected, keeping the generator's state at
//!   each resample's start, and counts the rejections in its own raw range. Then δₜ is known,
//!   and each resample is moved δₜ draws on: the δₜ draws from its start's kept state leave
//!   it, the δₜ draws from its end's kept state join it. One pass over the stream, plus
//!   δₜ draws per resample (a few percent when rejections are rare).
//! * **Counted first** ([`split_sums`], when they are not): the rejected halves in each
//!   segment's raw range [Pₜ, Pₜ₊₁) are counted first (no table lookups: a fraction of a
//!   draw's cost), every range cut in as many pieces as there are threads; then segment t
//!   jumps the generator to Pₜ ([`Xoshiro256::jumped`](super::Xoshiro256::jumped)), skips δₜ
//!   accepted halves, and draws its resamples.

use super::rng::HalfDraws;
use super::table::StepTable;
use super::{compact_sums, Resample};
use crate::parallel::{cores, map_in_parallel};

/// Below this many draws (B · n) one thread is quicker than starting others.
const PARALLEL_MIN_DRAWS: u64 = 2_000_000;

/// At most this many threads.
const MAX_THREADS: usize = 16;

/// The resample sums of [`compact_sums`] for the stream of `seed`, computed on the machine's
/// cores; `None` when one thread should do it (a small bootstrap, or one core).
pub(super) fn resample_sums<S: StepTable>(
    table: S,
    resamples: usize,
    seed: u64,
) -> Option<Vec<Resample>> {
    let bound = table.bound();
    if (resamples as u64).saturating_mul(u64::from(bound)) < PARALLEL_MIN_DRAWS {
        return None;
    }
    let segments = Segments::new(resamples, cores().min(MAX_THREADS), bound)?;
    Some(if shifting_pays(bound, resamples) {
        shifted_sums(table, &segments, seed)
    } else {
        split_sums(table, &segments, seed)
    })
}

/// Whether shifting the segments ([`shifted_sums`]) costs less than counting the rejections
/// first ([`split_sums`]). A half is rejected with probability p = threshold / 2³²; the last
/// segment's shift is about p·B·n draws for each of its resamples, against n draws each, so
/// shifting adds about p·B/2 of the draws on average, while counting first costs about a third
/// of them. Shift while p·B ≤ 1/2 (at 100,000 tasks p is 1.6·10⁻⁵: up to B = 31,000).
fn shifting_pays(bound: u32, resamples: usize) -> bool {
    let threshold = bound.wrapping_neg() % bound;
    let share = f64::from(threshold) / 4_294_967_296.0;
    share * resamples as f64 <= 0.5
}

/// The resamples cut into one segment a thread, over a stream of `bound` (n) tasks.
struct Segments {
    /// The first resample of each segment, and the end.
    firsts: Vec<usize>,
    /// The threads drawing them.
    threads: usize,
    /// The number of tasks n, each resample's draws.
    bound: u32,
}

impl Segments {
    /// `resamples` cut into `threads` segments; `None` for fewer than two (one thread does it).
    fn new(resamples: usize, threads: usize, bound: u32) -> Option<Segments> {
        let segments = threads.min(resamples);
        (segments >= 2).then(|| Segments {
            firsts: (0..=segments).map(|t| t * resamples / segments).collect(),
            threads,
            bound,
        })
    }

    /// How many segments there are.
    fn count(&self) -> usize {
        self.firsts.len() - 1
    }

    /// How many resamples segment `t` draws.
    fn resamples(&self, t: usize) -> usize {
        self.firsts[t + 1] - self.firsts[t]
    }

    /// Segment `t`'s first possible raw half, Pₜ = firstₜ·n (`t` may be the end).
    fn first_half(&self, t: usize) -> u64 {
        self.firsts[t] as u64 * u64::from(self.bound)
    }
}

/// Each segment's shift: the rejections before it, from those in each segment's own range.
fn shifts(rejected: impl IntoIterator<Item = u64>) -> Vec<u64> {
    rejected
        .into_iter()
        .scan(0u64, |before, count| {
            let shift = *before;
            *before += count;
            Some(shift)
        })
        .collect()
}

/// One segment drawn from its first possible raw half ([`shifted_sums`]'s first pass).
struct Unshifted {
    /// The sums of its resamples drawn from raw half firstₜ·n on.
    sums: Vec<i64>,
    /// The generator at the start of each resample and after the last (all but the first
    /// segment: the first starts exactly where it should).
    starts: Vec<HalfDraws>,
    /// The halves rejected in the segment's own raw range (up to the next segment's first
    /// possible raw half).
    rejected: u64,
}

/// [`resample_sums`] in one pass over the stream, segments shifted after it (see the module
/// documentation).
fn shifted_sums<S: StepTable>(table: S, segments: &Segments, seed: u64) -> Vec<Resample> {
    let bound = segments.bound;
    let indices: Vec<usize> = (0..segments.count()).collect();
    let drawn = map_in_parallel(&indices, |&t| {
        let count = segments.resamples(t);
        let mut draws = HalfDraws::at(seed, segments.first_half(t));
        let keep_starts = t > 0;
        let mut starts = Vec::with_capacity(if keep_starts { count + 1 } else { 0 });
        let mut sums = Vec::with_capacity(count);
        for _ in 0..count {
            if keep_starts {
                starts.push(draws.clone());
            }
            sums.push(draws.sum_of_draws(table, bound as usize));
        }
        if keep_starts {
            starts.push(draws.clone());
        }
        // The segment drew count·n accepted halves and `rejected()` rejected ones, so it ran
        // that many halves past the next segment's first possible one; those it rejected
        // there are the next segment's.
        let past_end = draws.rejected();
        let rejected = if t + 1 < segments.count() {
            let end = segments.first_half(t + 1);
            past_end - HalfDraws::at(seed, end).count_rejections(past_end, bound)
        } else {
            0
        };
        Unshifted {
            sums,
            starts,
            rejected,
        }
    });
    // Segment t started δₜ accepted halves early: δₜ is every rejection before its start.
    let shifted: Vec<(Unshifted, u64)> = {
        let deltas = shifts(drawn.iter().map(|segment| segment.rejected));
        drawn.into_iter().zip(deltas).collect()
    };
    let parts = map_in_parallel(&shifted, |(segment, shift)| {
        let shift = usize::try_from(*shift).unwrap_or(usize::MAX);
        // The δ draws from each kept start: they leave the resample starting there and join
        // the one ending there.
        let moved: Vec<i64> = if shift == 0 {
            Vec::new()
        } else {
            segment
                .starts
                .iter()
                .map(|start| start.clone().sum_of_draws(table, shift))
                .collect()
        };
        segment
            .sums
            .iter()
            .enumerate()
            .map(|(k, &sum)| {
                let sum = match moved.get(k..k + 2) {
                    Some([leaving, joining]) => sum - leaving + joining,
                    _ => sum,
                };
                Resample {
                    sum: sum as f64,
                    size: u64::from(bound),
                }
            })
            .collect::<Vec<_>>()
    });
    parts.into_iter().flatten().collect()
}

/// [`resample_sums`] with the rejections before each segment counted first (see the module
/// documentation).
fn split_sums<S: StepTable>(table: S, segments: &Segments, seed: u64) -> Vec<Resample> {
    let (bound, threads) = (segments.bound, segments.threads);
    // Pass 1: the rejected halves in each segment's raw range but the last's, every range cut
    // in `threads` pieces, thread j counting the j-th piece of each (all threads busy).
    let pieces: Vec<usize> = (0..threads).collect();
    let counts = map_in_parallel(&pieces, |&j| {
        (0..segments.count() - 1)
            .map(|t| {
                let (start, end) = (segments.first_half(t), segments.first_half(t + 1));
                let piece = |k: u64| start + (end - start) * k / threads as u64;
                let (from, to) = (piece(j as u64), piece(j as u64 + 1));
                HalfDraws::at(seed, from).count_rejections(to - from, bound)
            })
            .collect::<Vec<u64>>()
    });
    // One count per segment; the last segment's own rejections shift nothing after it.
    let mut rejected = vec![0u64; segments.count()];
    for piece in counts {
        rejected
            .iter_mut()
            .zip(piece)
            .for_each(|(sum, count)| *sum += count);
    }
    // Pass 2: each segment from its exact place in the stream, after the accepted halves that
    // make up for those rejected before it.
    let segment_starts: Vec<(usize, u64)> = shifts(rejected).into_iter().enumerate().collect();
    let parts = map_in_parallel(&segment_starts, |&(t, skip)| {
        let mut draws = HalfDraws::at(seed, segments.first_half(t));
        for _ in 0..skip {
            draws.below(bound);
        }
        compact_sums(table, &mut draws, segments.resamples(t))
    });
    parts.into_iter().flatten().collect()
}

#[cfg(test)]
mod tests {
    use super::super::rng::Xoshiro256;
    use super::super::table::{pad, PlainTable};
    use super::*;

    fn steps(n: usize) -> Vec<i32> {
        let mut rng = Xoshiro256::from_seed(n as u64);
        let steps = (0..n)
            .map(|_| rng.below(2_000_000_001) as i32 - 1_000_000_000)
            .collect();
        pad(steps)
    }

    fn sums(resamples: &[Resample]) -> Vec<(f64, u64)> {
        resamples.iter().map(|r| (r.sum, r.size)).collect()
    }

    /// Both ways of splitting the stream, by name: a table, B, the seed and the threads.
    type Split<'a> = fn(PlainTable<'a>, usize, u64, usize) -> Option<Vec<Resample>>;
    fn splits<'a>() -> [(&'static str, Split<'a>); 2] {
        [
            ("counted first", |table, resamples, seed, threads| {
                let segments = Segments::new(resamples, threads, table.bound())?;
                Some(split_sums(table, &segments, seed))
            }),
            ("shifted", |table, resamples, seed, threads| {
                let segments = Segments::new(resamples, threads, table.bound())?;
                Some(shifted_sums(table, &segments, seed))
            }),
        ]
    }

    #[test]
    fn every_split_draws_what_the_sequential_stream_draws() {
        for (n, resamples, seed) in [(2usize, 7usize, 1u64), (13, 40, 2), (403, 101, 20_261_014)] {
            let steps = steps(n);
            let sequential = sums(&compact_sums(
                PlainTable::new(&steps, n as u32),
                &mut HalfDraws::new(Xoshiro256::from_seed(seed)),
                resamples,
            ));
            for (name, split) in splits() {
                for threads in 2..=6 {
                    let split = split(PlainTable::new(&steps, n as u32), resamples, seed, threads)
                        .map(|parts| sums(&parts));
                    assert_eq!(
                        split.as_ref(),
                        Some(&sequential),
                        "{name}: n {n}, B {resamples}, {threads} threads"
                    );
                }
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
            PlainTable::new(&steps, n as u32),
            &mut HalfDraws::new(Xoshiro256::from_seed(9)),
            100,
        ));
        for (name, split) in splits() {
            for threads in [2, 3, 7] {
                let split = split(PlainTable::new(&steps, n as u32), 100, 9, threads)
                    .map(|parts| sums(&parts));
                assert_eq!(
                    split.as_ref(),
                    Some(&sequential),
                    "{name}, {threads} threads"
                );
            }
        }
        let skipped = HalfDraws::at(9, 0).count_rejections(33 * n as u64, n as u32);
        assert!(skipped > 0, "the first segment rejects some halves");
    }

    #[test]
    fn a_segment_running_past_its_end_leaves_those_rejections_to_the_next() {
        // 3·2²⁰ tasks: one half in 4,096 is rejected, so the first segment's two resamples end
        // about 1,500 halves past the second segment's first possible one, and with this seed
        // it rejects some of those: they are the second segment's, not the first's.
        let (n, seed) = (3usize << 20, 3u64);
        let steps = steps(n);
        let bound = n as u32;
        let end = 2 * n as u64;
        let own = HalfDraws::at(seed, 0).count_rejections(end, bound);
        let mut drawn_past = own;
        loop {
            let rejected = HalfDraws::at(seed, 0).count_rejections(end + drawn_past, bound);
            if rejected == drawn_past {
                break;
            }
            drawn_past = rejected;
        }
        assert!(
            drawn_past > own,
            "the first segment rejects halves past its end"
        );
        let sequential = sums(&compact_sums(
            PlainTable::new(&steps, bound),
            &mut HalfDraws::new(Xoshiro256::from_seed(seed)),
            4,
        ));
        let segments = Segments::new(4, 2, bound).unwrap();
        let shifted = shifted_sums(PlainTable::new(&steps, bound), &segments, seed);
        assert_eq!(sums(&shifted), sequential);
    }

    #[test]
    fn shifting_is_chosen_while_rejections_are_rare() {
        assert!(shifting_pays(100_000, 2000));
        assert!(shifting_pays(100_000, 9999));
        // 3·2³⁰ tasks: a quarter of the halves are rejected.
        assert!(shifting_pays(3 << 30, 2));
        assert!(!shifting_pays(3 << 30, 3));
        assert!(
            shifting_pays(1 << 20, 1_000_000),
            "a power of two rejects nothing"
        );
    }

    #[test]
    fn one_thread_or_one_resample_is_left_to_the_sequential_loop() {
        let steps = steps(50);
        assert!(Segments::new(10, 1, 50).is_none());
        assert!(Segments::new(1, 4, 50).is_none());
        assert!(
            resample_sums(PlainTable::new(&steps, 50), 10, 1).is_none(),
            "500 draws: not worth a thread"
        );
    }
}
