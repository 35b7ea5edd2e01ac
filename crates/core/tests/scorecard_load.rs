//! A scorecard's load on the one engine against a scripted API: its sources listed, the plan
//! made, every compared run read once (the baseline two cells share, the training run and the
//! evaluation defaults the sources already read are not read again), and the scorecard built
//! from the store's pair sets; each run's version moves only when its data do.
#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;

use eval_compare_core::load::{load_scorecard, run_versions, LoadStore};
use eval_compare_core::report::ReportSettings;
use eval_compare_core::scorecard::{build_scorecard, CellState, Rule};
use eval_compare_core::testing::bodies::{
    eval_options_body, page, reward_item, task_item, training_run_body, trajectory_item,
};
use eval_compare_core::testing::scripted::client_over;
use eval_compare_core::testing::ScriptedTransport;
use futures::executor::block_on;

const TASKS: usize = 12;

fn run_json(id: &str, step: Option<i64>, created: &str) -> serde_json::Value {
    serde_json::json!({"eval_run_id": id, "bench_id": "b_1", "agent_id": "a_1",
        "base_model_slug": "org/model", "options": {"temperature": 0.5}, "status": "completed",
        "step": step, "training_run_id": step.map(|_| "tr_1"),
        "parent_checkpoint_id": step.map(|s| format!("ck_{s}")), "total_rollouts": TASKS,
        "created_at": created, "updated_at": created})
}

fn list(items: &[serde_json::Value]) -> String {
    serde_json::json!({"items": items, "next_cursor": null, "has_more": false}).to_string()
}

fn script_run(transport: &ScriptedTransport, run: &serde_json::Value, lift: f64) {
    let id = run["eval_run_id"].as_str().unwrap();
    let rewards: Vec<String> = (0..TASKS)
        .map(|i| {
            let reward =
                (0.3 + 0.05 * (i % 5) as f64 + lift * (0.5 + 0.25 * (i % 4) as f64)).min(1.0);
            reward_item(&format!("{id}-{i}"), &format!("t{i}"), reward)
        })
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

#[test]
fn each_run_is_read_once_and_the_cells_come_from_the_store() {
    let transport = ScriptedTransport::default();
    let base_old = run_json("base_old", None, "2026-01-01T00:00:00Z");
    let base_new = run_json("base_new", None, "2026-02-01T00:00:00Z");
    let mut base_hot = run_json("base_hot", None, "2026-03-01T00:00:00Z");
    base_hot["options"]["temperature"] = serde_json::json!(1.0);
    let ck_100 = run_json("ck_100", Some(100), "2026-02-02T00:00:00Z");
    let ck_200 = run_json("ck_200", Some(200), "2026-02-03T00:00:00Z");
    transport.route(
        "/eval/options",
        vec![(
            200,
            eval_options_body("b_1", "org/model", &[("temperature", 0.5)]),
        )],
    );
    transport.route(
        "training_run_id=tr_1",
        vec![(200, list(&[ck_100.clone(), ck_200.clone()]))],
    );
    transport.route(
        "/agents/a_1/evaluation-runs",
        vec![(
            200,
            list(&[
                base_hot,
                base_new.clone(),
                base_old,
                ck_100.clone(),
                ck_200.clone(),
            ]),
        )],
    );
    let tasks: Vec<String> = (0..TASKS).map(|i| task_item(&format!("t{i}"))).collect();
    transport.route(
        "/benchmarks/b_1/tasks",
        vec![(200, page("b_1", &tasks, None))],
    );
    script_run(&transport, &base_new, 0.0);
    script_run(&transport, &ck_100, 0.02);
    script_run(&transport, &ck_200, 0.2);
    transport.route("/train/tr_1", vec![(200, training_run_body("tr_1", "{}"))]);

    let client = client_over(&transport);
    let store = LoadStore::new();
    let plan = block_on(load_scorecard(
        &client,
        &store,
        "tr_1",
        &BTreeMap::new(),
        &|_| {},
    ))
    .unwrap();
    // The newest base-model run with other settings is passed over.
    let baseline = &plan.rows[0].baseline;
    assert_eq!(baseline.run_id.as_deref(), Some("base_new"));
    assert_eq!(baseline.skipped[0].run_id, "base_hot");
    assert_eq!(plan.steps, [100, 200]);
    assert_eq!(plan.run_ids(), ["base_new", "ck_100", "ck_200"]);
    let urls = transport.urls();
    let reads = |end: &str| {
        urls.iter()
            .filter(|url| url.split('?').next().unwrap().ends_with(end))
            .count()
    };
    assert_eq!(reads("/eval/base_new"), 1, "{urls:#?}");
    assert_eq!(reads("/eval/base_new/trajectory-rewards"), 1, "{urls:#?}");
    assert_eq!(reads("/train/tr_1"), 1, "{urls:#?}");
    assert_eq!(
        urls.iter()
            .filter(|url| url.contains("/eval/options"))
            .count(),
        1,
        "{urls:#?}"
    );
    // Runs not compared are never read.
    assert!(!urls
        .iter()
        .any(|url| url.contains("base_old") || url.contains("base_hot")));
    assert!(store.first_failure(&plan.run_ids()).is_none());
    let versions = run_versions(&store, &plan.run_ids());
    assert_eq!(versions.len(), 3);
    assert_eq!(run_versions(&store, &plan.run_ids()), versions);

    let settings = ReportSettings {
        resamples: 0,
        ..ReportSettings::default()
    };
    let rule = Rule {
        primary: vec!["b_1".to_owned()],
        ..Rule::default()
    };
    let card = build_scorecard(plan, &settings, &rule, |b, c| {
        store
            .run_set(&[b.to_owned(), c.to_owned()])
            .unwrap()
            .map_err(|e| e.to_string())
    });
    let CellState::Compared { comparison } = &card.cell("b_1", 200).unwrap().state else {
        panic!("not compared");
    };
    // Δ = 0.2 × the mean of 0.5, 0.75, 1, 1.25 over the tasks.
    assert!((comparison.delta.unwrap() - 0.175).abs() < 1e-9);
    assert_eq!(comparison.paired, TASKS as u64);
    assert_eq!(card.recommended.as_ref().unwrap().step, 200);
    // A list read again with other items moves that run's version only.
    store
        .get("ck_200")
        .unwrap()
        .rewards
        .borrow_mut()
        .items
        .pop();
    let now = run_versions(
        &store,
        &["base_new".to_owned(), "ck_100".into(), "ck_200".into()],
    );
    assert_ne!(now["ck_200"], versions["ck_200"]);
    assert_eq!(now["ck_100"], versions["ck_100"]);
    assert_eq!(now["base_new"], versions["base_new"]);
}
