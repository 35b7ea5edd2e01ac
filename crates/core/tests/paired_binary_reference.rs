//! Tango's score interval against reference values computed with scipy and statsmodels by
//! `scripts/reference/paired_binary_reference.py` into `tests/data/paired_binary_reference.json`
//! (the restricted MLE found numerically there, not by the closed form used here), and the
//! exact coverage that is the reason the report uses it for small binary paired sets.
//!
//! Tolerance: 1e-9 relative, or 1e-12 absolute for bounds near zero.
#![allow(clippy::unwrap_used)]

use eval_compare_core::stats::{paired_estimate, tango_interval, tango_statistic};
use serde::Deserialize;

#[derive(Deserialize)]
struct Reference {
    intervals: Vec<IntervalCase>,
    coverage: Vec<CoverageCase>,
}

#[derive(Deserialize)]
struct IntervalCase {
    candidate_only: u64,
    baseline_only: u64,
    n: u64,
    level: f64,
    lower: f64,
    upper: f64,
    statistic_at_zero: f64,
    mcnemar_chi2_statsmodels: Option<f64>,
}

#[derive(Deserialize)]
struct CoverageCase {
    n: u64,
    p12: f64,
    p21: f64,
    level: f64,
    tango_coverage: f64,
    t_coverage: f64,
}

fn reference() -> Reference {
    serde_json::from_str(include_str!("data/paired_binary_reference.json")).unwrap()
}

fn assert_close(actual: f64, expected: f64, what: &str) {
    let diff = (actual - expected).abs();
    assert!(
        diff <= 1e-9 * expected.abs() || diff <= 1e-12,
        "{what}: got {actual:e}, expected {expected:e}"
    );
}

#[test]
fn tango_intervals_match_the_reference() {
    let reference = reference();
    assert!(reference.intervals.len() >= 40);
    for case in &reference.intervals {
        let what = format!(
            "c = {}, b = {}, n = {}, level {}",
            case.candidate_only, case.baseline_only, case.n, case.level
        );
        let ci = tango_interval(case.candidate_only, case.baseline_only, case.n, case.level)
            .unwrap_or_else(|e| panic!("{what}: {e}"));
        assert_close(ci.lower, case.lower, &format!("{what}: lower"));
        assert_close(ci.upper, case.upper, &format!("{what}: upper"));
        assert_eq!(ci.level, case.level);
        let t0 = tango_statistic(case.candidate_only, case.baseline_only, case.n, 0.0);
        assert_close(t0, case.statistic_at_zero, &format!("{what}: T(0)"));
        if let Some(chi2) = case.mcnemar_chi2_statsmodels {
            assert_close(t0 * t0, chi2, &format!("{what}: T(0)² = McNemar χ²"));
        }
    }
}

/// The probability of (x12, x21, rest) under a trinomial, through logarithms.
fn trinomial(n: u64, x12: u64, x21: u64, p12: f64, p21: f64) -> f64 {
    let ln_factorial = |k: u64| (1..=k).map(|i| (i as f64).ln()).sum::<f64>();
    let rest = n - x12 - x21;
    let p_rest = 1.0 - p12 - p21;
    let term = |count: u64, p: f64| {
        if count == 0 {
            0.0
        } else {
            count as f64 * p.ln()
        }
    };
    (ln_factorial(n) - ln_factorial(x12) - ln_factorial(x21) - ln_factorial(rest)
        + term(x12, p12)
        + term(x21, p21)
        + term(rest, p_rest))
    .exp()
}

/// The t interval of the report's paired estimate on per-task deltas in {−1, 0, 1}.
fn t_interval(x12: u64, x21: u64, n: u64, level: f64) -> Option<(f64, f64)> {
    let n = n as usize;
    let (x12, x21) = (x12 as usize, x21 as usize);
    let base: Vec<f64> = (0..n)
        .map(|i| if i >= x12 && i < x12 + x21 { 1.0 } else { 0.0 })
        .collect();
    let cand: Vec<f64> = (0..n).map(|i| if i < x12 { 1.0 } else { 0.0 }).collect();
    let estimate = paired_estimate(&base, &cand, level).ok()?;
    let ci = estimate.t_interval.ok()?;
    Some((ci.lower, ci.upper))
}

#[test]
fn exact_coverage_matches_and_tango_holds_where_the_t_interval_does_not() {
    let reference = reference();
    let mut t_worst: f64 = 1.0;
    for case in &reference.coverage {
        let truth = case.p12 - case.p21;
        let (mut tango, mut t) = (0.0, 0.0);
        for x12 in 0..=case.n {
            for x21 in 0..=(case.n - x12) {
                let p = trinomial(case.n, x12, x21, case.p12, case.p21);
                let ci = tango_interval(x12, x21, case.n, case.level).unwrap();
                if ci.contains(truth) {
                    tango += p;
                }
                if let Some((lo, hi)) = t_interval(x12, x21, case.n, case.level) {
                    if lo <= truth && truth <= hi {
                        t += p;
                    }
                }
            }
        }
        let what = format!("n = {}, p12 = {}, p21 = {}", case.n, case.p12, case.p21);
        // Sums of thousands of probabilities: agreement to 1e-9 absolute.
        assert!(
            (tango - case.tango_coverage).abs() < 1e-9,
            "{what}: Tango coverage {tango}, reference {}",
            case.tango_coverage
        );
        assert!(
            (t - case.t_coverage).abs() < 1e-9,
            "{what}: t coverage {t}, reference {}",
            case.t_coverage
        );
        assert!(tango >= 0.95 - 0.005, "{what}: Tango under-covers: {tango}");
        t_worst = t_worst.min(t);
    }
    assert!(
        t_worst < 0.9,
        "the reference set should show the t interval under-covering (worst {t_worst})"
    );
}
