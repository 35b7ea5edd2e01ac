//! A small seeded PRNG: xoshiro256** seeded through SplitMix64, with Lemire's unbiased
//! bounded integers. Integer-only, so streams are identical on native and wasm32.

use super::table::StepTable;

/// xoshiro256** (Blackman & Vigna), 256 bits of state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Xoshiro256 {
    state: [u64; 4],
}

impl Xoshiro256 {
    /// Generator whose state is four successive SplitMix64 outputs from `seed` (the seeding the
    /// xoshiro authors recommend; never all-zero).
    pub fn from_seed(seed: u64) -> Self {
        let mut splitmix = seed;
        let mut next = || {
            splitmix = splitmix.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = splitmix;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        };
        Self {
            state: [next(), next(), next(), next()],
        }
    }

    /// The generator with this state (not all-zero).
    pub(super) fn from_state(state: [u64; 4]) -> Self {
        Self { state }
    }

    /// The current state.
    pub(super) fn state(&self) -> [u64; 4] {
        self.state
    }

    /// Next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        let s = &mut self.state;
        let result = s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        result
    }

    /// Uniform integer in `0..bound` (`bound ≥ 1`) by Lemire's multiply-shift with rejection,
    /// exactly unbiased.
    #[inline]
    pub fn below(&mut self, bound: u64) -> u64 {
        let mut product = u128::from(self.next_u64()) * u128::from(bound);
        if (product as u64) < bound {
            let threshold = bound.wrapping_neg() % bound;
            while (product as u64) < threshold {
                product = u128::from(self.next_u64()) * u128::from(bound);
            }
        }
        (product >> 64) as u64
    }
}

/// Bounded draws below a `u32` bound, using both 32-bit halves of each 64-bit output.
#[derive(Debug, Clone)]
pub struct HalfDraws {
    rng: Xoshiro256,
    spare: Option<u32>,
    /// How many halves bounded draws have rejected so far ([`rejected`](Self::rejected)).
    rejected: u64,
}

impl HalfDraws {
    /// Draws from `rng`'s stream, low half of each output first.
    pub fn new(rng: Xoshiro256) -> Self {
        Self {
            rng,
            spare: None,
            rejected: 0,
        }
    }

    /// The draws of `seed`'s stream from its `half`-th 32-bit half on (low halves are the even
    /// ones): the same as making a stream and taking `half` halves, without taking them.
    pub fn at(seed: u64, half: u64) -> Self {
        let mut rng = Xoshiro256::from_seed(seed).jumped(u128::from(half / 2));
        let spare = (half % 2 == 1).then(|| (rng.next_u64() >> 32) as u32);
        Self {
            rng,
            spare,
            rejected: 0,
        }
    }

    /// How many halves the bounded draws from this stream ([`below`](Self::below) and the
    /// summed draws) have rejected: with the draws made, how far the stream went.
    pub fn rejected(&self) -> u64 {
        self.rejected
    }

    /// The next 32-bit half of the stream.
    #[inline]
    pub(super) fn next_u32(&mut self) -> u32 {
        match self.spare.take() {
            Some(high) => high,
            None => {
                let bits = self.rng.next_u64();
                self.spare = Some((bits >> 32) as u32);
                bits as u32
            }
        }
    }

    /// How many of the next `halves` 32-bit halves [`below`](Self::below) would reject for
    /// `bound` (Lemire's method rejects a half by its own value alone, whatever came before),
    /// consuming them.
    pub fn count_rejections(&mut self, halves: u64, bound: u32) -> u64 {
        let mut local = self.clone();
        let count = local.count_rejections_here(halves, bound);
        *self = local;
        count
    }

    #[inline(always)]
    fn count_rejections_here(&mut self, halves: u64, bound: u32) -> u64 {
        let threshold = bound.wrapping_neg() % bound;
        let rejected =
            |half: u32| u64::from(((u64::from(half) * u64::from(bound)) as u32) < threshold);
        let mut count = 0;
        let mut left = halves;
        if left > 0 {
            if let Some(high) = self.spare.take() {
                count += rejected(high);
                left -= 1;
            }
        }
        for _ in 0..left / 2 {
            let bits = self.rng.next_u64();
            count += rejected(bits as u32) + rejected((bits >> 32) as u32);
        }
        if left % 2 == 1 {
            count += rejected(self.next_u32());
        }
        count
    }

    /// Uniform integer in `0..bound` (`bound ≥ 1`), Lemire's method on 32 bits.
    #[inline]
    pub fn below(&mut self, bound: u32) -> u32 {
        let first = self.next_u32();
        self.below_from(first, bound)
    }

    /// The sum of `table`'s step `i` over the next `count` draws `i` of [`below`](Self::below)
    /// with the table's bound: the same draws, two to a 64-bit output while neither half can
    /// be rejected (a half whose product's low word is at least the bound is always accepted),
    /// which is all but a few in 10⁴ of them.
    #[inline]
    pub(super) fn sum_of_draws(&mut self, table: impl StepTable, count: usize) -> i64 {
        // A local copy of the generator stays in registers; through `self` every step would
        // store the state and load it back (a store-to-load wait per output, in the chain).
        let mut local = self.clone();
        let sum = local.sum_of_draws_here(table, count);
        *self = local;
        table.total(sum, count)
    }

    #[inline(always)]
    fn sum_of_draws_here(&mut self, table: impl StepTable, count: usize) -> i64 {
        let bound = table.bound();
        let wide = u64::from(bound);
        let step = table.lookup();
        let mut sum = 0i64;
        let mut left = count;
        loop {
            // One draw at a time while a spare half waits, or for the last draw.
            while left > 0 && (left == 1 || self.spare.is_some()) {
                sum += step(self.below(bound) as usize);
                left -= 1;
            }
            if left == 0 {
                return sum;
            }
            // Both halves of each output, until either could be rejected.
            while left >= 2 {
                let bits = self.rng.next_u64();
                let low = u64::from(bits as u32) * wide;
                let high = (bits >> 32) * wide;
                // Either half could be rejected: one comparison of the smaller low word.
                if (low as u32).min(high as u32) < bound {
                    // The slow path, from this output's low half, the high half kept for
                    // later.
                    self.spare = Some((bits >> 32) as u32);
                    sum += step(self.below_from(bits as u32, bound) as usize);
                    left -= 1;
                    break;
                }
                sum += step((low >> 32) as usize) + step((high >> 32) as usize);
                left -= 2;
            }
        }
    }

    /// [`below`](Self::below) whose first half, already taken from the stream, is `first`.
    #[inline]
    fn below_from(&mut self, first: u32, bound: u32) -> u32 {
        let mut product = u64::from(first) * u64::from(bound);
        if (product as u32) < bound {
            let threshold = bound.wrapping_neg() % bound;
            while (product as u32) < threshold {
                self.rejected += 1;
                product = u64::from(self.next_u32()) * u64::from(bound);
            }
        }
        (product >> 32) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::super::table::{pad, PlainTable};
    use super::*;

    #[test]
    fn matches_reference_outputs_for_state_1_2_3_4() {
        let mut rng = Xoshiro256 {
            state: [1, 2, 3, 4],
        };
        assert_eq!(rng.next_u64(), 11520);
        assert_eq!(rng.next_u64(), 0);
        assert_eq!(rng.next_u64(), 1_509_978_240);
    }

    #[test]
    fn bounded_draws_cover_the_range_uniformly() {
        let mut rng = Xoshiro256::from_seed(7);
        let mut counts = [0u32; 6];
        for _ in 0..60_000 {
            counts[rng.below(6) as usize] += 1;
        }
        // Each face expects 10 000 with sd ≈ 91; allow 6 sd.
        assert!(
            counts.iter().all(|&c| (9_450..=10_550).contains(&c)),
            "{counts:?}"
        );
        assert_eq!(rng.below(1), 0);
        let mut halves = HalfDraws::new(Xoshiro256::from_seed(7));
        let mut counts = [0u32; 6];
        for _ in 0..60_000 {
            counts[halves.below(6) as usize] += 1;
        }
        assert!(
            counts.iter().all(|&c| (9_450..=10_550).contains(&c)),
            "{counts:?}"
        );
    }

    #[test]
    fn a_stream_started_at_a_half_continues_the_stream() {
        for start in [0u64, 1, 2, 7, 1_000, 1_001] {
            let mut walked = HalfDraws::new(Xoshiro256::from_seed(3));
            for _ in 0..start {
                walked.next_u32();
            }
            let mut jumped = HalfDraws::at(3, start);
            for _ in 0..9 {
                assert_eq!(jumped.next_u32(), walked.next_u32(), "from half {start}");
            }
        }
    }

    #[test]
    fn counted_rejections_are_the_halves_below_skips() {
        // 3·2³⁰ rejects a quarter of all halves: every draw path is taken often.
        let bound = 3 << 30;
        for (start, draws) in [(0u64, 1_000u64), (1, 999), (5, 1)] {
            let mut sampled = HalfDraws::at(11, start);
            for _ in 0..draws {
                sampled.below(bound);
            }
            // The draws took `draws` accepted halves and the rejected ones among them.
            let mut halves = draws;
            loop {
                let rejected = HalfDraws::at(11, start).count_rejections(halves, bound);
                if halves == draws + rejected {
                    break;
                }
                halves = draws + rejected;
            }
            assert!(halves > draws + draws / 10, "a quarter is rejected");
            let mut counted = HalfDraws::at(11, start + halves);
            for _ in 0..5 {
                assert_eq!(counted.next_u32(), sampled.next_u32());
            }
        }
    }

    #[test]
    fn summed_draws_are_the_sum_over_single_draws() {
        // 3·2³⁰ rejects a quarter of all halves (every path taken often); 7 and 100,000 almost
        // none; odd counts and starts on a high half leave a spare half between calls.
        for bound in [1u32, 7, 100_000, 3 << 30] {
            let steps: Vec<i32> = (0..bound.min(1 << 20))
                .map(|i| (i as i32).wrapping_mul(2_654_435_761_u32 as i32) >> 8)
                .collect();
            let bound = steps.len() as u32;
            let padded = pad(steps.clone());
            let table = PlainTable::new(&padded, bound);
            for start in [0u64, 1, 6] {
                let mut single = HalfDraws::at(5, start);
                let mut summed = HalfDraws::at(5, start);
                for count in [0usize, 1, 2, 3, 1_000, 999, 5] {
                    let expected: i64 = (0..count)
                        .map(|_| i64::from(steps[single.below(bound) as usize]))
                        .sum();
                    assert_eq!(
                        summed.sum_of_draws(table, count),
                        expected,
                        "bound {bound}, start {start}, count {count}"
                    );
                }
                assert_eq!(
                    summed.next_u32(),
                    single.next_u32(),
                    "the streams go on alike"
                );
            }
        }
    }

    #[test]
    fn seeding_uses_splitmix64() {
        // SplitMix64 from seed 0 starts e220a8397b1dcdaf, 6e789e6aa1b965f4, 06c45d188009454f.
        let rng = Xoshiro256::from_seed(0);
        assert_eq!(rng.state[0], 0xE220_A839_7B1D_CDAF);
        assert_eq!(rng.state[1], 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(rng.state[2], 0x06C4_5D18_8009_454F);
    }

    #[test]
    fn same_seed_same_stream() {
        let a: Vec<u64> = {
            let mut r = Xoshiro256::from_seed(42);
            (0..5).map(|_| r.next_u64()).collect()
        };
        let mut r = Xoshiro256::from_seed(42);
        assert!(a.iter().all(|&x| x == r.next_u64()));
        assert_ne!(Xoshiro256::from_seed(43), Xoshiro256::from_seed(42));
    }
}
