//! Flaky tasks: tasks whose samples disagree, and how much of a candidate's Δ they carry.
//!
//! The rule (one for binary and continuous rewards): a run's task is flaky when it has at least
//! two samples in the analysis and they are not all equal (within-task variance > 0; Welford's
//! update makes equal values exactly 0). For 0/1 rewards that is a pass rate strictly between
//! 0 and 1. A task scored by the all-trials-pass rule (Chronicle) has one outcome and is never
//! flaky.

use serde::{Deserialize, Serialize};

use crate::model::{Analysis, PairedScores, SampleStats};
use crate::stats::{self, NotComputable, Stat};
use crate::text::{count, minus_sign, noun, signed_points, StatText};

/// Whether a run's samples on a task disagree (see the module doc).
pub fn samples_disagree(values: &SampleStats) -> bool {
    values.variance().is_some_and(|v| v > 0.0)
}

/// A candidate's paired tasks whose samples disagree in either run, and their part of Δ.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FlakyTasks {
    /// The analysis the tasks come from (the headline's).
    pub analysis: Analysis,
    /// Paired tasks in the analysis.
    pub paired: usize,
    /// Paired tasks flaky in the baseline.
    pub baseline: usize,
    /// Paired tasks flaky in the candidate.
    pub candidate: usize,
    /// Paired tasks flaky in either run.
    pub either: usize,
    /// Sum of those tasks' paired deltas (candidate − baseline, reward units).
    pub delta_sum: f64,
    /// Sum of every paired task's delta (n × Δ).
    pub total_delta_sum: f64,
    /// `delta_sum / total_delta_sum`: the share of Δ the flaky tasks carry (not computable
    /// when Δ is 0; may lie outside 0..=1 when other tasks pull the other way).
    pub share: Stat<f64>,
}

/// The flaky tasks of one candidate's paired scores in `analysis`.
pub fn flaky_tasks(scores: &PairedScores, analysis: Analysis) -> FlakyTasks {
    let disagree = |k: u32, var: Option<f64>| k >= 2 && var.is_some_and(|v| v > 0.0);
    let (mut baseline, mut candidate, mut either) = (0, 0, 0);
    let (mut delta_sum, mut total) = (0.0, 0.0);
    for i in 0..scores.len() {
        let b = disagree(scores.base_k[i], scores.base_var[i]);
        let c = disagree(scores.cand_k[i], scores.cand_var[i]);
        let delta = stats::round_delta(scores.cand[i] - scores.base[i]);
        total += delta;
        baseline += usize::from(b);
        candidate += usize::from(c);
        if b || c {
            either += 1;
            delta_sum += delta;
        }
    }
    let share = if total == 0.0 {
        Err(NotComputable::invalid(
            "Δ",
            "is 0, so there is no Δ to share",
        ))
    } else {
        Ok(delta_sum / total)
    };
    FlakyTasks {
        analysis,
        paired: scores.len(),
        baseline,
        candidate,
        either,
        delta_sum,
        total_delta_sum: total,
        share,
    }
}

/// "12 of 164 paired tasks flaky (baseline 8, candidate 9); they carry +1.2 of +3.0 points
/// (40% of Δ)".
pub fn flaky_sentence(flaky: &FlakyTasks) -> String {
    let n = flaky.paired.max(1) as f64;
    let share = StatText::of(&flaky.share, |s| {
        minus_sign(format!("{:.0}% of Δ", s * 100.0))
    })
    .text();
    format!(
        "{} of {} paired {} flaky (samples disagree; baseline {}, candidate {}); they carry {} of Δ's {} points ({share})",
        count(flaky.either as u64),
        count(flaky.paired as u64),
        noun(flaky.paired as u64, "task", "tasks"),
        count(flaky.baseline as u64),
        count(flaky.candidate as u64),
        signed_points(flaky.delta_sum / n),
        signed_points(flaky.total_delta_sum / n),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_tasks_whose_samples_disagree_and_their_share() {
        let scores = PairedScores {
            task_idx: vec![0, 1, 2],
            base: vec![0.5, 1.0, 0.0],
            cand: vec![1.0, 1.0, 0.5],
            base_k: vec![2, 2, 1],
            cand_k: vec![2, 2, 2],
            base_var: vec![Some(0.5), Some(0.0), None],
            cand_var: vec![Some(0.0), Some(0.0), Some(0.5)],
            base_passes: vec![1, 2, 0],
            cand_passes: vec![2, 2, 1],
            cluster: vec![None; 3],
            base_binary: true,
            cand_binary: true,
            left_out: Vec::new(),
        };
        let f = flaky_tasks(&scores, Analysis::Primary);
        assert_eq!((f.baseline, f.candidate, f.either), (1, 1, 2));
        assert!((f.delta_sum - 1.0).abs() < 1e-12);
        assert_eq!(f.share, Ok(1.0));
        assert!(flaky_sentence(&f).starts_with("2 of 3 paired tasks flaky"));
        let mut one = SampleStats::default();
        one.push(0.3);
        one.push(0.3);
        assert!(!samples_disagree(&one));
        one.push(0.4);
        assert!(samples_disagree(&one));
    }
}
