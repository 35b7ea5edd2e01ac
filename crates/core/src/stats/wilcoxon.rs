//! Wilcoxon signed-rank test on paired deltas (statistics.md §4).
//!
//! Conventions, checked against scipy 1.17 `wilcoxon(d, zero_method=..., method=...)` with its
//! default `correction=False`:
//! * deltas are rounded to 1e-9 before zeros and ties are detected;
//! * ties get average ranks of |d|;
//! * `Pratt` ranks the zeros with the rest and drops them afterwards (Cureton's adjusted mean and
//!   variance); `Wilcox` drops zeros before ranking (scipy's default);
//! * the normal approximation is tie-corrected and has no continuity correction;
//! * the exact p-value enumerates all sign flips of the non-zero deltas on their observed ranks
//!   (a dynamic programme over doubled rank sums), so it stays exact with ties and zeros; it equals
//!   scipy's `method='exact'` without ties/zeros and its permutation test
//!   (`stats.PermutationMethod`) with them. Two-sided p = min(1, 2·min(P(R⁺ ≤ r), P(R⁺ ≥ r))).
//!
//! Method choice: [`WilcoxonMethod::Auto`] follows statistics.md — exact when at most
//! [`EXACT_MAX_NONZERO`] (20) deltas are non-zero, normal otherwise.
//! [`WilcoxonMethod::ScipyAuto`] mirrors scipy 1.17's `method='auto'`: normal when more than 50
//! deltas (zeros included); else exact when there are no ties and no zeros; else exact
//! enumeration (scipy's permutation test) when at most 13 deltas; else normal.

use serde::{Deserialize, Serialize};

use super::dist::normal;
use super::outcome::Stat;
use super::validate::{check_count, rounded_deltas};
use super::win_tie_loss::WinTieLoss;

/// Largest non-zero count for which [`WilcoxonMethod::Auto`] uses the exact distribution.
pub const EXACT_MAX_NONZERO: usize = 20;
/// Largest non-zero count for which [`WilcoxonMethod::Exact`] is honoured (the enumeration costs
/// O(n³)); above it the normal approximation is used and reported.
pub const EXACT_LIMIT: usize = 400;

/// How zero deltas are treated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ZeroMethod {
    /// Zeros are ranked with the rest, then excluded from R⁺/R⁻ (the main result).
    Pratt,
    /// Zeros are dropped before ranking (scipy's default; for parity).
    Wilcox,
}

/// Which p-value computation to use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WilcoxonMethod {
    /// statistics.md: exact when at most 20 non-zero deltas, normal otherwise.
    Auto,
    /// scipy 1.17's `method='auto'` decision (see the module docs).
    ScipyAuto,
    /// Exact enumeration (up to [`EXACT_LIMIT`] non-zero deltas).
    Exact,
    /// Tie-corrected normal approximation.
    Normal,
}

/// The p-value computation that was actually used.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PValueMethod {
    /// Exact distribution of R⁺ over all sign flips.
    Exact,
    /// Normal approximation.
    Normal,
}

/// Result of a Wilcoxon signed-rank test.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Wilcoxon {
    /// Zero handling used.
    pub zero_method: ZeroMethod,
    /// p-value computation used.
    pub method: PValueMethod,
    /// Number of deltas.
    pub n: usize,
    /// Number of zero deltas (after rounding).
    pub zeros: usize,
    /// Whether non-zero |d| values share ranks.
    pub has_ties: bool,
    /// Sum of ranks of positive deltas.
    pub r_plus: f64,
    /// Sum of ranks of negative deltas.
    pub r_minus: f64,
    /// min(R⁺, R⁻), scipy's two-sided statistic.
    pub statistic: f64,
    /// Standardised R⁺, present for the normal approximation.
    pub z: Option<f64>,
    /// Two-sided p-value.
    pub p_value: f64,
}

/// Wilcoxon signed-rank test of H0: deltas symmetric around 0.
///
/// Needs at least one non-zero delta ([`super::NotComputable::NotEnoughData`] otherwise).
pub fn wilcoxon_signed_rank(
    deltas: &[f64],
    zero_method: ZeroMethod,
    method: WilcoxonMethod,
) -> Stat<Wilcoxon> {
    let deltas = rounded_deltas(deltas)?;
    SignedRanks::new(&deltas).test(zero_method, method)
}

/// Deltas (checked and rounded) ranked by |d| once, for both zero methods: the distinct
/// non-zero magnitudes in ascending order, each with how many deltas of each sign have it.
///
/// Zeros have the smallest magnitude, so Pratt's ranks of the non-zero deltas are Wilcox's
/// shifted by the number of zeros: one sort serves both, and the sign counts besides.
/// Rank sums are kept doubled in integers (average ranks are half-integers), so they are exact
/// and equal to summing the ranks one by one in floating point (exact below 2⁵³).
pub(crate) struct SignedRanks<'a> {
    deltas: &'a [f64],
    zeros: usize,
    groups: Vec<MagnitudeGroup>,
}

/// Deltas sharing one non-zero |d|.
#[derive(Debug, Clone, Copy, PartialEq)]
struct MagnitudeGroup {
    magnitude: f64,
    positive: usize,
    negative: usize,
}

impl MagnitudeGroup {
    /// Counts one more delta of this magnitude.
    fn add(&mut self, positive: bool) {
        if positive {
            self.positive += 1;
        } else {
            self.negative += 1;
        }
    }

    /// Deltas in the group.
    fn size(&self) -> usize {
        self.positive + self.negative
    }
}

/// Zero handling as a rank layout: how many ranked deltas precede the first non-zero one.
fn rank_offset(zero_method: ZeroMethod, zeros: usize) -> usize {
    match zero_method {
        ZeroMethod::Pratt => zeros,
        ZeroMethod::Wilcox => 0,
    }
}

/// Sum of the doubled average ranks, `start + 1 + end`, of the positions `start..end`.
fn doubled_rank(start: usize, end: usize) -> u64 {
    (start + 1 + end) as u64
}

impl<'a> SignedRanks<'a> {
    /// Ranks `deltas`, which must be finite and rounded ([`rounded_deltas`]).
    pub(crate) fn new(deltas: &'a [f64]) -> SignedRanks<'a> {
        // |d| as its bit pattern (ordered like the value for non-negative floats), shifted to
        // make room for a "positive" bit: sorting the keys sorts by |d|.
        let mut keys: Vec<u64> = deltas
            .iter()
            .map(|&d| (d.abs().to_bits() << 1) | u64::from(d > 0.0))
            .collect();
        keys.sort_unstable();
        let zeros = keys.iter().take_while(|&&key| key >> 1 == 0).count();
        let mut groups: Vec<MagnitudeGroup> = Vec::new();
        for &key in &keys[zeros..] {
            let magnitude = f64::from_bits(key >> 1);
            let positive = key & 1 == 1;
            match groups.last_mut() {
                Some(group) if group.magnitude == magnitude => group.add(positive),
                _ => {
                    let mut group = MagnitudeGroup {
                        magnitude,
                        positive: 0,
                        negative: 0,
                    };
                    group.add(positive);
                    groups.push(group);
                }
            }
        }
        SignedRanks {
            deltas,
            zeros,
            groups,
        }
    }

    /// Wins, ties and losses of the deltas.
    pub(crate) fn win_tie_loss(&self) -> WinTieLoss {
        let wins = self.groups.iter().map(|g| g.positive).sum();
        let losses = self.groups.iter().map(|g| g.negative).sum();
        WinTieLoss {
            wins,
            ties: self.zeros,
            losses,
        }
    }

    /// The signed-rank test with this zero handling and p-value method.
    pub(crate) fn test(&self, zero_method: ZeroMethod, method: WilcoxonMethod) -> Stat<Wilcoxon> {
        let n = self.deltas.len();
        let zeros = self.zeros;
        let nonzero = n - zeros;
        check_count(1, nonzero)?;
        let offset = rank_offset(zero_method, zeros);
        let (mut doubled_plus, mut doubled_minus) = (0_u64, 0_u64);
        let mut start = offset;
        for group in &self.groups {
            let end = start + group.size();
            let rank = doubled_rank(start, end);
            doubled_plus += group.positive as u64 * rank;
            doubled_minus += group.negative as u64 * rank;
            start = end;
        }
        let (r_plus, r_minus) = (doubled_plus as f64 / 2.0, doubled_minus as f64 / 2.0);
        let has_ties = self.groups.iter().any(|group| group.size() > 1);
        let exact = match method {
            WilcoxonMethod::Auto => nonzero <= EXACT_MAX_NONZERO,
            WilcoxonMethod::ScipyAuto => n <= 50 && ((!has_ties && zeros == 0) || n <= 13),
            WilcoxonMethod::Exact => nonzero <= EXACT_LIMIT,
            WilcoxonMethod::Normal => false,
        };
        let (used, z, p_value) = if exact {
            let p = exact_two_sided(&self.doubled_ranks(offset), doubled_plus);
            (PValueMethod::Exact, None, p)
        } else {
            let z = self.normal_z(r_plus, zero_method);
            (PValueMethod::Normal, Some(z), normal::two_sided_p(z))
        };
        Ok(Wilcoxon {
            zero_method,
            method: used,
            n,
            zeros,
            has_ties,
            r_plus,
            r_minus,
            statistic: r_plus.min(r_minus),
            z,
            p_value,
        })
    }

    /// Doubled average ranks of the non-zero deltas, in the deltas' order.
    fn doubled_ranks(&self, offset: usize) -> Vec<u64> {
        let mut starts = Vec::with_capacity(self.groups.len());
        let mut start = offset;
        for group in &self.groups {
            starts.push(start);
            start += group.size();
        }
        self.deltas
            .iter()
            .filter(|&&d| d != 0.0)
            .map(|d| {
                let magnitude = d.abs();
                let g = self
                    .groups
                    .partition_point(|group| group.magnitude < magnitude);
                doubled_rank(starts[g], starts[g] + self.groups[g].size())
            })
            .collect()
    }

    /// Tie-corrected z of R⁺ (Cureton's adjustment for Pratt's zeros), without continuity
    /// correction; tied groups are those of equal non-zero |d| (zeros excluded, as scipy's
    /// Pratt tie correction).
    fn normal_z(&self, r_plus: f64, zero_method: ZeroMethod) -> f64 {
        let nonzero = self.deltas.len() - self.zeros;
        let count = (nonzero + rank_offset(zero_method, self.zeros)) as f64;
        let mut mean = count * (count + 1.0) / 4.0;
        let mut variance_24 = count * (count + 1.0) * (2.0 * count + 1.0);
        if zero_method == ZeroMethod::Pratt {
            let zeros = self.zeros as f64;
            mean -= zeros * (zeros + 1.0) / 4.0;
            variance_24 -= zeros * (zeros + 1.0) * (2.0 * zeros + 1.0);
        }
        let ties: f64 = self
            .groups
            .iter()
            .map(|group| {
                let t = group.size() as f64;
                t * t * t - t
            })
            .sum();
        let se = ((variance_24 - ties / 2.0) / 24.0).sqrt();
        (r_plus - mean) / se
    }
}

/// Exact two-sided p of R⁺ given the doubled ranks of the non-zero deltas, by counting sign
/// assignments with each doubled rank sum (probabilities halve per delta, exact in binary
/// floating point up to 53 deltas).
fn exact_two_sided(doubled_ranks: &[u64], observed_doubled: u64) -> f64 {
    let total: u64 = doubled_ranks.iter().sum();
    let mut probability = vec![0.0_f64; total as usize + 1];
    probability[0] = 1.0;
    let mut reach = 0_usize;
    for &rank in doubled_ranks {
        let rank = rank as usize;
        reach += rank;
        for s in (0..=reach).rev() {
            let without = probability[s];
            let with = if s >= rank {
                probability[s - rank]
            } else {
                0.0
            };
            probability[s] = 0.5 * (without + with);
        }
    }
    // R⁺ sums a subset of the ranks, so the observed sum never exceeds the total.
    let observed = (observed_doubled as usize).min(total as usize);
    let lower: f64 = probability[..=observed].iter().sum();
    let upper: f64 = probability[observed..].iter().sum();
    (2.0 * lower.min(upper)).min(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::NotComputable;

    #[test]
    fn exact_distribution_of_three_distinct_ranks() {
        // Ranks 1, 2, 3: R+ takes 0,1,2,3,3,4,5,6 over 8 sign patterns.
        // R+ = 6 → P(R+ ≥ 6) = 1/8 → p = 0.25.
        let w = wilcoxon_signed_rank(&[1.0, 2.0, 3.0], ZeroMethod::Wilcox, WilcoxonMethod::Auto)
            .unwrap();
        assert_eq!(w.method, PValueMethod::Exact);
        assert_eq!((w.r_plus, w.r_minus, w.statistic), (6.0, 0.0, 0.0));
        assert_eq!(w.p_value, 0.25);
    }

    #[test]
    fn pratt_ranks_zeros_wilcox_drops_them() {
        let d = [0.0, 1.0, -2.0, 3.0];
        let pratt = wilcoxon_signed_rank(&d, ZeroMethod::Pratt, WilcoxonMethod::Normal).unwrap();
        assert_eq!((pratt.r_plus, pratt.r_minus, pratt.zeros), (6.0, 3.0, 1));
        let wilcox = wilcoxon_signed_rank(&d, ZeroMethod::Wilcox, WilcoxonMethod::Normal).unwrap();
        assert_eq!((wilcox.r_plus, wilcox.r_minus), (4.0, 2.0));
    }

    #[test]
    fn no_nonzero_delta_is_not_enough_data() {
        for method in [ZeroMethod::Pratt, ZeroMethod::Wilcox] {
            assert_eq!(
                wilcoxon_signed_rank(&[0.0, 1e-12], method, WilcoxonMethod::Auto),
                Err(NotComputable::NotEnoughData { needed: 1, got: 0 })
            );
        }
    }

    #[test]
    fn groups_of_equal_magnitude_with_their_signs() {
        let deltas = [0.5, -0.5, 0.1, 2.0, 0.0];
        let ranks = SignedRanks::new(&deltas);
        assert_eq!(ranks.zeros, 1);
        let sizes: Vec<(f64, usize, usize)> = ranks
            .groups
            .iter()
            .map(|g| (g.magnitude, g.positive, g.negative))
            .collect();
        assert_eq!(sizes, vec![(0.1, 1, 0), (0.5, 1, 1), (2.0, 1, 0)]);
        // Pratt ranks 0.1 → 2, ±0.5 → 3.5, 2.0 → 5; Wilcox one lower.
        assert_eq!(ranks.doubled_ranks(1), vec![7, 7, 4, 10]);
        assert_eq!(ranks.doubled_ranks(0), vec![5, 5, 2, 8]);
        let w = ranks
            .test(ZeroMethod::Pratt, WilcoxonMethod::Normal)
            .unwrap();
        assert_eq!((w.r_plus, w.r_minus, w.has_ties), (10.5, 3.5, true));
    }
}
