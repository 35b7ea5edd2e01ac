//! McNemar's test for one binary outcome per task in each run (statistics.md §4).

use serde::{Deserialize, Serialize};

use super::dist::Binomial;
use super::outcome::{NotComputable, Stat};
use super::validate::check_same_length;

/// Result of McNemar's exact test and its mid-p variant.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct McNemar {
    /// Tasks the baseline passed and the candidate failed (b).
    pub baseline_only: u64,
    /// Tasks the candidate passed and the baseline failed (c).
    pub candidate_only: u64,
    /// Exact two-sided p: `min(1, 2·P(X ≤ min(b, c)))`, X ~ Bin(b + c, ½)
    /// (statsmodels `mcnemar(exact=True)`).
    pub p_exact: f64,
    /// Mid-p (Fagerland, Lydersen & Laake 2013): the exact p minus `P(X = min(b, c))`,
    /// capped at 1.
    pub p_mid: f64,
}

/// McNemar's test from the discordant counts. Needs at least one discordant pair.
pub fn mcnemar(baseline_only: u64, candidate_only: u64) -> Stat<McNemar> {
    let discordant = baseline_only
        .checked_add(candidate_only)
        .ok_or_else(|| NotComputable::invalid("counts", "b + c overflows u64"))?;
    if discordant == 0 {
        return Err(NotComputable::NotEnoughData { needed: 1, got: 0 });
    }
    let dist = Binomial::new(discordant, 0.5)?;
    let smaller = baseline_only.min(candidate_only);
    let tail = dist.cdf(smaller);
    Ok(McNemar {
        baseline_only,
        candidate_only,
        p_exact: (2.0 * tail).min(1.0),
        p_mid: (2.0 * tail - dist.pmf(smaller)).min(1.0),
    })
}

/// McNemar's test from per-task pass/fail outcomes of both runs (same task order).
pub fn mcnemar_from_outcomes(baseline: &[bool], candidate: &[bool]) -> Stat<McNemar> {
    check_same_length(baseline.len(), candidate.len())?;
    let pairs = || baseline.iter().zip(candidate);
    let baseline_only = pairs().filter(|(b, c)| **b && !**c).count() as u64;
    let candidate_only = pairs().filter(|(b, c)| !**b && **c).count() as u64;
    mcnemar(baseline_only, candidate_only)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::NotComputable;

    #[test]
    fn small_tables() {
        // b = 1, c = 4: P(X ≤ 1) = 6/32; exact 12/32; mid 12/32 − 5/32.
        let m = mcnemar(1, 4).unwrap();
        assert!((m.p_exact - 0.375).abs() < 1e-15);
        assert!((m.p_mid - 7.0 / 32.0).abs() < 1e-15);
        let even = mcnemar(3, 3).unwrap();
        assert_eq!((even.p_exact, even.p_mid), (1.0, 1.0));
        assert_eq!(
            mcnemar(0, 0),
            Err(NotComputable::NotEnoughData { needed: 1, got: 0 })
        );
    }

    #[test]
    fn from_outcomes_counts_discordant_pairs() {
        let m =
            mcnemar_from_outcomes(&[true, true, false, false], &[false, true, true, true]).unwrap();
        assert_eq!((m.baseline_only, m.candidate_only), (1, 2));
    }
}
