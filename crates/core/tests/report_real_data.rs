//! The report on the real run folders in `shared/real-data`, against reference values computed
//! independently from the CSV tables with scipy/statsmodels
//! (`scripts/reference/report_real_data.py` → `tests/data/report_real_data.json`).
#![allow(clippy::unwrap_used)]

#[allow(dead_code)] // this test uses the folder loader, not the CSV reader
mod real_data_common;

use eval_compare_core::model::RunIdx;
use eval_compare_core::report::{build_report, CandidateResult, ReportSettings};
use eval_compare_core::run_folder::run_set_from_folders;
use real_data_common::load_folder;
use serde_json::Value;

fn reference(name: &str) -> Value {
    let text = include_str!("data/report_real_data.json");
    let all: Value = serde_json::from_str(text).unwrap();
    all[name].clone()
}

fn close(actual: f64, expected: &Value, what: &str) {
    let expected = expected
        .as_f64()
        .unwrap_or_else(|| panic!("{what}: no reference"));
    let tolerance = 1e-9 * expected.abs().max(1.0);
    assert!(
        (actual - expected).abs() <= tolerance,
        "{what}: {actual} vs scipy {expected}"
    );
}

fn compare(
    benchmark: &str,
    base: &str,
    cand: &str,
) -> (CandidateResult, eval_compare_core::report::Report) {
    let folders = [load_folder(benchmark, base), load_folder(benchmark, cand)];
    let set = run_set_from_folders(&folders, eval_compare_core::model::SourceKind::Files).unwrap();
    let report = build_report(&set, RunIdx(0), &[RunIdx(1)], &ReportSettings::default()).unwrap();
    (report.candidates[0].clone(), report)
}

fn check_common(c: &CandidateResult, r: &Value) {
    let p = &c.primary;
    let e = p.estimate.as_ref().unwrap();
    assert_eq!(e.n as u64, r["n"].as_u64().unwrap());
    close(e.baseline_mean, &r["baseline_mean"], "baseline mean");
    close(e.candidate_mean, &r["candidate_mean"], "candidate mean");
    close(e.delta, &r["delta"], "delta");
    close(*e.se.as_ref().unwrap(), &r["se"], "se");
    let ci = e.t_interval.as_ref().unwrap();
    close(ci.lower, &r["t_lower"], "t lower");
    close(ci.upper, &r["t_upper"], "t upper");
    close(
        *e.correlation.as_ref().unwrap(),
        &r["correlation"],
        "correlation",
    );
    close(p.t_test.as_ref().unwrap().p_value, &r["t_p"], "t p");
    close(
        p.wilcoxon_pratt.as_ref().unwrap().p_value,
        &r["wilcoxon_pratt_p"],
        "wilcoxon pratt p",
    );
    close(
        p.wilcoxon_wilcox.as_ref().unwrap().p_value,
        &r["wilcoxon_wilcox_p"],
        "wilcoxon wilcox p",
    );
    close(
        p.sign_test.as_ref().unwrap().p_value,
        &r["sign_p"],
        "sign p",
    );
    close(p.mde.as_ref().unwrap().mde, &r["mde"], "mde");
    let wtl = p.win_tie_loss.as_ref().unwrap();
    assert_eq!(wtl.wins as u64, r["wins"].as_u64().unwrap());
    assert_eq!(wtl.ties as u64, r["ties"].as_u64().unwrap());
    assert_eq!(wtl.losses as u64, r["losses"].as_u64().unwrap());
    assert_eq!(c.excluded.total, r["excluded"].as_u64().unwrap());
    assert_eq!(c.sensitivity.n as u64, r["union"].as_u64().unwrap());
}

#[test]
fn swe_bench_pro_claude45_vs_gpt5_matches_scipy() {
    let (c, report) = compare(
        "swe-bench-pro",
        "claude-45sonnet-10132025",
        "gpt-5-250-turns-10132025",
    );
    let r = reference("swe_claude45_vs_gpt5");
    check_common(&c, &r);
    let m = c.primary.mcnemar.as_ref().unwrap().as_ref().unwrap();
    close(m.p_exact, &r["mcnemar_exact_p"], "mcnemar exact p");
    // One sample per task: the pooled and task-weighted means coincide; the platform's own mean
    // (pooled over completed trajectories) is shown beside them as recorded.
    let base = &report.runs[0];
    assert!((base.pooled_mean.unwrap() - base.task_weighted_mean.unwrap()).abs() < 1e-12);
    assert!(base.platform_reward_mean.is_some());
    // Categories (repositories) make the clustered analysis available.
    assert!(c.primary.clustered.as_ref().unwrap().robust.is_ok());
    assert!(c.sentence.contains("points lower"), "{}", c.sentence);
}

#[test]
fn swe_bench_pro_tasks_absent_from_a_run_are_excluded_and_counted() {
    let (c, report) = compare(
        "swe-bench-pro",
        "claude-45sonnet-10132025",
        "claude-4sonnet-10132025",
    );
    let r = reference("swe_claude45_vs_claude4");
    check_common(&c, &r);
    let pair = &report.coverage.comparisons[0];
    assert!(
        pair.only_in_baseline.len() >= 160,
        "{}",
        pair.only_in_baseline.len()
    );
    assert!(c.sentence.contains("absent from one run"), "{}", c.sentence);
}

#[test]
fn humaneval_ten_samples_matches_scipy_and_pass_at_k() {
    let (c, _) = compare("humaneval-10x", "gpt-3.5-turbo", "gpt-4");
    let r = reference("humaneval_gpt35_vs_gpt4");
    check_common(&c, &r);
    assert!(
        c.primary.mcnemar.is_none(),
        "10 samples per task: McNemar does not apply"
    );
    let ks: Vec<u64> = c.primary.pass_at_k.iter().map(|p| p.k).collect();
    assert_eq!(ks, vec![1, 5, 10]);
    for pk in &c.primary.pass_at_k {
        let base = *pk.baseline.as_ref().unwrap().mean.as_ref().unwrap();
        let cand = *pk.candidate.as_ref().unwrap().mean.as_ref().unwrap();
        close(
            base,
            &r[format!("pass_at_{}_baseline", pk.k)],
            "pass@k baseline",
        );
        close(
            cand,
            &r[format!("pass_at_{}_candidate", pk.k)],
            "pass@k candidate",
        );
    }
}
