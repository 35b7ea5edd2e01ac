//! The one plain sentence that states a candidate's headline.

use crate::model::Analysis;
use crate::text::{interval_points, noun, points, why};

use super::exclusions::Exclusions;
use super::paired_analysis::{headline_interval, PairedAnalysis};
use super::settings::ReportSettings;

/// E.g. "Step 400 scores 4.1 points higher (95% CI +2.0 to +6.2) on 388 paired tasks; 12 tasks
/// excluded (9 failed, 3 unfinished)".
pub fn headline_sentence(
    name: &str,
    analysis: &PairedAnalysis,
    excluded: &Exclusions,
    settings: &ReportSettings,
) -> String {
    let estimate = match &analysis.estimate {
        Ok(estimate) => estimate,
        Err(reason) => {
            return format!("{name}: no comparison possible — {}", why(reason));
        }
    };
    let delta = estimate.delta;
    let magnitude = points(delta.abs());
    let direction = if magnitude == "0.0" {
        "the same as the baseline".to_owned()
    } else if delta > 0.0 {
        format!("{magnitude} points higher")
    } else {
        format!("{magnitude} points lower")
    };
    let level = (settings.level * 100.0).round();
    let interval = match headline_interval(analysis) {
        Ok(ci) => format!(" ({level}% CI {})", interval_points(&ci)),
        Err(reason) => format!(" (no confidence interval: {})", why(&reason)),
    };
    let tasks = analysis.n as u64;
    let scope = match analysis.analysis {
        Analysis::Primary => noun(tasks, "paired task", "paired tasks"),
        Analysis::Sensitivity => noun(
            tasks,
            "task (failed and absent counted as 0)",
            "tasks (failed and absent counted as 0)",
        ),
    };
    let mut sentence = format!(
        "{name} scores {direction}{interval} on {} {scope}",
        analysis.n
    );
    if analysis.analysis == Analysis::Primary {
        if let Some(phrase) = excluded.phrase() {
            sentence.push_str("; ");
            sentence.push_str(&phrase);
        }
    }
    sentence
}
