//! Power and sample size for paired comparisons (Miller eq. 9–10; statistics.md §5).

use serde::{Deserialize, Serialize};

use crate::math;

use super::describe::{mean_of_finite, variance_of_finite, Moments};
use super::outcome::{NotComputable, Stat};
use super::validate::{check_count, check_finite, check_same_length, round_delta, rounded_deltas};

/// `z_{0.975} + z_{0.8}`: two-sided α = 0.05 with power 0.8.
pub const MDE_MULTIPLIER: f64 = 2.801_585_2;

/// Relative slack below an integer that still counts as that integer when rounding a task
/// count up, so float noise in `(M·sd/δ)²` cannot add a task.
const CEIL_SLACK: f64 = 1e-9;

/// Minimum detectable effect of the current design.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct MinimumDetectableEffect {
    /// Number of paired tasks.
    pub n: usize,
    /// sd of the deltas (ddof 1).
    pub sd: f64,
    /// `MDE_MULTIPLIER · sd / √n`.
    pub mde: f64,
}

/// MDE at α = 0.05 two-sided and power 0.8 from per-task deltas (rounded to 1e-9).
///
/// Needs n ≥ 2; identical deltas give [`NotComputable::ZeroVariance`] (no spread to plan with).
pub fn minimum_detectable_effect(deltas: &[f64]) -> Stat<MinimumDetectableEffect> {
    let deltas = rounded_deltas(deltas)?;
    mde_of(&Moments::of_finite(&deltas))
}

/// [`minimum_detectable_effect`] from the moments of deltas already checked and rounded.
pub(crate) fn mde_of(moments: &Moments) -> Stat<MinimumDetectableEffect> {
    let sd = delta_sd(moments)?;
    let n = moments.n;
    Ok(MinimumDetectableEffect {
        n,
        sd,
        mde: MDE_MULTIPLIER * sd / (n as f64).sqrt(),
    })
}

/// Tasks needed to detect `target_delta` (> 0): `ceil((MDE_MULTIPLIER · sd / δ)²)`, with sd from
/// the observed deltas. Needs n ≥ 2 and a non-zero sd. Saturates at `u64::MAX`.
pub fn tasks_needed(deltas: &[f64], target_delta: f64) -> Stat<u64> {
    check_target_delta(target_delta)?;
    let deltas = rounded_deltas(deltas)?;
    tasks_needed_of(&Moments::of_finite(&deltas), target_delta)
}

/// [`tasks_needed`] from the moments of deltas already checked and rounded.
pub(crate) fn tasks_needed_of(moments: &Moments, target_delta: f64) -> Stat<u64> {
    check_target_delta(target_delta)?;
    let sd = delta_sd(moments)?;
    let exact = math::powi(MDE_MULTIPLIER * sd / target_delta, 2);
    Ok(ceil_with_slack(exact) as u64)
}

/// The target Δ of [`tasks_needed`] must be finite and positive.
pub(crate) fn check_target_delta(target_delta: f64) -> Stat<()> {
    if target_delta.is_finite() && target_delta > 0.0 {
        Ok(())
    } else {
        Err(NotComputable::invalid(
            "target_delta",
            "must be finite and positive",
        ))
    }
}

/// Projection of the delta variance and MDE to `samples_per_task` (K′) samples per task.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SampleProjection {
    /// Number of paired tasks.
    pub n: usize,
    /// K′, the projected samples per task on each side.
    pub samples_per_task: u64,
    /// Var(d) of the observed task deltas (ddof 1).
    pub delta_variance: f64,
    /// `mean_i(s²_A,i / K_A,i)`, the baseline's within-task share of Var(d).
    pub baseline_within: f64,
    /// `mean_i(s²_B,i / K_B,i)`, the candidate's within-task share of Var(d).
    pub candidate_within: f64,
    /// ω̂² = max(0, Var(d) − baseline_within − candidate_within), the between-task variance.
    pub between_variance: f64,
    /// Var(d′) = ω̂² + mean(s²_A)/K′ + mean(s²_B)/K′.
    pub projected_variance: f64,
    /// MDE with K′ samples per task: `MDE_MULTIPLIER · sqrt(Var(d′)/n)`.
    pub projected_mde: f64,
    /// Baseline tasks with a single sample (no within-task variance estimate).
    pub baseline_single_sample_tasks: usize,
    /// Candidate tasks with a single sample (no within-task variance estimate).
    pub candidate_single_sample_tasks: usize,
}

/// Projects the paired design to K′ samples per task from the raw per-task samples of both runs
/// (same task order; each task needs ≥ 1 finite sample per side). Deltas are the differences of
/// task means, rounded to 1e-9.
///
/// Within-task variances use ddof 1. A task with a single sample has no variance estimate and
/// contributes 0 to its side's within-task mean (it still counts in the mean over tasks). This
/// under-states within-task noise, so ω̂² — and thus the projected MDE — errs on the large,
/// conservative side. A side where no task has two samples gives
/// [`NotComputable::NotEnoughData`] (`needed: 2` samples per task), as the split between within-
/// and between-task variance is then unknown.
pub fn project_samples_per_task<S: AsRef<[f64]>>(
    baseline: &[S],
    candidate: &[S],
    samples_per_task: u64,
) -> Stat<SampleProjection> {
    let moments = |tasks: &[S]| -> Stat<Vec<TaskMoments>> {
        tasks
            .iter()
            .map(|task| {
                let samples = task.as_ref();
                check_finite(samples)?;
                check_count(1, samples.len())?;
                Ok(TaskMoments {
                    mean: mean_of_finite(samples),
                    samples: samples.len() as u64,
                    variance: (samples.len() > 1).then(|| variance_of_finite(samples)),
                })
            })
            .collect()
    };
    check_same_length(baseline.len(), candidate.len())?;
    project_from_moments(&moments(baseline)?, &moments(candidate)?, samples_per_task)
}

/// One task's samples summarised: what the K′ projection needs.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct TaskMoments {
    /// Mean of the task's samples.
    pub mean: f64,
    /// Number of samples K_i (≥ 1).
    pub samples: u64,
    /// Within-task variance (ddof 1); `None` for a single sample.
    pub variance: Option<f64>,
}

/// [`project_samples_per_task`] from per-task moments instead of raw samples (same task order
/// on both sides), for callers that already hold each task's mean, count and variance.
pub fn project_from_moments(
    baseline: &[TaskMoments],
    candidate: &[TaskMoments],
    samples_per_task: u64,
) -> Stat<SampleProjection> {
    if samples_per_task == 0 {
        return Err(NotComputable::invalid(
            "samples_per_task",
            "must be at least 1",
        ));
    }
    check_same_length(baseline.len(), candidate.len())?;
    let n = baseline.len();
    check_count(2, n)?;
    let base = side_moments(baseline)?;
    let cand = side_moments(candidate)?;
    let deltas: Vec<f64> = baseline
        .iter()
        .zip(candidate)
        .map(|(b, c)| round_delta(c.mean - b.mean))
        .collect();
    let delta_variance = variance_of_finite(&deltas);
    let between_variance = (delta_variance - base.within_share - cand.within_share).max(0.0);
    let k_prime = samples_per_task as f64;
    let projected_variance =
        between_variance + base.mean_variance / k_prime + cand.mean_variance / k_prime;
    if projected_variance == 0.0 {
        return Err(NotComputable::ZeroVariance);
    }
    Ok(SampleProjection {
        n,
        samples_per_task,
        delta_variance,
        baseline_within: base.within_share,
        candidate_within: cand.within_share,
        between_variance,
        projected_variance,
        projected_mde: MDE_MULTIPLIER * (projected_variance / n as f64).sqrt(),
        baseline_single_sample_tasks: base.single_sample_tasks,
        candidate_single_sample_tasks: cand.single_sample_tasks,
    })
}

/// Within-task variance summaries of one run.
struct SideMoments {
    /// mean_i(s²_i / K_i).
    within_share: f64,
    /// mean_i(s²_i).
    mean_variance: f64,
    single_sample_tasks: usize,
}

fn side_moments(tasks: &[TaskMoments]) -> Stat<SideMoments> {
    let (mut within_sum, mut variance_sum) = (0.0, 0.0);
    let mut single_sample_tasks = 0;
    for (index, task) in tasks.iter().enumerate() {
        check_count(1, task.samples as usize)?;
        if !task.mean.is_finite() || task.variance.is_some_and(|v| !v.is_finite()) {
            return Err(NotComputable::NonFinite { index });
        }
        match task.variance {
            Some(variance) if task.samples > 1 => {
                within_sum += variance / task.samples as f64;
                variance_sum += variance;
            }
            _ => single_sample_tasks += 1,
        }
    }
    if single_sample_tasks == tasks.len() {
        return Err(NotComputable::NotEnoughData { needed: 2, got: 1 });
    }
    let n = tasks.len() as f64;
    Ok(SideMoments {
        within_share: within_sum / n,
        mean_variance: variance_sum / n,
        single_sample_tasks,
    })
}

/// sd (ddof 1) of deltas rounded to 1e-9, from their moments; needs n ≥ 2 and a non-zero spread.
fn delta_sd(moments: &Moments) -> Stat<f64> {
    check_count(2, moments.n)?;
    if moments.variance == 0.0 {
        return Err(NotComputable::ZeroVariance);
    }
    Ok(moments.variance.sqrt())
}

/// `ceil(x)`, except that values within a relative [`CEIL_SLACK`] above an integer count as it.
fn ceil_with_slack(x: f64) -> f64 {
    let nearest = x.round();
    if (x - nearest).abs() <= CEIL_SLACK * nearest.max(1.0) {
        nearest
    } else {
        x.ceil()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::dist::normal;

    #[test]
    fn multiplier_is_z_975_plus_z_80() {
        let z = normal::quantile(0.975).unwrap() + normal::quantile(0.8).unwrap();
        assert!((z - MDE_MULTIPLIER).abs() < 1e-7);
    }

    #[test]
    fn mde_and_tasks_needed() {
        let d = [0.0, 1.0, 0.0, 1.0]; // sd = sqrt(1/3)
        let m = minimum_detectable_effect(&d).unwrap();
        let sd = (1.0f64 / 3.0).sqrt();
        assert!((m.mde - MDE_MULTIPLIER * sd / 2.0).abs() < 1e-15);
        // (M·sd/δ)² with δ = M·sd/4 is 16 up to rounding → 16, not 17.
        assert_eq!(tasks_needed(&d, MDE_MULTIPLIER * sd / 4.0), Ok(16));
        assert_eq!(
            minimum_detectable_effect(&[0.2, 0.2]),
            Err(NotComputable::ZeroVariance)
        );
        assert!(tasks_needed(&d, 0.0).is_err());
    }

    #[test]
    fn projection_from_moments_equals_projection_from_samples() {
        let base: Vec<Vec<f64>> = vec![
            vec![0.0, 1.0, 1.0],
            vec![0.5],
            vec![0.2, 0.4],
            vec![1.0, 1.0],
        ];
        let cand: Vec<Vec<f64>> = vec![
            vec![1.0, 1.0, 0.0],
            vec![0.9, 0.1],
            vec![0.6],
            vec![0.0, 1.0],
        ];
        let moments = |tasks: &[Vec<f64>]| -> Vec<TaskMoments> {
            tasks
                .iter()
                .map(|t| TaskMoments {
                    mean: mean_of_finite(t),
                    samples: t.len() as u64,
                    variance: (t.len() > 1).then(|| variance_of_finite(t)),
                })
                .collect()
        };
        let from_samples = project_samples_per_task(&base, &cand, 8).unwrap();
        let from_moments = project_from_moments(&moments(&base), &moments(&cand), 8).unwrap();
        assert_eq!(from_samples, from_moments);
        let nan = [TaskMoments {
            mean: f64::NAN,
            samples: 1,
            variance: None,
        }; 2];
        assert!(project_from_moments(&nan, &nan, 8).is_err());
    }

    #[test]
    fn projection_splits_within_and_between_variance() {
        let base = vec![vec![0.0, 1.0], vec![1.0, 1.0], vec![0.0, 0.0]];
        let cand = vec![vec![1.0, 1.0], vec![1.0, 0.0], vec![1.0]];
        let p = project_samples_per_task(&base, &cand, 8).unwrap();
        // Baseline variances 0.5, 0, 0 → within share (0.25 + 0 + 0)/3, mean variance 0.5/3.
        assert!((p.baseline_within - 0.25 / 3.0).abs() < 1e-15);
        assert_eq!(p.candidate_single_sample_tasks, 1);
        assert!(p.projected_variance >= p.between_variance);
        let singles = vec![vec![1.0], vec![0.0]];
        assert_eq!(
            project_samples_per_task(&singles, &singles, 4),
            Err(NotComputable::NotEnoughData { needed: 2, got: 1 })
        );
    }
}
