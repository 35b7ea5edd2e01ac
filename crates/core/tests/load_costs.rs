//! The load engine's cost reads against a scripted API: the billing list walked by offset for
//! the runs without a cost, a 403 kept as "the key may not read billing" (never 0), a run the
//! list does not hold as "not listed", a failed read tried again by the next load, rollout
//! statistics read or failed with the reason; none of it ever stops a run's load. Also the
//! contract's bodies decoded through the one decoder.

#![allow(clippy::unwrap_used)]

use eval_compare_core::api::{decode, BillingRunCostsResponse, EvalRolloutStatistics};
use eval_compare_core::load::{load_runs, LoadEvent, LoadStore};
use eval_compare_core::model::{CostUnavailable, Lookup, RunCost};
use eval_compare_core::testing::bodies::{
    error_body, page, reward_item, run_body, task_item, trajectory_item, NOT_FOUND, SERVER_FAILURE,
};
use eval_compare_core::testing::scripted::client_over;
use eval_compare_core::testing::ScriptedTransport;
use futures::executor::block_on;

const FORBIDDEN: u16 = 403;

fn billing_row(run_id: &str, inference: f64) -> String {
    format!(
        r#"{{"run_id":"{run_id}","name":"run {run_id}","type":"eval","status":"completed","launch_at":"2026-10-01T09:00:00Z","cents":{total},"training_cents":0,"inference_cents":{inference},"grading_cents":1.5,"sandbox_cents":2.25}}"#,
        total = inference + 3.75
    )
}

fn billing_page(rows: &[String], total: usize) -> String {
    format!(
        r#"{{"snapshot_id":"bsnap_1","items":[{}],"total":{total}}}"#,
        rows.join(",")
    )
}

fn statistics_body(run_id: &str) -> String {
    format!(
        r#"{{"eval_run_id":"{run_id}","snapshots":[{{"eval_run_id":"{run_id}","stage":"rollout","knob_name":"max_turns","unit":"turns","samples":[3,5,8],"sample_count":3,"created_at":"2026-10-01T12:00:00Z"}}]}}"#
    )
}

/// Runs `er_1` and `er_2` on `b_1`, one trajectory each; billing and statistics routes are
/// added by each test before these (the first matching route answers).
fn script_runs(transport: &ScriptedTransport) {
    for id in ["er_1", "er_2"] {
        transport.route(
            &format!("/eval/{id}/trajectory-rewards"),
            vec![(200, page(id, &[reward_item("x1", "t1", 1.0)], None))],
        );
        transport.route(
            &format!("eval_run_id={id}"),
            vec![(200, page(id, &[trajectory_item("x1", "t1")], None))],
        );
        transport.route(
            &format!("/eval/{id}"),
            vec![(200, run_body(id, "completed"))],
        );
    }
    transport.route("/eval/options", vec![(404, NOT_FOUND.to_owned())]);
    transport.route(
        "/benchmarks/b_1/tasks",
        vec![(200, page("b_1", &[task_item("t1")], None))],
    );
}

fn ids() -> Vec<String> {
    vec!["er_1".to_owned(), "er_2".to_owned()]
}

fn quiet(_: LoadEvent<'_>) {}

fn load(transport: &ScriptedTransport, store: &LoadStore) {
    let client = client_over(transport);
    block_on(load_runs(&client, store, &ids(), &quiet));
}

#[test]
fn billing_refused_leaves_costs_unavailable_and_the_load_complete() {
    let transport = ScriptedTransport::default();
    let refused = error_body(
        "permission_error",
        "permission_denied",
        "This API key may not read the organization's billing.",
        None,
    );
    transport.route("/billing/usage/runs", vec![(FORBIDDEN, refused)]);
    transport.route(
        "/eval/er_1/rollout-statistics",
        vec![(404, NOT_FOUND.to_owned())],
    );
    transport.route(
        "/eval/er_2/rollout-statistics",
        vec![(200, statistics_body("er_2"))],
    );
    script_runs(&transport);
    let store = LoadStore::new();
    store.cost_reads().enable();
    load(&transport, &store);
    assert_eq!(store.first_failure(&ids()), None, "costs never fail a run");
    assert_eq!(
        transport.count("/billing/usage/runs"),
        1,
        "one walk for both runs"
    );
    let set = store.run_set(&ids()).unwrap().unwrap();
    for run in set.runs() {
        assert_eq!(
            run.info().cost,
            RunCost::Unavailable(CostUnavailable::Forbidden),
            "{}",
            run.info().id
        );
        assert!(run.info().cost.known().is_none());
    }
    let er_1 = set.find_run("er_1").and_then(|i| set.run(i).ok()).unwrap();
    assert!(matches!(&er_1.info().rollout_statistics, Lookup::Failed(why) if why.contains("404")));
    let er_2 = set.find_run("er_2").and_then(|i| set.run(i).ok()).unwrap();
    let Lookup::Read(statistics) = &er_2.info().rollout_statistics else {
        panic!("{:?}", er_2.info().rollout_statistics);
    };
    assert_eq!(statistics.snapshots[0].samples, [3.0, 5.0, 8.0]);

    load(&transport, &store);
    assert_eq!(
        transport.count("/billing/usage/runs"),
        1,
        "a refusal is settled: not asked again"
    );
}

#[test]
fn the_list_is_walked_by_offset_until_each_run_is_found_or_it_ends() {
    let transport = ScriptedTransport::default();
    let others: Vec<String> = (0..50)
        .map(|i| billing_row(&format!("other_{i}"), 1.0))
        .collect();
    transport.route(
        "/billing/usage/runs?offset=50",
        vec![(200, billing_page(&[billing_row("er_1", 42.5)], 51))],
    );
    transport.route(
        "/billing/usage/runs?offset=0",
        vec![(200, billing_page(&others, 51))],
    );
    transport.route("/rollout-statistics", vec![(200, statistics_body("er_1"))]);
    script_runs(&transport);
    let store = LoadStore::new();
    store.cost_reads().enable();
    load(&transport, &store);
    let urls = transport.urls();
    let billing: Vec<&String> = urls.iter().filter(|u| u.contains("/billing/")).collect();
    assert_eq!(billing.len(), 2, "{billing:?}");
    assert!(billing[0]
        .ends_with("/api/v1/billing/usage/runs?offset=0&limit=50&sort=launch_at&order=asc"));
    let set = store.run_set(&ids()).unwrap().unwrap();
    let cost = |id: &str| {
        let run = set.find_run(id).and_then(|i| set.run(i).ok()).unwrap();
        run.info().cost.clone()
    };
    let known = cost("er_1");
    let cents = known.known().unwrap();
    assert_eq!(
        (cents.total, cents.inference, cents.grading, cents.sandbox),
        (46.25, 42.5, 1.5, 2.25)
    );
    assert_eq!(
        cost("er_2"),
        RunCost::Unavailable(CostUnavailable::NotListed)
    );
}

#[test]
fn a_failed_billing_read_is_tried_again_and_costs_are_read_only_when_enabled() {
    let transport = ScriptedTransport::default();
    transport.route(
        "/billing/usage/runs",
        vec![
            (503, SERVER_FAILURE.to_owned()),
            (
                200,
                billing_page(&[billing_row("er_2", 7.0), billing_row("er_1", 3.0)], 2),
            ),
        ],
    );
    transport.route("/rollout-statistics", vec![(200, statistics_body("er_1"))]);
    script_runs(&transport);

    let quiet_store = LoadStore::new();
    load(&transport, &quiet_store);
    assert_eq!(transport.count("/billing/"), 0);
    assert_eq!(transport.count("/rollout-statistics"), 0);

    let store = LoadStore::new();
    store.cost_reads().enable();
    load(&transport, &store);
    assert!(matches!(
        store.cost_reads().cost("er_1"),
        RunCost::Unavailable(CostUnavailable::Failed(why)) if why.contains("503") || why.contains("try again")
    ));
    load(&transport, &store);
    assert_eq!(transport.count("/billing/"), 2);
    assert_eq!(
        store.cost_reads().cost("er_2").known().map(|c| c.inference),
        Some(7.0)
    );
    assert_eq!(
        transport.count("/rollout-statistics"),
        2,
        "read once per run"
    );
}

#[test]
fn the_contracts_bodies_decode_and_a_missing_field_is_named() {
    let body = billing_page(&[billing_row("er_1", 1.0)], 1);
    let page: BillingRunCostsResponse = decode(body.as_bytes()).unwrap();
    assert_eq!(page.items[0].run_type.as_deref(), Some("eval"));
    assert_eq!(page.total, 1);
    let nulls = r#"{"snapshot_id":"s","total":1,"items":[{"run_id":"r","name":"n","type":null,"status":null,"launch_at":null,"cents":0.5,"training_cents":0,"inference_cents":0.5,"grading_cents":0,"sandbox_cents":0}]}"#;
    let page: BillingRunCostsResponse = decode(nulls.as_bytes()).unwrap();
    assert_eq!(page.items[0].launch_at, None);
    let missing = r#"{"snapshot_id":"s","total":1,"items":[{"run_id":"r","name":"n","type":"eval","status":null,"launch_at":null,"cents":1,"training_cents":0,"grading_cents":0,"sandbox_cents":0}]}"#;
    let error = decode::<BillingRunCostsResponse>(missing.as_bytes()).unwrap_err();
    assert!(error.to_string().contains("items[0]"), "{error}");
    assert!(error.to_string().contains("inference_cents"), "{error}");

    let statistics: EvalRolloutStatistics = decode(statistics_body("er_1").as_bytes()).unwrap();
    assert_eq!(statistics.snapshots[0].knob_name, "max_turns");
    let without_samples = r#"{"eval_run_id":"e","snapshots":[{"eval_run_id":"e","stage":"s","knob_name":"k","unit":"u","sample_count":4,"created_at":"t"}]}"#;
    let statistics: EvalRolloutStatistics = decode(without_samples.as_bytes()).unwrap();
    assert!(statistics.snapshots[0].samples.is_empty());
    assert_eq!(statistics.snapshots[0].sample_count, 4);
}
