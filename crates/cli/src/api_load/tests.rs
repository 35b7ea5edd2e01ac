//! The API load against a scripted API: every page read, a stopped load refused naming what
//! failed and its request.

use super::*;

use eval_compare_core::load::Packed;
use eval_compare_core::testing::bodies::{page, reward_item, task_item, NOT_FOUND};
use eval_compare_core::testing::scripted::client_over;
use eval_compare_core::testing::ScriptedTransport;

use crate::test_support::{block_on, ids};

const RUN: &str = r#"{"eval_run_id":"er_1","bench_id":"b_1","agent_id":"a_1","options":{},"created_at":"2026-01-01T00:00:00Z","updated_at":"2026-01-01T00:00:00Z"}"#;

/// One answer: a page of a list of run er_1 holding `items`, then `next`.
fn run_page(items: &[String], next: Option<&str>) -> Vec<(u16, String)> {
    vec![(200, page("er_1", items, next))]
}

/// Scripts the lists and record of run er_1 (on benchmark b_1) that a test did not: no
/// trajectories, no tasks. Routes added before these win.
fn script_rest_of_run(transport: &ScriptedTransport) {
    transport
        .route("/trajectories?", run_page(&[], None))
        .route("/benchmarks/b_1/tasks", vec![(200, page("b_1", &[], None))])
        .route("/eval/er_1", vec![(200, RUN.to_owned())]);
}

/// How loading run er_1 from `transport` fails.
fn load_error(transport: &ScriptedTransport) -> CliError {
    let client = client_over(transport);
    let progress = Progress::silent();
    block_on(load_complete::<_, Packed>(
        &client,
        &ids(&["er_1"]),
        &progress,
    ))
    .unwrap_err()
}

#[test]
fn reads_every_page_of_every_list_and_the_tasks_once_per_benchmark() {
    let transport = ScriptedTransport::default();
    transport
        .route(
            "/trajectory-rewards?cursor=c2",
            run_page(&[reward_item("x3", "t_x3", 1.0)], None),
        )
        .route(
            "/trajectory-rewards",
            run_page(
                &[
                    reward_item("x1", "t_x1", 1.0),
                    reward_item("x2", "t_x2", 1.0),
                ],
                Some("c2"),
            ),
        )
        .route("/trajectories?", run_page(&[], None))
        .route(
            "/benchmarks/b_1/tasks",
            vec![(200, page("b_1", &[task_item("t_x1")], None))],
        )
        .route("/eval/er_", vec![(200, RUN.to_owned())]);
    let client = client_over(&transport);
    let progress = Progress::silent();
    let runs = ids(&["er_1", "er_2"]);
    let store = block_on(load_complete(&client, &runs, &progress)).unwrap();
    let folder = run_folder(&store, "er_1").unwrap();
    let read: Vec<&str> = folder
        .rewards
        .iter()
        .map(|r| r.trajectory_id.as_str())
        .collect();
    assert_eq!(read, ["x1", "x2", "x3"]);
    assert_eq!(folder.tasks.as_ref().map(Vec::len), Some(1));
    assert!(folder.truncated_files.is_empty());
    // The second run of the same benchmark did not read its tasks again.
    assert_eq!(transport.count("/tasks"), 1);
}

#[test]
fn a_failed_component_read_stops_the_report_naming_the_trajectory() {
    use eval_compare_core::testing::bodies::{trajectory_detail_body, trajectory_item};
    let transport = ScriptedTransport::default();
    transport
        .route(
            "/trajectory-rewards",
            run_page(
                &[reward_item("x1", "t1", 1.0), reward_item("x2", "t2", 0.0)],
                None,
            ),
        )
        .route(
            "/trajectories?",
            run_page(
                &[trajectory_item("x1", "t1"), trajectory_item("x2", "t2")],
                None,
            ),
        )
        .route(
            "/trajectories/x1?include_reward_components=true",
            vec![(
                200,
                trajectory_detail_body("x1", "t1", &[("tests", 3.0, 1.0)]),
            )],
        )
        .route(
            "/trajectories/x2?include_reward_components=true",
            vec![(404, NOT_FOUND.to_owned())],
        )
        .route("/benchmarks/b_1/tasks", vec![(200, page("b_1", &[], None))])
        .route("/eval/er_1", vec![(200, RUN.to_owned())]);
    let client = client_over(&transport);
    let progress = Progress::silent();
    let runs = ids(&["er_1"]);
    let store = block_on(load_complete(&client, &runs, &progress)).unwrap();
    let error = block_on(load_components_complete(&client, &store, &runs, &progress)).unwrap_err();
    let text = error.to_string();
    assert!(
        text.starts_with("could not read the reward components of trajectory x2 (GET /api/v1/trajectories/x2?include_reward_components=true; 1 of 2 reads failed)"),
        "{text}"
    );
    assert_eq!(error.exit(), crate::exit_code::Exit::Api);
    // The one that was read is attached.
    let set = run_set(&store, &runs).unwrap();
    assert_eq!(set.runs()[0].component_means().len(), 1);
}

#[test]
fn a_failed_page_fails_the_load_naming_the_list_and_how_far_it_got() {
    let transport = ScriptedTransport::default();
    transport
        .route(
            "/trajectory-rewards?cursor=c2",
            vec![(
                400,
                eval_compare_core::testing::bodies::EXPIRED_CURSOR.to_owned(),
            )],
        )
        .route(
            "/trajectory-rewards",
            run_page(
                &[reward_item("x1", "t1", 1.0), reward_item("x2", "t2", 1.0)],
                Some("c2"),
            ),
        );
    script_rest_of_run(&transport);
    let error = load_error(&transport);
    let text = error.to_string();
    assert!(
        text.starts_with("could not read trajectory-rewards of run er_1 (GET /api/v1/eval/er_1/trajectory-rewards): page 2 failed (1 page with 2 items read before it): "),
        "{text}"
    );
    assert!(text.contains("invalid_cursor"), "{text}");
    assert_eq!(error.exit(), crate::exit_code::Exit::Api);
}

#[test]
fn a_list_that_would_never_end_fails_the_load_naming_it() {
    let two = |a: &str, b: &str| [reward_item(a, "t1", 1.0), reward_item(b, "t2", 1.0)];
    let transport = ScriptedTransport::default();
    transport
        .route(
            "/trajectory-rewards?cursor=B",
            run_page(&two("x5", "x6"), Some("A")),
        )
        .route(
            "/trajectory-rewards?cursor=A",
            run_page(&two("x3", "x4"), Some("B")),
        )
        .route("/trajectory-rewards", run_page(&two("x1", "x2"), Some("A")));
    script_rest_of_run(&transport);
    let error = load_error(&transport);
    let text = error.to_string();
    assert!(
        text.starts_with("could not read trajectory-rewards of run er_1 (GET /api/v1/eval/er_1/trajectory-rewards): page 3 failed (2 pages with 4 items read before it): the API's answer broke the contract: the list /api/v1/eval/er_1/trajectory-rewards does not end: page 3 gives as next_cursor \"A\", the cursor page 2 was read with (a cycle); stopped after 2 pages and 4 items read"),
        "{text}"
    );
    assert_eq!(error.exit(), crate::exit_code::Exit::Api);
    assert_eq!(transport.count("/trajectory-rewards"), 3);
}

#[test]
fn a_missing_run_is_an_api_error_naming_the_run() {
    let transport = ScriptedTransport::default();
    transport.route("/eval/er_9", vec![(404, NOT_FOUND.to_owned())]);
    let client = client_over(&transport);
    let progress = Progress::silent();
    let text = block_on(load_complete::<_, Packed>(
        &client,
        &ids(&["er_9"]),
        &progress,
    ))
    .unwrap_err()
    .to_string();
    assert!(
        text.starts_with("could not read run er_9 (GET /api/v1/eval/er_9): not found;"),
        "{text}"
    );
}

use crate::chronicle_script::{script_failed_trials_page, script_job, script_unknown_job};

/// How loading job `job_id` from `transport` fails.
fn job_error(transport: &ScriptedTransport, job_id: &str) -> CliError {
    let client = client_over(transport);
    block_on(load_jobs_complete(
        &client,
        &ids(&[job_id]),
        &Progress::silent(),
    ))
    .unwrap_err()
}
use crate::exit_code::Exit;
use eval_compare_core::testing::bodies::{
    chronicle_job_body, chronicle_page, chronicle_trial_item, SERVER_FAILURE,
};

#[test]
fn a_job_is_read_whole_and_taken_for_its_folder() {
    let transport = ScriptedTransport::default();
    script_job(
        &transport,
        "ja",
        "succeeded",
        &["base@1", "cand@2"],
        &[("base@1", "t1", true), ("cand@2", "t1", false)],
        true,
    );
    let client = client_over(&transport);
    let store = block_on(load_jobs_complete(
        &client,
        &ids(&["ja"]),
        &Progress::silent(),
    ))
    .unwrap();
    let (job, trials, results) = job_files(&store, "ja").unwrap();
    assert_eq!(job.agents, ["base@1", "cand@2"]);
    assert_eq!(trials.len(), 2);
    assert_eq!(results.unwrap().task_results.len(), 1);
}

#[test]
fn an_unknown_job_is_an_api_error_naming_the_job_endpoint() {
    let transport = ScriptedTransport::default();
    script_unknown_job(&transport, "nope");
    let error = job_error(&transport, "nope");
    let text = error.to_string();
    assert!(
        text.starts_with("could not read job nope (GET /v1/backtests/jobs/nope): Chronicle refused the request: an unknown job"),
        "{text}"
    );
    assert!(text.contains("No job with id nope"), "{text}");
    assert_eq!(error.exit(), Exit::Api);
    assert_eq!(transport.count("/api/v1/eval"), 0);
}

#[test]
fn a_job_with_no_trials_yet_is_refused_in_the_guides_words() {
    let transport = ScriptedTransport::default();
    transport
        .route("/jobs/jq/trials", vec![(200, chronicle_page(&[], None))])
        .route("job_id=jq", vec![(200, chronicle_page(&[], None))])
        .route(
            "/jobs/jq",
            vec![(200, chronicle_job_body("jq", "queued", &["a@1"], 0, 4))],
        );
    let error = job_error(&transport, "jq");
    assert_eq!(
        error.to_string(),
        "job jq has no trials yet; inspect its status (queued, 0 of 4 trials finished)"
    );
    assert_eq!(error.exit(), Exit::NoResults);
}

#[test]
fn a_failed_trials_page_fails_the_load_naming_the_list_and_the_page() {
    let transport = ScriptedTransport::default();
    let first: Vec<String> = ["t1", "t2"]
        .iter()
        .map(|task| chronicle_trial_item(&format!("tr_{task}"), "a@1", task, true))
        .collect();
    script_failed_trials_page(&transport, "jp", &first, 4);
    let error = job_error(&transport, "jp");
    let text = error.to_string();
    assert!(
        text.starts_with("could not read trials of job jp (GET /v1/backtests/jobs/jp/trials): page 2 failed (1 page with 2 items read before it): "),
        "{text}"
    );
    assert_eq!(error.exit(), Exit::Api);
}

#[test]
fn failed_results_name_the_suites_endpoint() {
    let transport = ScriptedTransport::default();
    transport
        .route("job_id=jr", vec![(500, SERVER_FAILURE.to_owned())])
        .route(
            "/jobs/jr/trials",
            vec![(
                200,
                chronicle_page(&[chronicle_trial_item("x", "a@1", "t1", true)], None),
            )],
        )
        .route(
            "/jobs/jr",
            vec![(200, chronicle_job_body("jr", "succeeded", &["a@1"], 1, 1))],
        );
    let text = job_error(&transport, "jr").to_string();
    assert!(
        text.starts_with("could not read the results of job jr (GET /v1/task-suites/suite_1/eval-runs?job_id=jr): "),
        "{text}"
    );
}
