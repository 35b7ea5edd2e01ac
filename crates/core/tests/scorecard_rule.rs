//! The scorecard's decision rule in every branch, on plain cell facts.
#![allow(clippy::unwrap_used)]

use eval_compare_core::scorecard::{
    decide_column, words, CellFacts, Correction, Guardrail, Outcome, Role, Rule,
};

/// A judged cell: Δ in points, its SE in points, 99 df (p two-sided from the t-test).
fn judged(delta_points: f64, se_points: f64) -> CellFacts {
    use eval_compare_core::stats::dist::StudentT;
    let (delta, se) = (delta_points / 100.0, se_points / 100.0);
    let t = StudentT::new(99.0).unwrap();
    let p = 2.0 * t.sf((delta / se).abs());
    let half = t.quantile(0.975).unwrap() * se;
    CellFacts::Judged {
        delta,
        se,
        df: 99.0,
        p,
        upper: Some(delta + half),
    }
}

fn rule(primary: &[&str], guardrails: &[(&str, f64)]) -> Rule {
    Rule {
        primary: primary.iter().map(|b| (*b).to_owned()).collect(),
        guardrails: guardrails
            .iter()
            .map(|(b, m)| Guardrail {
                bench_id: (*b).to_owned(),
                margin_points: *m,
            })
            .collect(),
        correction: Correction::Holm,
    }
}

fn facts(cells: Vec<(&'static str, CellFacts)>) -> impl Fn(&str) -> CellFacts {
    move |bench| {
        cells
            .iter()
            .find(|(b, _)| *b == bench)
            .map_or(CellFacts::Missing, |(_, f)| f.clone())
    }
}

#[test]
fn no_primary_benchmark_is_no_rule() {
    let column = decide_column(100, &rule(&[], &[("g", 1.0)]), 0.05, |_| judged(5.0, 1.0));
    assert_eq!(column.outcome, Outcome::NoRule);
    assert_eq!(words::outcome_text(&column.outcome), words::NO_RULE);
}

#[test]
fn better_on_every_primary_and_within_every_guardrail_meets_the_rule() {
    let rule = rule(&["a", "b"], &[("g", 2.0)]);
    let column = decide_column(
        300,
        &rule,
        0.05,
        facts(vec![
            ("a", judged(5.0, 1.0)),
            ("b", judged(4.0, 1.0)),
            ("g", judged(0.0, 0.5)),
        ]),
    );
    assert_eq!(column.outcome, Outcome::Meets);
    assert_eq!(words::outcome_text(&column.outcome), "meets the rule");
    assert_eq!(column.family.len(), 3);
    assert!(column.family.iter().all(|m| m.met));
    assert_eq!(column.family[2].role, Role::Guardrail);
    assert!((column.min_primary_delta_points.unwrap() - 4.0).abs() < 1e-9);
}

#[test]
fn significantly_worse_on_a_primary_fails_even_when_another_cell_is_unknown() {
    let rule = rule(&["a", "b"], &[]);
    let column = decide_column(
        300,
        &rule,
        0.05,
        facts(vec![("a", judged(-5.0, 1.0)), ("b", CellFacts::Running)]),
    );
    assert_eq!(
        column.outcome,
        Outcome::Fails {
            reasons: vec!["worse on a".to_owned()]
        }
    );
    assert_eq!(words::outcome_text(&column.outcome), "fails: worse on a");
    assert_eq!(column.min_primary_delta_points, None);
}

#[test]
fn a_primary_not_shown_better_fails_once_everything_is_known() {
    let rule = rule(&["a"], &[]);
    let column = decide_column(1, &rule, 0.05, facts(vec![("a", judged(0.5, 1.0))]));
    assert_eq!(
        column.outcome,
        Outcome::Fails {
            reasons: vec!["not shown better on a".to_owned()]
        }
    );
}

#[test]
fn a_guardrail_worse_than_its_margin_fails_and_one_not_shown_within_fails_too() {
    let rule = rule(&["a"], &[("g", 1.0)]);
    let breached = decide_column(
        1,
        &rule,
        0.05,
        facts(vec![("a", judged(5.0, 1.0)), ("g", judged(-6.0, 1.0))]),
    );
    assert_eq!(
        breached.outcome,
        Outcome::Fails {
            reasons: vec!["worse on g by more than 1.0 points".to_owned()]
        }
    );
    // Δ −0.5 with a wide interval: neither beyond −1 nor shown within it.
    let unsure = decide_column(
        1,
        &rule,
        0.05,
        facts(vec![("a", judged(5.0, 1.0)), ("g", judged(-0.5, 2.0))]),
    );
    assert_eq!(
        unsure.outcome,
        Outcome::Fails {
            reasons: vec!["not shown within 1.0 points on g".to_owned()]
        }
    );
}

#[test]
fn held_back_running_and_missing_cells_cannot_tell_yet() {
    let rule = rule(&["a", "b"], &[("g", 1.0)]);
    let column = decide_column(
        7,
        &rule,
        0.05,
        facts(vec![
            ("a", CellFacts::HeldBack("not comparable".to_owned())),
            ("b", CellFacts::Running),
            ("g", judged(0.0, 0.2)),
        ]),
    );
    assert_eq!(
        column.outcome,
        Outcome::CannotTell {
            reasons: vec![
                "a held back (not comparable)".to_owned(),
                "b still running".to_owned()
            ]
        }
    );
    assert_eq!(
        words::outcome_text(&column.outcome),
        "cannot tell yet: a held back (not comparable); b still running"
    );
    let missing = decide_column(7, &rule, 0.05, facts(vec![("a", judged(5.0, 1.0))]));
    assert_eq!(
        missing.outcome,
        Outcome::CannotTell {
            reasons: vec!["b not evaluated".to_owned(), "g not evaluated".to_owned()]
        }
    );
}

#[test]
fn holm_changes_the_answer_against_no_correction() {
    // Three primaries each at p ≈ 0.03: each significant alone, not after Holm (0.09).
    let t = eval_compare_core::stats::dist::StudentT::new(99.0).unwrap();
    let z = t.quantile(1.0 - 0.015).unwrap();
    let cell = || judged(z, 1.0);
    let mut holm = rule(&["a", "b", "c"], &[]);
    let cells = || facts(vec![("a", cell()), ("b", cell()), ("c", cell())]);
    let corrected = decide_column(1, &holm, 0.05, cells());
    assert!(
        matches!(corrected.outcome, Outcome::Fails { .. }),
        "{corrected:?}"
    );
    let p = corrected.family[0].p.unwrap();
    assert!((p - 0.03).abs() < 1e-6, "{p}");
    assert!((corrected.family[0].p_adjusted.unwrap() - 0.09).abs() < 1e-6);
    holm.correction = Correction::None;
    let uncorrected = decide_column(1, &holm, 0.05, cells());
    assert_eq!(uncorrected.outcome, Outcome::Meets);
    assert!(words::rule_text(&holm, 0.05).contains("none"));
    holm.correction = Correction::Holm;
    assert!(words::rule_text(&holm, 0.05).contains("Holm across the 3 cells"));
}

#[test]
fn the_guardrail_test_is_one_sided_against_the_margin() {
    // Δ = −0.5 points, SE 0.2: t = (−0.5 + 1) / 0.2 = 2.5 against Δ ≤ −1.
    let rule = Rule {
        correction: Correction::None,
        ..rule(&["a"], &[("g", 1.0)])
    };
    let column = decide_column(
        1,
        &rule,
        0.05,
        facts(vec![("a", judged(5.0, 1.0)), ("g", judged(-0.5, 0.2))]),
    );
    let t = eval_compare_core::stats::dist::StudentT::new(99.0).unwrap();
    let expected = t.sf(2.5);
    assert!((column.family[1].p.unwrap() - expected).abs() < 1e-12);
    assert_eq!(column.outcome, Outcome::Meets);
}
