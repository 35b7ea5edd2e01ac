//! The report as a memo over the run set and the view: first without the bootstrap, then with
//! it; a filter never recomputes it; and what it cannot compute is said in words, never NaN.
#![cfg(target_arch = "wasm32")]

mod support;

use std::sync::Arc;

use eval_compare_core::model::RunIdx;
use eval_compare_core::report::{build_report, detail_rows, explain, DetailCells, ReportSettings};
use eval_compare_core::run_folder::{run_set_from_folders, RunFolder};
use eval_compare_core::view_state::{RowFilter, ViewState};
use eval_compare_viewer::report::panels::coverage_ledger::CoverageLedger;
use eval_compare_viewer::report::panels::headline::HeadlineCards;
use eval_compare_viewer::state::report::{use_report, ReportKey};
use eval_compare_viewer::state::shared::Shared;
use gloo_timers::future::TimeoutFuture;
use leptos::prelude::*;
use serde_json::json;
use support::{mount_point, select_all, text};
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

/// A run folder with one graded trajectory per listed task.
fn folder(id: &str, scores: &[(&str, f64)]) -> RunFolder {
    let run = serde_json::from_value(json!({
        "eval_run_id": id, "bench_id": "b_1", "agent_id": "a_1", "options": {},
        "status": "completed", "created_at": "2026-01-01T00:00:00Z",
        "updated_at": "2026-01-01T00:00:00Z"
    }))
    .expect("a run");
    let rewards = scores
        .iter()
        .enumerate()
        .map(|(i, (task, reward))| {
            serde_json::from_value(
                json!({"trajectory_id": format!("{id}-{i}"), "reward": reward, "task_id": task}),
            )
            .expect("a reward")
        })
        .collect();
    let trajectories = scores
        .iter()
        .enumerate()
        .map(|(i, (task, reward))| {
            serde_json::from_value(json!({
                "trajectory_id": format!("{id}-{i}"), "organization_id": "org", "source": "eval",
                "status": "completed", "termination_reason": "ENV_DONE", "reward": reward,
                "created_at": "2026-01-01T00:00:00Z", "task_id": task
            }))
            .expect("a trajectory")
        })
        .collect();
    RunFolder {
        run,
        rewards,
        trajectories,
        tasks: None,
        training_run: None,
        eval_options: None,
        platform_series: None,
        truncated_files: Vec::new(),
        costs: Default::default(),
    }
}

fn folders() -> Vec<RunFolder> {
    vec![
        folder(
            "base",
            &[
                ("t1", 0.2),
                ("t2", 0.4),
                ("t3", 0.5),
                ("t4", 0.1),
                ("t5", 0.9),
                ("t6", 0.3),
            ],
        ),
        folder(
            "cand",
            &[
                ("t1", 0.5),
                ("t2", 0.4),
                ("t3", 0.9),
                ("t4", 0.3),
                ("t5", 1.0),
                ("t6", 0.2),
            ],
        ),
        // Pairs with the baseline on one task only: no interval, no test.
        folder("lonely", &[("t1", 0.6)]),
    ]
}

async fn settle(ms: u32) {
    TimeoutFuture::new(ms).await;
}

#[wasm_bindgen_test]
async fn the_report_shows_without_then_with_the_bootstrap_and_a_filter_does_not_recompute() {
    let set = Shared::new(
        run_set_from_folders(&folders(), eval_compare_core::model::SourceKind::Files)
            .expect("a run set"),
    );
    let view = RwSignal::new(ViewState {
        baseline: Some("base".to_owned()),
        candidates: vec!["cand".to_owned()],
        resamples: 500,
        ..ViewState::default()
    });
    let states = RwSignal::new(Vec::<bool>::new());
    let root = mount_point();
    let _handle = leptos::mount::mount_to(root, move || {
        let set = set.clone();
        let key = Memo::new(move |_| view.with(|view| ReportKey::of(set.clone(), view)));
        let state = use_report(key);
        // Record each report shown: whether it carries the bootstrap.
        Effect::new(move |_| {
            if let Some(report) = state.report.get() {
                let with_bootstrap = report.candidates[0].primary.bootstrap.is_some();
                states.update(|states| states.push(with_bootstrap));
            }
        });
    });
    settle(600).await;
    assert_eq!(
        states.get_untracked(),
        [false, true],
        "first without, then with"
    );

    view.update(|view| view.filter = RowFilter::Regressions);
    view.update(|view| view.search = Some("t1".to_owned()));
    view.update(|view| view.focus = 0);
    settle(300).await;
    assert_eq!(states.get_untracked().len(), 2, "filters do not recompute");

    view.update(|view| view.confidence_percent = 90);
    settle(600).await;
    assert_eq!(
        states.get_untracked(),
        [false, true, false, true],
        "settings do"
    );
}

#[wasm_bindgen_test]
fn what_cannot_be_computed_is_said_in_words_never_nan() {
    let set = run_set_from_folders(&folders(), eval_compare_core::model::SourceKind::Files)
        .expect("a run set");
    let report = build_report(
        &set,
        RunIdx(0),
        &[RunIdx(1), RunIdx(2)],
        &ReportSettings {
            resamples: 0,
            ..ReportSettings::default()
        },
    )
    .expect("a report");
    let report = Arc::new(report);
    let root = mount_point();
    let shown = Arc::clone(&report);
    let _handle = leptos::mount::mount_to(root.clone(), move || {
        let report = Signal::derive({
            let shown = Arc::clone(&shown);
            move || Arc::clone(&shown)
        });
        view! {
            <HeadlineCards report focus=Signal::derive(|| 1) bootstrap_pending=Signal::derive(|| false)/>
            <CoverageLedger report/>
        }
    });
    let cards = select_all(&root, ".headline-card");
    assert_eq!(cards.len(), 2);
    let lonely = text(&cards[1]);
    assert!(lonely.contains("not enough data"), "{lonely}");
    assert!(cards[1].class_name().contains("focused"));
    let page = text(&root);
    assert!(!page.contains("NaN"), "{page}");
    // Each card's details table shows the core's rows (the ones the CLI's markdown prints): a
    // cell per analysis, or one spanning both.
    for (card, candidate) in cards.iter().zip(&report.candidates) {
        let shown: Vec<(String, Vec<String>)> = select_all(card, ".details-table tbody tr")
            .iter()
            .map(|row| {
                let label = select_all(row, "th .detail-label")
                    .first()
                    .map(text)
                    .unwrap_or_default();
                let cells = select_all(row, "td")
                    .iter()
                    .map(|cell| match cell.get_attribute("colspan") {
                        Some(span) => format!("[{span}] {}", text(cell)),
                        None => text(cell),
                    })
                    .collect();
                (label, cells)
            })
            .collect();
        let expected: Vec<(String, Vec<String>)> = detail_rows(&report, candidate, false)
            .into_iter()
            .map(|row| {
                let cells = match row.cells {
                    DetailCells::PerAnalysis {
                        primary,
                        sensitivity,
                    } => vec![primary, sensitivity],
                    DetailCells::Whole(text) => vec![format!("[2] {text}")],
                };
                (row.label, cells)
            })
            .collect();
        assert_eq!(shown, expected);
        // Each statistic's row explains it: a "?" for the row's topic, with the core's text.
        let topics: Vec<Option<String>> = select_all(card, ".details-table tbody tr th .explain")
            .iter()
            .map(|button| button.get_attribute("data-topic"))
            .collect();
        let expected_topics: Vec<Option<String>> = detail_rows(&report, candidate, false)
            .iter()
            .map(|row| Some(row.topic.slug().to_owned()))
            .collect();
        assert_eq!(topics, expected_topics);
        let first = select_all(card, ".details-table tbody tr th .explain-text");
        let first_row = &detail_rows(&report, candidate, false)[0];
        assert_eq!(
            first.first().map(text),
            Some(explain(first_row.topic, &report.settings))
        );
    }
    // Several candidates: Holm and BH adjusted p-values are shown.
    assert!(text(&cards[0]).contains("Holm"), "{}", text(&cards[0]));
    // The sentence is the report's own.
    assert!(text(&cards[0]).contains(
        &report.candidates[0]
            .sentence
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    ));

    // The lonely candidate leaves five tasks of the union unpaired, listed in the ledger.
    let pairs = select_all(&root, ".pair");
    assert_eq!(pairs.len(), 2);
    assert!(
        text(&pairs[1]).contains("1 paired of 6 in the union"),
        "{}",
        text(&pairs[1])
    );
    assert_eq!(select_all(&pairs[1], ".unpaired tbody tr").len(), 5);
}

#[wasm_bindgen_test]
async fn an_open_details_section_stays_open_when_the_report_is_recomputed() {
    let set = run_set_from_folders(&folders(), eval_compare_core::model::SourceKind::Files)
        .expect("a run set");
    let build = |resamples: usize| {
        Arc::new(
            build_report(
                &set,
                RunIdx(0),
                &[RunIdx(1), RunIdx(2)],
                &ReportSettings {
                    resamples,
                    ..ReportSettings::default()
                },
            )
            .expect("a report"),
        )
    };
    let report = RwSignal::new(build(0));
    let root = mount_point();
    let _handle = leptos::mount::mount_to(root.clone(), move || {
        view! {
            <HeadlineCards
                report=Signal::from(report)
                focus=Signal::derive(|| 0)
                bootstrap_pending=Signal::derive(|| true)
            />
            <CoverageLedger report=Signal::from(report)/>
        }
    });
    let open = |selector: &str| -> Vec<bool> {
        select_all(&root, selector)
            .iter()
            .map(|details| details.has_attribute("open"))
            .collect()
    };
    let click = |selector: &str, index: usize| {
        use wasm_bindgen::JsCast;
        select_all(&root, selector)[index]
            .clone()
            .dyn_into::<web_sys::HtmlElement>()
            .expect("an element")
            .click();
    };
    click(".headline-details summary", 1);
    click(".unpaired summary", 0);
    settle(50).await;
    assert_eq!(open(".headline-details"), [false, true]);
    assert_eq!(open(".unpaired"), [true]);
    assert!(
        text(&root).contains("computing…"),
        "the bootstrap is pending"
    );

    report.set(build(200));
    settle(50).await;
    assert_eq!(open(".headline-details"), [false, true], "still open");
    assert_eq!(open(".unpaired"), [true], "still open");
}
