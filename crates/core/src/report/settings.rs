//! What a report is computed with: the inputs a reader needs to reproduce every number.

use serde::{Deserialize, Serialize};

use crate::model::Analysis;
use crate::view_state::{AnalysisMode, ViewState};

/// Settings of one report. Every number in a [`Report`](super::Report) is a function of the
/// loaded runs and these settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReportSettings {
    /// Bootstrap seed.
    pub seed: u64,
    /// Bootstrap resamples B; 0 skips the bootstrap (its fields are then absent).
    pub resamples: usize,
    /// Two-sided confidence level of every interval, e.g. 0.95.
    pub level: f64,
    /// Significance level for the "significant" flags (on Holm-adjusted p-values).
    pub alpha: f64,
    /// Which analysis the headline and its sentence use.
    pub headline: Analysis,
    /// The k values of pass@k, reported when both runs' rewards are binary.
    pub pass_k: Vec<u64>,
    /// Target Δ (reward units) for "tasks needed to detect it".
    pub target_delta: f64,
    /// K′ for the projection of the MDE to more samples per task; `None` (the default, and
    /// absent from the JSON) picks it per candidate with [`automatic_samples_per_task`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub project_samples_per_task: Option<u64>,
    /// A pass threshold for graded rewards: a valid reward at or above it passes (1), below it
    /// fails (0), before anything is computed ([`super::apply_pass_threshold`]); `None` (the
    /// default, and absent from the JSON) keeps the rewards as published.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pass_threshold: Option<f64>,
    /// The checkpoint step every other checkpoint is also compared with (beside the previous
    /// step; [`super::CheckpointSteps`]); `None` (the default, and absent from the JSON): only
    /// the previous step.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub versus_step: Option<i64>,
}

impl Default for ReportSettings {
    fn default() -> Self {
        ReportSettings {
            seed: crate::view_state::DEFAULT_SEED,
            resamples: crate::view_state::DEFAULT_RESAMPLES as usize,
            level: 0.95,
            alpha: 0.05,
            headline: Analysis::Primary,
            pass_k: vec![1, 5, 10],
            target_delta: 0.02,
            project_samples_per_task: None,
            pass_threshold: None,
            versus_step: None,
        }
    }
}

/// The smallest automatic K′.
pub const MIN_AUTOMATIC_SAMPLES_PER_TASK: u64 = 8;

/// The automatic K′ of a pair whose tasks have at most `samples_per_task` included samples:
/// max(8, 2 × that), so the projection always looks at more samples than the runs have
/// (HumanEval's 10 samples project to 20, one sample per task to 8).
pub fn automatic_samples_per_task(samples_per_task: u64) -> u64 {
    MIN_AUTOMATIC_SAMPLES_PER_TASK.max(samples_per_task.saturating_mul(2))
}

impl ReportSettings {
    /// The K′ of a pair whose tasks have at most `samples_per_task` included samples: the one
    /// set, else [`automatic_samples_per_task`].
    pub fn samples_per_task_for(&self, samples_per_task: u64) -> u64 {
        self.project_samples_per_task
            .unwrap_or_else(|| automatic_samples_per_task(samples_per_task))
    }

    /// The settings a shared link asks for (seed, B, level, headline analysis, target Δ, K′).
    pub fn from_view(view: &ViewState) -> Self {
        ReportSettings {
            seed: view.seed,
            resamples: view.resamples as usize,
            level: view.confidence_level(),
            headline: match view.analysis {
                AnalysisMode::Primary => Analysis::Primary,
                AnalysisMode::Sensitivity => Analysis::Sensitivity,
            },
            target_delta: view.target_delta(),
            project_samples_per_task: view.project_samples.map(u64::from),
            pass_threshold: view.pass_threshold(),
            versus_step: view.versus_step,
            ..ReportSettings::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_automatic_k_prime_doubles_the_samples_and_is_at_least_8() {
        assert_eq!(automatic_samples_per_task(0), 8);
        assert_eq!(automatic_samples_per_task(1), 8);
        assert_eq!(automatic_samples_per_task(4), 8);
        assert_eq!(automatic_samples_per_task(5), 10);
        assert_eq!(automatic_samples_per_task(10), 20);
        assert_eq!(automatic_samples_per_task(u64::MAX), u64::MAX);
        let set = ReportSettings {
            project_samples_per_task: Some(3),
            ..ReportSettings::default()
        };
        assert_eq!(set.samples_per_task_for(10), 3);
        assert_eq!(ReportSettings::default().samples_per_task_for(10), 20);
    }

    #[test]
    fn a_link_carries_the_target_delta_and_k_prime() {
        let view = ViewState::from_query("target=3.5&kprime=16").state;
        let settings = ReportSettings::from_view(&view);
        assert!((settings.target_delta - 0.035).abs() < 1e-15);
        assert_eq!(settings.project_samples_per_task, Some(16));
        let plain = ReportSettings::from_view(&ViewState::default());
        assert_eq!(plain.target_delta, ReportSettings::default().target_delta);
        assert_eq!(plain.project_samples_per_task, None);
    }
}
