//! `eval-compare report --exclusions FILE` on SWE-bench Pro (shared/real-data): GPT-5's
//! 250-turn run against Claude Sonnet 4.5 with the tasks whose attempt ended in an error or
//! without a submission in either run set aside (per_instance.csv, read here). The CLI prints
//! the core's report byte for byte, the gates print both verdicts, and a bad ledger stops the
//! command with the entry and field named.
#![allow(clippy::unwrap_used)]

mod common;

use std::collections::BTreeSet;

use common::{eval_compare, run, swe_bench_pro};
use eval_compare_core::ledger::{Action, Entry, Ledger, Reason, Target};
use eval_compare_core::model::{RunIdx, SourceKind};
use eval_compare_core::report::{build_report_with_ledger, ReportSettings};
use eval_compare_core::run_folder::run_set_from_folders;
use eval_compare_core::testing::real_data::run_folder;
use serde_json::Value;

const CLAUDE: &str = "claude-45sonnet-10132025";
const GPT5: &str = "gpt-5-250-turns-10132025";

/// The tasks per_instance.csv says either run ended in ERROR or MISSING_SUBMIT.
fn set_aside() -> BTreeSet<String> {
    let path = common::real_data().join("swe-bench-pro/per_instance.csv");
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().trim().split(',').collect();
    let column = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let (system, task, reason) = (
        column("system"),
        column("task_id"),
        column("termination_reason"),
    );
    lines
        .map(|line| line.trim().split(',').collect::<Vec<_>>())
        .filter(|fields| [CLAUDE, GPT5].contains(&fields[system]))
        .filter(|fields| ["ERROR", "MISSING_SUBMIT"].contains(&fields[reason]))
        .map(|fields| fields[task].to_owned())
        .collect()
}

fn ledger() -> Ledger {
    Ledger {
        entries: set_aside()
            .into_iter()
            .map(|task| Entry {
                target: Target::Task(task),
                action: Action::LeaveOut,
                reason: Reason::InfrastructureError,
                note: None,
                at: Some("2026-12-05T12:00:00Z".into()),
            })
            .collect(),
    }
}

/// The core's report of the two folders with the ledger, at the CLI's default settings and B.
fn core_report(ledger: &Ledger, resamples: usize) -> eval_compare_core::report::Report {
    let folders: Vec<_> = [CLAUDE, GPT5]
        .iter()
        .map(|name| run_folder("swe-bench-pro", name))
        .collect();
    let set = run_set_from_folders(&folders, SourceKind::Files).unwrap();
    let settings = ReportSettings {
        resamples,
        ..ReportSettings::default()
    };
    build_report_with_ledger(&set, RunIdx(0), &[RunIdx(1)], &settings, ledger).unwrap()
}

fn report(ledger: &std::path::Path, args: &[&str]) -> common::Run {
    run(eval_compare()
        .arg("report")
        .args(args)
        .arg("--exclusions")
        .arg(ledger)
        .arg(swe_bench_pro(CLAUDE))
        .arg(swe_bench_pro(GPT5)))
}

#[test]
fn the_cli_prints_the_cores_report_with_the_ledger_and_the_gate_prints_both_verdicts() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ledger.json");
    let ledger = ledger();
    assert_eq!(ledger.entries.len(), 114);
    std::fs::write(&path, ledger.to_json()).unwrap();
    let core = core_report(&ledger, 200);

    let text = report(&path, &["--resamples", "200"]);
    assert_eq!(text.code, 0, "{}", text.stderr);
    let mut expected = core.to_markdown();
    if !expected.ends_with('\n') {
        expected.push('\n');
    }
    assert_eq!(text.stdout, expected);
    assert!(
        text.stdout.contains("## Reviewer's ledger"),
        "{}",
        text.stdout
    );
    assert!(
        text.stdout.contains("With 114 tasks set aside: "),
        "{}",
        text.stdout
    );

    let json = report(&path, &["--resamples", "200", "--format", "json"]);
    assert_eq!(json.code, 0, "{}", json.stderr);
    assert_eq!(json.stdout.trim_end(), core.to_json());
    let value: Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(value["ledger"]["tasks_set_aside"], 114);
    assert_eq!(value["candidates"][0]["primary"]["n"], 730 - 114);
    assert_eq!(value["candidates"][0]["without_ledger"]["n"], 670);
    assert_eq!(
        value["coverage"]["runs"][1]["set_aside"]["by_reason"][0]["reason"],
        "infrastructure_error"
    );

    // The gate judges the verdict with the ledger and prints it beside the one without.
    let gated = report(&path, &["--resamples", "0", "--fail-on-regression"]);
    let with = core.candidates[0].verdict.decision;
    let expected_exit = if with == eval_compare_core::report::Decision::Worse {
        6
    } else {
        0
    };
    assert_eq!(gated.code, expected_exit, "{}", gated.stderr);
    let line = gated
        .stderr
        .lines()
        .find(|line| line.contains("reviewer's ledger: gpt-5"))
        .unwrap_or_else(|| panic!("{}", gated.stderr));
    assert!(line.contains("With 114 tasks set aside: "), "{line}");
    assert!(line.contains("; without: "), "{line}");
}

#[test]
fn a_bad_ledger_stops_the_report_naming_the_entry_and_field() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ledger.json");
    std::fs::write(
        &path,
        r#"{"version": 1, "entries": [{"task_id": "x", "action": "leave_out", "reason": "bored"}]}"#,
    )
    .unwrap();
    let output = report(&path, &["--resamples", "0"]);
    assert_eq!(output.code, 3, "{}", output.stderr);
    assert!(output.stdout.is_empty());
    assert!(
        output
            .stderr
            .contains("ledger entry 0 (`x`), field `reason`: `bored` is not one of"),
        "{}",
        output.stderr
    );
}

#[test]
fn a_ledger_of_notes_only_is_listed_and_changes_no_figure() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("notes.json");
    let task = set_aside().into_iter().next().unwrap();
    std::fs::write(
        &path,
        format!(
            r#"{{"version": 1, "entries": [{{"task_id": "{task}", "action": "note",
            "reason": "other", "note": "looked at the logs: <b>harness</b> timeout"}}]}}"#
        ),
    )
    .unwrap();
    let json = report(&path, &["--resamples", "0", "--format", "json"]);
    assert_eq!(json.code, 0, "{}", json.stderr);
    let value: Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(value["ledger"]["tasks_set_aside"], 0);
    assert_eq!(value["ledger"]["entries"][0]["applies"], true);
    assert_eq!(value["candidates"][0]["primary"]["n"], 670);
    assert_eq!(value["candidates"][0]["without_ledger"]["n"], 670);
    let text = report(&path, &["--resamples", "0"]);
    assert_eq!(text.code, 0, "{}", text.stderr);
    assert!(
        text.stdout.contains(
            "| note only | other | looked at the logs: &lt;b&gt;harness&lt;/b&gt; timeout"
        ),
        "{}",
        text.stdout
    );
    assert!(
        text.stdout.contains("With 0 tasks set aside: "),
        "{}",
        text.stdout
    );
}
