//! The one verdict of each candidate: computed once here, carried in the report, and used by
//! the page's headline, the markdown and the CLI's gates. The rule, its precedence and every
//! threshold are written down in `docs/statistics.md` ("The verdict").
//!
//! [`decide`] works on plain facts ([`AnalysisFacts`], [`VerdictContext`]) so that every branch
//! is tested natively without building a report.

use serde::{Deserialize, Serialize};

use crate::model::Analysis;
use crate::stats::{Interval, NotComputable, Stat};
use crate::text::{count, interval_points, p_value, points, signed_points, why};

use super::paired_analysis::{headline_interval, headline_p, IntervalMethod, PairedAnalysis};

/// Fewer paired tasks than this in the headline analysis give "too few paired tasks".
pub const MIN_PAIRED_TASKS: usize = 10;

/// How a blocking finding's reason starts ("blocking comparability finding: CODE: message").
pub const BLOCKING_PREFIX: &str = "blocking comparability finding: ";

/// How the reason of a still running compared run ends.
pub const RUNNING_REASON_END: &str =
    "is still running: the numbers will move as its trajectories finish";

/// How the reason of a compared run whose load stopped early ends (after "Step 400 was not
/// read completely (what is missing)").
pub const INCOMPLETE_REASON_END: &str =
    "the verdict judges only what was read, and the rest could change it";

/// How the reason of a compared run that failed or was cancelled ends.
pub const ENDED_EARLY_REASON_END: &str =
    "its numbers are partial, and only the tasks it scored are judged";

/// A Δ smaller than this in magnitude (0.05 points, the display rounds to 0.1) has no sign.
pub const SIGN_RESOLUTION: f64 = 0.0005;

/// What the headline says about one candidate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Decision {
    /// Significantly higher (Holm-adjusted p < α, the headline interval above 0).
    Better,
    /// Significantly lower (Holm-adjusted p < α, the headline interval below 0).
    Worse,
    /// Not significant, and the headline interval rules out the target Δ in either direction.
    NoDetectableDifference,
    /// Not significant, and the interval still allows the target Δ (or the test and the
    /// interval disagree).
    Inconclusive,
    /// Fewer than [`MIN_PAIRED_TASKS`] tasks in the headline analysis.
    TooFewPairedTasks,
    /// A blocking comparability finding concerns this candidate: no better or worse is shown.
    NotComparable,
    /// The primary and the sensitivity analyses disagree in sign or significance: the left-out
    /// tasks could change the answer.
    Unreliable,
    /// The headline test has no value (e.g. every delta identical and not zero).
    NotComputable,
}

impl Decision {
    /// Plain words, e.g. "no detectable difference".
    pub fn label(self) -> &'static str {
        match self {
            Decision::Better => "better",
            Decision::Worse => "worse",
            Decision::NoDetectableDifference => "no detectable difference",
            Decision::Inconclusive => "inconclusive",
            Decision::TooFewPairedTasks => "too few paired tasks",
            Decision::NotComparable => "not comparable",
            Decision::Unreliable => "unreliable",
            Decision::NotComputable => "not computable",
        }
    }
}

/// One candidate's verdict.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Verdict {
    /// What the headline says.
    pub decision: Decision,
    /// What the headline analysis' statistics alone say (better, worse, no detectable
    /// difference, inconclusive, too few paired tasks or not computable), before
    /// comparability and reliability; the gates read it when a user allows what overrode it.
    pub evidence: Decision,
    /// A compared run (the candidate or the baseline) is still running: the numbers will move,
    /// and the decision is shown marked provisional.
    pub provisional: bool,
    /// A compared run's numbers are partial though it does not run: its load stopped early (a
    /// list was not read to its end), or it failed or was cancelled. The decision is shown
    /// marked partial, and a reason names the run and what is missing.
    pub partial: bool,
    /// The interval the decision used.
    pub interval_method: IntervalMethod,
    /// That interval of Δ at the report's level (reward units).
    pub interval: Stat<Interval>,
    /// Why, one plain line each (blocking findings, the disagreement, the running runs…).
    pub reasons: Vec<String>,
}

impl Verdict {
    /// The headline's words: the decision's label, for "no detectable difference" with what it
    /// rules out ("Δ within ±1.8 points at 95%"), and its marks: "(provisional)" when a run
    /// still runs, "(partial)" when a run's numbers are partial, "(provisional, partial)" both.
    pub fn headline(&self) -> String {
        let mut text = self.decision.label().to_owned();
        if self.decision == Decision::NoDetectableDifference {
            if let Ok(interval) = &self.interval {
                text.push_str(&format!(": {}", within_phrase(interval)));
            }
        }
        let marks = self.marks();
        if !marks.is_empty() {
            text.push_str(&format!(" ({})", marks.join(", ")));
        }
        text
    }

    /// The marks a decision is shown with: "provisional", "partial", both or none.
    pub fn marks(&self) -> Vec<&'static str> {
        let mut marks = Vec::new();
        if self.provisional {
            marks.push("provisional");
        }
        if self.partial {
            marks.push("partial");
        }
        marks
    }
}

/// "Δ within ±1.8 points at 95%": the largest difference the interval leaves possible.
pub fn within_phrase(interval: &Interval) -> String {
    format!(
        "Δ within ±{} points at {}%",
        points(interval.lower.abs().max(interval.upper.abs())),
        (interval.level * 100.0).round()
    )
}

/// The facts of one analysis the verdict reads.
#[derive(Debug, Clone, PartialEq)]
pub struct AnalysisFacts {
    /// Primary or sensitivity.
    pub analysis: Analysis,
    /// Tasks in the analysis.
    pub n: usize,
    /// Δ (reward units).
    pub delta: Stat<f64>,
    /// The unadjusted p-value of the headline test (paired t-test).
    pub p: Stat<f64>,
    /// The headline interval and which one it is.
    pub interval: Stat<Interval>,
    /// Which interval.
    pub interval_method: IntervalMethod,
}

impl AnalysisFacts {
    /// The facts of a computed analysis.
    pub fn of(analysis: &PairedAnalysis) -> AnalysisFacts {
        AnalysisFacts {
            analysis: analysis.analysis,
            n: analysis.n,
            delta: analysis
                .estimate
                .as_ref()
                .map(|e| e.delta)
                .map_err(Clone::clone),
            p: headline_p(analysis),
            interval: headline_interval(analysis),
            interval_method: analysis.interval_method,
        }
    }
}

/// What else the verdict depends on besides the statistics.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct VerdictContext {
    /// The blocking comparability findings that concern this candidate ("CODE: message").
    pub blocking: Vec<String>,
    /// The compared runs (baseline, candidate) still running, by name.
    pub running: Vec<String>,
    /// The compared runs whose load stopped early: (name, what is missing).
    pub incomplete: Vec<(String, String)>,
    /// The compared runs that failed or were cancelled: (name, "failed" or "was cancelled").
    pub ended_early: Vec<(String, &'static str)>,
    /// Tasks left out of the primary analysis (for the unreliable reason's words).
    pub excluded_tasks: u64,
}

/// The thresholds of the rule, from the report's settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Thresholds {
    /// Significance level of the Holm-adjusted p (and of each analysis' own p when the
    /// primary and the sensitivity analyses are compared).
    pub alpha: f64,
    /// The target Δ: "no detectable difference" needs the interval within ± this.
    pub target_delta: f64,
}

/// The verdict of one candidate from its headline analysis, the other analysis, the headline
/// test's Holm-adjusted p and the context. Precedence: not comparable, then too few paired
/// tasks and not computable, then unreliable (not while a compared run still runs or was not read
/// completely: the tasks not run or not read count as 0 in the sensitivity analysis, so its
/// disagreement is then a reason only), then the headline's own evidence. Provisional (a run
/// still runs) and partial (a run not read completely, failed or cancelled) mark any of them.
pub fn decide(
    headline: &AnalysisFacts,
    other: &AnalysisFacts,
    p_holm: &Stat<f64>,
    context: &VerdictContext,
    thresholds: Thresholds,
) -> Verdict {
    let (evidence, mut reasons) = evidence(headline, p_holm, thresholds);
    let provisional = !context.running.is_empty();
    let partial = !context.incomplete.is_empty() || !context.ended_early.is_empty();
    let disagreement = disagreement(headline, other, context, thresholds);
    let decision = if !context.blocking.is_empty() {
        reasons = context
            .blocking
            .iter()
            .map(|finding| format!("{BLOCKING_PREFIX}{finding}"))
            .collect();
        Decision::NotComparable
    } else if matches!(
        evidence,
        Decision::TooFewPairedTasks | Decision::NotComputable
    ) {
        evidence
    } else if let Some(reason) = disagreement {
        if provisional {
            // The sensitivity analysis counts the tasks a running run has not reached as 0, so
            // it disagrees by construction until the run ends: said, not decided on.
            reasons.push(format!(
                "{reason} (the tasks not run yet count as 0 there; judged when the run ends)"
            ));
            evidence
        } else if !context.incomplete.is_empty() {
            // The same for tasks whose trajectories were not read: judged once they are.
            reasons.push(format!(
                "{reason} (the tasks not read count as 0 there; judged when everything is read)"
            ));
            evidence
        } else {
            reasons = vec![reason];
            Decision::Unreliable
        }
    } else {
        evidence
    };
    for run in &context.running {
        reasons.push(format!("{run} {RUNNING_REASON_END}"));
    }
    for (run, missing) in &context.incomplete {
        reasons.push(format!(
            "{run} was not read completely ({missing}): {INCOMPLETE_REASON_END}"
        ));
    }
    for (run, ended) in &context.ended_early {
        reasons.push(format!("{run} {ended}: {ENDED_EARLY_REASON_END}"));
    }
    Verdict {
        decision,
        evidence,
        provisional,
        partial,
        interval_method: headline.interval_method,
        interval: headline.interval.clone(),
        reasons,
    }
}

/// What the headline analysis alone says, and why when that needs saying.
fn evidence(
    headline: &AnalysisFacts,
    p_holm: &Stat<f64>,
    thresholds: Thresholds,
) -> (Decision, Vec<String>) {
    if headline.n < MIN_PAIRED_TASKS {
        return (
            Decision::TooFewPairedTasks,
            vec![format!(
                "{} {}; a verdict needs at least {MIN_PAIRED_TASKS}",
                count(headline.n as u64),
                scope(headline.analysis, headline.n)
            )],
        );
    }
    let delta = match &headline.delta {
        Ok(delta) => *delta,
        Err(reason) => return (Decision::NotComputable, vec![why(reason)]),
    };
    let significant = match p_holm {
        Ok(p) => *p < thresholds.alpha,
        // Every delta 0: nothing to test, and nothing significant.
        Err(NotComputable::ZeroVariance) if delta == 0.0 => false,
        Err(reason) => {
            return (
                Decision::NotComputable,
                vec![format!("the paired t-test: {}", why(reason))],
            )
        }
    };
    let interval = match &headline.interval {
        Ok(interval) => interval,
        Err(reason) => {
            return (
                Decision::Inconclusive,
                vec![format!(
                    "no {}: {}",
                    headline.interval_method.label(),
                    why(reason)
                )],
            )
        }
    };
    if significant {
        let agrees = if delta > 0.0 {
            interval.lower > 0.0
        } else {
            interval.upper < 0.0
        };
        if agrees {
            let decision = if delta > 0.0 {
                Decision::Better
            } else {
                Decision::Worse
            };
            return (decision, Vec::new());
        }
        return (
            Decision::Inconclusive,
            vec![format!(
                "the t-test is significant but the {} ({}) contains 0",
                headline.interval_method.label(),
                interval_points(interval)
            )],
        );
    }
    let largest = interval.lower.abs().max(interval.upper.abs());
    if largest <= thresholds.target_delta {
        (Decision::NoDetectableDifference, Vec::new())
    } else {
        (
            Decision::Inconclusive,
            vec![format!(
                "the {} ({} points) still allows a difference of {} points (the target Δ)",
                headline.interval_method.label(),
                interval_points(interval),
                points(thresholds.target_delta)
            )],
        )
    }
}

/// Higher, lower, or neither at α by an analysis' own p.
fn class(facts: &AnalysisFacts, alpha: f64) -> Option<i8> {
    let delta = *facts.delta.as_ref().ok()?;
    let p = *facts.p.as_ref().ok()?;
    Some(if p < alpha { sign(delta) } else { 0 })
}

fn sign(delta: f64) -> i8 {
    if delta.abs() < SIGN_RESOLUTION {
        0
    } else if delta > 0.0 {
        1
    } else {
        -1
    }
}

/// Why the two analyses disagree, when they do: in significance (one significant, the other
/// not, or both in opposite directions), or in sign with the other analysis' Δ outside the
/// headline interval. An other analysis with too few tasks or no test is not compared.
fn disagreement(
    headline: &AnalysisFacts,
    other: &AnalysisFacts,
    context: &VerdictContext,
    thresholds: Thresholds,
) -> Option<String> {
    if other.n < MIN_PAIRED_TASKS {
        return None;
    }
    let (Ok(h_delta), Ok(o_delta)) = (&headline.delta, &other.delta) else {
        return None;
    };
    let h_class = class(headline, thresholds.alpha)?;
    let o_class = class(other, thresholds.alpha)?;
    let opposite = sign(*h_delta) * sign(*o_delta) < 0;
    let outside = headline
        .interval
        .as_ref()
        .is_ok_and(|interval| !interval.contains(*o_delta));
    if h_class == o_class && !(opposite && outside) {
        return None;
    }
    let describe = |facts: &AnalysisFacts, delta: f64| {
        format!(
            "{} points (p {}) in the {} analysis",
            signed_points(delta),
            facts.p.as_ref().map_or("—".to_owned(), |p| p_value(*p)),
            analysis_words(facts.analysis)
        )
    };
    let mut reason = format!(
        "{} against {}",
        describe(other, *o_delta),
        describe(headline, *h_delta)
    );
    if context.excluded_tasks > 0 {
        reason.push_str(&format!(
            "; {} {} left out of the primary analysis could change the answer",
            count(context.excluded_tasks),
            if context.excluded_tasks == 1 {
                "task"
            } else {
                "tasks"
            }
        ));
    }
    Some(reason)
}

fn analysis_words(analysis: Analysis) -> &'static str {
    match analysis {
        Analysis::Primary => "primary",
        Analysis::Sensitivity => "sensitivity (failed and absent as 0)",
    }
}

fn scope(analysis: Analysis, n: usize) -> &'static str {
    match (analysis, n) {
        (Analysis::Primary, 1) => "paired task",
        (Analysis::Primary, _) => "paired tasks",
        (Analysis::Sensitivity, 1) => "task in the sensitivity analysis",
        (Analysis::Sensitivity, _) => "tasks in the sensitivity analysis",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const THRESHOLDS: Thresholds = Thresholds {
        alpha: 0.05,
        target_delta: 0.02,
    };

    fn facts(analysis: Analysis, n: usize, delta: f64, p: f64, ci: (f64, f64)) -> AnalysisFacts {
        AnalysisFacts {
            analysis,
            n,
            delta: Ok(delta),
            p: Ok(p),
            interval: Ok(Interval {
                lower: ci.0,
                upper: ci.1,
                level: 0.95,
            }),
            interval_method: IntervalMethod::T,
        }
    }

    fn primary(delta: f64, p: f64, ci: (f64, f64)) -> AnalysisFacts {
        facts(Analysis::Primary, 200, delta, p, ci)
    }

    fn sensitivity(delta: f64, p: f64, ci: (f64, f64)) -> AnalysisFacts {
        facts(Analysis::Sensitivity, 220, delta, p, ci)
    }

    fn verdict_of(
        headline: &AnalysisFacts,
        other: &AnalysisFacts,
        context: &VerdictContext,
    ) -> Verdict {
        decide(headline, other, &headline.p.clone(), context, THRESHOLDS)
    }

    #[test]
    fn a_significant_delta_whose_interval_agrees_is_better_or_worse() {
        let up = primary(0.05, 0.001, (0.02, 0.08));
        let v = verdict_of(
            &up,
            &sensitivity(0.045, 0.002, (0.015, 0.075)),
            &VerdictContext::default(),
        );
        assert_eq!(
            (v.decision, v.evidence, v.provisional),
            (Decision::Better, Decision::Better, false)
        );
        assert!(v.reasons.is_empty(), "{:?}", v.reasons);
        let down = primary(-0.05, 0.001, (-0.08, -0.02));
        let v = verdict_of(
            &down,
            &sensitivity(-0.05, 0.001, (-0.08, -0.02)),
            &VerdictContext::default(),
        );
        assert_eq!(v.decision, Decision::Worse);
        assert_eq!(v.headline(), "worse");
    }

    #[test]
    fn the_holm_adjusted_p_decides_significance() {
        // Raw p 0.01 but Holm-adjusted 0.2 (several candidates): not significant, and the
        // interval allows the target Δ: inconclusive.
        let up = primary(0.05, 0.01, (0.02, 0.08));
        let v = decide(
            &up,
            &up.clone(),
            &Ok(0.2),
            &VerdictContext::default(),
            THRESHOLDS,
        );
        assert_eq!(
            (v.decision, v.evidence),
            (Decision::Inconclusive, Decision::Inconclusive)
        );
    }

    #[test]
    fn a_significant_test_with_an_interval_containing_zero_is_inconclusive() {
        // A Tango interval can contain 0 while the t-test rejects: the two must agree.
        let mut up = primary(0.03, 0.04, (-0.001, 0.07));
        up.interval_method = IntervalMethod::TangoScore;
        let v = verdict_of(
            &up,
            &sensitivity(0.03, 0.04, (0.001, 0.07)),
            &VerdictContext::default(),
        );
        assert_eq!(v.decision, Decision::Inconclusive);
        assert!(
            v.reasons[0].contains("Tango score interval"),
            "{:?}",
            v.reasons
        );
    }

    #[test]
    fn a_narrow_interval_around_zero_is_no_detectable_difference_and_says_what_it_rules_out() {
        let flat = primary(0.002, 0.6, (-0.012, 0.016));
        let v = verdict_of(
            &flat,
            &sensitivity(0.001, 0.7, (-0.012, 0.014)),
            &VerdictContext::default(),
        );
        assert_eq!(v.decision, Decision::NoDetectableDifference);
        assert_eq!(
            v.headline(),
            "no detectable difference: Δ within ±1.6 points at 95%"
        );
        // The bound is inclusive: an interval reaching exactly the target Δ still rules out more.
        let edge = primary(0.0, 0.9, (-0.02, 0.02));
        assert_eq!(
            verdict_of(&edge, &edge.clone(), &VerdictContext::default()).decision,
            Decision::NoDetectableDifference
        );
    }

    #[test]
    fn a_wide_interval_is_inconclusive() {
        let wide = primary(0.01, 0.4, (-0.03, 0.05));
        let v = verdict_of(
            &wide,
            &sensitivity(0.01, 0.4, (-0.03, 0.05)),
            &VerdictContext::default(),
        );
        assert_eq!(v.decision, Decision::Inconclusive);
        assert!(
            v.reasons[0].contains("still allows a difference of 2.0 points"),
            "{:?}",
            v.reasons
        );
        // No interval at all: inconclusive, saying why.
        let mut none = primary(0.01, 0.4, (0.0, 0.0));
        none.interval = Err(NotComputable::ZeroVariance);
        assert_eq!(
            verdict_of(&none, &none.clone(), &VerdictContext::default()).decision,
            Decision::Inconclusive
        );
    }

    #[test]
    fn fewer_than_ten_tasks_are_too_few_whatever_the_p() {
        let mut few = primary(0.3, 0.001, (0.1, 0.5));
        few.n = MIN_PAIRED_TASKS - 1;
        let v = verdict_of(
            &few,
            &sensitivity(0.3, 0.001, (0.1, 0.5)),
            &VerdictContext::default(),
        );
        assert_eq!(
            (v.decision, v.evidence),
            (Decision::TooFewPairedTasks, Decision::TooFewPairedTasks)
        );
        assert_eq!(v.reasons, ["9 paired tasks; a verdict needs at least 10"]);
        few.n = MIN_PAIRED_TASKS;
        assert_eq!(
            verdict_of(&few, &few.clone(), &VerdictContext::default()).decision,
            Decision::Better
        );
    }

    #[test]
    fn a_missing_estimate_or_test_is_not_computable_but_all_zero_deltas_are_not_significant() {
        let mut missing = primary(0.0, 0.5, (-0.01, 0.01));
        missing.delta = Err(NotComputable::NotEnoughData { needed: 1, got: 0 });
        assert_eq!(
            verdict_of(&missing, &missing.clone(), &VerdictContext::default()).decision,
            Decision::NotComputable
        );
        let mut constant = primary(0.25, 0.5, (0.25, 0.25));
        constant.p = Err(NotComputable::ZeroVariance);
        assert_eq!(
            verdict_of(&constant, &constant.clone(), &VerdictContext::default()).decision,
            Decision::NotComputable
        );
        // Every delta 0 with a Tango interval (binary tasks, all tied): nothing detected.
        let mut tied = primary(0.0, 0.5, (-0.018, 0.018));
        tied.p = Err(NotComputable::ZeroVariance);
        tied.interval_method = IntervalMethod::TangoScore;
        assert_eq!(
            verdict_of(&tied, &tied.clone(), &VerdictContext::default()).decision,
            Decision::NoDetectableDifference
        );
    }

    #[test]
    fn a_blocking_finding_hides_better_or_worse_but_keeps_the_evidence() {
        let up = primary(0.12, 0.0001, (0.08, 0.16));
        let context = VerdictContext {
            blocking: vec!["BENCH_VERSION_DIFFERS: other benchmark version".to_owned()],
            ..VerdictContext::default()
        };
        let v = verdict_of(&up, &up.clone(), &context);
        assert_eq!(
            (v.decision, v.evidence),
            (Decision::NotComparable, Decision::Better)
        );
        assert_eq!(v.headline(), "not comparable");
        assert_eq!(
            v.reasons,
            ["blocking comparability finding: BENCH_VERSION_DIFFERS: other benchmark version"]
        );
        // Even before too few tasks.
        let mut few = up.clone();
        few.n = 3;
        assert_eq!(
            verdict_of(&few, &few.clone(), &context).decision,
            Decision::NotComparable
        );
    }

    #[test]
    fn primary_and_sensitivity_disagreeing_in_sign_or_significance_is_unreliable() {
        // The failed run: +5.5 significant, sensitivity −11.6 significant.
        let context = VerdictContext {
            excluded_tasks: 137,
            ..VerdictContext::default()
        };
        let up = primary(0.055, 0.01, (0.014, 0.096));
        let v = verdict_of(&up, &sensitivity(-0.116, 0.0001, (-0.16, -0.07)), &context);
        assert_eq!(
            (v.decision, v.evidence),
            (Decision::Unreliable, Decision::Better)
        );
        assert!(
            v.reasons[0].starts_with("−11.6 points (p "),
            "{:?}",
            v.reasons
        );
        assert!(
            v.reasons[0]
                .ends_with("137 tasks left out of the primary analysis could change the answer"),
            "{:?}",
            v.reasons
        );
        // Significance alone: significant in the primary, not in the sensitivity analysis.
        let v = verdict_of(&up, &sensitivity(0.03, 0.2, (-0.02, 0.08)), &context);
        assert_eq!(v.decision, Decision::Unreliable);
        // …or the other way round: not significant in the headline, significant in the other.
        let flat = primary(0.01, 0.5, (-0.02, 0.04));
        assert_eq!(
            verdict_of(&flat, &sensitivity(-0.06, 0.001, (-0.09, -0.03)), &context).decision,
            Decision::Unreliable
        );
        // Sign alone, both not significant: only when the other Δ lies outside the interval.
        let wide = primary(0.01, 0.5, (-0.02, 0.04));
        assert_eq!(
            verdict_of(&wide, &sensitivity(-0.01, 0.5, (-0.04, 0.02)), &context).decision,
            Decision::Inconclusive
        );
        assert_eq!(
            verdict_of(&wide, &sensitivity(-0.03, 0.1, (-0.07, 0.01)), &context).decision,
            Decision::Unreliable
        );
        // Tiny deltas have no sign.
        let tiny = primary(0.0004, 0.9, (-0.01, 0.011));
        assert_eq!(
            verdict_of(&tiny, &sensitivity(-0.0004, 0.9, (-0.011, 0.01)), &context).decision,
            Decision::NoDetectableDifference
        );
    }

    #[test]
    fn an_other_analysis_without_a_test_or_with_too_few_tasks_is_not_compared() {
        let up = primary(0.05, 0.001, (0.02, 0.08));
        let mut other = sensitivity(-0.2, 0.0001, (-0.3, -0.1));
        other.n = 5;
        assert_eq!(
            verdict_of(&up, &other, &VerdictContext::default()).decision,
            Decision::Better
        );
        other.n = 220;
        other.p = Err(NotComputable::ZeroVariance);
        assert_eq!(
            verdict_of(&up, &other, &VerdictContext::default()).decision,
            Decision::Better
        );
    }

    #[test]
    fn a_running_run_marks_the_verdict_provisional_and_keeps_the_direction() {
        let up = primary(0.05, 0.001, (0.02, 0.08));
        let context = VerdictContext {
            running: vec!["Step 500".to_owned()],
            ..VerdictContext::default()
        };
        let v = verdict_of(&up, &sensitivity(0.05, 0.001, (0.02, 0.08)), &context);
        assert_eq!((v.decision, v.provisional), (Decision::Better, true));
        assert_eq!(v.headline(), "better (provisional)");
        assert_eq!(
            v.reasons,
            ["Step 500 is still running: the numbers will move as its trajectories finish"]
        );
        // Its sensitivity analysis counts the tasks not run yet as 0: a disagreement is said,
        // and the direction stays.
        let v = verdict_of(&up, &sensitivity(-0.05, 0.001, (-0.08, -0.02)), &context);
        assert_eq!((v.decision, v.provisional), (Decision::Better, true));
        assert!(
            v.reasons[0]
                .ends_with("(the tasks not run yet count as 0 there; judged when the run ends)"),
            "{:?}",
            v.reasons
        );
        assert!(
            v.reasons[1].starts_with("Step 500 is still running"),
            "{:?}",
            v.reasons
        );
    }

    #[test]
    fn the_serialized_names_are_snake_case() {
        let names: Vec<String> = [
            Decision::Better,
            Decision::Worse,
            Decision::NoDetectableDifference,
            Decision::Inconclusive,
            Decision::TooFewPairedTasks,
            Decision::NotComparable,
            Decision::Unreliable,
            Decision::NotComputable,
        ]
        .iter()
        .map(|d| serde_json::to_string(d).unwrap())
        .collect();
        assert_eq!(
            names,
            [
                "\"better\"",
                "\"worse\"",
                "\"no_detectable_difference\"",
                "\"inconclusive\"",
                "\"too_few_paired_tasks\"",
                "\"not_comparable\"",
                "\"unreliable\"",
                "\"not_computable\""
            ]
        );
        assert_eq!(
            serde_json::to_string(&IntervalMethod::TangoScore).unwrap(),
            "\"tango_score\""
        );
    }
}
