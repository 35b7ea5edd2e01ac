//! `eval-compare report` on the real run folders in shared/real-data: numbers checked against
//! an independent computation from per_instance.csv, output formats, gates and exit codes.
#![allow(clippy::unwrap_used)]

mod common;

use std::collections::HashMap;

use common::{eval_compare, run, swe_bench_pro};
use serde_json::Value;

const CLAUDE: &str = "claude-45sonnet-10132025";
const GPT5: &str = "gpt-5-250-turns-10132025";

/// Reward per task of one system from per_instance.csv; `None` when the trajectory has no
/// reward (an agent crash).
fn csv_rewards(system: &str) -> HashMap<String, Option<f64>> {
    let path = common::real_data().join("swe-bench-pro/per_instance.csv");
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().trim().split(',').collect();
    let column = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let (system_at, task_at, reward_at) = (column("system"), column("task_id"), column("reward"));
    lines
        .map(|line| line.trim().split(',').collect::<Vec<_>>())
        .filter(|fields| fields[system_at] == system)
        .map(|fields| {
            let reward = fields[reward_at];
            let reward = (!reward.is_empty()).then(|| reward.parse::<f64>().unwrap());
            (fields[task_at].to_owned(), reward)
        })
        .collect()
}

/// Paired n and Δ (candidate − baseline) over tasks both runs have a reward on.
fn paired_from_csv(baseline: &str, candidate: &str) -> (usize, f64) {
    let base = csv_rewards(baseline);
    let cand = csv_rewards(candidate);
    let deltas: Vec<f64> = base
        .iter()
        .filter_map(|(task, b)| Some(cand.get(task).copied()?? - (*b)?))
        .collect();
    let n = deltas.len();
    (n, deltas.iter().sum::<f64>() / n as f64)
}

fn report(args: &[&str]) -> common::Run {
    run(eval_compare()
        .arg("report")
        .args(args)
        .arg(swe_bench_pro(CLAUDE))
        .arg(swe_bench_pro(GPT5)))
}

#[test]
fn json_report_has_the_paired_n_and_delta_of_the_csv() {
    let output = report(&["--format", "json", "--resamples", "200"]);
    assert_eq!(output.code, 0, "{}", output.stderr);
    let json: Value = serde_json::from_str(&output.stdout).unwrap();
    let (n, delta) = paired_from_csv(CLAUDE, GPT5);
    assert_eq!(n, 670);
    let primary = &json["candidates"][0]["primary"];
    assert_eq!(primary["n"].as_u64(), Some(n as u64));
    let reported = primary["estimate"]["Ok"]["delta"].as_f64().unwrap();
    assert!((reported - delta).abs() < 1e-12, "{reported} vs {delta}");
    assert_eq!(json["runs"][0]["id"], "er_claude-45sonnet-10132025");
    assert_eq!(json["runs"][1]["id"], "er_gpt-5-250-turns-10132025");
    assert_eq!(json["settings"]["resamples"], 200);
}

#[test]
fn text_report_states_the_headline() {
    let output = report(&["--resamples", "0"]);
    assert_eq!(output.code, 0, "{}", output.stderr);
    let (n, delta) = paired_from_csv(CLAUDE, GPT5);
    assert!(output.stdout.contains("## Headline"), "{}", output.stdout);
    let headline = format!("{GPT5} scores {:.1} points lower (95% CI", -delta * 100.0);
    assert!(
        output.stdout.contains(&headline),
        "{headline}\n{}",
        output.stdout
    );
    assert!(output.stdout.contains(&format!("on {n} paired tasks")));
}

#[test]
fn the_same_seed_gives_the_same_report_and_settings_are_applied() {
    let args = [
        "--format",
        "json",
        "--resamples",
        "300",
        "--seed",
        "7",
        "--confidence",
        "0.9",
    ];
    let first = report(&args);
    let second = report(&args);
    assert_eq!(first.code, 0, "{}", first.stderr);
    assert_eq!(first.stdout, second.stdout);
    let json: Value = serde_json::from_str(&first.stdout).unwrap();
    assert_eq!(json["settings"]["seed"], 7);
    assert_eq!(json["settings"]["level"], 0.9);
}

#[test]
fn a_significant_regression_fails_only_when_asked_and_only_downwards() {
    // GPT-5 is significantly worse than Claude Sonnet 4.5 on the paired tasks.
    let gated = report(&["--resamples", "0", "--fail-on-regression"]);
    assert_eq!(gated.code, 6, "{}", gated.stderr);
    assert!(
        gated.stdout.contains("## Headline"),
        "the report is still printed"
    );
    assert!(
        gated.stderr.contains("significant regression:") && gated.stderr.contains(GPT5),
        "{}",
        gated.stderr
    );
    // The other way round it is an improvement: no regression.
    let reversed = run(eval_compare()
        .args(["report", "--resamples", "0", "--fail-on-regression"])
        .arg(swe_bench_pro(GPT5))
        .arg(swe_bench_pro(CLAUDE)));
    assert_eq!(reversed.code, 0, "{}", reversed.stderr);
}

/// A copy of a run folder whose rewards list is its first half as one page saying more
/// follows: a run not read completely.
fn half_read_copy(run_dir: &std::path::Path, into: &std::path::Path) {
    std::fs::create_dir_all(into).unwrap();
    for entry in std::fs::read_dir(run_dir).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, into.join(path.file_name().unwrap())).unwrap();
    }
    let rewards: Vec<Value> =
        serde_json::from_slice(&std::fs::read(run_dir.join("trajectory-rewards.json")).unwrap())
            .unwrap();
    let half = rewards[..rewards.len() / 2].to_vec();
    let page = serde_json::json!([{ "items": half, "has_more": true, "next_cursor": "c2" }]);
    std::fs::write(into.join("trajectory-rewards.json"), page.to_string()).unwrap();
}

#[test]
fn a_run_not_read_completely_gets_a_partial_verdict_and_the_gate_refuses_it() {
    let dir = tempfile::tempdir().unwrap();
    let half = dir.path().join("gpt5-half");
    half_read_copy(&swe_bench_pro(GPT5), &half);
    let output = run(eval_compare()
        .args(["report", "--resamples", "0", "--format", "json"])
        .arg(swe_bench_pro(CLAUDE))
        .arg(&half));
    assert_eq!(output.code, 0, "{}", output.stderr);
    let json: Value = serde_json::from_str(&output.stdout).unwrap();
    let verdict = &json["candidates"][0]["verdict"];
    assert_eq!(verdict["partial"], true, "{verdict}");
    assert!(
        verdict["reasons"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r.as_str().unwrap().contains("was not read completely")),
        "{verdict}"
    );
    // The regression gate does not judge partial numbers (it would say 6 on the whole runs).
    let gated = run(eval_compare()
        .args(["report", "--resamples", "0", "--fail-on-regression"])
        .arg(swe_bench_pro(CLAUDE))
        .arg(&half));
    assert_eq!(gated.code, 11, "{}", gated.stderr);
    assert!(
        gated.stderr.contains("(not read completely: "),
        "{}",
        gated.stderr
    );
    assert!(gated.stdout.contains("(partial)"), "{}", gated.stdout);
}

#[test]
fn runs_of_different_benchmarks_are_blocked_unless_allowed() {
    let humaneval = common::real_data().join("humaneval-10x/gpt-4");
    let blocked = run(eval_compare()
        .args(["report", "--resamples", "0", "--format", "json"])
        .arg(swe_bench_pro(CLAUDE))
        .arg(&humaneval));
    assert_eq!(blocked.code, 5, "{}", blocked.stderr);
    assert!(
        blocked.stderr.contains("BENCHMARK_VERSION_DIFFERS"),
        "{}",
        blocked.stderr
    );
    let json: Value = serde_json::from_str(&blocked.stdout).unwrap();
    assert_eq!(json["audit"]["verdict"], "blocking");
    let allowed = run(eval_compare()
        .args(["report", "--resamples", "0", "--allow-incomparable"])
        .arg(swe_bench_pro(CLAUDE))
        .arg(&humaneval));
    assert_eq!(allowed.code, 0, "{}", allowed.stderr);
    assert!(allowed.stderr.contains("allowed by --allow-incomparable"));
}

#[test]
fn output_goes_to_the_file_when_asked() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("report.md");
    let to_file = report(&["--resamples", "0", "--output", file.to_str().unwrap()]);
    assert_eq!(to_file.code, 0, "{}", to_file.stderr);
    assert_eq!(to_file.stdout, "");
    let to_stdout = report(&["--resamples", "0"]);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), to_stdout.stdout);
    let unwritable = report(&["--resamples", "0", "--output", dir.path().to_str().unwrap()]);
    assert_eq!(unwritable.code, 1, "{}", unwritable.stderr);
}

#[test]
fn a_missing_folder_exits_3_naming_it() {
    let missing = swe_bench_pro("no-such-run");
    let output = run(eval_compare()
        .arg("report")
        .arg(swe_bench_pro(CLAUDE))
        .arg(&missing));
    assert_eq!(output.code, 3, "{}", output.stderr);
    assert!(
        output.stderr.contains("no-such-run: does not exist"),
        "{}",
        output.stderr
    );
    assert_eq!(output.stdout, "");
}

#[test]
fn malformed_json_exits_3_naming_the_file_and_the_json_path() {
    let dir = tempfile::tempdir().unwrap();
    let source = swe_bench_pro(GPT5);
    for name in ["run.json", "trajectories.json"] {
        std::fs::copy(source.join(name), dir.path().join(name)).unwrap();
    }
    let rewards = r#"[
 {"trajectory_id": "t1", "reward": 1.0, "task_id": "a"},
 {"trajectory_id": "t2", "reward": "high", "task_id": "b"}
]"#;
    std::fs::write(dir.path().join("trajectory-rewards.json"), rewards).unwrap();
    let output = run(eval_compare()
        .arg("report")
        .arg(swe_bench_pro(CLAUDE))
        .arg(dir.path()));
    assert_eq!(output.code, 3, "{}", output.stderr);
    assert!(
        output.stderr.contains("trajectory-rewards.json"),
        "{}",
        output.stderr
    );
    assert!(output.stderr.contains("[1].reward"), "{}", output.stderr);

    // Not JSON at all.
    std::fs::write(
        dir.path().join("trajectory-rewards.json"),
        "[{\"trajectory_id\": ",
    )
    .unwrap();
    let output = run(eval_compare()
        .arg("report")
        .arg(swe_bench_pro(CLAUDE))
        .arg(dir.path()));
    assert_eq!(output.code, 3, "{}", output.stderr);
    assert!(
        output.stderr.contains("trajectory-rewards.json"),
        "{}",
        output.stderr
    );
}

#[test]
fn usage_errors_exit_2() {
    let same = run(eval_compare()
        .arg("report")
        .arg(swe_bench_pro(CLAUDE))
        .arg(swe_bench_pro(CLAUDE)));
    assert_eq!(same.code, 2, "{}", same.stderr);
    assert!(same.stderr.contains("given twice"), "{}", same.stderr);
    let no_candidate = run(eval_compare().arg("report").arg(swe_bench_pro(CLAUDE)));
    assert_eq!(no_candidate.code, 2);
    let bad_level = report(&["--confidence", "95"]);
    assert_eq!(bad_level.code, 2);
}

#[test]
fn help_documents_the_exit_codes() {
    for args in [
        &["--help"][..],
        &["report", "--help"],
        &["export", "--help"],
    ] {
        let output = run(eval_compare().args(args));
        assert_eq!(output.code, 0);
        for line in [
            "  3  unreadable input",
            "  5  blocking comparability",
            "  6  significant regression",
            " 11  with --fail-on-regression, a compared run",
        ] {
            assert!(output.stdout.contains(line), "{args:?} lacks {line:?}");
        }
        assert!(output.stdout.contains("TRAJECTORY_API_KEY"));
    }
}

#[test]
fn hostile_names_reach_stdout_escaped_and_stderr_without_control_characters() {
    let dir = tempfile::tempdir().unwrap();
    let hostile = dir.path().join("hostile");
    std::fs::create_dir(&hostile).unwrap();
    for entry in std::fs::read_dir(swe_bench_pro(GPT5)).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), hostile.join(entry.file_name())).unwrap();
    }
    let run_path = hostile.join("run.json");
    let mut run_json: Value =
        serde_json::from_str(&std::fs::read_to_string(&run_path).unwrap()).unwrap();
    run_json["display_name"] = Value::from("gpt|5<script>x</script>\u{1b}]0;title\u{7}\0\u{202E}");
    std::fs::write(&run_path, run_json.to_string()).unwrap();

    let output = run(eval_compare()
        .args(["report", "--resamples", "0"])
        .arg(swe_bench_pro(CLAUDE))
        .arg(&hostile));
    assert_eq!(output.code, 0, "{}", output.stderr);
    for raw in ['\u{1b}', '\u{7}', '\0', '\u{202E}'] {
        assert!(!output.stdout.contains(raw), "raw {raw:?} on stdout");
        assert!(!output.stderr.contains(raw), "raw {raw:?} on stderr");
    }
    assert!(!output.stdout.contains("<script>"));
    assert!(
        output.stdout.contains(
            "gpt\\|5&lt;script&gt;x&lt;/script&gt;\\u{1B}\\]0;title\\u{7}\\u{0}\\u{202E}"
        ),
        "{}",
        output.stdout
    );

    // A run id with a control character is refused, and the message shows it escaped.
    run_json["eval_run_id"] = Value::from("er_\u{1b}[2J");
    std::fs::write(&run_path, run_json.to_string()).unwrap();
    let refused = run(eval_compare()
        .arg("report")
        .arg(swe_bench_pro(CLAUDE))
        .arg(&hostile));
    assert_eq!(refused.code, 3, "{}", refused.stderr);
    assert!(!refused.stderr.contains('\u{1b}'), "{:?}", refused.stderr);
    assert!(
        refused
            .stderr
            .contains("the run id `er_\\u{1B}[2J` cannot be compared"),
        "{}",
        refused.stderr
    );
}

#[test]
fn html_report_is_one_document_with_the_viewer_link_and_no_script() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("report.html");
    let output = report(&[
        "--format",
        "html",
        "--resamples",
        "200",
        "--link-base",
        "https://viewer.example/",
        "--output",
        file.to_str().unwrap(),
    ]);
    assert_eq!(output.code, 0, "{}", output.stderr);
    let html = std::fs::read_to_string(&file).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>\n"));
    assert!(!html.to_ascii_lowercase().contains("<script"));
    // The link of the same view, with the folders' page, the runs and the settings.
    let link = format!(
        "https://viewer.example/files/compare?base=er_{CLAUDE}&amp;cand=er_{GPT5}&amp;B=200"
    );
    assert!(
        html.contains(&format!("<a href=\"{link}\"")),
        "no link {link}"
    );
    // 670 paired tasks: the sorted Δ is binned, the regressed tasks are capped.
    assert!(html.contains("670 paired tasks ranked by Δ (bars: mean Δ of 500 quantile bins)"));
    let regressed = html
        .split("Regressed tasks (")
        .nth(1)
        .and_then(|rest| rest.split(')').next())
        .and_then(|n| n.parse::<usize>().ok())
        .unwrap();
    assert!(regressed > 50, "{regressed} regressed tasks");
    assert!(html.contains(&format!("and {} more regressed tasks", regressed - 50)));
    // The same inputs give the same bytes.
    let again = report(&[
        "--format",
        "html",
        "--resamples",
        "200",
        "--link-base",
        "https://viewer.example",
    ]);
    assert_eq!(again.stdout, html);
    // Without a bootstrap the settings cannot be written in a link: none is given.
    let unlinked = report(&["--format", "html", "--resamples", "0"]);
    assert!(!unlinked.stdout.contains("<a "));
    assert!(unlinked
        .stdout
        .contains("No link: these settings cannot be written"));
}
