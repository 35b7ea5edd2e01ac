//! The tests a report runs on one sample of per-task deltas, computed together so that they
//! share their work: the deltas are checked and rounded once, their mean and variance serve the
//! t-test, the MDE and the tasks needed, and one ranking of |d| serves both Wilcoxon variants
//! and the sign counts. Every result equals what the separate public function returns.

use super::describe::Moments;
use super::outcome::Stat;
use super::paired::{t_test_of, TTest};
use super::power::{check_target_delta, mde_of, tasks_needed_of, MinimumDetectableEffect};
use super::validate::rounded_deltas;
use super::wilcoxon::{SignedRanks, Wilcoxon, WilcoxonMethod, ZeroMethod};
use super::win_tie_loss::{sign_test_of, SignTest, WinTieLoss};

/// The delta-based tests of one paired analysis.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct DeltaTests {
    /// [`super::paired_t_test`].
    pub(crate) t_test: Stat<TTest>,
    /// [`super::wilcoxon_signed_rank`] with Pratt zeros and [`WilcoxonMethod::Auto`].
    pub(crate) wilcoxon_pratt: Stat<Wilcoxon>,
    /// [`super::wilcoxon_signed_rank`] with Wilcox zeros and [`WilcoxonMethod::Auto`].
    pub(crate) wilcoxon_wilcox: Stat<Wilcoxon>,
    /// [`super::sign_test`].
    pub(crate) sign_test: Stat<SignTest>,
    /// [`super::win_tie_loss`].
    pub(crate) win_tie_loss: Stat<WinTieLoss>,
    /// [`super::minimum_detectable_effect`].
    pub(crate) mde: Stat<MinimumDetectableEffect>,
    /// [`super::tasks_needed`] of `target_delta`.
    pub(crate) tasks_needed: Stat<u64>,
}

/// Runs every test of [`DeltaTests`] on `deltas`.
pub(crate) fn delta_tests(deltas: &[f64], target_delta: f64) -> DeltaTests {
    let rounded = match rounded_deltas(deltas) {
        Ok(rounded) => rounded,
        Err(invalid) => {
            return DeltaTests {
                t_test: Err(invalid.clone()),
                wilcoxon_pratt: Err(invalid.clone()),
                wilcoxon_wilcox: Err(invalid.clone()),
                sign_test: Err(invalid.clone()),
                win_tie_loss: Err(invalid.clone()),
                mde: Err(invalid.clone()),
                // An invalid target is reported before invalid deltas.
                tasks_needed: check_target_delta(target_delta).and(Err(invalid)),
            };
        }
    };
    let moments = Moments::of_finite(&rounded);
    let ranks = SignedRanks::new(&rounded);
    let counts = ranks.win_tie_loss();
    DeltaTests {
        t_test: t_test_of(&moments),
        wilcoxon_pratt: ranks.test(ZeroMethod::Pratt, WilcoxonMethod::Auto),
        wilcoxon_wilcox: ranks.test(ZeroMethod::Wilcox, WilcoxonMethod::Auto),
        sign_test: sign_test_of(counts),
        win_tie_loss: Ok(counts),
        mde: mde_of(&moments),
        tasks_needed: tasks_needed_of(&moments, target_delta),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::{
        minimum_detectable_effect, paired_t_test, sign_test, tasks_needed, wilcoxon_signed_rank,
        win_tie_loss,
    };

    /// Each test run alone on the same deltas.
    fn separately(deltas: &[f64], target_delta: f64) -> DeltaTests {
        DeltaTests {
            t_test: paired_t_test(deltas),
            wilcoxon_pratt: wilcoxon_signed_rank(deltas, ZeroMethod::Pratt, WilcoxonMethod::Auto),
            wilcoxon_wilcox: wilcoxon_signed_rank(deltas, ZeroMethod::Wilcox, WilcoxonMethod::Auto),
            sign_test: sign_test(deltas),
            win_tie_loss: win_tie_loss(deltas),
            mde: minimum_detectable_effect(deltas),
            tasks_needed: tasks_needed(deltas, target_delta),
        }
    }

    #[test]
    fn equal_to_the_separate_tests() {
        let samples: [&[f64]; 9] = [
            &[],
            &[0.0],
            &[0.25],
            &[0.0, 0.0, 1e-12],
            &[0.5, -0.5, 0.125, 0.0, 0.0, 1.0, -0.25, 0.125],
            &[0.3, 0.3, 0.3],
            &[0.1, f64::NAN, 0.2],
            &[0.1, -1e101],
            &[0.7 - 0.4, 0.3, -0.3, 1e-10, -2e-9, 0.0],
        ];
        for deltas in samples {
            for target in [0.02, 0.0, f64::NAN] {
                assert_eq!(
                    delta_tests(deltas, target),
                    separately(deltas, target),
                    "{deltas:?}"
                );
            }
        }
        // Many deltas on a grid: ties, zeros and the normal approximation.
        let grid: Vec<f64> = (0..500)
            .map(|i| f64::from((i * 7) % 9) / 4.0 - 1.0)
            .collect();
        assert_eq!(delta_tests(&grid, 0.02), separately(&grid, 0.02));
    }
}
