//! What the client sends: headers, paths, query encoding, argument checks.

#![allow(clippy::unwrap_used)]

use eval_compare_core::api::{CursorPage, EvalRunStatus, TaskSplitFilter};
use eval_compare_core::client::*;
use eval_compare_core::large_list::PlainItem;
use eval_compare_core::testing::bodies::*;
use eval_compare_core::testing::scripted::*;
use futures::executor::block_on;

const EMPTY_PAGE: &str = r#"{"items": [], "next_cursor": null, "has_more": false}"#;

#[test]
fn sends_key_version_and_accept_headers() {
    let client = client_with(vec![Ok(response(200, r#"{"organization_id": "org_1"}"#))]);
    let organization = block_on(client.current_organization()).unwrap();
    assert_eq!(organization.organization_id(), Some("org_1"));
    let request = &client.transport().requests()[0];
    assert_eq!(
        request.url,
        "https://api.example.test/api/v1/organizations/current"
    );
    assert_eq!(request.header("x-api-key"), Some(SECRET));
    assert_eq!(request.header("Trajectory-API-Version"), Some("2026-10-14"));
    assert_eq!(request.header("accept"), Some("application/json"));
}

#[test]
fn sends_no_key_header_without_a_key() {
    let client = anonymous_client(vec![Ok(response(200, "{}"))]);
    block_on(client.current_organization()).unwrap();
    let request = &client.transport().requests()[0];
    assert_eq!(request.header("X-API-Key"), None);
    assert!(request
        .headers
        .iter()
        .all(|(name, _)| !name.eq_ignore_ascii_case("x-api-key")));
    assert_eq!(
        request.header("Trajectory-API-Version"),
        Some(DEFAULT_API_VERSION)
    );
}

#[test]
fn the_key_never_goes_into_the_url_and_debug_hides_it() {
    let client = client_with(vec![]);
    let request = client.request("/api/v1/eval/er_1");
    assert!(!request.url.contains(SECRET));
    let shown = format!("{request:?} {:?} {client:?}", client.config());
    assert!(!shown.contains(SECRET), "{shown}");
    assert!(shown.contains("***"));
    let key = ApiKey::new(SECRET).unwrap();
    assert_eq!(format!("{key}"), "***");
    assert_eq!(format!("{key:?}"), "ApiKey(***)");
    assert_eq!(key.expose(), SECRET);
}

#[test]
fn api_keys_are_trimmed_and_checked() {
    assert_eq!(ApiKey::new("  abc \n").unwrap().expose(), "abc");
    assert_eq!(ApiKey::new("   "), Err(InvalidApiKey::Empty));
    assert_eq!(
        ApiKey::new("ab c"),
        Err(InvalidApiKey::BadCharacter { position: 3 })
    );
    assert_eq!(
        ApiKey::new("abé"),
        Err(InvalidApiKey::BadCharacter { position: 3 })
    );
    let error = ApiKey::new("secret\u{7}value").unwrap_err().to_string();
    assert!(!error.contains("secret"), "{error}");
}

#[test]
fn base_urls_are_normalized_or_refused() {
    let ok = |raw: &str| ClientConfig::new(raw).unwrap().base_url;
    assert_eq!(
        ok("https://api.trajectory.ai/"),
        "https://api.trajectory.ai"
    );
    assert_eq!(
        ok("http://localhost:8080/proxy//"),
        "http://localhost:8080/proxy"
    );
    assert_eq!(ok(""), "");
    assert_eq!(ok("/"), "");
    assert_eq!(ok("/upstream"), "/upstream");
    for bad in [
        "api.trajectory.ai",
        "ftp://host",
        "https://",
        "https:///path",
        "https://host/?x=1",
        "https://host/#top",
        "https://user:pw@host",
        "https://ho st",
    ] {
        let error = ClientConfig::new(bad).unwrap_err();
        assert!(
            matches!(error, ApiError::InvalidArgument(_)),
            "{bad}: {error}"
        );
    }
    let config = ClientConfig::new(DEFAULT_BASE_URL).unwrap();
    assert_eq!(config.retry, RetryPolicy::default());
    assert_eq!(config.api_key, None);
}

#[test]
fn same_origin_base_url_gives_paths() {
    let config = ClientConfig::new("").unwrap();
    let client = TrajectoryClient::new(config, ScriptedTransport::new(vec![]));
    assert_eq!(client.request("/api/v1/agents").url, "/api/v1/agents");
}

/// Reads the first page of a paginator and returns the URL it asked for.
fn first_page_url<P>(
    client: &TrajectoryClient<ScriptedTransport>,
    pages: Paginator<'_, ScriptedTransport, P>,
) -> String
where
    P: CursorPage + PlainItem,
{
    let mut pages = pages;
    block_on(pages.next_page()).unwrap().unwrap();
    client.transport().urls().last().unwrap().clone()
}

#[test]
fn list_endpoints_use_the_contract_paths_and_queries() {
    let base = "https://api.example.test";
    let agents_page = r#"{"items": [], "next_cursor": null, "has_more": false, "total_count": 0}"#;
    let remaining = r#"{"eval_run_id": "e", "status": null, "supported": true, "items": [], "next_cursor": null, "has_more": false}"#;
    let rewards = r#"{"items": [], "next_cursor": null, "has_more": false, "eval_run_id": "e"}"#;
    let series =
        r#"{"items": [], "next_cursor": null, "has_more": false, "has_active_work": false}"#;
    let held_out =
        r#"{"items": [], "next_cursor": null, "has_more": false, "training_run_id": "t"}"#;
    let client = client_with(vec![
        Ok(response(200, agents_page)),
        Ok(response(200, EMPTY_PAGE)),
        Ok(response(200, EMPTY_PAGE)),
        Ok(response(200, EMPTY_PAGE)),
        Ok(response(200, EMPTY_PAGE)),
        Ok(response(200, EMPTY_PAGE)),
        Ok(response(200, EMPTY_PAGE)),
        Ok(response(200, EMPTY_PAGE)),
        Ok(response(200, remaining)),
        Ok(response(200, rewards)),
        Ok(response(200, EMPTY_PAGE)),
        Ok(response(200, EMPTY_PAGE)),
        Ok(response(200, EMPTY_PAGE)),
        Ok(response(200, EMPTY_PAGE)),
        Ok(response(200, series)),
        Ok(response(200, held_out)),
    ]);
    let c = &client;
    assert_eq!(
        first_page_url(c, c.list_agents()),
        format!("{base}/api/v1/agents?limit=200")
    );
    assert_eq!(
        first_page_url(c, c.list_benchmarks(false)),
        format!("{base}/api/v1/benchmarks?limit=200")
    );
    assert_eq!(
        first_page_url(c, c.list_benchmarks(true)),
        format!("{base}/api/v1/benchmarks?latest_only=true&limit=200")
    );
    assert_eq!(
        first_page_url(
            c,
            c.agent_benchmark_versions("agent/1", "swe bench&co")
                .unwrap()
        ),
        format!(
            "{base}/api/v1/agents/agent%2F1/benchmarks/versions?name=swe%20bench%26co&limit=200"
        )
    );
    assert_eq!(
        first_page_url(
            c,
            c.benchmark_tasks("b1", Some(&TaskSplitFilter::Unassigned))
                .unwrap()
        ),
        format!("{base}/api/v1/benchmarks/b1/tasks?split=unassigned&limit=200")
    );
    let filter = BenchmarkRunFilter {
        statuses: vec![EvalRunStatus::Completed, EvalRunStatus::Running],
        training_run_id: Some("tr 1".into()),
        base_model_slug: Some("qwen/qwen3-8b".into()),
    };
    assert_eq!(
        first_page_url(c, c.eval_runs_of_benchmark("b1", &filter).unwrap()),
        format!("{base}/api/v1/eval/b1/runs?status=completed&status=running&training_run_id=tr%201&base_model_slug=qwen%2Fqwen3-8b&limit=200")
    );
    assert_eq!(
        first_page_url(
            c,
            c.eval_runs_of_benchmark("b1", &BenchmarkRunFilter::default())
                .unwrap()
        ),
        format!("{base}/api/v1/eval/b1/runs?limit=200")
    );
    let filter = AgentRunFilter {
        bench_id: Some("b1".into()),
        status: Some(EvalRunStatus::Other("paused".into())),
        training_run_id: None,
    };
    assert_eq!(
        first_page_url(c, c.eval_runs_of_agent("a1", &filter).unwrap()),
        format!("{base}/api/v1/agents/a1/evaluation-runs?bench_id=b1&status=paused&limit=200")
    );
    assert_eq!(
        first_page_url(c, c.remaining_work("er_1").unwrap()),
        format!("{base}/api/v1/eval/er_1/remaining-work?limit=100")
    );
    assert_eq!(
        first_page_url(
            c,
            c.trajectory_rewards("er_1")
                .unwrap()
                .with_limit(50)
                .unwrap()
        ),
        format!("{base}/api/v1/eval/er_1/trajectory-rewards?limit=50")
    );
    assert_eq!(
        first_page_url(c, c.trajectories_of_run("er_1").unwrap()),
        format!("{base}/api/v1/trajectories?eval_run_id=er_1&limit=200")
    );
    assert_eq!(
        first_page_url(c, c.trajectory_steps("tj_1", Some(40)).unwrap()),
        format!("{base}/api/v1/trajectories/tj_1/steps?start_step_index=40&limit=200")
    );
    assert_eq!(
        first_page_url(c, c.training_runs("b1").unwrap()),
        format!("{base}/api/v1/train/b1/runs?limit=200")
    );
    assert_eq!(
        first_page_url(c, c.checkpoints("tr_1").unwrap()),
        format!("{base}/api/v1/train/tr_1/checkpoints?limit=200")
    );
    assert_eq!(
        first_page_url(c, c.evaluation_series("a1", "tr_1").unwrap()),
        format!("{base}/api/v1/agents/a1/training-runs/tr_1/evaluation-series?limit=200")
    );
    assert_eq!(
        first_page_url(c, c.held_out_reward_by_step("tr_1").unwrap()),
        format!("{base}/api/v1/train/tr_1/step/held-out-reward-by-step?limit=200")
    );
    assert_eq!(client.transport().remaining(), 0);
}

#[test]
fn single_object_endpoints_use_the_contract_paths() {
    let base = "https://api.example.test";
    let agent = r#"{"agent_id": "a1", "organization_id": "o", "name": "n", "created_at": "t", "updated_at": "t", "benchmark_count": 0, "production_model_slug": null}"#;
    let bench = r#"{"bench_id": "b1", "organization_id": "o", "name": "n", "created_at": "t", "updated_at": "t"}"#;
    let progress = r#"{"eval_run_id": "er_1", "terminal_rollouts": 1, "total_rollouts": 2}"#;
    let trajectory =
        r#"{"trajectory_id": "t#1", "organization_id": "o", "source": "eval", "created_at": "t"}"#;
    let training_run = r#"{"agent_id": null, "training_run_id": "tr_1", "pipeline_run_id": null, "display_name": null,
        "status": "running", "bench_id": null, "base_model_slug": "m", "options": {}, "created_by": "u",
        "created_at": "t", "has_training_execution": false}"#;
    let client = client_with(vec![
        Ok(response(200, agent)),
        Ok(response(200, bench)),
        Ok(response(200, &eval_run_body("er 1"))),
        Ok(response(200, progress)),
        Ok(response(200, trajectory)),
        Ok(response(200, trajectory)),
        Ok(response(200, training_run)),
    ]);
    block_on(client.agent_by_name("my agent/v2")).unwrap();
    block_on(client.benchmark("b1")).unwrap();
    block_on(client.eval_run("er 1")).unwrap();
    block_on(client.eval_progress("er_1")).unwrap();
    block_on(client.trajectory("t#1", true)).unwrap();
    block_on(client.trajectory("t?1", false)).unwrap();
    block_on(client.training_run("tr_1")).unwrap();
    assert_eq!(
        client.transport().urls(),
        vec![
            format!("{base}/api/v1/agents/name/my%20agent%2Fv2"),
            format!("{base}/api/v1/benchmarks/b1"),
            format!("{base}/api/v1/eval/er%201"),
            format!("{base}/api/v1/eval/er_1/progress"),
            format!("{base}/api/v1/trajectories/t%231?include_reward_components=true"),
            format!("{base}/api/v1/trajectories/t%3F1"),
            format!("{base}/api/v1/train/tr_1"),
        ]
    );
}

#[test]
fn bad_arguments_are_refused_before_sending() {
    let client = client_with(vec![]);
    let invalid = |result: Result<(), ApiError>| {
        assert!(
            matches!(result, Err(ApiError::InvalidArgument(_))),
            "{result:?}"
        );
    };
    invalid(block_on(client.eval_run("")).map(drop));
    invalid(block_on(client.agent_by_name("")).map(drop));
    invalid(block_on(client.eval_run("..")).map(drop));
    invalid(client.checkpoints(".").map(drop));
    invalid(block_on(client.trajectory("", true)).map(drop));
    invalid(client.trajectory_rewards("").map(drop));
    invalid(client.trajectories_of_run("").map(drop));
    invalid(client.agent_benchmark_versions("a1", "").map(drop));
    invalid(client.evaluation_series("a1", "").map(drop));
    invalid(
        client
            .trajectory_rewards("er")
            .unwrap()
            .with_limit(0)
            .map(drop),
    );
    invalid(
        client
            .trajectory_rewards("er")
            .unwrap()
            .with_limit(201)
            .map(drop),
    );
    invalid(
        client
            .remaining_work("er")
            .unwrap()
            .with_limit(101)
            .map(drop),
    );
    assert!(client.remaining_work("er").unwrap().with_limit(100).is_ok());
    assert!(client.list_agents().with_limit(1).is_ok());
    assert!(client.transport().requests().is_empty());
}

#[test]
fn percent_encoding_keeps_only_unreserved_characters() {
    assert_eq!(percent_encode("AZaz09-._~"), "AZaz09-._~");
    assert_eq!(
        percent_encode("a b/c?d#e&f=g+h%"),
        "a%20b%2Fc%3Fd%23e%26f%3Dg%2Bh%25"
    );
    assert_eq!(percent_encode("é"), "%C3%A9");
    assert_eq!(percent_encode(""), "");
}
