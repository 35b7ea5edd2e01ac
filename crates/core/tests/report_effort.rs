//! The report's effort section (turns and endings, paired per task): on the real SWE-bench Pro
//! run folders against reference values computed independently from the CSV table with pandas
//! and scipy (`scripts/reference/effort_reference.py` → `tests/data/effort_reference.json`),
//! and on small hand-made sets whose numbers can be worked out by hand.
#![allow(clippy::unwrap_used)]

use eval_compare_core::model::{
    OutcomeClass, RunIdx, RunInfo, RunSetBuilder, SourceKind, TrajectoryFlags, TrajectoryInput,
};
use eval_compare_core::report::{
    build_report, build_report_deferred, EffortReport, Report, ReportSettings,
};
use eval_compare_core::run_folder::run_set_from_folders;
use eval_compare_core::stats::PairedEstimate;
use eval_compare_core::testing::real_data::run_folder;
use serde_json::Value;

fn reference(name: &str) -> Value {
    let all: Value = serde_json::from_str(include_str!("data/effort_reference.json")).unwrap();
    all[name].clone()
}

fn close(actual: f64, expected: &Value, what: &str) {
    let expected = expected
        .as_f64()
        .unwrap_or_else(|| panic!("{what}: no reference"));
    let tolerance = 1e-9 * expected.abs().max(1.0);
    assert!(
        (actual - expected).abs() <= tolerance,
        "{what}: {actual} vs the reference {expected}"
    );
}

fn check_estimate(estimate: &PairedEstimate, r: &Value, what: &str) {
    assert_eq!(estimate.n as u64, r["n"].as_u64().unwrap(), "{what} n");
    close(estimate.baseline_mean, &r["baseline_mean"], what);
    close(estimate.candidate_mean, &r["candidate_mean"], what);
    close(estimate.delta, &r["delta"], what);
    close(*estimate.se.as_ref().unwrap(), &r["se"], what);
    let interval = estimate.t_interval.as_ref().unwrap();
    close(interval.lower, &r["t_lower"], what);
    close(interval.upper, &r["t_upper"], what);
}

fn swe_report(baseline: &str, candidate: &str) -> Report {
    let folders = [
        run_folder("swe-bench-pro", baseline),
        run_folder("swe-bench-pro", candidate),
    ];
    let set = run_set_from_folders(&folders, SourceKind::Files).unwrap();
    let settings = ReportSettings {
        resamples: 999,
        ..ReportSettings::default()
    };
    build_report(&set, RunIdx(0), &[RunIdx(1)], &settings).unwrap()
}

fn effort(report: &Report) -> &EffortReport {
    report
        .effort
        .as_ref()
        .expect("a built report has its effort")
}

/// The paired turn Δ between the real systems equals the pandas/scipy reference to 1e-9.
fn check_against_reference(baseline: &str, candidate: &str, name: &str) {
    let report = swe_report(baseline, candidate);
    let r = reference(name);
    let effort = effort(&report);
    let turns = &effort.candidates[0].turns;
    check_estimate(turns.estimate.as_ref().unwrap(), &r, "turn Δ");
    assert_eq!(
        turns.tasks_without_turns as u64,
        r["tasks_without_turns"].as_u64().unwrap()
    );
    close(turns.t_test.as_ref().unwrap().p_value, &r["t_p"], "t p");
    close(
        turns.wilcoxon_pratt.as_ref().unwrap().p_value,
        &r["wilcoxon_pratt_p"],
        "wilcoxon p",
    );
    let relative = turns.relative.as_ref().unwrap();
    close(relative.ratio, &r["relative"], "relative");
    close(relative.se, &r["relative_se"], "relative se");
    close(
        relative.interval.lower,
        &r["relative_lower"],
        "relative lower",
    );
    close(
        relative.interval.upper,
        &r["relative_upper"],
        "relative upper",
    );
    check_estimate(turns.solved.as_ref().unwrap(), &r["solved"], "solved");
    check_estimate(turns.failed.as_ref().unwrap(), &r["failed"], "failed");
    for (run, expected) in effort
        .runs
        .iter()
        .zip(r["run_mean_turns"].as_array().unwrap())
    {
        close(run.mean_turns.unwrap(), expected, "run mean turns");
    }
    let missing = effort.candidates[0]
        .endings
        .iter()
        .find(|ending| ending.ending == "MISSING_SUBMIT")
        .unwrap();
    let m = &r["missing_submit"];
    check_estimate(missing.estimate.as_ref().unwrap(), m, "missing submit");
    close(
        missing.baseline_share.unwrap(),
        &m["baseline_share"],
        "share",
    );
    close(
        missing.candidate_share.unwrap(),
        &m["candidate_share"],
        "share",
    );
    // The bootstrap of the turn Δ is drawn with the reward's and lies around the estimate.
    let bootstrap = turns.bootstrap.as_ref().unwrap().as_ref().unwrap();
    assert!(bootstrap.percentile.contains(bootstrap.estimate));
    close(bootstrap.estimate, &r["delta"], "bootstrap estimate");
}

#[test]
fn gpt5_250_turns_against_claude_sonnet_45_matches_the_reference() {
    check_against_reference(
        "claude-45sonnet-10132025",
        "gpt-5-250-turns-10132025",
        "swe_claude45_vs_gpt5",
    );
    // GPT-5's 250-turn run takes clearly fewer turns per task than Claude Sonnet 4.5.
    let report = swe_report("claude-45sonnet-10132025", "gpt-5-250-turns-10132025");
    let relative = effort(&report).candidates[0]
        .turns
        .relative
        .clone()
        .unwrap();
    assert!(relative.interval.upper < 0.0, "{relative:?}");
}

#[test]
fn claude_sonnet_4_against_45_matches_the_reference() {
    check_against_reference(
        "claude-45sonnet-10132025",
        "claude-4sonnet-10132025",
        "swe_claude45_vs_claude4",
    );
}

/// One trajectory: (task, class, reward, ending, steps).
type Row<'a> = (&'a str, OutcomeClass, Option<f64>, &'a str, Option<i64>);

fn add_run(builder: &mut RunSetBuilder, id: &str, rows: &[Row<'_>]) -> RunIdx {
    let run = builder
        .add_run(RunInfo {
            id: id.into(),
            status: Some("completed".into()),
            source: SourceKind::Files,
            ..RunInfo::default()
        })
        .unwrap();
    for (i, &(task, class, reward, ending, steps)) in rows.iter().enumerate() {
        let id = format!("{id}-{i}");
        let input = TrajectoryInput {
            id: &id,
            task: Some(task),
            class,
            reward,
            ending: Some(ending),
            flags: TrajectoryFlags::NONE,
            created: None,
            components: None,
        };
        builder
            .add_trajectory_with_steps(run, input, steps)
            .unwrap();
    }
    run
}

use OutcomeClass::{CutOff, Failed, Graded};

/// A baseline and a candidate on three tasks: the candidate takes more turns and hits the
/// turn limit on one task; a step count that is null is left out and counted, never zero.
fn small_report() -> Report {
    let mut builder = RunSetBuilder::new();
    let base = add_run(
        &mut builder,
        "base",
        &[
            ("a", Graded, Some(1.0), "ENV_DONE", Some(10)),
            ("a", Graded, Some(1.0), "ENV_DONE", None),
            ("b", Graded, Some(0.0), "ENV_DONE", Some(20)),
            ("c", Graded, Some(1.0), "ENV_DONE", Some(30)),
            ("c", Failed, None, "ERROR", Some(99)),
        ],
    );
    let cand = add_run(
        &mut builder,
        "cand",
        &[
            ("a", Graded, Some(1.0), "ENV_DONE", Some(14)),
            ("b", CutOff, None, "MAX_STEPS", Some(50)),
            ("b", Graded, Some(0.0), "ENV_DONE", Some(30)),
            ("c", Graded, Some(1.0), "ENV_DONE", Some(33)),
        ],
    );
    let set = builder.build();
    let settings = ReportSettings {
        resamples: 0,
        ..ReportSettings::default()
    };
    build_report(&set, base, &[cand], &settings).unwrap()
}

#[test]
fn turns_are_paired_per_task_and_null_is_not_zero() {
    let report = small_report();
    let effort = effort(&report);
    let base = &effort.runs[0];
    // The ERROR attempt is not counted (its 99 steps are effort of a failed attempt).
    assert_eq!(
        (base.counted, base.with_steps, base.without_steps),
        (4, 3, 1)
    );
    assert_eq!(base.mean_turns, Some(20.0));
    assert_eq!(base.solved_mean_turns, Some(20.0));
    assert_eq!(base.failed_mean_turns, Some(20.0));
    let turns = &effort.candidates[0].turns;
    let estimate: &PairedEstimate = turns.estimate.as_ref().unwrap();
    // Per task: a 10 → 14, b 20 → 40, c 30 → 33.
    assert_eq!(estimate.n, 3);
    assert!((estimate.delta - 9.0).abs() < 1e-12);
    assert!((turns.relative.as_ref().unwrap().ratio - 9.0 / 20.0).abs() < 1e-12);
    assert_eq!((turns.solved_tasks, turns.failed_tasks), (2, 1));
    assert!(turns.bootstrap.is_none(), "B = 0: no bootstrap");
}

#[test]
fn endings_are_shares_of_attempts_with_the_turn_limit_singled_out() {
    let report = small_report();
    let effort = effort(&report);
    let (base, cand) = (&effort.runs[0], &effort.runs[1]);
    assert_eq!((base.attempts, cand.attempts), (5, 4));
    assert_eq!(base.turn_limit_share, Some(0.0));
    assert_eq!(cand.turn_limit_share, Some(0.25));
    assert_eq!(cand.endings[0].ending, "ENV_DONE");
    let limit = &effort.candidates[0].turn_limit;
    // Per task shares: a 0 → 0, b 0 → 1/2, c 0 → 0.
    let estimate = limit.estimate.as_ref().unwrap();
    assert!((estimate.delta - 0.5 / 3.0).abs() < 1e-12);
    // The task rows: the candidate hit the turn limit on task b only.
    let hit: Vec<u32> = effort.tasks.iter().map(|t| t.cells[1].turn_limit).collect();
    assert_eq!(hit, [0, 1, 0]);
    assert_eq!(effort.tasks.len(), report.tasks.len());
    assert_eq!(effort.tasks[2].cells[0].ending.as_deref(), Some("ENV_DONE"));
}

#[test]
fn the_turn_bootstrap_is_drawn_with_the_others_and_is_in_the_json() {
    let mut builder = RunSetBuilder::new();
    let rows = |shift: i64| -> Vec<(String, Option<i64>)> {
        (0..20)
            .map(|i| (format!("t{i}"), Some(10 + i + shift * (i % 3))))
            .collect()
    };
    let mut runs = Vec::new();
    for (name, shift) in [("base", 0), ("cand", 2)] {
        let owned = rows(shift);
        let rows: Vec<Row<'_>> = owned
            .iter()
            .map(|(task, steps)| (task.as_str(), Graded, Some(1.0), "ENV_DONE", *steps))
            .collect();
        runs.push(add_run(&mut builder, name, &rows));
    }
    let set = builder.build();
    let settings = ReportSettings {
        resamples: 200,
        ..ReportSettings::default()
    };
    let deferred = build_report_deferred(&set, runs[0], &[runs[1]], &settings).unwrap();
    assert!(deferred
        .bootstraps
        .iter()
        .any(|pending| pending.slot.effort));
    let report = deferred.complete();
    assert_eq!(
        report,
        build_report(&set, runs[0], &[runs[1]], &settings).unwrap()
    );
    let turns = &effort(&report).candidates[0].turns;
    assert!(turns.bootstrap.as_ref().unwrap().is_ok());
    let json: Value = serde_json::from_str(&report.to_json()).unwrap();
    let turns_json = &json["effort"]["candidates"][0]["turns"];
    assert_eq!(turns_json["n"], 20);
    assert!(turns_json["bootstrap"]["Ok"]["percentile"].is_object());
    let read: Report = serde_json::from_str(&report.to_json()).unwrap();
    assert_eq!(read.effort.unwrap().tasks, effort(&report).tasks);
}

#[test]
fn the_html_card_has_the_turns_beside_the_delta_in_the_pages_words() {
    let report = swe_report("claude-45sonnet-10132025", "gpt-5-250-turns-10132025");
    let turns =
        eval_compare_core::report::turns_beside_verdict(&effort(&report).candidates[0]).unwrap();
    assert!(
        turns.ends_with("% turns") && turns.starts_with('\u{2212}'),
        "{turns}"
    );
    let parts = eval_compare_core::report::beside_delta(&report, &report.candidates[0]);
    assert_eq!(
        parts,
        std::slice::from_ref(&turns),
        "no cost without billing rows"
    );
    let html = report.to_html(None);
    let delta = html
        .split("<p class=\"delta\">")
        .nth(1)
        .and_then(|rest| rest.split("</p>").next())
        .unwrap();
    let beside = format!(
        "<span class=\"beside\">{}{turns}</span>",
        eval_compare_core::report::BESIDE_DELTA
    );
    assert!(delta.ends_with(&beside), "{delta}");
}
