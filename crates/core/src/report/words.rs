//! The report's sentences that every renderer shows, each written once here as plain text: the
//! page, the markdown and the HTML report only escape and lay them out (as the statistics rows
//! of [`super::detail_rows`]), so their words and number formats cannot drift apart.

use crate::coverage::PairCoverage;
use crate::model::Analysis;
use crate::text::{count, points};

use super::Report;

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

/// A candidate's pairing with the baseline, after its name: "12,345 paired of 12,400 in the
/// union; 40 only in the baseline, 15 only in the candidate."
pub fn pairing_line(pair: &PairCoverage) -> String {
    format!(
        "{} paired of {} in the union; {} only in the baseline, {} only in the candidate.",
        count(pair.paired),
        count(pair.union),
        count(pair.only_in_baseline.len() as u64),
        count(pair.only_in_candidate.len() as u64)
    )
}
