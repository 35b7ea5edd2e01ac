//! Components mounted in a real browser, checked through the DOM.
#![cfg(target_arch = "wasm32")]

mod support;

use eval_compare_core::api::{EvalProgress, EvalRun, EvalRunStatus};
use eval_compare_viewer::components::error_panel::ErrorPanel;
use eval_compare_viewer::components::status_badge::StatusBadge;
use eval_compare_viewer::picker::overview::RunRow;
use eval_compare_viewer::picker::run_table::RunTable;
use leptos::prelude::*;
use support::{mount_point, select_all, text};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

fn run(json: serde_json::Value) -> EvalRun {
    serde_json::from_value(json).expect("a valid EvalRun")
}

fn baseline() -> EvalRun {
    run(serde_json::json!({
        "eval_run_id": "er_base", "bench_id": "b2", "agent_id": "ag", "display_name": "Baseline",
        "base_model_slug": "base-model-7b", "options": {}, "status": "completed",
        "reward_mean": 0.41234, "total_rollouts": 120,
        "task_selection": {"split": "test", "available_task_count": 40, "selected_task_count": 40},
        "created_at": "2026-10-01T08:30:00Z", "updated_at": "2026-10-01T09:00:00Z"
    }))
}

fn running_checkpoint() -> EvalRun {
    run(serde_json::json!({
        "eval_run_id": "er_ckpt", "bench_id": "b2", "agent_id": "ag", "display_name": null,
        "options": {}, "status": "running", "step": 400, "training_run_id": "tr_1",
        "reward_mean": null, "total_rollouts": 120,
        "created_at": "2026-10-02T10:00:00Z", "updated_at": "2026-10-02T10:05:00Z"
    }))
}

fn progress(terminal: i64, total: i64) -> EvalProgress {
    serde_json::from_value(serde_json::json!({
        "eval_run_id": "er_ckpt", "status": "running",
        "terminal_rollouts": terminal, "total_rollouts": total
    }))
    .expect("a valid EvalProgress")
}

#[wasm_bindgen_test]
fn status_badge_names_known_and_unknown_statuses() {
    let root = mount_point();
    let _handle = leptos::mount::mount_to(root.clone(), || {
        view! {
            <StatusBadge status=Some(EvalRunStatus::Failed)/>
            <StatusBadge status=Some(EvalRunStatus::from("paused"))/>
            <StatusBadge status=None/>
        }
    });
    let badges: Vec<(String, String)> = select_all(&root, ".status")
        .iter()
        .map(|badge| (text(badge), badge.class_name()))
        .collect();
    assert_eq!(
        badges,
        [
            ("failed".to_owned(), "status status-failed".to_owned()),
            ("paused".to_owned(), "status status-unknown".to_owned()),
            ("unknown".to_owned(), "status status-unknown".to_owned()),
        ]
    );
}

#[wasm_bindgen_test]
fn run_table_shows_each_run_with_its_columns_and_live_progress() {
    let root = mount_point();
    let rows = vec![
        RunRow {
            run: running_checkpoint(),
            progress: Some(progress(30, 120)),
        },
        RunRow {
            run: baseline(),
            progress: None,
        },
    ];
    let _handle = leptos::mount::mount_to(root.clone(), move || view! { <RunTable rows/> });

    let rows = select_all(&root, "tbody tr");
    assert_eq!(rows.len(), 2);
    assert_eq!(
        rows[0].get_attribute("data-run-id").as_deref(),
        Some("er_ckpt")
    );

    let first = |row: &web_sys::Element, selector: &str| -> String {
        select_all(row, selector)
            .first()
            .map(text)
            .unwrap_or_else(|| panic!("no {selector} in {}", row.outer_html()))
    };
    // Cells after the first: evaluated model, status, reward mean, samples, created.
    let cells = |row: &web_sys::Element| -> Vec<String> {
        select_all(row, "td").iter().skip(1).map(text).collect()
    };

    assert_eq!(first(&rows[0], ".run-name"), "er_ckpt", "no name: the id");
    assert_eq!(first(&rows[0], ".run-id"), "er_ckpt");
    assert_eq!(first(&rows[0], ".status"), "running");
    assert_eq!(first(&rows[0], ".run-progress"), "30 / 120 rollouts (25%)");
    assert_eq!(cells(&rows[0])[2..], ["—", "120", "2026-10-02 10:00 UTC"]);
    assert_eq!(cells(&rows[0])[0], "checkpoint, step 400 training run tr_1");

    assert_eq!(first(&rows[1], ".run-name"), "Baseline");
    assert_eq!(first(&rows[1], ".run-id"), "er_base");
    assert_eq!(
        cells(&rows[1]),
        [
            "base-model-7b",
            "completed",
            "0.412",
            "120 40 tasks",
            "2026-10-01 08:30 UTC",
        ]
    );
    let bar = select_all(&rows[0], "progress")
        .pop()
        .expect("a running run has a progress bar")
        .dyn_into::<web_sys::HtmlProgressElement>()
        .expect("a <progress> element");
    assert_eq!(bar.value(), 25.0);
    assert!(select_all(&rows[1], "progress").is_empty());
}

#[wasm_bindgen_test]
fn error_panel_retry_button_calls_back() {
    let root = mount_point();
    let retries = RwSignal::new(0);
    let _handle = leptos::mount::mount_to(root.clone(), move || {
        view! {
            <ErrorPanel
                title="Cannot reach the server"
                message="could not reach the API"
                hint="Start it, then retry."
                on_retry=Callback::new(move |()| retries.update(|count| *count += 1))
            />
        }
    });
    assert_eq!(
        text(&select_all(&root, ".error-title")[0]),
        "Cannot reach the server"
    );
    let button = select_all(&root, "button")
        .pop()
        .expect("a Retry button")
        .dyn_into::<web_sys::HtmlElement>()
        .expect("a button is an HtmlElement");
    assert_eq!(text(&button), "Retry");
    button.click();
    button.click();
    assert_eq!(retries.get_untracked(), 2);
}
