//! Reward against checkpoint step, when the candidates are checkpoints of one training run.

use serde::{Deserialize, Serialize};

use crate::stats::{Interval, Stat};

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
    })
}
