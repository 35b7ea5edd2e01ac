//! Reward against checkpoint step, when the candidates are checkpoints of one training run.

use serde::{Deserialize, Serialize};

use crate::model::PlatformSeries;
use crate::stats::{Interval, Stat};
use crate::text::{mean, optional_value, MISSING};

use super::paired_analysis::headline_interval;
use super::settings::ReportSettings;
use super::{CandidateResult, RunSummary};

/// The candidates as a series over training steps, with the baseline as a reference line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Progression {
    /// The training run the checkpoints belong to.
    pub training_run_id: String,
    /// The baseline's task-weighted mean (the reference line) and its interval.
    pub baseline_mean: Option<f64>,
    /// Interval of the baseline's mean.
    pub baseline_interval: Stat<Interval>,
    /// One point per checkpoint candidate, by ascending step.
    pub points: Vec<ProgressionPoint>,
    /// The platform's own progression of the training run beside ours (runs read from the
    /// Trajectory API; absent otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub platform: Option<PlatformProgression>,
}

/// The platform's own progression of the training run, step by step beside ours.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlatformProgression {
    /// Why it could not be read (then `steps` is empty).
    pub error: Option<String>,
    /// Every step the platform or we have, ascending.
    pub steps: Vec<PlatformStep>,
    /// Steps whose platform evaluation mean lies outside our interval of that checkpoint's mean.
    pub disagreements: usize,
}

/// One step of [`PlatformProgression`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlatformStep {
    /// Training step.
    pub step: i64,
    /// The platform's evaluation series: its reward mean of the checkpoint evaluated at this
    /// step (pooled over its trajectories).
    pub platform_mean: Option<f64>,
    /// The platform's held-out reward recorded at this step (its own held-out set).
    pub held_out: Option<f64>,
    /// Our task-weighted mean of the checkpoint compared at this step, when one is.
    pub ours: Option<f64>,
    /// Our interval of that mean.
    pub ours_interval: Option<Interval>,
    /// The platform's mean lies outside our interval.
    pub disagrees: bool,
}

/// Column headings of [`platform_cells`].
pub const PLATFORM_COLUMNS: [&str; 5] = [
    "step",
    "platform evaluation mean",
    "platform held-out reward",
    "ours (task-weighted, interval)",
    "agrees",
];

/// One step's cells under [`PLATFORM_COLUMNS`] (the markdown, the HTML report and the page).
pub fn platform_cells(step: &PlatformStep) -> [String; 5] {
    let ours = match (step.ours, &step.ours_interval) {
        (Some(value), Some(interval)) => format!(
            "{} ({} to {})",
            mean(value),
            mean(interval.lower),
            mean(interval.upper)
        ),
        (value, _) => optional_value(value),
    };
    let agrees = match (step.platform_mean, step.ours_interval.is_some()) {
        (Some(_), true) if step.disagrees => "no: outside our interval".to_owned(),
        (Some(_), true) => "yes".to_owned(),
        _ => MISSING.to_owned(),
    };
    [
        step.step.to_string(),
        optional_value(step.platform_mean),
        optional_value(step.held_out),
        ours,
        agrees,
    ]
}

/// Whether the platform's progression agrees with ours, in a sentence.
pub fn platform_sentence(platform: &PlatformProgression) -> String {
    match (&platform.error, platform.disagreements) {
        (Some(error), _) => format!("The platform's progression could not be read: {error}"),
        (None, 0) => "The platform's evaluation means lie within our intervals at every step \
            both have (its means pool trajectories, ours weigh tasks equally; its held-out \
            reward is its own held-out set, shown for context)."
            .to_owned(),
        (None, n) => format!(
            "Disagreement: at {} the platform's evaluation mean lies outside our interval of \
             that checkpoint's mean; check what each counts (the platform pools trajectories and \
             may count ones this report leaves out).",
            crate::text::plural(n as u64, "step", "steps")
        ),
    }
}

/// The platform's progression `series` (or why it was not read) beside our `points`.
pub fn platform_progression(
    points: &[ProgressionPoint],
    series: &Result<PlatformSeries, String>,
) -> PlatformProgression {
    let series = match series {
        Ok(series) => series,
        Err(error) => {
            return PlatformProgression {
                error: Some(error.clone()),
                steps: Vec::new(),
                disagreements: 0,
            }
        }
    };
    let mut steps: Vec<i64> = points
        .iter()
        .map(|p| p.step)
        .chain(series.evaluation.iter().map(|p| p.step))
        .chain(series.held_out.iter().map(|p| p.step))
        .collect();
    steps.sort_unstable();
    steps.dedup();
    let steps: Vec<PlatformStep> = steps
        .into_iter()
        .map(|step| {
            let ours = points.iter().find(|p| p.step == step);
            let platform_mean = series
                .evaluation
                .iter()
                .find(|p| p.step == step)
                .map(|p| p.reward_mean)
                .filter(|m| m.is_finite());
            let held_out = series
                .held_out
                .iter()
                .find(|p| p.step == step)
                .map(|p| p.held_out_reward)
                .filter(|m| m.is_finite());
            let ours_interval = ours.and_then(|p| p.interval.as_ref().ok().cloned());
            let disagrees = match (platform_mean, &ours_interval) {
                (Some(platform), Some(interval)) => {
                    platform < interval.lower || platform > interval.upper
                }
                _ => false,
            };
            PlatformStep {
                step,
                platform_mean,
                held_out,
                ours: ours.and_then(|p| p.mean),
                ours_interval,
                disagrees,
            }
        })
        .collect();
    PlatformProgression {
        error: None,
        disagreements: steps.iter().filter(|s| s.disagrees).count(),
        steps,
    }
}

/// One checkpoint.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProgressionPoint {
    /// Training step.
    pub step: i64,
    /// Index in [`Report::runs`](super::Report::runs).
    pub run: usize,
    /// The checkpoint's task-weighted mean over its scored tasks.
    pub mean: Option<f64>,
    /// Its t interval.
    pub interval: Stat<Interval>,
    /// Headline Δ against the baseline.
    pub delta: Option<f64>,
    /// Headline interval of Δ.
    pub delta_interval: Stat<Interval>,
    /// The checkpoint's verdict is provisional (it or the baseline still runs): its numbers
    /// will move, and the chart draws it hollow, dashed and labelled.
    pub provisional: bool,
}

/// The progression, when at least two candidates are checkpoints of the same training run
/// (candidates that are not are left out of the series).
pub fn progression(
    runs: &[RunSummary],
    results: &[CandidateResult],
    settings: &ReportSettings,
) -> Option<Progression> {
    let baseline = runs.first()?;
    let first_training = results
        .iter()
        .filter_map(|r| runs.get(r.run))
        .find(|run| run.step.is_some())
        .and_then(|run| run.training_run_id.clone())?;
    let mut points: Vec<ProgressionPoint> = results
        .iter()
        .filter_map(|result| {
            let run = runs.get(result.run)?;
            if run.training_run_id.as_deref() != Some(first_training.as_str()) {
                return None;
            }
            let headline = match settings.headline {
                crate::model::Analysis::Primary => &result.primary,
                crate::model::Analysis::Sensitivity => &result.sensitivity,
            };
            Some(ProgressionPoint {
                step: run.step?,
                run: result.run,
                mean: run.task_weighted_mean,
                interval: run.task_weighted_interval.clone(),
                delta: headline.estimate.as_ref().ok().map(|e| e.delta),
                delta_interval: headline_interval(headline),
                provisional: result.verdict.provisional,
            })
        })
        .collect();
    if points.len() < 2 {
        return None;
    }
    points.sort_by_key(|p| p.step);
    Some(Progression {
        training_run_id: first_training,
        baseline_mean: baseline.task_weighted_mean,
        baseline_interval: baseline.task_weighted_interval.clone(),
        points,
        platform: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::{AgentTrainingEvaluationPoint, HeldOutReward};

    fn point(step: i64, mean: f64, lower: f64, upper: f64) -> ProgressionPoint {
        ProgressionPoint {
            step,
            run: 1,
            mean: Some(mean),
            interval: Ok(Interval {
                lower,
                upper,
                level: 0.95,
            }),
            delta: None,
            delta_interval: Err(crate::stats::NotComputable::NotEnoughData { needed: 2, got: 0 }),
            provisional: false,
        }
    }

    fn held_out(step: i64, reward: f64) -> HeldOutReward {
        HeldOutReward {
            step,
            held_out_reward: reward,
            round_completed: None,
            expected_samples: None,
            completed_samples: None,
            failed_samples: None,
            cancelled_samples: None,
            loaded_trajectories: None,
        }
    }

    #[test]
    fn a_platform_mean_outside_our_interval_is_a_disagreement() {
        let points = [point(100, 0.50, 0.45, 0.55), point(200, 0.60, 0.55, 0.65)];
        let series = PlatformSeries {
            evaluation: vec![
                AgentTrainingEvaluationPoint {
                    step: 100,
                    reward_mean: 0.52,
                },
                AgentTrainingEvaluationPoint {
                    step: 200,
                    reward_mean: 0.70,
                },
                AgentTrainingEvaluationPoint {
                    step: 300,
                    reward_mean: f64::NAN,
                },
            ],
            held_out: vec![held_out(0, 0.40), held_out(200, 0.58)],
        };
        let platform = platform_progression(&points, &Ok(series));
        let steps: Vec<i64> = platform.steps.iter().map(|s| s.step).collect();
        assert_eq!(steps, [0, 100, 200, 300], "every step either side has");
        let flags: Vec<bool> = platform.steps.iter().map(|s| s.disagrees).collect();
        assert_eq!(flags, [false, false, true, false]);
        assert_eq!(platform.disagreements, 1);
        assert_eq!(platform.steps[3].platform_mean, None, "NaN is not a mean");
        assert_eq!(
            platform_cells(&platform.steps[2]),
            [
                "200".to_owned(),
                "0.700".to_owned(),
                "0.580".to_owned(),
                "0.600 (0.550 to 0.650)".to_owned(),
                "no: outside our interval".to_owned()
            ]
        );
        assert_eq!(
            platform_cells(&platform.steps[0])[4],
            MISSING,
            "nothing of ours at 0"
        );
        assert!(platform_sentence(&platform).starts_with("Disagreement: at 1 step"));
    }

    #[test]
    fn a_failed_read_is_said() {
        let platform = platform_progression(&[], &Err("HTTP 503".to_owned()));
        assert!(platform.steps.is_empty());
        assert_eq!(
            platform_sentence(&platform),
            "The platform's progression could not be read: HTTP 503"
        );
    }
}
