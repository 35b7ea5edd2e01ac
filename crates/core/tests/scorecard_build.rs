//! The scorecard end to end on hand-made runs: the plan (baselines chosen and passed over,
//! duplicates, missing cells), each cell equal to its pair's report, the rows, the rule's
//! answer and the recommendation, and the renderers.
#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;

use eval_compare_core::model::{
    CheckpointInfo, OutcomeClass, RunInfo, RunOptions, RunSet, RunSetBuilder, SourceKind,
    TaskInput, TrajectoryFlags, TrajectoryInput,
};
use eval_compare_core::report::ReportSettings;
use eval_compare_core::scorecard::{
    build_scorecard, pair_report, plan_scorecard, words, CellState, Correction, Guardrail,
    ListedRun, Outcome, Rule, Scorecard, ScorecardBuild,
};

const TRAINING: &str = "train_1";
const TASKS: usize = 60;

/// One listed run: id, bench, step (None: base model), status, temperature, created day.
fn listed(
    id: &str,
    bench: &str,
    step: Option<i64>,
    status: &str,
    temp: f64,
    day: u32,
) -> ListedRun {
    ListedRun {
        info: RunInfo {
            id: id.to_owned(),
            bench_id: Some(bench.to_owned()),
            checkpoint: CheckpointInfo {
                step,
                training_run_id: step.map(|_| TRAINING.to_owned()),
                parent_checkpoint_id: None,
            },
            status: Some(status.to_owned()),
            options: RunOptions {
                temperature: Some(temp),
                ..RunOptions::default()
            },
            source: SourceKind::Files,
            ..RunInfo::default()
        },
        created_at: format!("2026-10-{day:02}T00:00:00Z"),
    }
}

/// The runs: benches "alpha" (improves with the step), "beta" (regresses after step 200),
/// "gamma" (flat; step 300 not evaluated). Baselines: alpha's newest base run is still running
/// and the next one has another temperature, so the oldest is chosen.
fn runs() -> Vec<ListedRun> {
    let mut runs = vec![
        listed("a_base_old", "alpha", None, "completed", 0.7, 1),
        listed("a_base_hot", "alpha", None, "completed", 1.0, 5),
        listed("a_base_new", "alpha", None, "running", 0.7, 9),
        listed("b_base", "beta", None, "completed", 0.7, 1),
        listed("g_base", "gamma", None, "completed", 0.7, 1),
    ];
    for step in [100, 200, 300] {
        for bench in ["alpha", "beta", "gamma"] {
            if bench == "gamma" && step == 300 {
                continue;
            }
            runs.push(listed(
                &format!("{bench}_{step}"),
                bench,
                Some(step),
                "completed",
                0.7,
                10,
            ));
        }
    }
    // An older duplicate evaluation of step 200 on beta, and a failed newer one.
    runs.push(listed(
        "beta_200_old",
        "beta",
        Some(200),
        "completed",
        0.7,
        3,
    ));
    runs.push(listed(
        "beta_200_failed",
        "beta",
        Some(200),
        "failed",
        0.7,
        20,
    ));
    runs
}

/// The reward of task `i` in run `id`: a baseline level plus the run's effect plus small noise.
fn reward(id: &str, i: usize) -> f64 {
    let level = 0.2 + 0.6 * ((i * 37 % 61) as f64 / 61.0);
    let noise = 0.3 * (((i * 13 + id.len() * 7) % 11) as f64 / 11.0 - 0.5);
    let effect = match id {
        "alpha_100" => 0.0,
        "alpha_200" => 0.08,
        "alpha_300" => 0.12,
        "beta_100" => 0.0,
        "beta_200" => 0.01,
        "beta_300" => -0.10,
        "beta_200_old" => 0.05,
        _ => 0.0,
    };
    (level + effect + noise).clamp(0.0, 1.0)
}

/// The run set of two runs, baseline first (what a folder pair or the load store gives).
fn pair_set(baseline: &str, candidate: &str) -> Result<RunSet, String> {
    pair_set_of(&runs(), baseline, candidate)
}

/// [`pair_set`] with the runs' records as `listed` has them.
fn pair_set_of(listed: &[ListedRun], baseline: &str, candidate: &str) -> Result<RunSet, String> {
    let info_of = |id: &str| {
        listed
            .iter()
            .find(|run| run.info.id == id)
            .map(|run| run.info.clone())
            .unwrap()
    };
    let mut builder = RunSetBuilder::new();
    for i in 0..TASKS {
        builder
            .add_task(TaskInput {
                id: format!("t{i}"),
                label: None,
                split: Some("test".into()),
                categories: Vec::new(),
            })
            .unwrap();
    }
    for id in [baseline, candidate] {
        let run = builder.add_run(info_of(id)).map_err(|e| e.to_string())?;
        for i in 0..TASKS {
            let trajectory = format!("{id}-{i}");
            let task = format!("t{i}");
            builder
                .add_trajectory(
                    run,
                    TrajectoryInput {
                        id: &trajectory,
                        task: Some(&task),
                        class: OutcomeClass::Graded,
                        reward: Some(reward(id, i)),
                        ending: None,
                        flags: TrajectoryFlags::default(),
                        created: None,
                        components: None,
                    },
                )
                .unwrap();
        }
    }
    Ok(builder.build())
}

fn settings() -> ReportSettings {
    ReportSettings {
        resamples: 200,
        ..ReportSettings::default()
    }
}

fn rule() -> Rule {
    Rule {
        primary: vec!["alpha".to_owned()],
        guardrails: vec![Guardrail {
            bench_id: "beta".to_owned(),
            margin_points: 2.0,
        }],
        correction: Correction::Holm,
    }
}

fn scorecard() -> Scorecard {
    let plan = plan_scorecard(TRAINING, &runs(), &BTreeMap::new());
    build_scorecard(plan, &settings(), &rule(), pair_set)
}

#[test]
fn the_plan_picks_baselines_names_what_it_passed_over_and_loads_each_run_once() {
    let plan = plan_scorecard(TRAINING, &runs(), &BTreeMap::new());
    let benches: Vec<&str> = plan.rows.iter().map(|r| r.bench_id.as_str()).collect();
    assert_eq!(benches, ["alpha", "beta", "gamma"]);
    assert_eq!(plan.steps, [100, 200, 300]);
    let alpha = &plan.rows[0].baseline;
    assert_eq!(alpha.run_id.as_deref(), Some("a_base_old"));
    assert!(!alpha.by_hand);
    let skipped: Vec<(&str, &str)> = alpha
        .skipped
        .iter()
        .map(|s| (s.run_id.as_str(), s.why.as_str()))
        .collect();
    assert_eq!(skipped[0], ("a_base_new", "still running"));
    assert_eq!(skipped[1].0, "a_base_hot");
    assert!(
        skipped[1].1.starts_with("Temperature differs: 1"),
        "{}",
        skipped[1].1
    );
    assert!(alpha.why.contains("(2 newer passed over)"), "{}", alpha.why);
    // Each run once: 3 baselines + 8 evaluations.
    let ids = plan.run_ids();
    assert_eq!(ids.len(), 11, "{ids:?}");
    assert_eq!(plan.pairs().len(), 8);
    // By hand wins.
    let by_hand = BTreeMap::from([("alpha".to_owned(), "a_base_hot".to_owned())]);
    let chosen = plan_scorecard(TRAINING, &runs(), &by_hand);
    assert_eq!(
        chosen.rows[0].baseline.run_id.as_deref(),
        Some("a_base_hot")
    );
    assert!(chosen.rows[0].baseline.by_hand);
}

#[test]
fn duplicates_show_the_newest_finished_and_name_the_others() {
    let plan = plan_scorecard(TRAINING, &runs(), &BTreeMap::new());
    let cell = plan.cell(1, 1).unwrap();
    assert_eq!((cell.bench_id.as_str(), cell.step), ("beta", 200));
    assert_eq!(cell.candidate.as_deref(), Some("beta_200"));
    let others: Vec<&str> = cell.others.iter().map(|o| o.run_id.as_str()).collect();
    assert_eq!(others, ["beta_200_old", "beta_200_failed"]);
    assert_eq!(cell.others[1].why, "failed");
}

#[test]
fn a_missing_cell_is_missing_never_zero_and_holds_the_rule_back() {
    let card = scorecard();
    let cell = card.cell("gamma", 300).unwrap();
    assert_eq!(cell.state, CellState::Missing);
    assert_eq!(words::cell_words(&cell.state).delta, "not evaluated");
    let json: serde_json::Value = serde_json::from_str(&card.to_json()).unwrap();
    let entry = json["cells"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["bench_id"] == "gamma" && c["step"] == 300)
        .unwrap();
    assert_eq!(entry["state"], "missing");
    assert!(entry.get("primary").is_none());
    // A rule that needs gamma cannot tell at step 300.
    let with_gamma = card.with_rule(&Rule {
        primary: vec!["alpha".to_owned(), "gamma".to_owned()],
        ..Rule::default()
    });
    assert!(matches!(
        &with_gamma.column(300).unwrap().outcome,
        Outcome::CannotTell { reasons } if reasons.contains(&"gamma not evaluated".to_owned())
    ));
}

#[test]
fn every_cell_is_its_pairs_report_byte_for_byte() {
    let card = scorecard();
    let json: serde_json::Value = serde_json::from_str(&card.to_json()).unwrap();
    let mut compared = 0;
    for entry in json["cells"].as_array().unwrap() {
        if entry["state"] != "compared" {
            continue;
        }
        compared += 1;
        let (b, c) = (
            entry["baseline_run_id"].as_str().unwrap(),
            entry["candidate_run_id"].as_str().unwrap(),
        );
        let report = pair_report(&pair_set(b, c).unwrap(), &settings()).unwrap();
        let report: serde_json::Value = serde_json::from_str(&report.to_json()).unwrap();
        for (ours, theirs) in [
            (&entry["primary"], &report["candidates"][0]["primary"]),
            (&entry["verdict"], &report["candidates"][0]["verdict"]),
            (&entry["coverage"], &report["coverage"]),
        ] {
            assert_eq!(
                serde_json::to_string(ours).unwrap(),
                serde_json::to_string(theirs).unwrap()
            );
        }
    }
    assert_eq!(compared, 8);
}

#[test]
fn the_rule_recommends_the_checkpoint_that_meets_it_and_says_why() {
    let card = scorecard();
    let outcome = |step| card.column(step).unwrap().outcome.clone();
    assert!(
        matches!(outcome(100), Outcome::Fails { .. }),
        "{:?}",
        outcome(100)
    );
    assert_eq!(outcome(200), Outcome::Meets);
    assert_eq!(
        outcome(300),
        Outcome::Fails {
            reasons: vec!["worse on beta by more than 2.0 points".to_owned()]
        }
    );
    let recommended = card.recommended.as_ref().unwrap();
    assert_eq!(recommended.step, 200);
    assert!(
        recommended.reason.starts_with("Step 200 meets the rule"),
        "{}",
        recommended.reason
    );
    // Rows: the baseline's mean, the MDE at the row's size, the first significant step.
    let alpha = &card.rows[0];
    assert_eq!(alpha.first_significant_step, Some(200));
    assert_eq!(alpha.mde_tasks, Some(TASKS));
    assert!(alpha.mde.unwrap() > 0.0);
    assert!(alpha.baseline_mean.is_some());
    assert_eq!(card.rows[1].first_significant_step, Some(300));
    // Nothing meets a rule asking beta to be better.
    let none = card.with_rule(&Rule {
        primary: vec!["beta".to_owned()],
        ..Rule::default()
    });
    assert_eq!(none.recommended, None);
}

#[test]
fn among_several_that_meet_the_rule_the_largest_smallest_primary_delta_wins() {
    let card = scorecard().with_rule(&Rule {
        primary: vec!["alpha".to_owned()],
        ..Rule::default()
    });
    assert_eq!(card.column(200).unwrap().outcome, Outcome::Meets);
    assert_eq!(card.column(300).unwrap().outcome, Outcome::Meets);
    let recommended = card.recommended.unwrap();
    assert_eq!(recommended.step, 300);
    assert!(
        recommended.reason.contains(words::TIE_RULE),
        "{}",
        recommended.reason
    );
}

#[test]
fn a_build_a_cell_at_a_time_equals_the_build_at_once() {
    let plan = plan_scorecard(TRAINING, &runs(), &BTreeMap::new());
    let mut build = ScorecardBuild::new(plan.clone(), settings());
    assert_eq!(build.progress(), (0, 8 + 5));
    let early = build.scorecard(&rule());
    assert!(matches!(
        &early.column(200).unwrap().outcome,
        Outcome::CannotTell { reasons } if reasons[0].contains(words::PENDING_REASON)
    ));
    while let Some(pair) = build.next_pair().cloned() {
        let set = pair_set(&pair.baseline, &pair.candidate).unwrap();
        let report = pair_report(&set, build.settings()).unwrap();
        build.add_report(pair.cell, Ok(&report));
    }
    assert_eq!(build.progress(), (8, 13));
    while let Some((index, previous)) = build.next_previous_pair() {
        let pair = previous.pair.clone();
        let set = pair_set(&pair.baseline, &pair.candidate).unwrap();
        let report = pair_report(&set, build.settings()).unwrap();
        build.add_previous_report(index, Ok(&report));
    }
    assert_eq!(build.progress(), (13, 13));
    assert_eq!(build.scorecard(&rule()), scorecard());
}

#[test]
fn running_and_failed_cells_cannot_tell_yet() {
    let mut listed = runs();
    for run in &mut listed {
        if run.info.id == "alpha_200" {
            run.info.status = Some("running".to_owned());
        }
    }
    let plan = plan_scorecard(TRAINING, &listed, &BTreeMap::new());
    // The only evaluation of step 200 on alpha runs: it is shown, provisional.
    assert_eq!(
        plan.cell(0, 1).unwrap().candidate.as_deref(),
        Some("alpha_200")
    );
    let card = build_scorecard(plan, &settings(), &rule(), |b, c| {
        pair_set_of(&listed, b, c)
    });
    let CellState::Compared { comparison } = &card.cell("alpha", 200).unwrap().state else {
        panic!("not compared");
    };
    assert!(comparison.verdict.provisional);
    assert!(words::cell_words(&card.cell("alpha", 200).unwrap().state)
        .verdict
        .ends_with("(provisional)"));
    assert_eq!(
        card.column(200).unwrap().outcome,
        Outcome::CannotTell {
            reasons: vec!["alpha still running".to_owned()]
        }
    );
    assert_eq!(card.recommended, None);
    // A pair that could not be compared holds its column back too.
    let mut failed = ScorecardBuild::new(
        plan_scorecard(TRAINING, &runs(), &BTreeMap::new()),
        settings(),
    );
    let pair = failed.next_pair().cloned().unwrap();
    failed.add_report(pair.cell, Err("boom".to_owned()));
    let card = failed.scorecard(&rule());
    assert!(matches!(
        &card.column(100).unwrap().outcome,
        Outcome::CannotTell { reasons } if reasons.contains(&"alpha held back (boom)".to_owned())
    ));
}

#[test]
fn the_renderers_show_the_same_sentences_and_escape_the_data() {
    let card = scorecard();
    let markdown = card.to_markdown();
    let html = card.to_html(Some("http://127.0.0.1:8080/scorecard?training=train_1"));
    let rule_text = words::rule_text(&card.rule, card.settings.alpha);
    for text in [&markdown, &html] {
        assert!(text.contains("Recommended checkpoint"));
        assert!(text.contains("not evaluated"));
        assert!(text.contains("meets the rule"));
        assert!(text.contains("a_base_new passed over: still running"));
        assert!(text.contains("beta_200_old"));
    }
    assert!(markdown.contains(&rule_text));
    assert!(!html.contains("<script"));
    assert!(html.contains("<svg class=\"figure\""));
    assert!(html.contains("class=\"better\""));
    assert!(html.contains("href=\"http://127.0.0.1:8080/scorecard?training=train_1\""));
}

#[test]
fn each_checkpoint_is_compared_with_the_previous_evaluated_step() {
    let card = scorecard();
    assert!(card.cell("alpha", 100).unwrap().versus_previous.is_none());
    let later = card
        .cell("alpha", 300)
        .unwrap()
        .versus_previous
        .as_ref()
        .unwrap();
    assert_eq!((later.step, later.run_id.as_str()), (200, "alpha_200"));
    let CellState::Compared { comparison } = &later.state else {
        panic!("not compared");
    };
    let report = pair_report(&pair_set("alpha_200", "alpha_300").unwrap(), &settings()).unwrap();
    assert_eq!(comparison.verdict, report.candidates[0].verdict);
    assert_eq!(comparison.primary, report.candidates[0].primary);
    // Beta regresses from 200 to 300: the line says so in every renderer.
    let beta = card
        .cell("beta", 300)
        .unwrap()
        .versus_previous
        .as_ref()
        .unwrap();
    let line = words::previous_words(beta);
    assert!(line.starts_with("vs step 200: −"), "{line}");
    assert!(line.ends_with(", worse"), "{line}");
    assert!(card.to_markdown().contains(&line));
    assert!(card.to_html(None).contains(&line));
    let json: serde_json::Value = serde_json::from_str(&card.to_json()).unwrap();
    let entry = json["cells"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["bench_id"] == "beta" && c["step"] == 300)
        .unwrap();
    assert_eq!(entry["versus_previous"]["step"], 200);
    assert_eq!(entry["versus_previous"]["verdict"]["decision"], "worse");
}
