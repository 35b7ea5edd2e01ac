//! The Chronicle job picker's rules and the Chronicle texts of the report page. Pure logic:
//! native tests (scripts/test.sh's "viewer native tests" step).
#![cfg(not(target_arch = "wasm32"))]

use eval_compare_core::api::{ChronicleJob, JobStatus};
use eval_compare_core::view_state::ViewState;
use eval_compare_viewer::picker::backtests::choice::{
    comparison_of, mode_label, opens_alone, refusal_beside, refusal_of, status_label, suite_label,
    trials_label,
};
use eval_compare_viewer::picker::backtests::job_table::{comparison_view, job_name, jobs_of_view};
use eval_compare_viewer::report::panels::load_panel::words::{live_line, no_trials_line};
use eval_compare_viewer::route::RunSource;
use eval_compare_viewer::state::loader::LoadPlan;

fn job(id: &str, extra: serde_json::Value) -> ChronicleJob {
    let mut json = serde_json::json!({
        "id": id, "name": format!("Job {id}"), "status": "succeeded", "mode": "suite",
        "agents": ["coder@v1"], "completed_trials": 40, "total_trials": 40,
        "task_suite_id": "suite_codefix", "task_suite_version": "v2",
        "created_at": "2026-11-02T09:00:00Z"
    });
    if let (Some(base), Some(extra)) = (json.as_object_mut(), extra.as_object()) {
        base.extend(extra.clone());
    }
    serde_json::from_value(json).expect("a valid ChronicleJob")
}

fn strings(values: &[&str]) -> Vec<String> {
    values.iter().map(|value| (*value).to_owned()).collect()
}

#[test]
fn a_compare_mode_job_opens_alone_its_first_agent_the_baseline() {
    let compare = job(
        "job_cmp",
        serde_json::json!({"mode": "compare", "agents": ["coder@base", "coder@s400", "coder@s500"]}),
    );
    assert!(opens_alone(&compare));
    assert_eq!(
        comparison_of(&[&compare]),
        Some((
            "job_cmp/coder@base".to_owned(),
            strings(&["job_cmp/coder@s400", "job_cmp/coder@s500"])
        ))
    );
    // A suite-mode job, or a compare-mode job with one agent, is not opened alone.
    assert!(!opens_alone(&job(
        "job_suite",
        serde_json::json!({"agents": ["a", "b"]})
    )));
    let lone = job("job_lone", serde_json::json!({"mode": "compare"}));
    assert!(!opens_alone(&lone));
    assert_eq!(comparison_of(&[&lone]), None, "one agent: no candidate");
}

#[test]
fn several_jobs_compare_their_agents_in_the_order_given() {
    let base = job("job_base", serde_json::json!({}));
    let s100 = job("job_s100", serde_json::json!({"agents": ["coder@s100"]}));
    let s200 = job(
        "job_s200",
        serde_json::json!({"agents": ["coder@s200", "coder@s201"]}),
    );
    assert_eq!(
        comparison_of(&[&base, &s200, &s100]),
        Some((
            "job_base/coder@v1".to_owned(),
            strings(&[
                "job_s200/coder@s200",
                "job_s200/coder@s201",
                "job_s100/coder@s100"
            ])
        ))
    );
}

#[test]
fn a_job_on_another_suite_is_refused_and_another_version_is_not() {
    let base = job("job_base", serde_json::json!({}));
    let other_version = job("job_v3", serde_json::json!({"task_suite_version": "v3"}));
    assert_eq!(refusal_beside(&base, &other_version), None);
    let other_suite = job(
        "job_other",
        serde_json::json!({"task_suite_id": "suite_web"}),
    );
    assert_eq!(
        refusal_beside(&base, &other_suite).as_deref(),
        Some("On task suite suite_web, not the baseline job's suite_codefix: their tasks differ.")
    );
    let no_suite = job("job_none", serde_json::json!({"task_suite_id": null}));
    assert!(refusal_beside(&base, &no_suite)
        .expect("refused")
        .contains("Names no task suite"));
    let no_agents = job("job_empty", serde_json::json!({"agents": []}));
    assert_eq!(
        refusal_of(&no_agents).as_deref(),
        Some("This job lists no agents.")
    );
    assert_eq!(refusal_beside(&base, &no_agents), refusal_of(&no_agents));
    let long = job(&"j".repeat(300), serde_json::json!({}));
    assert!(refusal_of(&long)
        .expect("an id no link carries")
        .contains("longer than 256 characters"));
}

#[test]
fn statuses_and_modes_unknown_to_this_build_are_shown_by_name() {
    assert_eq!(
        status_label(Some(&JobStatus::from("paused"))),
        ("paused".to_owned(), "status-unknown")
    );
    assert_eq!(
        status_label(Some(&JobStatus::Succeeded)),
        ("succeeded".to_owned(), "status-completed")
    );
    assert_eq!(status_label(None).0, "unknown");
    let replay = job("job_r", serde_json::json!({"mode": "shadow\u{202e}"}));
    assert_eq!(mode_label(replay.mode.as_ref()), "shadow\\u{202E}");
    assert_eq!(mode_label(None), "suite");
}

#[test]
fn suites_trials_and_names_as_shown() {
    let base = job("job_base", serde_json::json!({}));
    assert_eq!(suite_label(&base), "suite_codefix · v2");
    assert_eq!(trials_label(&base).as_deref(), Some("40 / 40 trials"));
    let queued = job(
        "job_q",
        serde_json::json!({"completed_trials": null, "task_suite_version": null, "name": " "}),
    );
    assert_eq!(suite_label(&queued), "suite_codefix");
    assert_eq!(
        trials_label(&queued).as_deref(),
        Some("40 trials scheduled")
    );
    assert_eq!(
        job_name(&queued),
        "job_q",
        "a blank name falls back to the id"
    );
}

#[test]
fn a_link_names_its_jobs_and_a_comparison_keeps_the_analysis_settings() {
    let view = ViewState {
        baseline: Some("job_base/coder@v1".to_owned()),
        candidates: strings(&[
            "job_base/coder@v2",
            "job_s200/a",
            "job_s100/b",
            "job_s200/c",
        ]),
        seed: 9,
        agent: Some("ag".to_owned()),
        ..ViewState::default()
    };
    assert_eq!(
        jobs_of_view(&view),
        (
            Some("job_base".to_owned()),
            strings(&["job_s200", "job_s100"])
        )
    );
    let opened = comparison_view(&view, ("job_x/a".to_owned(), strings(&["job_x/b"])));
    assert_eq!(opened.baseline.as_deref(), Some("job_x/a"));
    assert_eq!(opened.candidates, strings(&["job_x/b"]));
    assert_eq!((opened.seed, opened.agent), (9, None));
}

#[test]
fn a_chronicle_page_loads_the_jobs_of_its_runs() {
    let runs = strings(&["job_a/base", "job_a/s400", "job_b/s500"]);
    assert_eq!(
        LoadPlan::of(RunSource::Chronicle, &runs),
        LoadPlan::Jobs(strings(&["job_a", "job_b"]))
    );
    assert_eq!(
        LoadPlan::of(RunSource::Trajectory, &runs),
        LoadPlan::Runs(runs.clone())
    );
    assert!(LoadPlan::of(RunSource::Chronicle, &runs).is_jobs());
}

#[test]
fn a_live_job_says_its_status_and_how_far_it_is() {
    let running = job(
        "job_hot",
        serde_json::json!({"name": "nightly", "status": "running", "completed_trials": 12}),
    );
    assert_eq!(
        live_line(&running),
        "Job nightly (job_hot): running · 12 of 40 trials finished (30%)"
    );
    let queued = job(
        "job_q",
        serde_json::json!({"name": null, "status": "queued", "completed_trials": 0}),
    );
    assert_eq!(
        live_line(&queued),
        "Job job_q: queued · 0 of 40 trials finished (0%)"
    );
    let unknown = job(
        "job_u",
        serde_json::json!({"name": null, "status": null, "completed_trials": null, "total_trials": null}),
    );
    assert_eq!(live_line(&unknown), "Job job_u: unknown");
}

#[test]
fn a_job_without_trials_says_so_with_its_status() {
    let queued = job(
        "job_q",
        serde_json::json!({"status": "queued", "completed_trials": 0}),
    );
    assert_eq!(
        no_trials_line(&queued),
        "Job job_q has no trials yet; inspect its status: queued (0 of 40 trials finished)."
    );
    let odd = job(
        "job_o",
        serde_json::json!({"status": "warming", "completed_trials": null, "total_trials": null}),
    );
    assert_eq!(
        no_trials_line(&odd),
        "Job job_o has no trials yet; inspect its status: warming."
    );
}

mod job_pages {
    use eval_compare_core::api::JobStatus;
    use eval_compare_core::client::{ClientConfig, TrajectoryClient};
    use eval_compare_core::testing::bodies::{chronicle_job_body, chronicle_page};
    use eval_compare_core::testing::ScriptedTransport;
    use eval_compare_viewer::picker::backtests::job_list::{read_jobs_page, JOBS_PAGE};
    use futures::executor::block_on;

    fn client() -> TrajectoryClient<ScriptedTransport> {
        let config = ClientConfig::new("http://api.test").expect("a valid address");
        TrajectoryClient::new(config, ScriptedTransport::default())
    }

    #[test]
    fn the_picker_reads_a_page_and_where_the_next_starts() {
        let client = client();
        let first = chronicle_page(
            &[
                chronicle_job_body("job_new", "running", &["a"], 3, 10),
                chronicle_job_body("job_old", "succeeded", &["a", "b"], 20, 20),
            ],
            Some("c2"),
        );
        let last = chronicle_page(
            &[chronicle_job_body("job_oldest", "failed", &["a"], 1, 10)],
            None,
        );
        client
            .transport()
            .route("cursor=c2", vec![(200, last)])
            .route("/v1/backtests/jobs", vec![(200, first)]);
        let page = block_on(read_jobs_page(&client, None, None)).expect("the first page");
        let ids: Vec<&str> = page.jobs.iter().map(|job| job.id.as_str()).collect();
        assert_eq!(
            ids,
            ["job_new", "job_old"],
            "in the API's order, newest first"
        );
        assert_eq!(page.next.as_deref(), Some("c2"));
        let page = block_on(read_jobs_page(&client, None, page.next)).expect("the next page");
        assert_eq!(page.jobs.len(), 1);
        assert_eq!(page.next, None, "the last page");
        let urls = client.transport().urls();
        assert!(
            urls[0].ends_with(&format!("/v1/backtests/jobs?limit={JOBS_PAGE}")),
            "{urls:?}"
        );
        assert!(urls[1].contains("cursor=c2"), "{urls:?}");
    }

    #[test]
    fn the_status_filter_is_sent_and_a_failure_is_returned() {
        let client = client();
        client.transport().route(
            "/v1/backtests/jobs",
            vec![(400, r#"{"error":{"message":"bad status"}}"#.to_owned())],
        );
        let failed = block_on(read_jobs_page(&client, Some(&JobStatus::Running), None));
        assert!(failed.is_err());
        assert!(client.transport().urls()[0].contains("status=running"));
    }
}

#[test]
fn the_report_header_badges_chronicles_own_statuses() {
    use eval_compare_viewer::report::panels::report_header::chronicle_status;
    assert_eq!(
        chronicle_status("succeeded"),
        Some(("succeeded", "status-completed"))
    );
    assert_eq!(
        chronicle_status("queued"),
        Some(("queued", "status-queued"))
    );
    // Statuses both APIs name alike, and unknown ones, keep the run's badge.
    assert_eq!(chronicle_status("running"), None);
    assert_eq!(chronicle_status("paused"), None);
}
