//! Display formatting of API values. Pure logic: native tests (scripts/test.sh's "viewer native
//! tests" step).
#![cfg(not(target_arch = "wasm32"))]

use eval_compare_core::api::{EvalRun, EvalRunStatus};
use eval_compare_viewer::format;

fn run(extra: serde_json::Value) -> EvalRun {
    let mut json = serde_json::json!({
        "eval_run_id": "er_1", "bench_id": "b", "agent_id": null, "display_name": null,
        "options": {}, "status": null,
        "created_at": "2026-10-01T08:30:00Z", "updated_at": "2026-10-01T08:30:00Z"
    });
    if let (Some(base), Some(extra)) = (json.as_object_mut(), extra.as_object()) {
        base.extend(extra.clone());
    }
    serde_json::from_value(json).expect("a valid EvalRun")
}

#[test]
fn reward_means_have_three_decimals_and_missing_ones_a_dash() {
    assert_eq!(format::reward_mean(Some(0.5)), "0.500");
    assert_eq!(format::reward_mean(Some(0.12345)), "0.123");
    assert_eq!(format::reward_mean(None), "—");
    assert_eq!(format::reward_mean(Some(f64::NAN)), "—");
}

#[test]
fn timestamps_show_date_and_minutes() {
    assert_eq!(
        format::timestamp("2026-10-01T08:30:59Z"),
        "2026-10-01 08:30 UTC"
    );
    assert_eq!(
        format::timestamp("2026-10-01T08:30:59.123+00:00"),
        "2026-10-01 08:30 UTC"
    );
    assert_eq!(
        format::timestamp("2026-10-01T08:30:59+02:00"),
        "2026-10-01 08:30"
    );
    assert_eq!(format::timestamp("yesterday"), "yesterday");
    assert_eq!(format::timestamp("2026-10-01"), "2026-10-01");
}

#[test]
fn a_checkpoint_shows_its_step_and_a_baseline_its_model() {
    let checkpoint = run(serde_json::json!({"step": 200, "base_model_slug": "m-7b"}));
    assert_eq!(format::evaluated_model(&checkpoint), "checkpoint, step 200");
    let baseline = run(serde_json::json!({"base_model_slug": "m-7b"}));
    assert_eq!(format::evaluated_model(&baseline), "m-7b");
    assert_eq!(format::evaluated_model(&run(serde_json::json!({}))), "—");
}

#[test]
fn rollouts_and_task_counts_show_when_recorded() {
    let both = run(serde_json::json!({
        "total_rollouts": 90,
        "task_selection": {"split": "all", "available_task_count": 40, "selected_task_count": 30}
    }));
    assert_eq!(format::rollouts(&both), "90");
    assert_eq!(format::task_count(&both).as_deref(), Some("30 tasks"));
    let one = run(serde_json::json!({
        "task_selection": {"split": "all", "available_task_count": 40, "selected_task_count": 1}
    }));
    assert_eq!(format::task_count(&one).as_deref(), Some("1 task"));
    assert_eq!(format::rollouts(&one), "—");
    assert_eq!(format::task_count(&run(serde_json::json!({}))), None);
    let large = run(serde_json::json!({
        "total_rollouts": 1612,
        "task_selection": {"split": "all", "available_task_count": 5000, "selected_task_count": 1403}
    }));
    assert_eq!(format::rollouts(&large), "1,612");
    assert_eq!(format::task_count(&large).as_deref(), Some("1,403 tasks"));
    assert_eq!(
        format::rollouts(&run(serde_json::json!({"total_rollouts": -3}))),
        "-3"
    );
}

#[test]
fn a_run_without_a_name_is_shown_by_id() {
    assert_eq!(
        format::run_name(&run(serde_json::json!({"display_name": "Base"}))),
        "Base"
    );
    assert_eq!(
        format::run_name(&run(serde_json::json!({"display_name": "  "}))),
        "er_1"
    );
    assert_eq!(format::run_name(&run(serde_json::json!({}))), "er_1");
}

#[test]
fn statuses_map_to_labels_and_styles() {
    assert_eq!(
        format::status_label(Some(&EvalRunStatus::Registered)),
        ("queued".to_owned(), "status-queued")
    );
    assert_eq!(
        format::status_label(Some(&EvalRunStatus::Completed)),
        ("completed".to_owned(), "status-completed")
    );
    assert_eq!(
        format::status_label(Some(&EvalRunStatus::from("paused"))),
        ("paused".to_owned(), "status-unknown")
    );
}

#[test]
fn percent_done_is_bounded_and_needs_a_total() {
    assert_eq!(format::percent_done(30, 120), Some(25.0));
    assert_eq!(format::percent_done(200, 120), Some(100.0));
    assert_eq!(format::percent_done(-1, 120), Some(0.0));
    assert_eq!(format::percent_done(3, 0), None);
}

#[test]
fn durations_read_in_the_unit_that_fits() {
    assert_eq!(format::duration_ms(0), "0 ms");
    assert_eq!(format::duration_ms(850), "850 ms");
    assert_eq!(format::duration_ms(1_000), "1.0 s");
    assert_eq!(format::duration_ms(12_340), "12.3 s");
    assert_eq!(format::duration_ms(59_940), "59.9 s");
    assert_eq!(
        format::duration_ms(59_960),
        "1 min 00 s",
        "rounds up into minutes"
    );
    assert_eq!(format::duration_ms(245_000), "4 min 05 s");
    assert_eq!(format::duration_ms(3_599_400), "59 min 59 s");
    assert_eq!(format::duration_ms(3_599_600), "1 h 00 min");
    assert_eq!(format::duration_ms(7_380_000), "2 h 03 min");
    assert!(format::duration_ms(u64::MAX).ends_with(" min"));
}

#[test]
fn sizes_use_powers_of_1024() {
    assert_eq!(format::byte_size(0), "0 B");
    assert_eq!(format::byte_size(1_023), "1023 B");
    assert_eq!(format::byte_size(1_024), "1.0 KiB");
    assert_eq!(format::byte_size(1_536), "1.5 KiB");
    assert_eq!(format::byte_size(200 * 1_024), "200 KiB");
    assert_eq!(format::byte_size(1_024 * 1_024 - 1), "1.0 MiB");
    assert_eq!(format::byte_size(12_900_000), "12.3 MiB");
    assert_eq!(format::byte_size(u64::MAX), "16.0 EiB");
}

#[test]
fn a_long_name_is_shown_cut_with_the_whole_for_its_title() {
    let name = "n".repeat(3000);
    let (shown, title) = format::shown_name(&name);
    assert_eq!(shown.chars().count(), 120);
    assert!(shown.ends_with('…'));
    assert_eq!(title.as_deref(), Some(name.as_str()));
    assert_eq!(
        format::shown_name("Step 400"),
        ("Step 400".to_owned(), None)
    );
}
