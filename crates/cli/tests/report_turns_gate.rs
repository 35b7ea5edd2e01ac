//! `eval-compare report --max-turns-increase PERCENT` on the real SWE-bench Pro run folders:
//! Claude Sonnet 4.5 takes about a quarter more turns per task than GPT-5's 250-turn run, so
//! with GPT-5 as the baseline the turns gate fails (exit 13) under a limit the whole interval
//! lies above and passes under one it does not; the report says why on stderr, and the page's
//! numbers (the JSON's effort section) carry the same interval.
#![allow(clippy::unwrap_used)]

mod common;

use common::{eval_compare, run, swe_bench_pro};
use serde_json::Value;

const CLAUDE: &str = "claude-45sonnet-10132025";
const GPT5: &str = "gpt-5-250-turns-10132025";

fn report(baseline: &str, candidate: &str, args: &[&str]) -> common::Run {
    run(eval_compare()
        .arg("report")
        .args(["--resamples", "0"])
        .args(args)
        .arg(swe_bench_pro(baseline))
        .arg(swe_bench_pro(candidate)))
}

/// The relative change of turns per task and its interval, from the JSON report.
fn relative(baseline: &str, candidate: &str) -> (f64, f64, f64) {
    let output = report(baseline, candidate, &["--format", "json"]);
    assert_eq!(output.code, 0, "{}", output.stderr);
    let json: Value = serde_json::from_str(&output.stdout).unwrap();
    let relative = &json["effort"]["candidates"][0]["turns"]["relative"]["Ok"];
    let value = |field: &Value| field.as_f64().unwrap();
    (
        value(&relative["ratio"]),
        value(&relative["interval"]["lower"]),
        value(&relative["interval"]["upper"]),
    )
}

#[test]
fn claude_takes_more_turns_than_gpt5_and_the_turns_gate_fails_beyond_the_limit() {
    let (ratio, lower, upper) = relative(GPT5, CLAUDE);
    assert!(ratio > 0.15 && lower > 0.15, "{ratio} ({lower} to {upper})");
    let failing = report(GPT5, CLAUDE, &["--max-turns-increase", "10"]);
    assert_eq!(failing.code, 13, "{}", failing.stderr);
    assert!(
        failing.stderr.contains("turns above the limit of +10.0%")
            && failing.stderr.contains("more turns per task"),
        "{}",
        failing.stderr
    );
    // A limit inside the interval: the increase is not surely above it.
    let inside = format!("{}", (lower + upper) / 2.0 * 100.0);
    let passing = report(GPT5, CLAUDE, &["--max-turns-increase", &inside]);
    assert_eq!(passing.code, 0, "{}", passing.stderr);
    // Fewer turns: no limit on an increase fails.
    let fewer = report(CLAUDE, GPT5, &["--max-turns-increase", "0"]);
    assert_eq!(fewer.code, 0, "{}", fewer.stderr);
}

#[test]
fn the_markdown_report_names_the_turn_change_under_the_headline() {
    let output = report(GPT5, CLAUDE, &[]);
    assert_eq!(output.code, 0, "{}", output.stderr);
    assert!(output.stdout.contains("## Effort: turns and endings"));
    assert!(
        output.stdout.contains("more turns per task (95% CI +"),
        "{}",
        output.stdout
    );
}

#[test]
fn a_limit_that_is_not_a_number_is_a_usage_error() {
    let output = report(GPT5, CLAUDE, &["--max-turns-increase", "ten"]);
    assert_eq!(output.code, 2, "{}", output.stderr);
    assert!(
        output.stderr.contains("not a percentage"),
        "{}",
        output.stderr
    );
}
