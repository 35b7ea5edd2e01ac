//! The decision rule of a column (one checkpoint step): every primary benchmark must be better
//! than its baseline, and no guardrail benchmark worse by more than its margin, with a
//! family-wise correction across the cells the rule looks at (Holm by default). The rule and
//! its family are written down in `docs/statistics.md` ("The scorecard's decision rule").
//!
//! [`decide_column`] works on plain facts ([`CellFacts`]) so every branch is tested natively.

use serde::{Deserialize, Serialize};

use crate::report::Decision;
use crate::stats::{self, dist::StudentT};

use super::words;

/// A guardrail: a benchmark that must not get worse by more than `margin_points`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Guardrail {
    /// The benchmark version.
    pub bench_id: String,
    /// The margin, in points (1 point = 0.01 reward).
    pub margin_points: f64,
}

/// The family-wise correction across the cells a column's rule looks at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Correction {
    /// Holm's step-down adjustment (family-wise error rate at α).
    #[default]
    Holm,
    /// No correction: each cell at α on its own.
    None,
}

impl Correction {
    /// Its name in a sentence.
    pub fn label(self) -> &'static str {
        match self {
            Correction::Holm => "Holm",
            Correction::None => "none (each cell at α on its own)",
        }
    }
}

/// The rule a user sets: primary benchmarks, guardrails, the correction.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Rule {
    /// Benchmarks that must be better.
    pub primary: Vec<String>,
    /// Benchmarks that must not be worse by more than a margin.
    pub guardrails: Vec<Guardrail>,
    /// The family-wise correction.
    pub correction: Correction,
}

impl Rule {
    /// Whether the rule looks at anything: at least one primary benchmark.
    pub fn is_set(&self) -> bool {
        !self.primary.is_empty()
    }
}

/// What a column's rule knows of one cell.
#[derive(Debug, Clone, PartialEq)]
pub enum CellFacts {
    /// Not evaluated (or no baseline): missing.
    Missing,
    /// The baseline or the candidate is still running.
    Running,
    /// Its verdict is held back (not comparable, too few paired tasks, unreliable, not
    /// computable, partial): why.
    HeldBack(String),
    /// Judged on its headline paired t-test.
    Judged {
        /// Δ (reward units).
        delta: f64,
        /// Standard error of Δ.
        se: f64,
        /// Degrees of freedom of the t-test.
        df: f64,
        /// Two-sided p of Δ = 0.
        p: f64,
        /// The headline interval's upper end (reward units), when known.
        upper: Option<f64>,
    },
}

/// Whether a cell is a primary benchmark or a guardrail in a column's rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// Must be better.
    Primary,
    /// Must not be worse by more than its margin.
    Guardrail,
}

/// One cell of the family a column's rule looks at, and what the test said.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FamilyMember {
    /// The benchmark.
    pub bench_id: String,
    /// Primary or guardrail.
    pub role: Role,
    /// The guardrail's margin in points (guardrails only).
    pub margin_points: Option<f64>,
    /// The test's p-value (primary: two-sided of Δ = 0; guardrail: one-sided of Δ ≤ −margin),
    /// when the cell was judged.
    pub p: Option<f64>,
    /// The same after the correction.
    pub p_adjusted: Option<f64>,
    /// Whether the cell meets its part of the rule.
    pub met: bool,
}

/// A column's answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum Outcome {
    /// Every primary better, every guardrail within its margin.
    Meets,
    /// The rule is not met: why, one phrase each.
    Fails {
        /// Why.
        reasons: Vec<String>,
    },
    /// Not known yet: why, one phrase each (held-back cells, running runs, missing cells).
    CannotTell {
        /// Why.
        reasons: Vec<String>,
    },
    /// No primary benchmark is chosen.
    NoRule,
}

/// The rule's answer for one column.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ColumnDecision {
    /// The checkpoint step.
    pub step: i64,
    /// The answer.
    pub outcome: Outcome,
    /// The cells the rule looked at, in the rule's order (primaries, then guardrails).
    pub family: Vec<FamilyMember>,
    /// The smallest Δ (points) among the primary benchmarks, when all were judged.
    pub min_primary_delta_points: Option<f64>,
}

/// The answer of `rule` for the column at `step`, given each benchmark's cell facts
/// (`facts(bench_id)`), at significance level `alpha`.
pub fn decide_column(
    step: i64,
    rule: &Rule,
    alpha: f64,
    facts: impl Fn(&str) -> CellFacts,
) -> ColumnDecision {
    if !rule.is_set() {
        return ColumnDecision {
            step,
            outcome: Outcome::NoRule,
            family: Vec::new(),
            min_primary_delta_points: None,
        };
    }
    let looked_at: Vec<(String, Role, Option<f64>)> = rule
        .primary
        .iter()
        .map(|bench| (bench.clone(), Role::Primary, None))
        .chain(rule.guardrails.iter().map(|guardrail| {
            (
                guardrail.bench_id.clone(),
                Role::Guardrail,
                Some(guardrail.margin_points),
            )
        }))
        .collect();
    let cells: Vec<CellFacts> = looked_at.iter().map(|(bench, ..)| facts(bench)).collect();
    let raw: Vec<Option<f64>> = looked_at
        .iter()
        .zip(&cells)
        .map(|((_, role, margin), cell)| test_p(*role, margin.unwrap_or(0.0), cell))
        .collect();
    let adjusted = adjust(&raw, rule.correction);
    let mut family = Vec::with_capacity(looked_at.len());
    let (mut decisive, mut not_shown, mut unknown) = (Vec::new(), Vec::new(), Vec::new());
    let mut min_primary: Option<f64> = None;
    let mut primaries_judged = true;
    for (((bench, role, margin), cell), (p, p_adjusted)) in
        looked_at.iter().zip(&cells).zip(raw.iter().zip(&adjusted))
    {
        let significant = p_adjusted.is_some_and(|p| p < alpha);
        let met = match cell {
            CellFacts::Judged { delta, upper, .. } => {
                let margin = margin.unwrap_or(0.0);
                match role {
                    Role::Primary => {
                        min_primary = Some(min_primary.map_or(*delta, |m: f64| m.min(*delta)));
                        let better = significant && *delta > 0.0;
                        let worse = significant && *delta < 0.0;
                        if worse {
                            decisive.push(words::worse_on(bench));
                        } else if !better {
                            not_shown.push(words::not_shown_better_on(bench));
                        }
                        better
                    }
                    Role::Guardrail => {
                        let breached = upper.is_some_and(|upper| upper * 100.0 < -margin);
                        if breached {
                            decisive.push(words::beyond_margin_on(bench, margin));
                        } else if !significant {
                            not_shown.push(words::not_shown_within_on(bench, margin));
                        }
                        significant
                    }
                }
            }
            CellFacts::Missing => {
                primaries_judged &= *role != Role::Primary;
                unknown.push(words::missing_on(bench));
                false
            }
            CellFacts::Running => {
                primaries_judged &= *role != Role::Primary;
                unknown.push(words::running_on(bench));
                false
            }
            CellFacts::HeldBack(why) => {
                primaries_judged &= *role != Role::Primary;
                unknown.push(words::held_back_on(bench, why));
                false
            }
        };
        family.push(FamilyMember {
            bench_id: bench.clone(),
            role: *role,
            margin_points: *margin,
            p: *p,
            p_adjusted: *p_adjusted,
            met,
        });
    }
    let outcome = if !decisive.is_empty() {
        Outcome::Fails { reasons: decisive }
    } else if !unknown.is_empty() {
        Outcome::CannotTell { reasons: unknown }
    } else if !not_shown.is_empty() {
        Outcome::Fails { reasons: not_shown }
    } else {
        Outcome::Meets
    };
    ColumnDecision {
        step,
        outcome,
        family,
        min_primary_delta_points: min_primary
            .filter(|_| primaries_judged)
            .map(|delta| delta * 100.0),
    }
}

/// The p-value a cell contributes to the family: a primary's two-sided p of Δ = 0; a
/// guardrail's one-sided p of H0: Δ ≤ −margin (the paired t statistic (Δ + margin) / SE on the
/// test's degrees of freedom).
fn test_p(role: Role, margin_points: f64, cell: &CellFacts) -> Option<f64> {
    let CellFacts::Judged {
        delta, se, df, p, ..
    } = cell
    else {
        return None;
    };
    match role {
        Role::Primary => Some(*p),
        Role::Guardrail => {
            if se.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) {
                return None;
            }
            let t = (delta + margin_points / 100.0) / se;
            StudentT::new(*df).ok().map(|dist| dist.sf(t))
        }
    }
}

/// The family's p-values corrected (those without a value stay without).
fn adjust(raw: &[Option<f64>], correction: Correction) -> Vec<Option<f64>> {
    match correction {
        Correction::None => raw.to_vec(),
        Correction::Holm => {
            let values: Vec<f64> = raw.iter().flatten().copied().collect();
            let Ok(holm) = stats::holm(&values) else {
                return vec![None; raw.len()];
            };
            let mut next = holm.into_iter();
            raw.iter().map(|p| p.and_then(|_| next.next())).collect()
        }
    }
}

/// What the rule knows of a cell from its verdict and test: running (provisional), held back
/// (a verdict that does not judge the statistics), or judged.
pub fn facts_of(comparison: &super::cell::Comparison) -> CellFacts {
    let verdict = &comparison.verdict;
    if verdict.provisional {
        return CellFacts::Running;
    }
    let held = match verdict.decision {
        Decision::NotComparable
        | Decision::TooFewPairedTasks
        | Decision::Unreliable
        | Decision::NotComputable => Some(verdict.decision.label()),
        _ if verdict.partial => Some("partial"),
        _ => None,
    };
    if let Some(why) = held {
        return CellFacts::HeldBack(why.to_owned());
    }
    match (&comparison.headline_test, comparison.delta) {
        (Ok(test), Some(delta)) => CellFacts::Judged {
            delta,
            se: test.se,
            df: test.df,
            p: test.p_value,
            upper: comparison.interval().map(|interval| interval.upper),
        },
        _ => CellFacts::HeldBack(Decision::NotComputable.label().to_owned()),
    }
}
