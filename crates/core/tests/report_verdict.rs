//! The verdict as `build_report` computes it from run sets: which interval a binary paired set
//! uses, and each decision that depends on the runs rather than on the numbers alone (a
//! blocking finding, a running run, a failed run whose exclusions change the answer, too few
//! paired tasks). The rule's every branch on plain facts is tested in `report::verdict`.
#![allow(clippy::unwrap_used)]

use eval_compare_core::model::{
    OutcomeClass, RunIdx, RunInfo, RunSet, RunSetBuilder, TrajectoryFlags, TrajectoryInput,
};
use eval_compare_core::report::{
    build_report, headline_interval, Decision, IntervalMethod, Report, ReportSettings,
    SMALL_BINARY_TASKS,
};
use eval_compare_core::stats::tango_interval;

/// A task's outcome in one run: a reward, or a failed trajectory.
#[derive(Clone, Copy)]
enum Outcome {
    Reward(f64),
    Failed,
}

fn add_run(b: &mut RunSetBuilder, id: &str, bench: &str, status: &str, rows: &[Outcome]) -> RunIdx {
    let run = b
        .add_run(RunInfo {
            id: id.into(),
            display_name: Some(id.to_owned()),
            bench_id: Some(bench.into()),
            status: Some(status.into()),
            source: eval_compare_core::model::SourceKind::Files,
            ..RunInfo::default()
        })
        .unwrap();
    for (i, outcome) in rows.iter().enumerate() {
        let (class, reward) = match *outcome {
            Outcome::Reward(r) => (OutcomeClass::Graded, Some(r)),
            Outcome::Failed => (OutcomeClass::Failed, None),
        };
        let task = format!("t{i}");
        let trajectory = format!("{id}-{i}");
        b.add_trajectory(
            run,
            TrajectoryInput {
                id: &trajectory,
                task: Some(&task),
                class,
                reward,
                ending: None,
                flags: TrajectoryFlags::default(),
                created: None,
                components: None,
            },
        )
        .unwrap();
    }
    run
}

/// n binary tasks: the baseline passes every other task, the candidate also passes the first
/// `gained` tasks it failed.
fn binary(n: usize, gained: usize) -> (Vec<Outcome>, Vec<Outcome>) {
    let base: Vec<Outcome> = (0..n).map(|i| Outcome::Reward((i % 2) as f64)).collect();
    let mut extra = 0;
    let cand = (0..n)
        .map(|i| {
            if i % 2 == 0 && extra < gained {
                extra += 1;
                Outcome::Reward(1.0)
            } else {
                Outcome::Reward((i % 2) as f64)
            }
        })
        .collect();
    (base, cand)
}

fn report_of(runs: &[(&str, &str, &str, Vec<Outcome>)]) -> Report {
    let mut b = RunSetBuilder::new();
    let indices: Vec<RunIdx> = runs
        .iter()
        .map(|(id, bench, status, rows)| add_run(&mut b, id, bench, status, rows))
        .collect();
    let set: RunSet = b.build();
    let settings = ReportSettings {
        resamples: 0,
        ..ReportSettings::default()
    };
    build_report(&set, indices[0], &indices[1..], &settings).unwrap()
}

#[test]
fn a_small_binary_paired_set_uses_tangos_interval_and_a_large_one_the_t_interval() {
    let (base, cand) = binary(60, 12);
    let report = report_of(&[
        ("base", "b1", "completed", base),
        ("cand", "b1", "completed", cand),
    ]);
    let primary = &report.candidates[0].primary;
    assert_eq!(primary.interval_method, IntervalMethod::TangoScore);
    let tango = tango_interval(12, 0, 60, 0.95).unwrap();
    assert_eq!(primary.score_interval, Some(Ok(tango)));
    assert_eq!(headline_interval(primary), Ok(tango));
    let verdict = &report.candidates[0].verdict;
    assert_eq!(verdict.interval_method, IntervalMethod::TangoScore);
    assert_eq!(verdict.interval, Ok(tango));
    assert_eq!(verdict.decision, Decision::Better);
    // The markdown names the interval.
    assert!(
        report
            .to_markdown()
            .contains("headline interval: Tango score interval"),
        "{}",
        report.to_markdown()
    );

    let (base, cand) = binary(SMALL_BINARY_TASKS, 40);
    let large = report_of(&[
        ("base", "b1", "completed", base),
        ("cand", "b1", "completed", cand),
    ]);
    let primary = &large.candidates[0].primary;
    assert_eq!(primary.interval_method, IntervalMethod::T);
    assert!(primary.score_interval.is_some(), "still computed and shown");
    let t = primary.estimate.as_ref().unwrap().t_interval.clone();
    assert_eq!(headline_interval(primary), t);
}

#[test]
fn continuous_rewards_keep_the_t_interval() {
    let base: Vec<Outcome> = (0..30)
        .map(|i| Outcome::Reward(0.3 + 0.01 * i as f64))
        .collect();
    let cand: Vec<Outcome> = (0..30)
        .map(|i| Outcome::Reward(0.32 + 0.011 * i as f64))
        .collect();
    let report = report_of(&[
        ("base", "b1", "completed", base),
        ("cand", "b1", "completed", cand),
    ]);
    let primary = &report.candidates[0].primary;
    assert_eq!(primary.interval_method, IntervalMethod::T);
    assert_eq!(primary.score_interval, None);
}

#[test]
fn another_benchmark_version_is_not_comparable_and_shows_no_direction() {
    let (base, cand) = binary(60, 20);
    let report = report_of(&[
        ("base", "b1", "completed", base),
        ("other", "b0", "completed", cand.clone()),
        ("same", "b1", "completed", cand),
    ]);
    let other = &report.candidates[0].verdict;
    assert_eq!(
        (other.decision, other.evidence),
        (Decision::NotComparable, Decision::Better)
    );
    assert!(
        other.reasons[0].contains("BENCHMARK_VERSION_DIFFERS"),
        "{:?}",
        other.reasons
    );
    // The sentence says it is not comparable and why, with no direction.
    let sentence = &report.candidates[0].sentence;
    assert!(
        sentence.starts_with("other: not comparable with the baseline — BENCHMARK_VERSION_DIFFERS")
            && sentence.contains("not a verdict")
            && !sentence.contains("higher")
            && !sentence.contains("lower"),
        "{sentence}"
    );
    // The finding names the other candidate only: this one keeps its verdict.
    assert_eq!(report.candidates[1].verdict.decision, Decision::Better);
    assert!(
        report.candidates[1].sentence.starts_with("same scores "),
        "{}",
        report.candidates[1].sentence
    );
    let markdown = report.to_markdown();
    assert!(markdown.contains("→ **not comparable**."), "{markdown}");
    // The finding's own sentence keeps its one full stop.
    assert!(
        markdown.contains("so scores are not comparable.\n"),
        "{markdown}"
    );
}

#[test]
fn a_running_candidate_or_baseline_makes_the_verdict_provisional() {
    let (base, cand) = binary(60, 12);
    let report = report_of(&[
        ("base", "b1", "completed", base.clone()),
        ("live", "b1", "running", cand.clone()),
    ]);
    let verdict = &report.candidates[0].verdict;
    assert_eq!(
        (verdict.decision, verdict.provisional),
        (Decision::Better, true)
    );
    assert_eq!(verdict.headline(), "better (provisional)");
    assert!(verdict
        .reasons
        .iter()
        .any(|r| r.starts_with("live is still running")));
    let report = report_of(&[
        ("base", "b1", "queued", base),
        ("done", "b1", "completed", cand),
    ]);
    assert!(report.candidates[0].verdict.provisional);
    let json = report.to_json();
    assert!(json.contains("\"provisional\": true"), "{json}");
    assert!(json.contains("\"decision\": \"better\""), "{json}");
}

#[test]
fn a_failed_run_whose_exclusions_reverse_the_answer_is_unreliable() {
    // 100 tasks: the candidate gains 15 of the 50 the baseline fails, but fails (ERROR) 45 of
    // the 50 the baseline passes. Primary: +15/55 on 55 paired tasks; sensitivity: −30/100.
    let base: Vec<Outcome> = (0..100).map(|i| Outcome::Reward((i % 2) as f64)).collect();
    let mut gained = 0;
    let mut failed = 0;
    let cand: Vec<Outcome> = (0..100)
        .map(|i| {
            if i % 2 == 1 {
                if failed < 45 {
                    failed += 1;
                    Outcome::Failed
                } else {
                    Outcome::Reward(1.0)
                }
            } else if gained < 15 {
                gained += 1;
                Outcome::Reward(1.0)
            } else {
                Outcome::Reward(0.0)
            }
        })
        .collect();
    let report = report_of(&[
        ("base", "b1", "completed", base),
        ("broken", "b1", "failed", cand),
    ]);
    let c = &report.candidates[0];
    assert_eq!(c.primary.n, 55);
    assert_eq!(c.excluded.total, 45);
    let verdict = &c.verdict;
    assert_eq!(
        (verdict.decision, verdict.evidence),
        (Decision::Unreliable, Decision::Better)
    );
    assert!(!verdict.provisional, "a failed run is not running");
    assert!(
        verdict.reasons[0].contains("sensitivity (failed and absent as 0) analysis")
            && verdict.reasons[0]
                .ends_with("45 tasks left out of the primary analysis could change the answer"),
        "{:?}",
        verdict.reasons
    );
    assert!(
        c.sentence.starts_with("broken: unreliable — ")
            && c.sentence.contains("could change the answer; measured Δ +")
            && c.sentence.ends_with("45 tasks excluded (45 failed)")
            && !c.sentence.contains("higher"),
        "{}",
        c.sentence
    );
}

#[test]
fn fewer_than_ten_paired_tasks_are_too_few() {
    let (base, cand) = binary(9, 4);
    let report = report_of(&[
        ("base", "b1", "completed", base),
        ("cand", "b1", "completed", cand),
    ]);
    assert_eq!(
        report.candidates[0].verdict.decision,
        Decision::TooFewPairedTasks
    );
    assert_eq!(
        report.candidates[0].verdict.reasons,
        ["9 paired tasks; a verdict needs at least 10"]
    );
    assert!(
        report.candidates[0]
            .sentence
            .starts_with("cand: too few paired tasks for a verdict — a verdict needs at least 10"),
        "{}",
        report.candidates[0].sentence
    );
}

#[test]
fn identical_binary_runs_show_no_detectable_difference_within_the_tango_bound() {
    let (base, _) = binary(400, 0);
    let report = report_of(&[
        ("base", "b1", "completed", base.clone()),
        ("same", "b1", "completed", base),
    ]);
    let verdict = &report.candidates[0].verdict;
    // Every task tied: no t-test (zero variance), but Tango's interval bounds the difference.
    assert_eq!(verdict.decision, Decision::NoDetectableDifference);
    let bound = tango_interval(0, 0, 400, 0.95).unwrap().upper;
    assert!(bound < 0.02, "{bound}");
    assert_eq!(
        verdict.headline(),
        format!(
            "no detectable difference: Δ within ±{:.1} points at 95%",
            bound * 100.0
        )
    );
}

#[test]
fn the_markdown_groups_coverage_warnings_as_the_page_does() {
    // Two candidates failing many of the baseline's tasks: their warnings of one code make one
    // group, ranked by `coverage::rank_of`, with each line below its heading.
    let base: Vec<Outcome> = (0..60).map(|i| Outcome::Reward((i % 2) as f64)).collect();
    let broken = |every: usize| -> Vec<Outcome> {
        (0..60)
            .map(|i| {
                if i % every == 0 {
                    Outcome::Failed
                } else {
                    Outcome::Reward(1.0)
                }
            })
            .collect()
    };
    let report = report_of(&[
        ("base", "b1", "completed", base),
        ("c2", "b1", "failed", broken(2)),
        ("c3", "b1", "failed", broken(3)),
    ]);
    let groups = eval_compare_core::coverage::group_warnings(&report.coverage.warnings);
    assert!(!groups.is_empty());
    let markdown = report.to_markdown();
    let mut last = 0;
    for group in &groups {
        let lines = group.warnings.len();
        let heading = format!(
            "- Warning `{}` — {} ({lines} {}){}:\n",
            group.code,
            group.summary,
            if lines == 1 { "line" } else { "lines" },
            if group.is_important() {
                ", can change the answer"
            } else {
                ""
            }
        );
        let at = markdown
            .find(&heading)
            .unwrap_or_else(|| panic!("{heading}\n{markdown}"));
        assert!(at >= last, "groups out of rank order:\n{markdown}");
        last = at;
        for warning in &group.warnings {
            assert!(markdown[at..].contains(&format!("\n  - {}", warning.message)));
        }
    }
    assert!(
        groups.iter().any(|g| g.warnings.len() > 1),
        "{:?}",
        report.coverage.warnings
    );
}
