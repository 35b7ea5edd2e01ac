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
    /// K′ for the projection of the MDE to more samples per task.
    pub project_samples_per_task: u64,
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
            project_samples_per_task: 8,
        }
    }
}

impl ReportSettings {
    /// The settings a shared link asks for (seed, B, level, headline analysis).
    pub fn from_view(view: &ViewState) -> Self {
        ReportSettings {
            seed: view.seed,
            resamples: view.resamples as usize,
            level: view.confidence_level(),
            headline: match view.analysis {
                AnalysisMode::Primary => Analysis::Primary,
                AnalysisMode::Sensitivity => Analysis::Sensitivity,
            },
            ..ReportSettings::default()
        }
    }
}
