//! The one plain sentence that states a candidate's headline, consistent with its verdict: a
//! direction ("scores 4.1 points higher") only when the verdict allows one.

use crate::model::Analysis;
use crate::text::{count, interval_points, noun, points, signed_points, why};

use super::exclusions::Exclusions;
use super::paired_analysis::{headline_interval, PairedAnalysis};
use super::settings::ReportSettings;
use super::verdict::{
    Decision, Verdict, BLOCKING_PREFIX, ENDED_EARLY_REASON_END, INCOMPLETE_REASON_END,
    MIN_PAIRED_TASKS, RUNNING_REASON_END,
};

/// E.g. "Step 400 scores 4.1 points higher (95% CI +2.0 to +6.2) on 388 paired tasks; 12 tasks
/// excluded (9 failed, 3 unfinished)". For a verdict that withholds a direction (not
/// comparable, too few paired tasks, unreliable) it names the verdict and why first, and the
/// measured Δ only as a measurement: "Step 200: not comparable with the baseline — …; measured
/// Δ +12.1 points (95% CI …) on 403 paired tasks, not a verdict".
pub fn headline_sentence(
    name: &str,
    analysis: &PairedAnalysis,
    excluded: &Exclusions,
    settings: &ReportSettings,
    verdict: &Verdict,
) -> String {
    let estimate = match &analysis.estimate {
        Ok(estimate) => estimate,
        Err(reason) => {
            return format!("{name}: no comparison possible — {}", why(reason));
        }
    };
    let delta = estimate.delta;
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
    let mut sentence = match withheld(verdict) {
        Some(what) => format!(
            "{name}: {what} — {}; measured Δ {} points{interval} on {} {scope}, not a verdict",
            reasons(verdict),
            signed_points(delta),
            count(tasks)
        ),
        None => format!(
            "{name} scores {}{interval} on {} {scope}",
            direction(delta),
            count(tasks)
        ),
    };
    if verdict.partial && withheld(verdict).is_none() {
        sentence.insert_str(0, PARTIAL_PREFIX);
    }
    if analysis.analysis == Analysis::Primary {
        if let Some(phrase) = excluded.phrase() {
            sentence.push_str("; ");
            sentence.push_str(&phrase);
        }
    }
    sentence
}

/// How the sentence of a partial verdict (a compared run not read completely, failed or
/// cancelled) starts: its numbers are a part of what the runs hold.
pub const PARTIAL_PREFIX: &str = "Partial data: ";

/// The words of a verdict that shows no direction, or `None` when the sentence may state one.
fn withheld(verdict: &Verdict) -> Option<&'static str> {
    match verdict.decision {
        Decision::NotComparable => Some("not comparable with the baseline"),
        Decision::TooFewPairedTasks => Some("too few paired tasks for a verdict"),
        Decision::Unreliable => Some("unreliable"),
        _ => None,
    }
}

/// The verdict's reasons in one clause (their own full stops and the "blocking comparability
/// finding: " the verdict's words already say dropped; the running, incomplete and ended runs
/// left to the verdict),
/// or the decision's label. Too few paired tasks says only the minimum: the count follows.
fn reasons(verdict: &Verdict) -> String {
    if verdict.decision == Decision::TooFewPairedTasks {
        return format!("a verdict needs at least {MIN_PAIRED_TASKS}");
    }
    let parts: Vec<&str> = verdict
        .reasons
        .iter()
        .filter(|reason| {
            ![
                RUNNING_REASON_END,
                INCOMPLETE_REASON_END,
                ENDED_EARLY_REASON_END,
            ]
            .iter()
            .any(|end| reason.ends_with(end))
        })
        .map(|reason| {
            reason
                .strip_prefix(BLOCKING_PREFIX)
                .unwrap_or(reason)
                .trim_end_matches('.')
        })
        .collect();
    if parts.is_empty() {
        verdict.decision.label().to_owned()
    } else {
        parts.join("; ")
    }
}

fn direction(delta: f64) -> String {
    let magnitude = points(delta.abs());
    if magnitude == "0.0" {
        "the same as the baseline".to_owned()
    } else if delta > 0.0 {
        format!("{magnitude} points higher")
    } else {
        format!("{magnitude} points lower")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::Interval;

    use super::super::paired_analysis::IntervalMethod;

    fn verdict(decision: Decision, reasons: &[&str]) -> Verdict {
        Verdict {
            decision,
            evidence: Decision::Better,
            provisional: false,
            partial: false,
            interval_method: IntervalMethod::T,
            interval: Ok(Interval {
                lower: 0.02,
                upper: 0.06,
                level: 0.95,
            }),
            reasons: reasons.iter().map(|r| (*r).to_owned()).collect(),
        }
    }

    #[test]
    fn a_verdict_with_a_direction_keeps_it() {
        assert!(withheld(&verdict(Decision::Better, &[])).is_none());
        assert!(withheld(&verdict(Decision::Worse, &[])).is_none());
        assert!(withheld(&verdict(Decision::Inconclusive, &["x"])).is_none());
        assert!(withheld(&verdict(Decision::NoDetectableDifference, &[])).is_none());
        assert_eq!(direction(0.041), "4.1 points higher");
        assert_eq!(direction(-0.041), "4.1 points lower");
        assert_eq!(direction(0.0004), "the same as the baseline");
    }

    #[test]
    fn withheld_verdicts_name_themselves_and_their_reasons() {
        for (decision, words) in [
            (Decision::NotComparable, "not comparable with the baseline"),
            (
                Decision::TooFewPairedTasks,
                "too few paired tasks for a verdict",
            ),
            (Decision::Unreliable, "unreliable"),
        ] {
            assert_eq!(withheld(&verdict(decision, &[])), Some(words));
        }
        let v = verdict(
            Decision::NotComparable,
            &[
                "blocking comparability finding: A: one.",
                "blocking comparability finding: B: two",
                "cand is still running: the numbers will move as its trajectories finish",
            ],
        );
        assert_eq!(reasons(&v), "A: one; B: two");
        assert_eq!(
            reasons(&verdict(
                Decision::TooFewPairedTasks,
                &["7 paired tasks; …"]
            )),
            "a verdict needs at least 10"
        );
        assert_eq!(reasons(&verdict(Decision::Unreliable, &[])), "unreliable");
    }
}
