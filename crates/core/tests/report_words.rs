//! The report's shared sentences (`report::words`) read the same in every renderer: one report
//! of more than a thousand tasks (so counts carry their thousands separator) rendered as
//! markdown and as HTML holds each sentence word for word, numbers formatted the same; a test
//! fails when one renderer drifts. The page lays out the output of the same functions
//! (`platform_panel`, `where_delta`, `component_deltas`, `platform_progression`, the coverage
//! ledger), so it cannot say them otherwise.
#![allow(clippy::unwrap_used)]

use eval_compare_core::audit::{PlatformCheck, TaskDisagreement};
use eval_compare_core::model::{
    Category, CheckpointInfo, OutcomeClass, PassState, RunIdx, RunInfo, RunSetBuilder, SourceKind,
    TaskInput, TrajectoryFlags, TrajectoryInput,
};
use eval_compare_core::report::{
    and_more, build_report, comparability_words, disagreement_cells, flaky_line, incomplete_loads,
    pairing_line, platform_check_line, platform_sentence, settings_line, union_line,
    ComponentDelta, PlatformProgression, PlatformStep, Report, ReportSettings, CATEGORIES_INTRO,
    COMPONENTS_HEADING, COMPONENTS_INTRO, DISAGREEMENT_COLUMNS, EFFECTIVE_SETTINGS,
    LISTED_DISAGREEMENTS, NO_CATEGORY, PASS_K_INTRO, PLATFORM_PROGRESSION_HEADING,
    PLATFORM_RESULTS_HEADING, PLATFORM_RESULTS_INTRO, TASK_COLUMNS_NOTE, WHERE_DELTA_HEADING,
};
use eval_compare_core::stats::NotComputable;
use eval_compare_core::text::html_text;

/// A completed run read from files.
fn run_info(id: &str) -> RunInfo {
    RunInfo {
        id: id.into(),
        display_name: Some(id.to_owned()),
        bench_id: Some("b1".into()),
        status: Some("completed".into()),
        source: SourceKind::Files,
        ..RunInfo::default()
    }
}

/// One graded trajectory of `task` in `run`.
fn graded(b: &mut RunSetBuilder, run: RunIdx, task: &str, trajectory: &str, reward: f64) {
    let input = TrajectoryInput {
        id: trajectory,
        task: Some(task),
        class: OutcomeClass::Graded,
        reward: Some(reward),
        ending: None,
        flags: TrajectoryFlags::default(),
        created: None,
        components: None,
    };
    b.add_trajectory(run, input).unwrap();
}

/// A baseline on tasks 0..1,300 and a candidate on tasks 20..1,310: 1,280 paired of 1,310.
fn report() -> Report {
    let mut b = RunSetBuilder::new();
    let mut add = |id: &str, tasks: std::ops::Range<usize>| -> RunIdx {
        let run = b.add_run(run_info(id)).unwrap();
        for i in tasks {
            let reward = ((i * 7) % 10) as f64 / 10.0;
            graded(&mut b, run, &format!("t{i}"), &format!("{id}-{i}"), reward);
        }
        run
    };
    let base = add("base", 0..1_300);
    let cand = add("cand", 20..1_310);
    let set = b.build();
    let settings = ReportSettings {
        resamples: 1_500,
        ..ReportSettings::default()
    };
    build_report(&set, base, &[cand], &settings).unwrap()
}

#[test]
fn every_renderer_says_the_shared_sentences_word_for_word() {
    let report = report();
    let markdown = report.to_markdown();
    let html = report.to_html(None);

    let settings = settings_line(&report);
    assert!(settings.contains("bootstrap B = 1,500"), "{settings}");
    assert!(markdown.contains(&settings), "{markdown}");
    assert!(html.contains(&html_text(&settings)), "{html}");

    let pair = &report.coverage.comparisons[0];
    let pairing = pairing_line(pair);
    assert_eq!(
        pairing,
        "1,280 paired of 1,310 in the union; 20 only in the baseline, 10 only in the candidate."
    );
    assert!(markdown.contains(&format!("cand: {pairing}")), "{markdown}");
    assert!(
        html.contains(&html_text(&format!("cand: {pairing}"))),
        "{html}"
    );
}

/// `sentence` (plain text of `report::words`) stands in the markdown as it is and in the HTML
/// escaped: the renderers add no word and format no number of their own.
fn said_by_both(markdown: &str, html: &str, sentence: &str) {
    assert!(
        markdown.contains(sentence),
        "the markdown does not say {sentence:?}:\n{markdown}"
    );
    assert!(
        html.contains(&html_text(sentence)),
        "the HTML report does not say {sentence:?}:\n{html}"
    );
}

/// A baseline not read completely and two checkpoints of one training run, two samples a task
/// over 1,310 tasks in three categories; then the parts a folder cannot give (a Chronicle job's
/// platform check, a reward component, the platform's progression) set on the report.
fn rich_report() -> Report {
    let mut b = RunSetBuilder::new();
    for i in 0..1_310 {
        b.add_task(TaskInput {
            id: format!("t{i}"),
            label: None,
            split: None,
            categories: vec![Category {
                id: format!("c{}", i % 3),
                label: ["alpha", "beta", "gamma"][i % 3].to_owned(),
            }],
        })
        .unwrap();
    }
    let mut add = |id: &str, step: Option<i64>, tasks: std::ops::Range<usize>, shift: usize| {
        let run = b
            .add_run(RunInfo {
                incomplete_load: (id == "base").then(|| "page 3 failed".to_owned()),
                checkpoint: CheckpointInfo {
                    step,
                    training_run_id: step.map(|_| "train_1".to_owned()),
                    ..CheckpointInfo::default()
                },
                ..run_info(id)
            })
            .unwrap();
        for i in tasks {
            for sample in 0..2 {
                let pass = (i * 7 + sample * 3 + shift) % 10 < 5 + shift;
                let trajectory = format!("{id}-{i}-{sample}");
                graded(
                    &mut b,
                    run,
                    &format!("t{i}"),
                    &trajectory,
                    f64::from(u8::from(pass)),
                );
            }
        }
        run
    };
    let base = add("base", None, 0..1_300, 0);
    let early = add("early", Some(100), 20..1_310, 1);
    let late = add("late", Some(200), 0..1_310, 2);
    let set = b.build();
    let settings = ReportSettings {
        resamples: 200,
        ..ReportSettings::default()
    };
    let mut report = build_report(&set, base, &[early, late], &settings).unwrap();
    report.platform = vec![PlatformCheck {
        job_id: "job_1".to_owned(),
        job_name: None,
        runs: Vec::new(),
        platform_pass_rate: Some(0.5),
        platform_tasks: 12_345,
        computed_pass_rate: Some(0.4987),
        computed_tasks: 12_340,
        agreeing_tasks: 12_315,
        disagreements: (0..25)
            .map(|i| TaskDisagreement {
                task_id: format!("t{i}"),
                platform: PassState::Passed,
                computed: PassState::Failed,
                platform_failed_scorers: Vec::new(),
                computed_failed_scorers: vec!["tests".to_owned(), "lint".to_owned()],
            })
            .collect(),
        pass_rate_agrees: false,
    }];
    report.candidates[0].components = vec![ComponentDelta {
        name: "tests".to_owned(),
        threshold: Some(1.0),
        weight: Some(0.0),
        baseline_tasks: 1_300,
        candidate_tasks: 1_290,
        estimate: Err(NotComputable::NotEnoughData { needed: 2, got: 0 }),
    }];
    let progression = report.progression.as_mut().expect("two checkpoints");
    progression.platform = Some(PlatformProgression {
        error: None,
        steps: vec![PlatformStep {
            step: 100,
            platform_mean: Some(0.9),
            held_out: None,
            ours: Some(0.5),
            ours_interval: None,
            disagrees: true,
        }],
        disagreements: 1,
    });
    report
}

#[test]
fn every_sentence_of_a_rich_report_reads_the_same_in_markdown_and_html() {
    let report = rich_report();
    let markdown = report.to_markdown();
    let html = report.to_html(None);
    let both = |sentence: &str| said_by_both(&markdown, &html, sentence);

    // What the numbers were computed with, and the coverage ledger.
    both(&settings_line(&report));
    let union = union_line(&report.coverage);
    assert_eq!(
        union,
        "1,310 tasks attempted by at least one run; the benchmark lists 1,310 tasks."
    );
    both(&union);
    both(TASK_COLUMNS_NOTE);
    for (pair, name) in report
        .coverage
        .comparisons
        .iter()
        .zip(["Step 100", "Step 200"])
    {
        both(&format!("{name}: {}", pairing_line(pair)));
    }
    let incomplete = incomplete_loads(&report);
    assert_eq!(incomplete, ["Incomplete load of `base`: page 3 failed"]);
    assert!(markdown.contains(&incomplete[0]), "{markdown}");
    assert!(
        html.contains("Incomplete load of <code>base</code>: page 3 failed"),
        "{html}"
    );
    both(comparability_words(report.audit.verdict));
    both(EFFECTIVE_SETTINGS);

    // The platform's own numbers: its results beside the trials, its progression.
    both(PLATFORM_RESULTS_HEADING);
    both(PLATFORM_RESULTS_INTRO);
    let check = platform_check_line(&report.platform[0]);
    assert!(
        check.starts_with("The platform lists 12,345 tasks, pass rate 0.500; the trials decide 12,340 tasks, pass rate 0.499. 12,315 agree, 25 differ;"),
        "{check}"
    );
    both(&check);
    assert!(markdown.contains(&format!("| {} |", DISAGREEMENT_COLUMNS.join(" | "))));
    for heading in DISAGREEMENT_COLUMNS {
        assert!(html.contains(&format!("<th scope=\"col\">{}</th>", html_text(heading))));
    }
    let cells = disagreement_cells(&report.platform[0].disagreements[0]);
    both(&cells[4]);
    both(&and_more(25 - LISTED_DISAGREEMENTS));
    both(PLATFORM_PROGRESSION_HEADING);
    let progression = report.progression.as_ref().unwrap();
    both(&platform_sentence(progression.platform.as_ref().unwrap()));

    // Each candidate's section: components, where its Δ comes from.
    both(COMPONENTS_HEADING);
    both(COMPONENTS_INTRO);
    both(WHERE_DELTA_HEADING);
    both(CATEGORIES_INTRO);
    both(PASS_K_INTRO);
    for candidate in &report.candidates {
        both(&candidate.by_category.as_ref().unwrap().sentence);
        both(&flaky_line(&candidate.flaky));
    }

    // Counts carry their thousands separator, as on the page (the audit's findings, written by
    // `core::audit`, still say "(of 1310)").
    for raw in ["1300", "1290", "1280", "12345", "12340", "2600"] {
        assert!(!markdown.contains(raw), "{raw} in\n{markdown}");
    }
}

#[test]
fn a_report_without_categories_says_so_in_both() {
    let report = report();
    let (markdown, html) = (report.to_markdown(), report.to_html(None));
    said_by_both(&markdown, &html, NO_CATEGORY);
    for candidate in &report.candidates {
        said_by_both(&markdown, &html, &flaky_line(&candidate.flaky));
    }
}
