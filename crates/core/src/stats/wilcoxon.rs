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
    let n = deltas.len();
    let zeros = deltas.iter().filter(|&&d| d == 0.0).count();
    let nonzero = n - zeros;
    check_count(1, nonzero)?;
    let ranked: Vec<f64> = match zero_method {
        ZeroMethod::Pratt => deltas,
        ZeroMethod::Wilcox => deltas.into_iter().filter(|&d| d != 0.0).collect(),
    };
    let ranking = rank_absolute(&ranked);
    let (mut r_plus, mut r_minus) = (0.0, 0.0);
    for (d, r) in ranked.iter().zip(&ranking.ranks) {
        if *d > 0.0 {
            r_plus += r;
        } else if *d < 0.0 {
            r_minus += r;
        }
    }
    let exact = match method {
        WilcoxonMethod::Auto => nonzero <= EXACT_MAX_NONZERO,
        WilcoxonMethod::ScipyAuto => n <= 50 && ((!ranking.has_ties && zeros == 0) || n <= 13),
        WilcoxonMethod::Exact => nonzero <= EXACT_LIMIT,
        WilcoxonMethod::Normal => false,
    };
    let (used, z, p_value) = if exact {
        let signed_ranks: Vec<u64> = ranked
            .iter()
            .zip(&ranking.ranks)
            .filter(|(d, _)| **d != 0.0)
            .map(|(_, r)| (2.0 * r).round() as u64)
            .collect();
        let p = exact_two_sided(&signed_ranks, (2.0 * r_plus).round() as u64);
        (PValueMethod::Exact, None, p)
    } else {
        let z = normal_z(&ranked, &ranking, r_plus, zero_method);
        (PValueMethod::Normal, Some(z), normal::two_sided_p(z))
    };
    Ok(Wilcoxon {
        zero_method,
        method: used,
        n,
        zeros,
        has_ties: ranking.has_ties,
        r_plus,
        r_minus,
        statistic: r_plus.min(r_minus),
        z,
        p_value,
    })
}

/// Average ranks of |d| (1-based) and the sizes of tied groups of non-zero |d|.
struct Ranking {
    ranks: Vec<f64>,
    /// Sizes of groups of equal non-zero |d| (zeros excluded, as scipy's Pratt tie correction).
    tie_groups: Vec<usize>,
    has_ties: bool,
}

fn rank_absolute(values: &[f64]) -> Ranking {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&a, &b| values[a].abs().total_cmp(&values[b].abs()));
    let mut ranks = vec![0.0; values.len()];
    let mut tie_groups = Vec::new();
    let mut start = 0;
    while start < order.len() {
        let magnitude = values[order[start]].abs();
        let end = start
            + order[start..]
                .iter()
                .take_while(|&&i| values[i].abs() == magnitude)
                .count();
        // Positions start+1 ..= end share the average rank.
        let average = (start + 1 + end) as f64 / 2.0;
        for &i in &order[start..end] {
            ranks[i] = average;
        }
        if magnitude != 0.0 {
            tie_groups.push(end - start);
        }
        start = end;
    }
    let has_ties = tie_groups.iter().any(|&size| size > 1);
    Ranking {
        ranks,
        tie_groups,
        has_ties,
    }
}

/// Tie-corrected z of R⁺ (Cureton's adjustment for Pratt's zeros), without continuity correction.
fn normal_z(ranked: &[f64], ranking: &Ranking, r_plus: f64, zero_method: ZeroMethod) -> f64 {
    let count = ranked.len() as f64;
    let mut mean = count * (count + 1.0) / 4.0;
    let mut variance_24 = count * (count + 1.0) * (2.0 * count + 1.0);
    if zero_method == ZeroMethod::Pratt {
        let zeros = ranked.iter().filter(|&&d| d == 0.0).count() as f64;
        mean -= zeros * (zeros + 1.0) / 4.0;
        variance_24 -= zeros * (zeros + 1.0) * (2.0 * zeros + 1.0);
    }
    let ties: f64 = ranking
        .tie_groups
        .iter()
        .map(|&t| {
            let t = t as f64;
            t * t * t - t
        })
        .sum();
    let se = ((variance_24 - ties / 2.0) / 24.0).sqrt();
    (r_plus - mean) / se
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
    fn average_ranks_for_ties() {
        let r = rank_absolute(&[0.5, -0.5, 0.1, 2.0]);
        assert_eq!(r.ranks, vec![2.5, 2.5, 1.0, 4.0]);
        assert!(r.has_ties);
        assert_eq!(r.tie_groups, vec![1, 2, 1]);
    }
}
