//! Building a scorecard again after some of its runs changed (a running evaluation refreshed,
//! a baseline chosen by hand): only the comparisons that read a changed run are made again.
//!
//! A comparison is the report of its two runs (baseline, candidate) with the scorecard's
//! settings, and nothing else ([`super::pair_report`]). So a comparison made earlier of the
//! same two runs in the same order, with the same settings, while neither run has changed since,
//! is the one a full build would make now: [`ScorecardBuild::keeping`] takes those from the
//! previous build and leaves every other comparison pending. Whether a run changed is the
//! caller's to say, from a version of each run's data taken when the previous build started
//! and now ([`unchanged`]); a run missing from either counts as changed.

use std::collections::BTreeMap;

use crate::report::ReportSettings;

use super::{CellState, ScorecardBuild, ScorecardPlan};

/// Whether `run`'s version is the same in `before` (when the kept comparisons were made) and
/// in `now`; a run missing from either counts as changed.
pub fn unchanged<V: PartialEq>(
    before: &BTreeMap<String, V>,
    now: &BTreeMap<String, V>,
    run: &str,
) -> bool {
    match (before.get(run), now.get(run)) {
        (Some(before), Some(now)) => before == now,
        _ => false,
    }
}

impl ScorecardBuild {
    /// The build of `plan`'s cells with `settings`, holding every comparison `previous` made of
    /// the same two runs with the same settings when `unchanged` says both runs are unchanged
    /// (see the module doc); the others are left to make. Failed comparisons are made again.
    pub fn keeping(
        plan: ScorecardPlan,
        settings: ReportSettings,
        previous: &ScorecardBuild,
        unchanged: impl Fn(&str) -> bool,
    ) -> Self {
        let mut build = ScorecardBuild::new(plan, settings);
        if previous.settings != build.settings {
            return build;
        }
        let made = previous.made();
        let kept = |baseline: &str, candidate: &str| {
            if !(unchanged(baseline) && unchanged(candidate)) {
                return None;
            }
            made.get(&(baseline, candidate))
                .map(|state| (*state).clone())
        };
        for pair in &build.pairs {
            if let Some(state) = kept(&pair.baseline, &pair.candidate) {
                build.states[pair.cell] = state;
            }
        }
        for (previous, state) in build.previous.iter().zip(&mut build.previous_states) {
            if let Some(kept) = kept(&previous.pair.baseline, &previous.pair.candidate) {
                *state = kept;
            }
        }
        build
    }

    /// Every comparison made (not pending, not failed), by its (baseline, candidate) runs.
    fn made(&self) -> BTreeMap<(&str, &str), &CellState> {
        let compared = |state: &CellState| matches!(state, CellState::Compared { .. });
        let against_baselines = self
            .pairs
            .iter()
            .map(|pair| (pair, &self.states[pair.cell]));
        let against_previous = self
            .previous
            .iter()
            .zip(&self.previous_states)
            .map(|(previous, state)| (&previous.pair, state));
        against_baselines
            .chain(against_previous)
            .filter(|(_, state)| compared(state))
            .map(|(pair, state)| ((pair.baseline.as_str(), pair.candidate.as_str()), state))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_is_unchanged_only_with_the_same_version_in_both() {
        let before = BTreeMap::from([("a".to_owned(), 1), ("b".to_owned(), 2)]);
        let now = BTreeMap::from([
            ("a".to_owned(), 1),
            ("b".to_owned(), 3),
            ("c".to_owned(), 1),
        ]);
        assert!(unchanged(&before, &now, "a"));
        assert!(!unchanged(&before, &now, "b"));
        assert!(!unchanged(&before, &now, "c"));
        assert!(!unchanged(&now, &before, "c"));
        assert!(!unchanged(&before, &now, "d"));
    }
}
