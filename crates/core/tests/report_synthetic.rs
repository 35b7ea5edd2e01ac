//! The report on small hand-made run sets whose every number can be worked out by hand.
#![allow(clippy::unwrap_used)]

use eval_compare_core::model::{
    Category, CheckpointInfo, OutcomeClass, RunIdx, RunInfo, RunSet, RunSetBuilder, TaskInput,
    TrajectoryFlags, TrajectoryInput,
};
use eval_compare_core::report::{
    build_report, detail_rows, Decision, DetailCells, ExclusionReason, ReportError, ReportSettings,
};

/// One trajectory: (task, class, reward).
type Row<'a> = (&'a str, OutcomeClass, Option<f64>);

fn add_run(builder: &mut RunSetBuilder, id: &str, step: Option<i64>, rows: &[Row<'_>]) -> RunIdx {
    let run = builder
        .add_run(RunInfo {
            id: id.into(),
            display_name: Some(id.to_uppercase()),
            bench_id: Some("bench_v1".into()),
            checkpoint: CheckpointInfo {
                step,
                training_run_id: step.map(|_| "train_1".into()),
                parent_checkpoint_id: None,
            },
            status: Some("completed".into()),
            source: eval_compare_core::model::SourceKind::Files,
            ..RunInfo::default()
        })
        .unwrap();
    for (i, (task, class, reward)) in rows.iter().enumerate() {
        let id = format!("{id}-{i}");
        builder
            .add_trajectory(
                run,
                TrajectoryInput {
                    id: &id,
                    task: Some(task),
                    class: *class,
                    reward: *reward,
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

fn tasks(builder: &mut RunSetBuilder, n: usize) {
    for i in 0..n {
        builder
            .add_task(TaskInput {
                id: format!("t{i}"),
                label: Some(format!("Task {i}")),
                split: Some("test".into()),
                categories: vec![Category {
                    id: format!("c{}", i % 3),
                    label: format!("Cat {}", i % 3),
                }],
            })
            .unwrap();
    }
}

const G: OutcomeClass = OutcomeClass::Graded;

/// Baseline passes t0..t3 of t0..t7; step 100 passes t0..t5 but fails on t7 (ERROR).
fn binary_set() -> (RunSet, RunIdx, RunIdx) {
    let mut b = RunSetBuilder::new();
    tasks(&mut b, 8);
    let base_rows: Vec<Row> = (0..8)
        .map(|i| {
            (
                ["t0", "t1", "t2", "t3", "t4", "t5", "t6", "t7"][i],
                G,
                Some(if i < 4 { 1.0 } else { 0.0 }),
            )
        })
        .collect();
    let mut cand_rows: Vec<Row> = (0..7)
        .map(|i| {
            (
                ["t0", "t1", "t2", "t3", "t4", "t5", "t6"][i],
                G,
                Some(if i < 6 { 1.0 } else { 0.0 }),
            )
        })
        .collect();
    cand_rows.push(("t7", OutcomeClass::Failed, None));
    let base = add_run(&mut b, "base", None, &base_rows);
    let cand = add_run(&mut b, "ck100", Some(100), &cand_rows);
    (b.build(), base, cand)
}

#[test]
fn binary_single_sample_report_matches_hand_computation() {
    let (set, base, cand) = binary_set();
    let report = build_report(&set, base, &[cand], &ReportSettings::default()).unwrap();
    let c = &report.candidates[0];
    let est = c.primary.estimate.as_ref().unwrap();
    // Paired: t0..t6. Deltas: t4, t5 = +1, others 0 → Δ = 2/7.
    assert_eq!(est.n, 7);
    assert!((est.delta - 2.0 / 7.0).abs() < 1e-12);
    let wtl = c.primary.win_tie_loss.as_ref().unwrap();
    assert_eq!((wtl.wins, wtl.ties, wtl.losses), (2, 5, 0));
    // McNemar applies: b = 0, c = 2 → exact p = 2·0.5² = 0.5; mid-p = 0.5 − 0.25 = 0.25.
    let m = c.primary.mcnemar.as_ref().unwrap().as_ref().unwrap();
    assert_eq!((m.baseline_only, m.candidate_only), (0, 2));
    assert!((m.p_exact - 0.5).abs() < 1e-12 && (m.p_mid - 0.25).abs() < 1e-12);
    // The failed task is excluded and said so.
    assert_eq!(c.excluded.total, 1);
    assert_eq!(c.excluded.by_reason[0].reason, ExclusionReason::Failed);
    // 7 paired tasks are too few for a verdict: the sentence names no direction.
    assert!(
        c.sentence.starts_with(
            "Step 100: too few paired tasks for a verdict — a verdict needs at least 10; \
             measured Δ +28.6 points (95% CI "
        ) && c
            .sentence
            .ends_with(" on 7 paired tasks, not a verdict; 1 task excluded (1 failed)")
            && !c.sentence.contains("higher"),
        "{}",
        c.sentence
    );
    // Sensitivity: union of 8 tasks, t7 counts 0 on the candidate → Δ = (2 − 0)/8.
    let sens = c.sensitivity.estimate.as_ref().unwrap();
    assert_eq!(sens.n, 8);
    assert!((sens.delta - 2.0 / 8.0).abs() < 1e-12);
    // Task-weighted and pooled means coincide with one sample per task.
    assert_eq!(report.runs[0].task_weighted_mean, Some(0.5));
    assert_eq!(report.runs[0].pooled_mean, Some(0.5));
    assert_eq!(report.tasks.len(), 8);
    assert_eq!(report.tasks[7].deltas, vec![None]);
    assert_eq!(report.tasks[4].deltas, vec![Some(1.0)]);
}

#[test]
fn same_seed_same_report_and_zero_resamples_skip_the_bootstrap() {
    let (set, base, cand) = binary_set();
    let settings = ReportSettings {
        resamples: 500,
        ..ReportSettings::default()
    };
    let a = build_report(&set, base, &[cand], &settings)
        .unwrap()
        .to_json();
    let b = build_report(&set, base, &[cand], &settings)
        .unwrap()
        .to_json();
    assert_eq!(a, b);
    let other_seed = ReportSettings {
        seed: 1,
        ..settings.clone()
    };
    assert_ne!(
        a,
        build_report(&set, base, &[cand], &other_seed)
            .unwrap()
            .to_json()
    );
    let skipped = ReportSettings {
        resamples: 0,
        ..settings
    };
    let report = build_report(&set, base, &[cand], &skipped).unwrap();
    assert!(report.candidates[0].primary.bootstrap.is_none());
    assert!(report.to_markdown().contains("not run (B = 0)"));
}

/// The details rows' cells by label: [primary, sensitivity], or [one text].
fn detail_cells(rows: &[eval_compare_core::report::DetailRow]) -> Vec<(String, Vec<String>)> {
    rows.iter()
        .map(|row| {
            let cells = match &row.cells {
                DetailCells::PerAnalysis {
                    primary,
                    sensitivity,
                } => vec![primary.clone(), sensitivity.clone()],
                DetailCells::Whole(text) => vec![text.clone()],
            };
            (row.label.clone(), cells)
        })
        .collect()
}

#[test]
fn detail_rows_list_every_statistic_and_say_when_the_bootstrap_is_computing() {
    let (set, base, cand) = binary_set();
    let settings = ReportSettings {
        resamples: 0,
        ..ReportSettings::default()
    };
    let report = build_report(&set, base, &[cand], &settings).unwrap();
    let candidate = &report.candidates[0];
    let pending = detail_cells(&detail_rows(&report, candidate, true));
    let labels: Vec<&str> = pending.iter().map(|(label, _)| label.as_str()).collect();
    // One candidate: no adjusted p-values; one binary sample per task: no pass@k beyond 1.
    assert_eq!(
        labels,
        [
            "Tasks",
            "Δ (points)",
            "SE (points)",
            "t interval (95%)",
            "z interval (95%)",
            "Tango score interval (95%)",
            "Headline interval",
            "Bootstrap percentile",
            "Bootstrap BCa",
            "Clustered by category (robust SE)",
            "Clustered bootstrap percentile",
            "Paired t-test p",
            "Wilcoxon signed-rank (Pratt) p",
            "Wilcoxon (zeros dropped) p",
            "Sign test p",
            "McNemar exact / mid-p",
            "Wins / ties / losses",
            "Correlation",
            "Minimum detectable effect (points)",
            "Tasks needed for the target Δ",
            "MDE at K′ samples per task",
            "pass@1 (baseline → candidate, 7 tasks)",
            "pass^1 (baseline → candidate, 1 of 1 samples pass)",
        ]
    );
    let cells = |rows: &[(String, Vec<String>)], label: &str| -> Vec<String> {
        rows.iter()
            .find(|(l, _)| l == label)
            .map(|(_, cells)| cells.clone())
            .unwrap()
    };
    assert_eq!(cells(&pending, "Tasks"), ["7", "8"]);
    assert_eq!(cells(&pending, "Δ (points)"), ["+28.6", "+25.0"]);
    assert_eq!(cells(&pending, "Wins / ties / losses")[0], "2 / 5 / 0");
    // One binary sample per task on 7 tasks (8 with the failed one as 0): Tango's interval is
    // the headline's in both analyses (primary: b = 0, c = 2).
    let tango = eval_compare_core::stats::tango_interval(2, 0, 7, 0.95).unwrap();
    let interval_cells = cells(&pending, "Tango score interval (95%)");
    assert_eq!(
        interval_cells[0],
        eval_compare_core::text::interval_points(&tango)
    );
    assert_eq!(
        cells(&pending, "Headline interval"),
        ["Tango score interval (one binary sample per task, fewer than 500 tasks)"; 2]
    );
    assert_eq!(
        cells(&pending, "McNemar exact / mid-p")[0],
        "0.5000 / 0.2500"
    );
    assert_eq!(
        cells(&pending, "Bootstrap BCa"),
        ["computing…", "computing…"]
    );
    assert_eq!(
        cells(&pending, "Clustered bootstrap percentile"),
        ["computing…", "computing…"]
    );
    assert!(cells(&pending, "Clustered by category (robust SE)")[0].contains("(C = 3, p "));
    assert_eq!(
        cells(&pending, "pass@1 (baseline → candidate, 7 tasks)"),
        ["0.571 → 0.857"]
    );
    let done = detail_cells(&detail_rows(&report, candidate, false));
    assert_eq!(
        cells(&done, "Bootstrap percentile"),
        ["not run (B = 0)", "not run (B = 0)"]
    );
}

#[test]
fn several_samples_give_pass_at_k_and_no_mcnemar() {
    let mut b = RunSetBuilder::new();
    tasks(&mut b, 4);
    // Baseline: t_i passes i of 4 samples; candidate: one more pass everywhere it can.
    let mut base_rows = Vec::new();
    let mut cand_rows = Vec::new();
    let names = ["t0", "t1", "t2", "t3"];
    for (i, name) in names.iter().enumerate() {
        for s in 0..4 {
            base_rows.push((*name, G, Some(if s < i { 1.0 } else { 0.0 })));
            cand_rows.push((*name, G, Some(if s <= i { 1.0 } else { 0.0 })));
        }
    }
    let base = add_run(&mut b, "base", None, &base_rows);
    let cand = add_run(&mut b, "cand", None, &cand_rows);
    let set = b.build();
    let report = build_report(&set, base, &[cand], &ReportSettings::default()).unwrap();
    let c = &report.candidates[0];
    assert!(c.primary.mcnemar.is_none());
    let ks: Vec<u64> = c.primary.pass_at_k.iter().map(|p| p.k).collect();
    assert_eq!(ks, vec![1]); // 5 and 10 exceed the 4 samples per task
    let p1 = &c.primary.pass_at_k[0];
    // pass@1 = c/n per task: baseline mean (0+1+2+3)/16, candidate (1+2+3+4)/16.
    let base_mean = *p1.baseline.as_ref().unwrap().mean.as_ref().unwrap();
    let cand_mean = *p1.candidate.as_ref().unwrap().mean.as_ref().unwrap();
    assert!((base_mean - 6.0 / 16.0).abs() < 1e-12 && (cand_mean - 10.0 / 16.0).abs() < 1e-12);
    // Every delta is +0.25 → zero variance: no interval, said in words.
    assert!(c.primary.t_test.is_err());
    assert!(
        c.sentence
            .contains("measured Δ +25.0 points (no confidence interval"),
        "{}",
        c.sentence
    );
    // Clustered by category: 3 categories among 4 tasks.
    assert!(c.primary.clustered.is_some());
}

#[test]
fn several_candidates_get_adjusted_p_values_and_a_progression() {
    let mut b = RunSetBuilder::new();
    tasks(&mut b, 30);
    let names: Vec<String> = (0..30).map(|i| format!("t{i}")).collect();
    let rows = |shift: f64| -> Vec<(String, f64)> {
        names
            .iter()
            .enumerate()
            .map(|(i, n)| {
                (
                    n.clone(),
                    ((i as f64 * 0.37).sin() * 0.3 + 0.5 + shift * ((i % 4) as f64))
                        .clamp(0.0, 1.0),
                )
            })
            .collect()
    };
    let mut add = |id: &str, step: Option<i64>, shift: f64| {
        let r = rows(shift);
        let rows: Vec<Row> = r.iter().map(|(n, v)| (n.as_str(), G, Some(*v))).collect();
        add_run(&mut b, id, step, &rows)
    };
    let base = add("base", None, 0.0);
    let s1 = add("s100", Some(100), 0.01);
    let s2 = add("s200", Some(200), 0.05);
    let s3 = add("s300", Some(300), -0.04);
    let set = b.build();
    let report = build_report(&set, base, &[s3, s1, s2], &ReportSettings::default()).unwrap();
    let raw: Vec<f64> = report
        .candidates
        .iter()
        .map(|c| c.primary.t_test.as_ref().unwrap().p_value)
        .collect();
    for (c, p) in report.candidates.iter().zip(&raw) {
        let holm = *c.p_holm.as_ref().unwrap();
        let bh = *c.p_bh.as_ref().unwrap();
        assert!(holm >= *p && holm <= 1.0 && bh >= *p && bh <= holm + 1e-15);
    }
    assert_eq!(report.candidates[0].verdict.decision, Decision::Worse);
    assert_eq!(report.candidates[2].verdict.decision, Decision::Better);
    let details = detail_cells(&detail_rows(&report, &report.candidates[0], false));
    let adjusted = details
        .iter()
        .find(|(label, _)| label == "Holm / BH adjusted p (headline test)")
        .map(|(_, cells)| cells.clone());
    let p = |stat: &eval_compare_core::stats::Stat<f64>| {
        eval_compare_core::text::p_value(*stat.as_ref().unwrap())
    };
    let first = &report.candidates[0];
    assert_eq!(
        adjusted,
        Some(vec![format!("{} / {}", p(&first.p_holm), p(&first.p_bh))])
    );
    let progression = report.progression.as_ref().unwrap();
    let steps: Vec<i64> = progression.points.iter().map(|p| p.step).collect();
    assert_eq!(steps, vec![100, 200, 300]);
    assert_eq!(progression.training_run_id, "train_1");
}

#[test]
fn bad_requests_are_clear_errors() {
    let (set, base, cand) = binary_set();
    let s = ReportSettings::default();
    assert_eq!(
        build_report(&set, base, &[], &s),
        Err(ReportError::NoCandidate)
    );
    assert!(matches!(
        build_report(&set, base, &[base], &s),
        Err(ReportError::BaselineIsCandidate(_))
    ));
    assert!(build_report(&set, base, &[RunIdx(9)], &s).is_err());
    let bad_level = ReportSettings {
        level: 1.0,
        ..ReportSettings::default()
    };
    assert!(matches!(
        build_report(&set, base, &[cand], &bad_level),
        Err(ReportError::InvalidSetting(_))
    ));
}

#[test]
fn empty_and_nan_inputs_never_panic_or_show_nan() {
    let mut b = RunSetBuilder::new();
    tasks(&mut b, 2);
    let base = add_run(
        &mut b,
        "base",
        None,
        &[
            ("t0", G, Some(f64::NAN)),
            ("t1", OutcomeClass::Failed, None),
        ],
    );
    let cand = add_run(&mut b, "cand", None, &[("t0", G, Some(f64::INFINITY))]);
    let set = b.build();
    let report = build_report(&set, base, &[cand], &ReportSettings::default()).unwrap();
    let json = report.to_json();
    // serde_json would write a non-finite float as null: the report must hold none.
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert!(value["runs"][0]["task_weighted_mean"].is_null());
    assert!(report.candidates[0].primary.estimate.is_err());
    assert!(report.candidates[0]
        .sentence
        .contains("no comparison possible"));
    let text = report.to_markdown();
    assert!(!text.contains("NaN") && !text.contains(" inf"), "{text}");
}

#[test]
fn table_rows_follow_filters_search_and_sort() {
    use eval_compare_core::report::{to_csv, to_csv_rows, visible_rows};
    use eval_compare_core::view_state::{RowFilter, Sort, SortKey, ViewState};
    let (set, base, cand) = binary_set();
    let report = build_report(&set, base, &[cand], &ReportSettings::default()).unwrap();
    let ids = |view: &ViewState| -> Vec<String> {
        visible_rows(&report, view)
            .into_iter()
            .map(|i| report.tasks[i].task_id.clone())
            .collect()
    };
    let mut view = ViewState::default();
    // Default sort: ascending delta, unpaired last, ties in task order.
    assert_eq!(ids(&view), ["t0", "t1", "t2", "t3", "t6", "t4", "t5", "t7"]);
    view.filter = RowFilter::Improvements;
    assert_eq!(ids(&view), ["t4", "t5"]);
    view.filter = RowFilter::Unpaired;
    assert_eq!(ids(&view), ["t7"]);
    view.filter = RowFilter::Failed;
    assert_eq!(ids(&view), ["t7"]);
    view.filter = RowFilter::Regressions;
    assert!(ids(&view).is_empty());
    view.filter = RowFilter::All;
    view.search = Some("TASK 5".into());
    assert_eq!(ids(&view), ["t5"]);
    view.search = None;
    view.category = Some("Cat 1".into());
    assert_eq!(ids(&view), ["t1", "t4", "t7"]);
    view.category = Some("no such category".into());
    assert!(ids(&view).is_empty());
    view.category = None;
    view.sort = Sort {
        key: SortKey::Task,
        descending: true,
    };
    assert_eq!(ids(&view)[0], "t7");

    let csv = to_csv(&report);
    let lines: Vec<&str> = csv.split("\r\n").filter(|l| !l.is_empty()).collect();
    assert_eq!(lines.len(), 1 + 8);
    assert_eq!(
        lines[0],
        "task_id,label,categories,base:mean,base:included,base:samples,base:failed,ck100:mean,ck100:included,ck100:samples,ck100:failed,delta_fraction:ck100"
    );
    // The failed task: the candidate has no mean and no delta (empty, never 0).
    assert_eq!(lines[8], "t7,Task 7,Cat 1,0,1,1,0,,0,1,1,");
    // The rows a filter leaves, in the table's order, under the same header.
    view.filter = RowFilter::Improvements;
    view.sort = Sort::default();
    let shown = to_csv_rows(&report, &visible_rows(&report, &view));
    let shown: Vec<&str> = shown.split("\r\n").filter(|l| !l.is_empty()).collect();
    assert_eq!(shown[0], lines[0]);
    let ids: Vec<&str> = shown[1..]
        .iter()
        .map(|l| l.split(',').next().unwrap())
        .collect();
    assert_eq!(ids, ["t4", "t5"]);
}
