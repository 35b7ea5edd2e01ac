//! A small deterministic pseudo-random generator (SplitMix64) and seed derivation.
//!
//! The dataset must be byte-identical for a given seed on every machine, so it uses its own
//! generator instead of a crate whose stream could change between versions.

/// SplitMix64: a fast 64-bit generator with good statistical quality for simulation.
#[derive(Debug, Clone)]
pub struct SplitMix64 {
    state: u64,
}

const GOLDEN_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// The SplitMix64 output function: a bijective mix of 64 bits.
pub fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Derives an independent seed from a parent seed and a path of labels, so that adding a
/// stream (a run, a task) never shifts the numbers drawn by another.
pub fn derive(seed: u64, path: &[u64]) -> u64 {
    path.iter().fold(mix64(seed ^ GOLDEN_GAMMA), |acc, &part| {
        mix64(acc ^ mix64(part.wrapping_add(GOLDEN_GAMMA)))
    })
}

/// FNV-1a hash of a string, used to turn stable names into seed labels.
pub fn label(name: &str) -> u64 {
    name.bytes().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01B3)
    })
}

impl SplitMix64 {
    /// A generator starting from `seed`.
    pub fn new(seed: u64) -> Self {
        Self { state: seed }
    }

    /// A generator for the stream named by `path` under `seed`.
    pub fn stream(seed: u64, path: &[u64]) -> Self {
        Self::new(derive(seed, path))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(GOLDEN_GAMMA);
        mix64(self.state)
    }

    /// A uniform number in [0, 1) with 53 bits of precision.
    pub fn unit(&mut self) -> f64 {
        // 53 random bits scaled by 2^-53; the conversion of a 53-bit integer is exact.
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }

    /// A uniform integer in `low..=high`.
    pub fn between(&mut self, low: u32, high: u32) -> u32 {
        if high <= low {
            return low;
        }
        let span = u64::from(high - low) + 1;
        // The modulo bias is below 2^-32 for the small spans used here.
        low + (self.next_u64() % span) as u32
    }

    /// A uniform index in `0..len`; `len` must be positive.
    pub fn index(&mut self, len: usize) -> usize {
        (self.next_u64() % len.max(1) as u64) as usize
    }

    /// A standard normal deviate (Box–Muller).
    pub fn normal(&mut self) -> f64 {
        let u1 = 1.0 - self.unit(); // in (0, 1], so the logarithm is finite
        let u2 = self.unit();
        (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
    }

    /// Shuffles `items` in place (Fisher–Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.index(i + 1);
            items.swap(i, j);
        }
    }

    /// One element of a non-empty slice.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.index(items.len())]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_stream() {
        let mut a = SplitMix64::new(7);
        let mut b = SplitMix64::new(7);
        let xs: Vec<u64> = (0..8).map(|_| a.next_u64()).collect();
        let ys: Vec<u64> = (0..8).map(|_| b.next_u64()).collect();
        assert_eq!(xs, ys);
        assert_ne!(SplitMix64::new(8).next_u64(), xs[0]);
    }

    #[test]
    fn splitmix_reference_values() {
        // Reference outputs of SplitMix64 seeded with 0 (Vigna's reference implementation).
        let mut rng = SplitMix64::new(0);
        assert_eq!(rng.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(rng.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    }

    #[test]
    fn derived_streams_are_independent_of_each_other() {
        assert_ne!(derive(1, &[1, 2]), derive(1, &[2, 1]));
        assert_ne!(derive(1, &[1]), derive(2, &[1]));
        assert_eq!(derive(5, &[label("a"), 3]), derive(5, &[label("a"), 3]));
    }

    #[test]
    fn unit_and_between_stay_in_range() {
        let mut rng = SplitMix64::new(42);
        for _ in 0..10_000 {
            let u = rng.unit();
            assert!((0.0..1.0).contains(&u));
            let k = rng.between(3, 9);
            assert!((3..=9).contains(&k));
        }
    }

    #[test]
    fn normal_has_roughly_unit_variance() {
        let mut rng = SplitMix64::new(3);
        let n = 20_000;
        let xs: Vec<f64> = (0..n).map(|_| rng.normal()).collect();
        let mean = xs.iter().sum::<f64>() / n as f64;
        let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n as f64;
        assert!(mean.abs() < 0.05, "mean {mean}");
        assert!((var - 1.0).abs() < 0.05, "variance {var}");
    }
}
