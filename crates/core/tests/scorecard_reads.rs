//! What a scorecard's load reads against a scripted API, counted by request: its runs' records,
//! lists and settings, and nothing beside them (no billing list, no rollout statistics, no
//! platform progression: a scorecard shows none of them). A comparison of two of its runs on
//! the same store then reads exactly those, and nothing of the runs again.
#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;

use eval_compare_core::load::{load_runs, load_scorecard, BesideRuns, LoadStore, SettingsRead};
use eval_compare_core::testing::bodies::{
    eval_options_body, page, reward_item, task_item, training_run_body, trajectory_item,
    SERVER_FAILURE,
};
use eval_compare_core::testing::scripted::client_over;
use eval_compare_core::testing::ScriptedTransport;
use futures::executor::block_on;

const TASKS: usize = 6;
/// What only a comparison reads.
const BESIDE: [&str; 4] = [
    "/billing/usage/runs",
    "/rollout-statistics",
    "/evaluation-series",
    "/held-out-reward-by-step",
];

fn run_json(id: &str, step: Option<i64>) -> serde_json::Value {
    serde_json::json!({"eval_run_id": id, "bench_id": "b_1", "agent_id": "a_1",
        "base_model_slug": "org/model", "options": {}, "status": "completed",
        "step": step, "training_run_id": step.map(|_| "tr_1"),
        "parent_checkpoint_id": step.map(|s| format!("ck_{s}")), "total_rollouts": TASKS,
        "created_at": "2026-02-01T00:00:00Z", "updated_at": "2026-02-01T00:00:00Z"})
}

fn list(items: &[serde_json::Value]) -> String {
    serde_json::json!({"items": items, "next_cursor": null, "has_more": false}).to_string()
}

fn billing_row(run_id: &str) -> serde_json::Value {
    serde_json::json!({"run_id": run_id, "name": run_id, "type": "eval", "status": "completed",
        "launch_at": "2026-02-01T00:00:00Z", "cents": 10.0, "training_cents": 0.0,
        "inference_cents": 8.0, "grading_cents": 1.0, "sandbox_cents": 1.0})
}

/// A training run `tr_1` with checkpoints at steps 100 and 200 on `b_1`, one base-model run;
/// the billing list (`billing`: its status and body), every run's rollout statistics and the
/// training run's platform progression answer too.
fn scripted(billing: (u16, String)) -> (ScriptedTransport, Vec<String>) {
    let transport = ScriptedTransport::default();
    let runs = [
        run_json("base", None),
        run_json("ck_100", Some(100)),
        run_json("ck_200", Some(200)),
    ];
    transport.route("/billing/usage/runs", vec![billing]);
    transport.route(
        "/agents/a_1/training-runs/tr_1/evaluation-series",
        vec![(
            200,
            r#"{"items":[],"next_cursor":null,"has_more":false,"has_active_work":false}"#.into(),
        )],
    );
    transport.route(
        "/train/tr_1/step/held-out-reward-by-step",
        vec![(
            200,
            r#"{"training_run_id":"tr_1","items":[],"next_cursor":null,"has_more":false}"#.into(),
        )],
    );
    transport.route("/train/tr_1", vec![(200, training_run_body("tr_1", "{}"))]);
    transport.route(
        "/eval/options",
        vec![(200, eval_options_body("b_1", "org/model", &[]))],
    );
    transport.route(
        "training_run_id=tr_1",
        vec![(200, list(&[runs[1].clone(), runs[2].clone()]))],
    );
    transport.route("/agents/a_1/evaluation-runs", vec![(200, list(&runs))]);
    let tasks: Vec<String> = (0..TASKS).map(|i| task_item(&format!("t{i}"))).collect();
    transport.route(
        "/benchmarks/b_1/tasks",
        vec![(200, page("b_1", &tasks, None))],
    );
    for (n, run) in runs.iter().enumerate() {
        let id = run["eval_run_id"].as_str().unwrap();
        transport.route(
            &format!("/eval/{id}/rollout-statistics"),
            vec![(200, format!(r#"{{"eval_run_id":"{id}","snapshots":[]}}"#))],
        );
        let rewards: Vec<String> = (0..TASKS)
            .map(|i| reward_item(&format!("{id}-{i}"), &format!("t{i}"), 0.1 * (i + n) as f64))
            .collect();
        let trajectories: Vec<String> = (0..TASKS)
            .map(|i| trajectory_item(&format!("{id}-{i}"), &format!("t{i}")))
            .collect();
        transport.route(
            &format!("/eval/{id}/trajectory-rewards"),
            vec![(200, page(id, &rewards, None))],
        );
        transport.route(
            &format!("eval_run_id={id}"),
            vec![(200, page(id, &trajectories, None))],
        );
        transport.route(&format!("/eval/{id}"), vec![(200, run.to_string())]);
    }
    (
        transport,
        runs.iter()
            .map(|run| run["eval_run_id"].as_str().unwrap().to_owned())
            .collect(),
    )
}

fn billing_ok() -> (u16, String) {
    let rows: Vec<_> = ["base", "ck_100", "ck_200"]
        .iter()
        .map(|id| billing_row(id))
        .collect();
    (
        200,
        serde_json::json!({"snapshot_id": "s_1", "items": rows, "total": 3}).to_string(),
    )
}

fn beside_reads(urls: &[String]) -> Vec<&String> {
    urls.iter()
        .filter(|url| BESIDE.iter().any(|what| url.contains(what)))
        .collect()
}

#[test]
fn a_scorecard_reads_nothing_beside_its_runs_and_a_comparison_then_reads_only_that() {
    let (transport, all) = scripted(billing_ok());
    let client = client_over(&transport);
    // A store a comparison used before: the scorecard's load turns what it does not show off.
    let store = LoadStore::new();
    store.set_reads_beside(BesideRuns::ALL);
    let plan = block_on(load_scorecard(
        &client,
        &store,
        "tr_1",
        &BTreeMap::new(),
        &|_| {},
    ))
    .unwrap();
    assert_eq!(plan.run_ids(), all);
    let urls = transport.urls();
    assert_eq!(beside_reads(&urls), Vec::<&String>::new(), "{urls:#?}");
    assert_eq!(store.reads_beside(), BesideRuns::NONE);
    assert!(store.first_failure(&all).is_none());
    // Settled, and the platform's progression is not waited for.
    for run in store.progress(&all) {
        assert!(run.is_settled(), "{run:?}");
        assert!(run
            .settings_reads
            .iter()
            .all(|(what, _)| *what != SettingsRead::PlatformProgression));
    }
    assert!(!store.lacks_beside(&all, BesideRuns::NONE));
    let cell = vec!["base".to_owned(), "ck_200".to_owned()];
    assert!(store.lacks_beside(&cell, BesideRuns::ALL));
    assert!(store.lacks_beside(
        &cell,
        BesideRuns {
            costs: false,
            platform_progression: true
        }
    ));

    // The comparison of one cell: costs and the progression, and nothing of the runs again.
    let before = transport.request_count();
    store.set_reads_beside(BesideRuns::ALL);
    block_on(load_runs(&client, &store, &cell, &|_| {}));
    let mut asked = transport.urls_since(before);
    asked.sort();
    assert_eq!(asked.len(), 5, "{asked:#?}");
    assert_eq!(beside_reads(&asked).len(), 5, "{asked:#?}");
    for what in BESIDE {
        assert!(asked.iter().any(|url| url.contains(what)), "{what}");
    }
    assert!(asked
        .iter()
        .any(|url| url.contains("/eval/base/rollout-statistics")));
    assert!(asked
        .iter()
        .any(|url| url.contains("/eval/ck_200/rollout-statistics")));
    assert!(!store.lacks_beside(&cell, BesideRuns::ALL));
    let set = store.run_set(&cell).unwrap().unwrap();
    for run in set.runs() {
        assert_eq!(
            run.info().cost.known().map(|cost| cost.inference),
            Some(8.0),
            "{}",
            run.info().id
        );
    }
    assert!(matches!(set.platform_series("tr_1"), Some(Ok(_))));

    // Everything read: loading the comparison again asks nothing.
    let before = transport.request_count();
    block_on(load_runs(&client, &store, &cell, &|_| {}));
    assert_eq!(transport.urls_since(before), Vec::<String>::new());
}

#[test]
fn a_comparison_on_a_fresh_store_reads_costs_and_a_failed_read_counts_as_asked() {
    let (transport, _) = scripted((500, SERVER_FAILURE.to_owned()));
    let client = client_over(&transport);
    let store = LoadStore::new();
    store.set_reads_beside(BesideRuns::ALL);
    let cell = vec!["base".to_owned(), "ck_100".to_owned()];
    block_on(load_runs(&client, &store, &cell, &|_| {}));
    let urls = transport.urls();
    for what in BESIDE {
        assert!(
            urls.iter().any(|url| url.contains(what)),
            "{what}: {urls:#?}"
        );
    }
    // Billing failed: the runs are whole, the costs unavailable with the reason, and the page
    // does not start another load for them on its own (a Retry does).
    assert!(store.first_failure(&cell).is_none());
    assert!(store.cost_reads().cost("base").known().is_none());
    assert!(!store.lacks_beside(&cell, BesideRuns::ALL));
    let before = transport.count("/billing/usage/runs");
    block_on(load_runs(&client, &store, &cell, &|_| {}));
    assert!(transport.count("/billing/usage/runs") > before);
}
