//! The platform's own progression beside ours on the page: the core's cells, the disagreement
//! flagged, a failed read said; nothing without it.
#![cfg(target_arch = "wasm32")]
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod chart_fixture;
mod support;

use std::sync::Arc;

use eval_compare_core::api::{AgentTrainingEvaluationPoint, HeldOutReward};
use eval_compare_core::model::PlatformSeries;
use eval_compare_core::report::{platform_cells, platform_progression, platform_sentence};
use eval_compare_viewer::report::panels::platform_progression::PlatformProgressionPanel;
use leptos::prelude::*;
use support::{mount_point, select_all, text};
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

fn held_out(step: i64, reward: f64) -> HeldOutReward {
    HeldOutReward {
        step,
        held_out_reward: reward,
        round_completed: None,
        expected_samples: None,
        completed_samples: None,
        failed_samples: None,
        cancelled_samples: None,
        loaded_trajectories: None,
    }
}

#[wasm_bindgen_test]
fn the_platforms_progression_is_set_beside_ours_with_a_disagreement_flagged() {
    let mut report = chart_fixture::progression_with_running();
    let progression = report.progression.as_mut().expect("a progression");
    let first = progression.points[0].clone();
    let series = PlatformSeries {
        evaluation: vec![AgentTrainingEvaluationPoint {
            step: first.step,
            reward_mean: 5.0,
        }],
        held_out: vec![held_out(0, 0.25)],
    };
    progression.platform = Some(platform_progression(&progression.points, &Ok(series)));
    let platform = progression.platform.clone().unwrap();
    let report = Arc::new(report);
    let root = mount_point();
    let shown = Arc::clone(&report);
    let _handle = leptos::mount::mount_to(root.clone(), move || {
        view! { <PlatformProgressionPanel report=Signal::derive(move || Arc::clone(&shown))/> }
    });
    let rows = select_all(&root, ".platform-progression-table tbody tr");
    assert_eq!(rows.len(), platform.steps.len());
    for (row, step) in rows.iter().zip(&platform.steps) {
        let cells: Vec<String> = select_all(row, "td").iter().map(text).collect();
        assert_eq!(cells, platform_cells(step).to_vec());
        assert_eq!(row.class_list().contains("disagrees"), step.disagrees);
    }
    assert_eq!(
        platform.disagreements, 1,
        "a mean of 5 is outside any interval of ours"
    );
    let line = &select_all(&root, ".platform-progression-line")[0];
    assert_eq!(text(line), platform_sentence(&platform));
    assert!(line.class_list().contains("disagrees"));
    root.remove();
}

#[wasm_bindgen_test]
fn a_failed_read_is_said_and_no_progression_shows_nothing() {
    let mut report = chart_fixture::progression_with_running();
    let progression = report.progression.as_mut().expect("a progression");
    progression.platform = Some(platform_progression(
        &progression.points,
        &Err("HTTP 503 from the API".to_owned()),
    ));
    let failed = Arc::new(report);
    let root = mount_point();
    let shown = Arc::clone(&failed);
    let _handle = leptos::mount::mount_to(root.clone(), move || {
        view! { <PlatformProgressionPanel report=Signal::derive(move || Arc::clone(&shown))/> }
    });
    assert!(select_all(&root, ".platform-progression-table").is_empty());
    assert_eq!(
        text(&select_all(&root, ".platform-progression-line")[0]),
        "The platform's progression could not be read: HTTP 503 from the API"
    );
    root.remove();

    let plain = Arc::new(chart_fixture::small_report());
    let root = mount_point();
    let _handle = leptos::mount::mount_to(root.clone(), move || {
        view! { <PlatformProgressionPanel report=Signal::derive(move || Arc::clone(&plain))/> }
    });
    assert!(select_all(&root, ".platform-progression").is_empty());
    root.remove();
}
