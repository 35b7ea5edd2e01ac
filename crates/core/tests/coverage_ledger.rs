//! The coverage ledger: counts per run and per pair, the two checks, and every warning.

#![allow(clippy::unwrap_used)]

use eval_compare_core::coverage::{
    coverage, CoverageWarning, FailureRateCheck, MissingnessCheck, Side,
};
use eval_compare_core::model::{
    OutcomeClass, RunIdx, RunInfo, RunSet, RunSetBuilder, SideCoverage, TaskInput, TaskSelection,
    TrajectoryFlags, TrajectoryInput,
};

fn info(id: &str) -> RunInfo {
    RunInfo {
        id: id.to_owned(),
        source: eval_compare_core::model::SourceKind::Files,
        ..RunInfo::default()
    }
}

fn add(
    builder: &mut RunSetBuilder,
    run: RunIdx,
    id: &str,
    task: Option<&str>,
    class: OutcomeClass,
    reward: Option<f64>,
    ending: &str,
) {
    builder
        .add_trajectory(
            run,
            TrajectoryInput {
                id,
                task,
                class,
                reward,
                ending: Some(ending),
                flags: TrajectoryFlags::NONE,
                created: None,
                components: None,
            },
        )
        .unwrap();
}

fn codes(warnings: &[CoverageWarning]) -> Vec<&str> {
    warnings.iter().map(|w| w.code.as_str()).collect()
}

/// 40 tasks. The baseline scores every task: 1 on the first 20, 0 on the last 20.
/// The candidate fails the 10 hardest ones (tasks 30..40, baseline 0), scores 1 elsewhere,
/// and adds a few oddities.
fn lopsided() -> (RunSet, RunIdx, RunIdx) {
    use OutcomeClass::*;
    let mut builder = RunSetBuilder::new();
    for task in 0..41 {
        builder
            .add_task(TaskInput {
                id: format!("t{task:02}"),
                ..TaskInput::default()
            })
            .unwrap();
    }
    let base = builder
        .add_run(RunInfo {
            task_selection: Some(TaskSelection {
                split: "test".to_owned(),
                available: 41,
                selected: 41,
                max_samples: None,
            }),
            ..info("base")
        })
        .unwrap();
    let cand = builder
        .add_run(RunInfo {
            incomplete_load: Some("trajectories page 2 failed".to_owned()),
            ..info("cand")
        })
        .unwrap();
    let ids: Vec<String> = (0..40).map(|t| format!("t{t:02}")).collect();
    for (t, task) in ids.iter().enumerate() {
        let reward = if t < 20 { 1.0 } else { 0.0 };
        add(
            &mut builder,
            base,
            &format!("b{t}"),
            Some(task),
            Graded,
            Some(reward),
            "ENV_DONE",
        );
        if t >= 30 {
            add(
                &mut builder,
                cand,
                &format!("c{t}"),
                Some(task),
                Failed,
                None,
                "ERROR",
            );
        } else {
            add(
                &mut builder,
                cand,
                &format!("c{t}"),
                Some(task),
                Graded,
                Some(1.0),
                "ENV_DONE",
            );
        }
    }
    add(
        &mut builder,
        cand,
        "c_cut",
        Some("t40"),
        CutOff,
        None,
        "TRUNCATION",
    );
    add(
        &mut builder,
        cand,
        "c_capped",
        None,
        CutOff,
        Some(0.5),
        "MAX_STEPS",
    );
    add(
        &mut builder,
        cand,
        "c_run",
        Some("t00"),
        Unfinished,
        None,
        "in_progress",
    );
    add(
        &mut builder,
        cand,
        "c_odd",
        Some("t01"),
        Other,
        Some(1.0),
        "GOLDEN_PATCH",
    );
    add(
        &mut builder,
        cand,
        "c_nan",
        Some("t02"),
        Graded,
        Some(f64::NAN),
        "ENV_DONE",
    );
    add(
        &mut builder,
        cand,
        "c_loose",
        None,
        Graded,
        Some(1.0),
        "ENV_DONE",
    );
    add(
        &mut builder,
        cand,
        "c_slow",
        Some("t03"),
        ModelEnding,
        None,
        "TIMEOUT",
    );
    (builder.build(), base, cand)
}

#[test]
fn run_rows_count_tasks_and_samples_by_class() {
    let (set, base, cand) = lopsided();
    let ledger = coverage(&set, base, &[cand]).unwrap();
    assert_eq!(ledger.union_tasks, 41);
    assert_eq!(ledger.listed_tasks, 41);
    let [b, c] = &ledger.runs[..] else {
        panic!("two runs")
    };
    assert_eq!((b.run, c.run), (base, cand));
    assert_eq!(b.tasks_selected, Some(41));
    assert_eq!(
        (b.tasks_attempted, b.tasks_scored, b.tasks_absent),
        (40, 40, 1)
    );
    assert_eq!((b.samples_total, b.samples_valid), (40, 40));
    assert_eq!(b.tasks_by_class.graded, 40);

    assert_eq!(c.tasks_attempted, 41);
    assert_eq!(c.tasks_scored, 31, "30 graded tasks plus the cut-off one");
    assert_eq!(c.tasks_absent, 0);
    assert_eq!(c.samples_total, 47);
    assert_eq!(c.samples.failed, 10);
    assert_eq!(c.samples.cut_off, 2);
    assert_eq!(c.samples.unfinished, 1);
    assert_eq!(c.samples.other, 1);
    assert_eq!(c.samples.model_ending, 1);
    assert_eq!(c.tasks_by_class.failed, 10);
    // 30 graded + cut-off 0 + golden patch + timeout 0 + the two taskless ones; not: NaN,
    // failed, unfinished.
    assert_eq!(c.samples_valid, 35);
    assert_eq!(c.invalid_rewards, 1);
    assert_eq!(c.zero_by_platform_rule, 1);
    assert_eq!(c.zero_without_grade, 1);
    assert_eq!(c.without_task, 2);
    assert_eq!(
        c.incomplete_load.as_deref(),
        Some("trajectories page 2 failed")
    );
}

#[test]
fn pair_rows_count_paired_union_and_one_sided_tasks() {
    let (set, base, cand) = lopsided();
    let ledger = coverage(&set, base, &[cand]).unwrap();
    let pair = &ledger.comparisons[0];
    assert_eq!(pair.paired, 30);
    assert_eq!(pair.union, 41);
    assert!(pair.only_in_baseline.is_empty());
    assert_eq!(pair.only_in_candidate, vec![set.find_task("t40").unwrap()]);
    assert_eq!(
        (pair.unscored_in_baseline, pair.unscored_in_candidate),
        (0, 10)
    );

    // Partial tasks: the 10 the candidate failed, plus t40 the baseline never attempted.
    assert_eq!(ledger.partial_tasks.len(), 11);
    let t40 = ledger
        .partial_tasks
        .iter()
        .find(|p| p.task == set.find_task("t40").unwrap())
        .unwrap();
    assert_eq!(
        t40.per_run,
        vec![
            SideCoverage::Absent,
            SideCoverage::Scored { mean: 0.0, k: 1 }
        ]
    );
}

#[test]
fn failure_rates_and_informative_missingness_are_flagged() {
    let (set, base, cand) = lopsided();
    let ledger = coverage(&set, base, &[cand]).unwrap();
    let pair = &ledger.comparisons[0];

    let rates = &pair.failure_rates;
    assert_eq!((rates.base_unscored, rates.base_total), (0, 40));
    assert_eq!((rates.cand_unscored, rates.cand_total), (12, 47));
    assert!(rates.flagged);

    // Tasks the candidate lost: baseline mean 0 there vs 20/30 on the paired tasks.
    let lost = &pair.missing_from_candidate;
    assert_eq!(lost.excluded_from, Side::Candidate);
    assert_eq!((lost.excluded_tasks, lost.paired_tasks), (10, 30));
    assert_eq!(lost.excluded_mean, Some(0.0));
    assert!((lost.paired_mean.unwrap() - 2.0 / 3.0).abs() < 1e-12);
    assert!(lost.flagged);
    // One task the baseline lost: too few to test.
    assert_eq!(pair.missing_from_baseline.excluded_tasks, 1);
    assert!(!pair.missing_from_baseline.flagged);

    let warnings = codes(&ledger.warnings);
    for expected in [
        "INCOMPLETE_LOAD",
        "TASKS_NOT_ATTEMPTED",
        "UNFINISHED_TRAJECTORIES",
        "INVALID_REWARDS",
        "SCORED_ZERO_BY_PLATFORM_RULE",
        "SCORED_ZERO_WITHOUT_GRADE",
        "UNKNOWN_ENDINGS",
        "TRAJECTORIES_WITHOUT_TASK",
        "CUT_OFF_WITH_POSITIVE_REWARD",
        "FAILURE_RATES_DIFFER",
        "INFORMATIVE_MISSINGNESS",
    ] {
        assert!(
            warnings.contains(&expected),
            "missing {expected} in {warnings:?}"
        );
    }
    assert!(!warnings.contains(&"NO_PAIRED_TASKS"));
    assert!(!warnings.contains(&"JOIN_ISSUES"));
    let missing = ledger
        .warnings
        .iter()
        .find(|w| w.code == "INFORMATIVE_MISSINGNESS")
        .unwrap();
    assert_eq!(missing.runs, vec![base, cand]);
    assert!(
        missing.message.contains("0.000 vs 0.667"),
        "{}",
        missing.message
    );
    let odd = ledger
        .warnings
        .iter()
        .find(|w| w.code == "UNKNOWN_ENDINGS")
        .unwrap();
    assert!(odd.message.contains("GOLDEN_PATCH ×1"), "{}", odd.message);
    let not_attempted = ledger
        .warnings
        .iter()
        .find(|w| w.code == "TASKS_NOT_ATTEMPTED")
        .unwrap();
    assert!(
        not_attempted.message.contains("40 of the 41"),
        "{}",
        not_attempted.message
    );
}

#[test]
fn a_clean_pair_has_no_warnings_and_disjoint_runs_say_so() {
    use OutcomeClass::*;
    let mut builder = RunSetBuilder::new();
    let a = builder.add_run(info("a")).unwrap();
    let b = builder.add_run(info("b")).unwrap();
    let c = builder.add_run(info("c")).unwrap();
    for t in 0..5 {
        let task = format!("t{t}");
        add(
            &mut builder,
            a,
            &format!("a{t}"),
            Some(&task),
            Graded,
            Some(1.0),
            "ENV_DONE",
        );
        add(
            &mut builder,
            b,
            &format!("b{t}"),
            Some(&task),
            Graded,
            Some(0.0),
            "ENV_DONE",
        );
        add(
            &mut builder,
            c,
            &format!("c{t}"),
            Some(&format!("other{t}")),
            Graded,
            Some(1.0),
            "ENV_DONE",
        );
    }
    let set = builder.build();
    let clean = coverage(&set, a, &[b]).unwrap();
    assert!(clean.warnings.is_empty(), "{:?}", clean.warnings);
    assert_eq!(clean.comparisons[0].paired, 5);
    assert!(clean.partial_tasks.is_empty());

    let disjoint = coverage(&set, a, &[b, c]).unwrap();
    assert_eq!(disjoint.union_tasks, 10);
    assert_eq!(disjoint.comparisons.len(), 2);
    assert_eq!(disjoint.comparisons[1].paired, 0);
    assert_eq!(disjoint.comparisons[1].only_in_baseline.len(), 5);
    assert_eq!(codes(&disjoint.warnings), ["NO_PAIRED_TASKS"]);
    assert!(coverage(&set, a, &[RunIdx(9)]).is_err());
    // The ledger serializes for the report.
    let json = serde_json::to_value(&disjoint).unwrap();
    assert_eq!(json["comparisons"][1]["paired"], 0);
}

#[test]
fn failure_rate_check_thresholds() {
    // 1% vs 1.5% over 100,000 each: significant but under the 2-point minimum.
    let small = FailureRateCheck::new(1_000, 100_000, 1_500, 100_000);
    assert!(small.z.unwrap() > 1.96);
    assert!(!small.flagged);
    // 10% vs 30% over 100 each: flagged.
    let large = FailureRateCheck::new(10, 100, 30, 100);
    assert!(large.flagged);
    let z = large.z.unwrap();
    // Pooled p = 0.2, se = sqrt(0.2·0.8·0.02) = 0.0565685; z = 0.2 / se.
    assert!((z - 0.2 / (0.2f64 * 0.8 * 0.02).sqrt()).abs() < 1e-12);
    // Nothing failed anywhere, or no trajectories: defined, not flagged.
    let none = FailureRateCheck::new(0, 50, 0, 50);
    assert_eq!((none.z, none.flagged), (None, false));
    let empty = FailureRateCheck::new(0, 0, 3, 10);
    assert_eq!(
        (empty.base_rate, empty.z, empty.flagged),
        (None, None, false)
    );
}

#[test]
fn missingness_check_thresholds() {
    // Same spread, means 0.2 apart over enough tasks.
    let excluded = [0.1, 0.2, 0.3, 0.2, 0.2];
    let paired = [0.3, 0.4, 0.5, 0.4, 0.4, 0.4];
    let check = MissingnessCheck::new(Side::Baseline, &excluded, &paired);
    assert!((check.difference.unwrap() + 0.2).abs() < 1e-12);
    assert!(check.flagged);
    // A tiny difference is not flagged even with zero spread.
    let tiny = MissingnessCheck::new(Side::Baseline, &[0.5, 0.5], &[0.52, 0.52]);
    assert_eq!((tiny.z, tiny.flagged), (None, false));
    // Zero spread, large difference: flagged without a z.
    let stark = MissingnessCheck::new(Side::Candidate, &[0.0, 0.0], &[1.0, 1.0]);
    assert_eq!((stark.z, stark.flagged), (None, true));
    // No excluded tasks: nothing to say.
    let nothing = MissingnessCheck::new(Side::Candidate, &[], &[1.0, 0.0]);
    assert_eq!(
        (nothing.excluded_mean, nothing.difference, nothing.flagged),
        (None, None, false)
    );
}
