//! The "where the Δ comes from" section in a real browser: the focused candidate's categories
//! with the core's cells, the concentration line, the flaky line (the markdown's words), and
//! pass@k beside pass^k when samples allow.
#![cfg(target_arch = "wasm32")]

mod support;
mod task_fixture;

use eval_compare_core::report::{category_cells, flaky_sentence, pass_k_cells};
use eval_compare_viewer::report::panels::where_delta::WhereDelta;
use leptos::prelude::*;
use support::{mount_point, select_all, text};
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
async fn the_focused_candidates_categories_flaky_tasks_and_concentration_are_shown() {
    let fixture = task_fixture::small();
    let report = fixture.report.clone();
    let root = mount_point();
    let shown = report.clone();
    let focus = RwSignal::new(0usize);
    let _handle = leptos::mount::mount_to(root.clone(), move || {
        view! { <WhereDelta report=Signal::derive(move || shown.clone()) focus/> }
    });

    let title = text(&select_all(&root, "#where-delta-title")[0]);
    assert_eq!(title, "Where the Δ of Step 100 comes from");
    let candidate = &report.candidates[0];
    let breakdown = candidate
        .by_category
        .as_ref()
        .expect("the fixture has categories");
    assert_eq!(
        text(&select_all(&root, ".concentration-line")[0]),
        breakdown.sentence
    );
    assert!(breakdown.sentence.starts_with("No category pulls Δ down"));
    let rows = select_all(&root, ".categories-table tbody tr");
    assert_eq!(rows.len(), 2, "Parsing and Networking have paired tasks");
    for (row, group) in rows.iter().zip(&breakdown.groups) {
        let cells: Vec<String> = select_all(row, "td").iter().map(text).collect();
        assert_eq!(cells, category_cells(group).to_vec());
    }
    assert_eq!(
        text(&select_all(&root, ".flaky-line")[0]),
        format!("Flaky tasks: {}.", flaky_sentence(&candidate.flaky))
    );
    assert!(text(&select_all(&root, ".flaky-line")[0]).contains("1 of 4 paired tasks flaky"));
    // The section's numbers explain themselves.
    let topics: Vec<Option<String>> = select_all(&root, ".where-delta .explain")
        .iter()
        .map(|button| button.get_attribute("data-topic"))
        .collect();
    assert_eq!(
        topics,
        [
            Some("category-delta".to_owned()),
            Some("flaky-tasks".to_owned())
        ]
    );
    // Rewards of 0.5: no pass@k.
    assert!(select_all(&root, ".pass-k-table").is_empty());

    // The other candidate follows the focus.
    focus.set(1);
    gloo_timers::future::TimeoutFuture::new(20).await;
    let title = text(&select_all(&root, "#where-delta-title")[0]);
    assert_eq!(title, "Where the Δ of Step 200 comes from");
    root.remove();
}

#[wasm_bindgen_test]
fn pass_at_k_and_pass_hat_k_stand_side_by_side_with_the_uncategorised_group() {
    let fixture = task_fixture::binary_samples();
    let report = fixture.report.clone();
    let root = mount_point();
    let shown = report.clone();
    let _handle = leptos::mount::mount_to(root.clone(), move || {
        view! { <WhereDelta report=Signal::derive(move || shown.clone()) focus=Signal::derive(|| 0)/> }
    });
    let candidate = &report.candidates[0];
    let pass_k = &report.headline(candidate).pass_at_k;
    assert_eq!(pass_k.len(), 1, "k = 1 only: 5 and 10 exceed the 3 samples");
    let rows = select_all(&root, ".pass-k-table tbody tr");
    assert_eq!(rows.len(), 1);
    let cells: Vec<String> = select_all(&rows[0], "td").iter().map(text).collect();
    assert_eq!(cells, pass_k_cells(&pass_k[0]).to_vec());
    // pass^1 = pass@1 = the pass rate: the two columns read the same.
    assert_eq!(cells[2], cells[4]);
    let labels: Vec<String> = select_all(&root, ".categories-table tbody tr td:first-child")
        .iter()
        .map(text)
        .collect();
    assert_eq!(labels, ["Alpha", "Beta", "uncategorised"]);
    assert!(text(&select_all(&root, ".flaky-line")[0]).contains("4 of 4 paired tasks flaky"));
    root.remove();
}
