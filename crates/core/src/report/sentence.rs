//! The one plain sentence that states a candidate's headline.

use crate::model::Analysis;
use crate::stats::NotComputable;

use super::exclusions::Exclusions;
use super::paired_analysis::{headline_interval, PairedAnalysis};
use super::settings::ReportSettings;

/// A reward difference in points (reward × 100), one decimal, e.g. "4.1".
pub fn format_points(delta: f64) -> String {
    let points = delta * 100.0;
    let rounded = (points * 10.0).round() / 10.0;
    // Avoid "-0.0".
    if rounded == 0.0 {
        "0.0".to_owned()
    } else {
        format!("{rounded:.1}")
    }
}

/// A reward difference in points with its sign, as the page writes it: "+4.1", "−1.0" (with
/// the minus sign U+2212), "0.0".
pub fn format_signed_points(delta: f64) -> String {
    let text = format_points(delta);
    match text.strip_prefix('-') {
        Some(magnitude) => format!("\u{2212}{magnitude}"),
        None if text == "0.0" => text,
        None => format!("+{text}"),
    }
}

/// E.g. "Step 400 scores 4.1 points higher (95% CI +2.0 to +6.2) on 388 paired tasks; 12 tasks
/// excluded (9 failed, 3 unfinished)".
pub fn headline_sentence(
    name: &str,
    analysis: &PairedAnalysis,
    excluded: &Exclusions,
    settings: &ReportSettings,
) -> String {
    let scope = match analysis.analysis {
        Analysis::Primary => "paired tasks",
        Analysis::Sensitivity => "tasks (failed and absent counted as 0)",
    };
    let estimate = match &analysis.estimate {
        Ok(estimate) => estimate,
        Err(reason) => {
            return format!("{name}: no comparison possible — {}", why(reason));
        }
    };
    let delta = estimate.delta;
    let magnitude = format_points(delta.abs());
    let direction = if magnitude == "0.0" {
        "the same as the baseline".to_owned()
    } else if delta > 0.0 {
        format!("{magnitude} points higher")
    } else {
        format!("{magnitude} points lower")
    };
    let level = (settings.level * 100.0).round();
    let interval = match headline_interval(analysis) {
        Ok(ci) => format!(
            " ({level}% CI {} to {})",
            format_signed_points(ci.lower),
            format_signed_points(ci.upper)
        ),
        Err(reason) => format!(" (no confidence interval: {})", why(&reason)),
    };
    let noun = if analysis.n == 1 {
        scope.replace("tasks", "task")
    } else {
        scope.to_owned()
    };
    let mut sentence = format!(
        "{name} scores {direction}{interval} on {} {noun}",
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

/// Plain words for why a number is missing.
pub fn why(reason: &NotComputable) -> String {
    match reason {
        NotComputable::NotEnoughData { needed, got } => {
            format!("not enough data ({got} of the {needed} needed)")
        }
        NotComputable::ZeroVariance => "every task has the same delta".to_owned(),
        NotComputable::NonFinite { .. } => {
            "invalid input (a value is not a finite number)".to_owned()
        }
        other => other.to_string(),
    }
}
