//! Win/tie/loss counts of per-task deltas and the sign test (statistics.md §4).

use serde::{Deserialize, Serialize};

use super::dist::binomial_test_two_sided;
use super::outcome::Stat;
use super::validate::{check_count, rounded_deltas};

/// How many tasks the candidate won, tied and lost against the baseline.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct WinTieLoss {
    /// Tasks with delta > 0 (after rounding to 1e-9).
    pub wins: usize,
    /// Tasks with delta = 0 (after rounding to 1e-9).
    pub ties: usize,
    /// Tasks with delta < 0 (after rounding to 1e-9).
    pub losses: usize,
}

/// Counts wins, ties and losses of per-task deltas, rounded to 1e-9 first.
pub fn win_tie_loss(deltas: &[f64]) -> Stat<WinTieLoss> {
    let deltas = rounded_deltas(deltas)?;
    let wins = deltas.iter().filter(|&&d| d > 0.0).count();
    let losses = deltas.iter().filter(|&&d| d < 0.0).count();
    Ok(WinTieLoss {
        wins,
        ties: deltas.len() - wins - losses,
        losses,
    })
}

/// Result of the sign test.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SignTest {
    /// The win/tie/loss counts the test is based on (ties are left out).
    pub counts: WinTieLoss,
    /// Exact two-sided binomial p-value of `wins` among `wins + losses` at ½.
    pub p_value: f64,
}

/// Sign test: exact two-sided binomial test (scipy `binomtest` convention) on the non-zero
/// deltas. Needs at least one non-zero delta.
pub fn sign_test(deltas: &[f64]) -> Stat<SignTest> {
    sign_test_of(win_tie_loss(deltas)?)
}

/// [`sign_test`] from the win/tie/loss counts of the deltas.
pub(crate) fn sign_test_of(counts: WinTieLoss) -> Stat<SignTest> {
    let decided = counts.wins + counts.losses;
    check_count(1, decided)?;
    Ok(SignTest {
        counts,
        p_value: binomial_test_two_sided(counts.wins as u64, decided as u64, 0.5)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::NotComputable;

    #[test]
    fn counts_after_rounding() {
        let c = win_tie_loss(&[0.1, 0.0, 1e-12, -0.3, 0.2]).unwrap();
        assert_eq!((c.wins, c.ties, c.losses), (2, 2, 1));
    }

    #[test]
    fn sign_test_small_case() {
        // 3 wins, 0 losses: p = 2 · (1/8) = 0.25.
        let s = sign_test(&[0.5, 0.1, 0.0, 0.2]).unwrap();
        assert!((s.p_value - 0.25).abs() < 1e-15);
        assert_eq!(
            sign_test(&[0.0, 0.0]),
            Err(NotComputable::NotEnoughData { needed: 1, got: 0 })
        );
    }
}
