//! The demo's checkpoint scorecard data over real HTTP: the agent's benchmarks, its evaluation
//! runs of the training run (`training_run_id`, with the contract's paging and order), and the
//! cases a scorecard must handle, each on its own benchmark.
#![allow(clippy::unwrap_used)]

mod common;

use common::{client, demo, demo_running, get_error, get_json, start, strings, walk};
use eval_compare_core::api::{BenchmarkListItem, EvalRun, TrainingCheckpointPage};
use eval_compare_server::dataset::scale::DemoScale;
use eval_compare_server::dataset::scorecard_scale::ScorecardScale;
use eval_compare_server::Mode;
use serde_json::Value;

const AGENT: &str = "agent_demo_coder";
const TRAINING: &str = "train_codefix_grpo";

fn decode<T: serde::de::DeserializeOwned>(value: &Value) -> T {
    serde_json::from_value(value.clone())
        .unwrap_or_else(|e| panic!("does not decode: {e}: {value}"))
}

/// The training run's checkpoint evaluations on `bench_id`, walked 3 at a time.
async fn checkpoint_runs(c: &reqwest::Client, b: &str, bench_id: &str) -> Vec<Value> {
    let path = format!(
        "/api/v1/agents/{AGENT}/evaluation-runs?training_run_id={TRAINING}&bench_id={bench_id}"
    );
    walk(c, b, &path, 3).await
}

/// `(step, eval_run_id, status)` of each run, as listed.
fn cells(runs: &[Value]) -> Vec<(i64, &str, &str)> {
    runs.iter()
        .map(|r| {
            (
                r["step"].as_i64().unwrap(),
                r["eval_run_id"].as_str().unwrap(),
                r["status"].as_str().unwrap(),
            )
        })
        .collect()
}

#[tokio::test]
async fn the_agent_lists_its_benchmarks_latest_version_of_each_name() {
    let server = start(demo(1)).await;
    let (c, b) = (client(), server.base.as_str());
    let path = format!("/api/v1/agents/{AGENT}/benchmarks");
    let listed = walk(&c, b, &path, 2).await;
    assert_eq!(
        strings(&listed, "bench_id"),
        [
            "bench_codefix_v2",
            "bench_docsync_v1",
            "bench_perfopt_v1",
            "bench_shellpass_v1",
            "bench_sqlfix_v1",
            "bench_apifix_v1"
        ],
        "the latest version of each name, newest first"
    );
    let by_name = walk(&c, b, &format!("{path}?sort=name&order=asc"), 4).await;
    assert_eq!(
        strings(&by_name, "name"),
        [
            "apifix",
            "codefix",
            "docsync",
            "perfopt",
            "shellpass",
            "sqlfix"
        ]
    );
    let by_runs = walk(&c, b, &format!("{path}?sort=eval_run_count"), 25).await;
    let counts: Vec<i64> = by_runs
        .iter()
        .map(|x| x["eval_run_count"].as_i64().unwrap())
        .collect();
    assert_eq!(
        counts,
        [8, 7, 7, 6, 6, 5],
        "codefix v2 has 8 runs, perfopt 5"
    );
    let searched = walk(&c, b, &format!("{path}?search=SQL"), 25).await;
    assert_eq!(strings(&searched, "bench_id"), ["bench_sqlfix_v1"]);
    get_error(&c, b, &format!("{path}?sort=size"), 422, "validation_error").await;
    get_error(
        &c,
        b,
        "/api/v1/agents/agent_nope/benchmarks",
        404,
        "resource_not_found",
    )
    .await;

    let latest: BenchmarkListItem =
        decode(&get_json(&c, b, &format!("{path}/latest?name=codefix"), 200).await);
    assert_eq!(
        (latest.bench_id.as_str(), latest.eval_run_count),
        ("bench_codefix_v2", 8)
    );
    let shell: BenchmarkListItem =
        decode(&get_json(&c, b, &format!("{path}/latest?name=shellpass"), 200).await);
    assert_eq!(shell.bench_id, "bench_shellpass_v1");
    get_error(
        &c,
        b,
        &format!("{path}/latest?name=nope"),
        404,
        "resource_not_found",
    )
    .await;
    get_error(&c, b, &format!("{path}/latest"), 422, "validation_error").await;
    get_error(
        &c,
        b,
        &format!("{path}/latest?name="),
        422,
        "validation_error",
    )
    .await;
    let versions = walk(&c, b, &format!("{path}/versions?name=sqlfix"), 25).await;
    assert_eq!(strings(&versions, "bench_id"), ["bench_sqlfix_v1"]);

    for (bench, tasks, categories) in [
        ("bench_apifix_v1", 300, 3),
        ("bench_sqlfix_v1", 120, 3),
        ("bench_shellpass_v1", 200, 2),
        ("bench_perfopt_v1", 60, 2),
        ("bench_docsync_v1", 80, 1),
    ] {
        let all = walk(&c, b, &format!("/api/v1/benchmarks/{bench}/tasks"), 200).await;
        assert_eq!(all.len(), tasks, "{bench}");
        let ids: std::collections::BTreeSet<&str> = all
            .iter()
            .map(|t| {
                t["task_categories"][0]["task_category_id"]
                    .as_str()
                    .unwrap()
            })
            .collect();
        assert_eq!(ids.len(), categories, "{bench}: {ids:?}");
    }
}

#[tokio::test]
async fn the_training_runs_evaluations_filter_page_and_come_newest_first() {
    let server = start(demo(1)).await;
    let (c, b) = (client(), server.base.as_str());
    let path = format!("/api/v1/agents/{AGENT}/evaluation-runs?training_run_id={TRAINING}");
    let all = walk(&c, b, &path, 7).await;
    assert_eq!(
        all.len(),
        31,
        "codefix 6, apifix 5, sqlfix 5, shellpass 6, perfopt 4, docsync 5"
    );
    let created: Vec<(&str, &str)> = all
        .iter()
        .map(|r| {
            (
                r["created_at"].as_str().unwrap(),
                r["eval_run_id"].as_str().unwrap(),
            )
        })
        .collect();
    assert!(created.windows(2).all(|w| w[0] > w[1]), "newest first");
    for run in &all {
        let run: EvalRun = decode(run);
        assert_eq!(run.training_run_id.as_deref(), Some(TRAINING));
        let step = run.step.unwrap();
        assert_eq!(
            run.parent_checkpoint_id,
            Some(format!("ckpt_codefix_grpo_s{step}"))
        );
    }
    let first: Value = get_json(&c, b, &format!("{path}&limit=200"), 200).await;
    assert_eq!(first["items"].as_array().unwrap().len(), 31);
    assert_eq!(first["has_more"], false);
    let default_page: Value = get_json(&c, b, &path, 200).await;
    assert_eq!(
        default_page["items"].as_array().unwrap().len(),
        25,
        "limit 25 by default"
    );
    get_error(&c, b, &format!("{path}&limit=201"), 422, "validation_error").await;

    let running = walk(&c, b, &format!("{path}&status=running"), 7).await;
    assert_eq!(
        strings(&running, "eval_run_id"),
        ["eval_ckpt_s500", "eval_apifix_s500"]
    );
    let on_sql = checkpoint_runs(&c, b, "bench_sqlfix_v1").await;
    assert_eq!(
        strings(&on_sql, "eval_run_id"),
        [
            "eval_sqlfix_s500",
            "eval_sqlfix_s400",
            "eval_sqlfix_s300",
            "eval_sqlfix_s200",
            "eval_sqlfix_s100"
        ]
    );
    let nobody = walk(
        &c,
        b,
        &format!("/api/v1/agents/{AGENT}/evaluation-runs?training_run_id=train_nope"),
        7,
    )
    .await;
    assert!(nobody.is_empty());
    // Baselines have no training run: the unfiltered list has them too.
    let every = walk(
        &c,
        b,
        &format!("/api/v1/agents/{AGENT}/evaluation-runs?bench_id=bench_apifix_v1"),
        7,
    )
    .await;
    assert_eq!(
        strings(&every, "eval_run_id"),
        [
            "eval_apifix_s500",
            "eval_apifix_s400",
            "eval_apifix_s300",
            "eval_apifix_s200",
            "eval_apifix_s100",
            "eval_apifix_base_hot",
            "eval_apifix_base"
        ]
    );
    let of_bench = walk(&c, b, "/api/v1/eval/bench_apifix_v1/runs", 3).await;
    assert_eq!(
        strings(&of_bench, "eval_run_id"),
        strings(&every, "eval_run_id")
    );
    let training_runs = walk(&c, b, &format!("/api/v1/agents/{AGENT}/training-runs"), 7).await;
    assert_eq!(strings(&training_runs, "training_run_id"), [TRAINING]);
    let on_apifix = walk(
        &c,
        b,
        &format!("/api/v1/agents/{AGENT}/training-runs?bench_id=bench_apifix_v1"),
        7,
    )
    .await;
    assert!(
        on_apifix.is_empty(),
        "the training run trained on codefix v2"
    );
    // The evaluation series stays the training run's own benchmark's: steps 100 to 400 (500 runs).
    let series = get_json(
        &c,
        b,
        &format!("/api/v1/agents/{AGENT}/training-runs/{TRAINING}/evaluation-series"),
        200,
    )
    .await;
    assert_eq!(series["items"].as_array().unwrap().len(), 4);
}

#[tokio::test]
async fn every_scorecard_case_is_on_its_benchmark() {
    let server = start(demo(1)).await;
    let (c, b) = (client(), server.base.as_str());
    let run = |id: &'static str| {
        let (c, b) = (c.clone(), b.to_owned());
        async move { decode::<EvalRun>(&get_json(&c, &b, &format!("/api/v1/eval/{id}"), 200).await) }
    };
    let mean = |r: &EvalRun| r.reward_mean.unwrap();

    // sqlfix: later checkpoints regress below the baseline.
    let sql_base = mean(&run("eval_sqlfix_base").await);
    let s100 = mean(&run("eval_sqlfix_s100").await);
    let s400 = mean(&run("eval_sqlfix_s400").await);
    let s500 = mean(&run("eval_sqlfix_s500").await);
    assert!(
        s100 > sql_base && s500 < s400 && s500 < sql_base - 0.04,
        "{sql_base} {s100} {s400} {s500}"
    );
    // Elsewhere training helps.
    let api_base = mean(&run("eval_apifix_base").await);
    assert!(mean(&run("eval_apifix_s400").await) > api_base + 0.08);

    // perfopt: checkpoint 300 never evaluated.
    let perf = checkpoint_runs(&c, b, "bench_perfopt_v1").await;
    let steps: Vec<i64> = cells(&perf).iter().map(|c| c.0).collect();
    assert_eq!(steps, [500, 400, 200, 100]);

    // apifix: step 500 still running (no mean yet); a second, newer baseline with other
    // settings: not comparable.
    let running = run("eval_apifix_s500").await;
    assert_eq!(running.status.as_ref().map(|s| s.as_str()), Some("running"));
    assert!(running.reward_mean.is_none() && running.completed_at.is_none());
    let remaining = get_json(
        &c,
        b,
        "/api/v1/eval/eval_apifix_s500/remaining-work?limit=5",
        200,
    )
    .await;
    assert_eq!(remaining["items"].as_array().unwrap().len(), 5);
    let (base, hot) = (
        run("eval_apifix_base").await,
        run("eval_apifix_base_hot").await,
    );
    assert!(hot.created_at > base.created_at && hot.step.is_none() && base.step.is_none());
    assert_eq!(hot.status.as_ref().map(|s| s.as_str()), Some("completed"));
    assert_eq!(
        (base.options.temperature, hot.options.temperature),
        (Some(0.6), None)
    );
    assert_eq!(
        (
            base.options.max_turns_per_trajectory,
            hot.options.max_turns_per_trajectory
        ),
        (Some(50), Some(20))
    );

    // docsync: step 400 failed and was not run again.
    let doc = checkpoint_runs(&c, b, "bench_docsync_v1").await;
    let at_400: Vec<_> = cells(&doc).into_iter().filter(|c| c.0 == 400).collect();
    assert_eq!(at_400, [(400, "eval_docsync_s400", "failed")]);
    let failed = run("eval_docsync_s400").await;
    assert_eq!(
        failed.failure.map(|f| f.code),
        Some("grader_unavailable".to_owned())
    );

    // shellpass: step 300 evaluated twice, both finished; the rerun is newer; rewards 0 or 1.
    let shell = checkpoint_runs(&c, b, "bench_shellpass_v1").await;
    let at_300: Vec<_> = cells(&shell).into_iter().filter(|c| c.0 == 300).collect();
    assert_eq!(
        at_300,
        [
            (300, "eval_shellpass_s300_rerun", "completed"),
            (300, "eval_shellpass_s300", "completed")
        ]
    );
    let (first, rerun) = (
        run("eval_shellpass_s300").await,
        run("eval_shellpass_s300_rerun").await,
    );
    assert!(rerun.completed_at > first.completed_at);
    let rewards = walk(
        &c,
        b,
        "/api/v1/eval/eval_shellpass_s300/trajectory-rewards",
        200,
    )
    .await;
    assert!(rewards.len() > 700);
    assert!(rewards
        .iter()
        .all(|r| [0.0, 1.0].contains(&r["reward"].as_f64().unwrap())));
    let graded = walk(
        &c,
        b,
        "/api/v1/eval/eval_apifix_base/trajectory-rewards",
        200,
    )
    .await;
    let partial = |r: &Value| r["reward"].as_f64().is_some_and(|x| x > 0.0 && x < 1.0);
    assert!(
        graded.iter().any(partial),
        "graded benchmarks give partial credit"
    );

    // A new run's trajectories, one's steps and its progress read like codefix's.
    let trajectories = walk(
        &c,
        b,
        "/api/v1/trajectories?eval_run_id=eval_perfopt_s100",
        200,
    )
    .await;
    assert_eq!(trajectories.len(), 240);
    let id = trajectories[0]["trajectory_id"].as_str().unwrap();
    assert!(id.starts_with("trj_perf100_perf-"), "{id}");
    let detail = get_json(
        &c,
        b,
        &format!("/api/v1/trajectories/{id}?include_steps=true"),
        200,
    )
    .await;
    assert_eq!(detail["trajectory_id"], id);
    let progress = get_json(&c, b, "/api/v1/eval/eval_perfopt_s100/progress", 200).await;
    assert_eq!(progress["terminal_rollouts"], 240);
}

#[tokio::test]
async fn the_scorecard_scale_gives_ten_checkpoints_on_every_benchmark() {
    let mut config = demo_running(2, 0);
    if let Mode::Demo(demo) = &mut config.mode {
        demo.scale = DemoScale {
            test_tasks: 40,
            samples: 2,
            scorecard: ScorecardScale {
                checkpoints: 10,
                suite_tasks: Some(30),
            },
        };
    }
    let server = start(config).await;
    let (c, b) = (client(), server.base.as_str());
    let checkpoints: TrainingCheckpointPage = decode(
        &get_json(
            &c,
            b,
            &format!("/api/v1/train/{TRAINING}/checkpoints?limit=200"),
            200,
        )
        .await,
    );
    let steps: Vec<i64> = checkpoints.items.iter().map(|c| c.step_index).collect();
    assert_eq!(steps, (1..=10).map(|k| k * 50).collect::<Vec<_>>());
    let all = walk(
        &c,
        b,
        &format!("/api/v1/agents/{AGENT}/evaluation-runs?training_run_id={TRAINING}"),
        200,
    )
    .await;
    // codefix 10 and a failed first try; 10 on each added benchmark, less perfopt's middle one,
    // plus shellpass's second evaluation of it.
    assert_eq!(all.len(), 11 + 5 * 10);
    let perf = checkpoint_runs(&c, b, "bench_perfopt_v1").await;
    assert!(cells(&perf).iter().all(|c| c.0 != 300) && perf.len() == 9);
    let doc = checkpoint_runs(&c, b, "bench_docsync_v1").await;
    assert!(cells(&doc).contains(&(450, "eval_docsync_s450", "failed")));
    let on_sql: EvalRun = decode(&get_json(&c, b, "/api/v1/eval/eval_sqlfix_s50", 200).await);
    assert_eq!(on_sql.total_rollouts, Some(60));
    let codefix: EvalRun = decode(&get_json(&c, b, "/api/v1/eval/eval_ckpt_s450", 200).await);
    assert_eq!(
        codefix.status.as_ref().map(|s| s.as_str()),
        Some("completed")
    );
}
