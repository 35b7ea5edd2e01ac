//! What the numbers were computed with: the settings line under the report's title and the
//! names of the two analyses.

use crate::model::Analysis;
use crate::text::{count, points};

use super::super::Report;

/// The name of an analysis where the report says which one the headline uses:
/// "primary (paired tasks, included samples)".
pub fn analysis_name(analysis: Analysis) -> &'static str {
    match analysis {
        Analysis::Primary => "primary (paired tasks, included samples)",
        Analysis::Sensitivity => "sensitivity (every task, failed and absent counted as 0)",
    }
}

/// What the numbers were computed with: "Source: api. Intervals at 95%, target Δ 2.0 points,
/// bootstrap B = 9,999 with seed 20261014; headline analysis: primary (paired tasks, included
/// samples)."
pub fn settings_line(report: &Report) -> String {
    let s = &report.settings;
    let sources: Vec<&str> = report
        .sources
        .iter()
        .map(|source| source.as_str())
        .collect();
    format!(
        "Source: {}. Intervals at {}%, target Δ {} points, bootstrap B = {} with seed {}; headline analysis: {}.",
        sources.join(", "),
        (s.level * 100.0).round(),
        points(s.target_delta),
        count(s.resamples as u64),
        s.seed,
        analysis_name(s.headline)
    )
}
