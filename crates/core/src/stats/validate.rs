//! Input checks shared by the statistics, and the delta rounding convention.

use super::outcome::{NotComputable, Stat};

/// Grid deltas are rounded to before zeros and ties are detected (statistics.md §2).
pub const DELTA_RESOLUTION: f64 = 1e-9;

/// `1 / DELTA_RESOLUTION`, exact in binary so `k / DELTA_STEPS_PER_UNIT` is correctly rounded.
const DELTA_STEPS_PER_UNIT: f64 = 1e9;

/// Largest accepted magnitude of an input value: squares and sums of up to 10⁸ such values stay
/// finite, so no statistic can overflow into ∞ or NaN.
pub const MAX_MAGNITUDE: f64 = 1e100;

/// Default two-sided confidence level of every interval.
pub const DEFAULT_LEVEL: f64 = 0.95;

/// Rounds a delta to the nearest multiple of [`DELTA_RESOLUTION`] (half away from zero, so
/// `round_delta(-d) == -round_delta(d)`).
pub fn round_delta(delta: f64) -> f64 {
    round_half_away_from_zero(delta * DELTA_STEPS_PER_UNIT) / DELTA_STEPS_PER_UNIT
}

/// Exactly `x.round()` (half away from zero), without its library call: baseline x86-64 has
/// no rounding instruction, and every statistic rounds each delta, so the call showed in
/// profiles.
///
/// Below 2⁵² in magnitude, adding and subtracting 2⁵² rounds |x| to an integer (ties to even,
/// exactly); a tie rounded down is then moved up. From 2⁵² on every float is an integer, and
/// NaN and ±∞ are returned as they are.
fn round_half_away_from_zero(x: f64) -> f64 {
    const TWO_POW_52: f64 = 4_503_599_627_370_496.0;
    let magnitude = x.abs();
    if magnitude.is_nan() || magnitude >= TWO_POW_52 {
        return x;
    }
    let nearest = (magnitude + TWO_POW_52) - TWO_POW_52;
    let rounded = if magnitude - nearest >= 0.5 {
        nearest + 1.0
    } else {
        nearest
    };
    // `copysign` keeps the sign of a zero result (round(-0.3) is -0.0).
    rounded.copysign(x)
}

/// Per-task deltas `candidate[i] - baseline[i]`, each rounded with [`round_delta`].
pub fn paired_deltas(baseline: &[f64], candidate: &[f64]) -> Stat<Vec<f64>> {
    check_same_length(baseline.len(), candidate.len())?;
    check_finite(baseline)?;
    check_finite(candidate)?;
    let deltas: Vec<f64> = baseline
        .iter()
        .zip(candidate)
        .map(|(b, c)| round_delta(c - b))
        .collect();
    check_finite(&deltas)?;
    Ok(deltas)
}

/// Checks deltas are finite and rounds each with [`round_delta`] (idempotent, so deltas from
/// [`paired_deltas`] pass through unchanged).
pub fn rounded_deltas(deltas: &[f64]) -> Stat<Vec<f64>> {
    check_finite(deltas)?;
    Ok(deltas.iter().map(|&d| round_delta(d)).collect())
}

/// Fails with [`NotComputable::NonFinite`] at the first NaN or infinite value, or with
/// [`NotComputable::OutOfRange`] at the first value beyond ±[`MAX_MAGNITUDE`].
pub fn check_finite(values: &[f64]) -> Stat<()> {
    // One pass: ±∞ is out of range too, and told apart from a finite value below.
    match values
        .iter()
        .position(|v| v.is_nan() || v.abs() > MAX_MAGNITUDE)
    {
        None => Ok(()),
        Some(index) if values[index].is_finite() => Err(NotComputable::OutOfRange { index }),
        Some(index) => Err(NotComputable::NonFinite { index }),
    }
}

/// Fails with [`NotComputable::LengthMismatch`] unless both lengths agree.
pub fn check_same_length(left: usize, right: usize) -> Stat<()> {
    if left == right {
        Ok(())
    } else {
        Err(NotComputable::LengthMismatch { left, right })
    }
}

/// Fails with [`NotComputable::NotEnoughData`] when `got < needed`.
pub fn check_count(needed: usize, got: usize) -> Stat<()> {
    if got >= needed {
        Ok(())
    } else {
        Err(NotComputable::NotEnoughData { needed, got })
    }
}

/// Checks a two-sided confidence level lies strictly between 0 and 1.
pub fn check_level(level: f64) -> Stat<()> {
    if level > 0.0 && level < 1.0 {
        Ok(())
    } else {
        Err(NotComputable::invalid(
            "level",
            "must lie strictly between 0 and 1",
        ))
    }
}

/// Checks a probability lies in `[0, 1]` (and is not NaN).
pub fn check_probability(name: &str, p: f64) -> Stat<()> {
    if (0.0..=1.0).contains(&p) {
        Ok(())
    } else {
        Err(NotComputable::invalid(name, "must lie in [0, 1]"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math;

    #[test]
    fn rounding_removes_float_noise_and_is_odd() {
        assert_eq!(round_delta(0.3 - 0.1 - 0.2), 0.0);
        assert_eq!(round_delta(0.7 - 0.4), round_delta(0.3));
        assert_eq!(round_delta(-0.123_456_789_4), -round_delta(0.123_456_789_4));
    }

    #[test]
    fn rounding_matches_the_standard_library_bit_for_bit() {
        let edges = [
            0.0,
            -0.0,
            0.5,
            -0.5,
            1.5,
            2.5,
            0.499_999_999_999_999_94,
            -0.499_999_999_999_999_94,
            4_503_599_627_370_495.5,
            -4_503_599_627_370_495.5,
            4_503_599_627_370_496.0,
            9_007_199_254_740_993.0,
            f64::MAX,
            f64::MIN_POSITIVE,
            5e-324,
            f64::INFINITY,
            f64::NEG_INFINITY,
        ];
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        // Arbitrary bit patterns, and uniform values scaled to magnitudes from 2^-8 to 2^55.
        let random = (0..400_000).map(|i| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            if i % 2 == 0 {
                f64::from_bits(state)
            } else {
                let unit = (state >> 11) as f64 / (1_u64 << 53) as f64 - 0.5;
                unit * math::powi(2_f64, (state % 64) as i32 - 8)
            }
        });
        for x in edges.into_iter().chain(random) {
            let (fast, reference) = (round_half_away_from_zero(x), x.round());
            assert!(
                fast.to_bits() == reference.to_bits() || (fast.is_nan() && reference.is_nan()),
                "{x:e}: {fast:e} vs {reference:e}"
            );
        }
        assert!(round_half_away_from_zero(f64::NAN).is_nan());
    }

    #[test]
    fn paired_deltas_validates() {
        assert_eq!(
            paired_deltas(&[1.0], &[1.0, 2.0]),
            Err(NotComputable::LengthMismatch { left: 1, right: 2 })
        );
        assert_eq!(
            paired_deltas(&[1.0, f64::NAN], &[1.0, 2.0]),
            Err(NotComputable::NonFinite { index: 1 })
        );
        assert_eq!(paired_deltas(&[0.2, 1.0], &[0.5, 0.0]), Ok(vec![0.3, -1.0]));
        assert_eq!(
            paired_deltas(&[0.0, -1e101], &[0.0, 0.0]),
            Err(NotComputable::OutOfRange { index: 1 })
        );
    }

    #[test]
    fn level_and_probability_domains() {
        assert!(check_level(0.95).is_ok());
        assert!(check_level(1.0).is_err());
        assert!(check_level(f64::NAN).is_err());
        assert!(check_probability("p", 0.0).is_ok());
        assert!(check_probability("p", -0.1).is_err());
    }
}
