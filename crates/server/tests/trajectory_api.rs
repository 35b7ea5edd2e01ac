//! The demo's Trajectory API endpoints over real HTTP: shapes (decoded with the core types the
//! viewer uses), pagination with limit 7 against the whole list, ordering, filters and errors.
#![allow(clippy::unwrap_used)]

mod common;

use common::{all_distinct, client, demo, get_error, get_json, start, strings, walk};
use eval_compare_core::api::{
    Agent, AgentListPage, AgentTrainingEvaluationSeriesPage, BenchmarkListItem, BenchmarkPage,
    BenchmarkTaskPage, EvalProgress, EvalRemainingWorkPage, EvalRun, EvalRunPage,
    EvalTrajectoryRewardsPage, HeldOutRewardsByStepPage, Organization, StepPage,
    TrainingCheckpointPage, TrainingRun, TrainingRunPage, Trajectory, TrajectoryPage,
};
use serde::de::DeserializeOwned;
use serde_json::Value;

const AGENT: &str = "agent_demo_coder";
const V1: &str = "bench_codefix_v1";
const V2: &str = "bench_codefix_v2";
const TRAINING: &str = "train_codefix_grpo";

fn decode<T: DeserializeOwned>(value: &Value) -> T {
    serde_json::from_value(value.clone())
        .unwrap_or_else(|e| panic!("does not decode: {e}: {value}"))
}

#[tokio::test]
async fn organization_agents_and_benchmarks() {
    let server = start(demo(1)).await;
    let (c, b) = (client(), server.base.as_str());
    let org: Organization = decode(&get_json(&c, b, "/api/v1/organizations/current", 200).await);
    assert_eq!(org.organization_id(), Some("org_demo"));

    let agents: AgentListPage = decode(&get_json(&c, b, "/api/v1/agents", 200).await);
    assert_eq!(
        (agents.items.len(), agents.total_count, agents.has_more),
        (1, 1, false)
    );
    assert_eq!(agents.items[0].agent_id, AGENT);
    let none: AgentListPage = decode(&get_json(&c, b, "/api/v1/agents?search=nobody", 200).await);
    assert_eq!((none.items.len(), none.total_count), (0, 0));
    let by_name: Agent = decode(&get_json(&c, b, "/api/v1/agents/name/demo-coder", 200).await);
    assert_eq!(by_name.agent_id, AGENT);
    get_error(
        &c,
        b,
        "/api/v1/agents/name/nobody",
        404,
        "resource_not_found",
    )
    .await;

    let benchmarks: BenchmarkPage = decode(&get_json(&c, b, "/api/v1/benchmarks", 200).await);
    let ids: Vec<&str> = benchmarks
        .items
        .iter()
        .map(|x| x.bench_id.as_str())
        .collect();
    // codefix's two versions and the five benchmarks added before codefix v2.
    let added = [
        "bench_docsync_v1",
        "bench_perfopt_v1",
        "bench_shellpass_v1",
        "bench_sqlfix_v1",
        "bench_apifix_v1",
    ];
    let newest_first: Vec<&str> = [V2].into_iter().chain(added).chain([V1]).collect();
    assert_eq!(ids, newest_first, "newest first");
    let latest: BenchmarkPage =
        decode(&get_json(&c, b, "/api/v1/benchmarks?latest_only=true", 200).await);
    let latest_ids = latest.items.iter().map(|x| x.bench_id.as_str());
    assert!(latest_ids.eq([V2].into_iter().chain(added)));
    let one: BenchmarkListItem =
        decode(&get_json(&c, b, &format!("/api/v1/benchmarks/{V1}"), 200).await);
    assert_eq!((one.name.as_str(), one.eval_run_count), ("codefix", 1));
    get_error(
        &c,
        b,
        "/api/v1/benchmarks/bench_nope",
        404,
        "resource_not_found",
    )
    .await;

    let versions = walk(
        &c,
        b,
        &format!("/api/v1/agents/{AGENT}/benchmarks/versions?name=codefix"),
        1,
    )
    .await;
    assert_eq!(strings(&versions, "bench_id"), [V2, V1]);
    get_error(
        &c,
        b,
        "/api/v1/agents/agent_nope/benchmarks/versions?name=codefix",
        404,
        "resource_not_found",
    )
    .await;
    get_error(
        &c,
        b,
        &format!("/api/v1/agents/{AGENT}/benchmarks/versions"),
        422,
        "validation_error",
    )
    .await;
}

#[tokio::test]
async fn tasks_page_in_task_order_with_splits_and_categories() {
    let server = start(demo(1)).await;
    let (c, b) = (client(), server.base.as_str());
    let all = walk(&c, b, &format!("/api/v1/benchmarks/{V2}/tasks"), 7).await;
    let ids = strings(&all, "task_id");
    assert_eq!(all.len(), 500 - 12 + 15 + 3);
    assert!(ids.windows(2).all(|w| w[0] < w[1]), "ascending task id");
    let page: BenchmarkTaskPage = decode(
        &get_json(
            &c,
            b,
            &format!("/api/v1/benchmarks/{V2}/tasks?limit=200"),
            200,
        )
        .await,
    );
    assert_eq!(page.items.len(), 200);
    let categories: std::collections::BTreeSet<String> = all
        .iter()
        .map(|t| {
            t["task_categories"][0]["task_category_id"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    assert_eq!(categories.len(), 7);
    let test = walk(
        &c,
        b,
        &format!("/api/v1/benchmarks/{V2}/tasks?split=test"),
        50,
    )
    .await;
    assert_eq!(test.len(), 403);
    let train = walk(
        &c,
        b,
        &format!("/api/v1/benchmarks/{V1}/tasks?split=train"),
        200,
    )
    .await;
    assert_eq!(train.len(), 100);
    let unassigned = walk(
        &c,
        b,
        &format!("/api/v1/benchmarks/{V2}/tasks?split=unassigned"),
        200,
    )
    .await;
    assert!(unassigned.iter().all(|t| t["split"].is_null()) && unassigned.len() == 3);
    let chosen = walk(
        &c,
        b,
        &format!("/api/v1/benchmarks/{V2}/tasks?task_id=cf-0003&task_id=cf-0001"),
        200,
    )
    .await;
    assert_eq!(strings(&chosen, "task_id"), ["cf-0001", "cf-0003"]);
    let by_label = walk(
        &c,
        b,
        &format!("/api/v1/benchmarks/{V1}/tasks?sort=label&order=asc"),
        200,
    )
    .await;
    let labels = strings(&by_label, "label");
    assert!(labels.windows(2).all(|w| w[0] <= w[1]));
    get_error(
        &c,
        b,
        &format!("/api/v1/benchmarks/{V2}/tasks?split=validation"),
        422,
        "validation_error",
    )
    .await;

    // v2 relabelled some v1 tasks, removed some and added some.
    let v1 = walk(&c, b, &format!("/api/v1/benchmarks/{V1}/tasks"), 200).await;
    let v1_labels: std::collections::HashMap<&str, &str> = v1
        .iter()
        .map(|t| (t["task_id"].as_str().unwrap(), t["label"].as_str().unwrap()))
        .collect();
    let relabelled = all
        .iter()
        .filter(|t| {
            v1_labels
                .get(t["task_id"].as_str().unwrap())
                .is_some_and(|l| *l != t["label"].as_str().unwrap())
        })
        .count();
    assert_eq!(relabelled, 10);
    assert_eq!(
        ids.iter().filter(|id| !v1_labels.contains_key(*id)).count(),
        18
    );
}

#[tokio::test]
async fn eval_run_lists_are_newest_first_and_filter() {
    let server = start(demo(1)).await;
    let (c, b) = (client(), server.base.as_str());
    let runs = walk(&c, b, &format!("/api/v1/eval/{V2}/runs"), 7).await;
    assert_eq!(runs.len(), 8);
    let created = strings(&runs, "created_at");
    assert!(created.windows(2).all(|w| w[0] >= w[1]), "newest first");
    assert!(all_distinct(&strings(&runs, "eval_run_id")));
    for run in &runs {
        let _: EvalRun = decode(run);
    }
    let page: EvalRunPage =
        decode(&get_json(&c, b, &format!("/api/v1/eval/{V2}/runs?limit=3"), 200).await);
    assert!(page.has_more && page.next_cursor.is_some());

    let running = walk(&c, b, &format!("/api/v1/eval/{V2}/runs?status=running"), 7).await;
    assert_eq!(strings(&running, "eval_run_id"), ["eval_ckpt_s500"]);
    let done = walk(
        &c,
        b,
        &format!("/api/v1/eval/{V2}/runs?status=completed&status=failed"),
        7,
    )
    .await;
    assert_eq!(done.len(), 7);
    let checkpoints = walk(
        &c,
        b,
        &format!("/api/v1/eval/{V2}/runs?training_run_id={TRAINING}"),
        2,
    )
    .await;
    assert_eq!(checkpoints.len(), 6);
    assert!(checkpoints
        .iter()
        .all(|r| r["parent_checkpoint_id"].is_string() && r["step"].is_number()));
    let by_model = walk(
        &c,
        b,
        &format!("/api/v1/eval/{V2}/runs?base_model_slug=qwen/qwen3-235b-a22b"),
        200,
    )
    .await;
    assert_eq!(by_model.len(), 8);
    let other_model = walk(
        &c,
        b,
        &format!("/api/v1/eval/{V2}/runs?base_model_slug=other"),
        200,
    )
    .await;
    assert!(other_model.is_empty());
    get_error(
        &c,
        b,
        &format!("/api/v1/eval/{V2}/runs?status=done"),
        422,
        "validation_error",
    )
    .await;
    get_error(
        &c,
        b,
        "/api/v1/eval/bench_nope/runs",
        404,
        "resource_not_found",
    )
    .await;

    // codefix's 9 runs and the added benchmarks' 31 (see tests/scorecard_demo.rs).
    let agent_runs = walk(&c, b, &format!("/api/v1/agents/{AGENT}/evaluation-runs"), 7).await;
    assert_eq!(agent_runs.len(), 40);
    let on_v1 = walk(
        &c,
        b,
        &format!("/api/v1/agents/{AGENT}/evaluation-runs?bench_id={V1}"),
        7,
    )
    .await;
    assert_eq!(strings(&on_v1, "eval_run_id"), ["eval_base_v1"]);
    let failed = walk(
        &c,
        b,
        &format!("/api/v1/agents/{AGENT}/evaluation-runs?status=failed"),
        7,
    )
    .await;
    assert_eq!(
        strings(&failed, "eval_run_id"),
        ["eval_docsync_s400", "eval_ckpt_s200_failed"]
    );
    get_error(
        &c,
        b,
        "/api/v1/agents/agent_nope/evaluation-runs",
        404,
        "resource_not_found",
    )
    .await;
}

#[tokio::test]
async fn one_eval_run_progress_and_remaining_work() {
    let server = start(demo(1)).await;
    let (c, b) = (client(), server.base.as_str());
    let base: EvalRun = decode(&get_json(&c, b, "/api/v1/eval/eval_base_v2", 200).await);
    assert_eq!(base.status.as_ref().map(|s| s.as_str()), Some("completed"));
    assert_eq!(base.options.evaluation_samples_per_task, Some(4));
    assert_eq!(base.options.temperature, Some(0.6));
    assert_eq!(base.options.max_turns_per_trajectory, Some(50));
    let selection = base.task_selection.clone().unwrap();
    assert_eq!(
        (
            selection.available_task_count,
            selection.selected_task_count
        ),
        (403, 403)
    );
    assert!(base.reward_mean.is_some() && base.completed_at.is_some() && base.step.is_none());

    let capped: EvalRun = decode(&get_json(&c, b, "/api/v1/eval/eval_base_v1", 200).await);
    let selection = capped.task_selection.clone().unwrap();
    assert_eq!(
        (
            selection.available_task_count,
            selection.selected_task_count,
            selection.max_samples
        ),
        (400, 300, Some(300))
    );
    assert_eq!(
        (capped.total_rollouts, capped.options.evaluation_max_samples),
        (Some(1200), Some(300))
    );
    let capped_tasks: std::collections::BTreeSet<String> =
        walk(&c, b, "/api/v1/eval/eval_base_v1/trajectory-rewards", 200)
            .await
            .iter()
            .map(|r| r["task_id"].as_str().unwrap().to_owned())
            .collect();
    assert!(capped_tasks.len() <= 300 && capped_tasks.len() > 250);

    // The sampling experiment set its turn limit only: it sampled at the evaluation defaults.
    let hot: EvalRun = decode(&get_json(&c, b, "/api/v1/eval/eval_base_v2_hot", 200).await);
    assert_eq!(
        (
            hot.options.temperature,
            hot.options.max_turns_per_trajectory
        ),
        (None, Some(20))
    );

    let failed: EvalRun = decode(&get_json(&c, b, "/api/v1/eval/eval_ckpt_s200_failed", 200).await);
    assert_eq!(failed.status.as_ref().map(|s| s.as_str()), Some("failed"));
    assert!(failed.failure.is_some() && failed.reward_mean.is_none());

    let progress: EvalProgress =
        decode(&get_json(&c, b, "/api/v1/eval/eval_base_v2/progress", 200).await);
    assert_eq!(progress.terminal_rollouts, progress.total_rollouts);
    let live = progress.live.unwrap();
    assert_eq!(
        live.scored_rollouts + live.failed_rollouts + live.cancelled_rollouts,
        1612
    );
    assert_eq!(live.final_reward_mean, base.reward_mean);

    let done: EvalRemainingWorkPage =
        decode(&get_json(&c, b, "/api/v1/eval/eval_base_v2/remaining-work", 200).await);
    assert!(done.items.is_empty() && done.supported && !done.has_more);

    let running: EvalProgress =
        decode(&get_json(&c, b, "/api/v1/eval/eval_ckpt_s500/progress", 200).await);
    let live = running.live.unwrap();
    assert!(
        live.waiting_rollouts > 0 && live.scored_rollouts > 0 && live.final_reward_mean.is_none()
    );
    let remaining = walk(&c, b, "/api/v1/eval/eval_ckpt_s500/remaining-work", 100).await;
    let samples = strings(&remaining, "sample_id");
    assert!(samples.windows(2).all(|w| w[0] < w[1]) && samples.len() > 900);
    for item in &remaining {
        let started = item["status"] != "waiting";
        assert_eq!(item["trajectory_id"].is_string(), started, "{item}");
        assert_eq!(item["admitted_at"].is_string(), started, "{item}");
    }
    get_error(
        &c,
        b,
        "/api/v1/eval/eval_ckpt_s500/remaining-work?limit=101",
        422,
        "validation_error",
    )
    .await;
    for path in [
        "/api/v1/eval/eval_nope",
        "/api/v1/eval/eval_nope/progress",
        "/api/v1/eval/eval_nope/remaining-work",
    ] {
        get_error(&c, b, path, 404, "resource_not_found").await;
    }
}

#[tokio::test]
async fn trajectory_rewards_walk_in_task_order_and_match_the_mean() {
    let server = start(demo(1)).await;
    let (c, b) = (client(), server.base.as_str());
    let rewards = walk(&c, b, "/api/v1/eval/eval_base_v2/trajectory-rewards", 7).await;
    let whole: EvalTrajectoryRewardsPage = decode(
        &get_json(
            &c,
            b,
            "/api/v1/eval/eval_base_v2/trajectory-rewards?limit=200",
            200,
        )
        .await,
    );
    assert_eq!(whole.eval_run_id, "eval_base_v2");
    assert_eq!(whole.items.len(), 200);
    let ids = strings(&rewards, "trajectory_id");
    assert!(all_distinct(&ids));
    // Trajectories without a task first, then ascending task id, then trajectory id.
    let keys: Vec<(bool, &str, &str)> = rewards
        .iter()
        .map(|r| {
            (
                r["task_id"].is_string(),
                r["task_id"].as_str().unwrap_or(""),
                r["trajectory_id"].as_str().unwrap(),
            )
        })
        .collect();
    assert!(keys.windows(2).all(|w| w[0] < w[1]), "documented order");
    assert!(
        !keys[0].0,
        "the run has trajectories without a task, listed first"
    );
    let progress = get_json(&c, b, "/api/v1/eval/eval_base_v2/progress", 200).await;
    assert_eq!(
        rewards.len() as u64,
        progress["live"]["scored_rollouts"].as_u64().unwrap()
    );
    let mean = rewards
        .iter()
        .map(|r| r["reward"].as_f64().unwrap())
        .sum::<f64>()
        / rewards.len() as f64;
    let run = get_json(&c, b, "/api/v1/eval/eval_base_v2", 200).await;
    assert!(
        (run["reward_mean"].as_f64().unwrap() - mean).abs() < 1e-12,
        "reward_mean is the pooled mean"
    );
    get_error(
        &c,
        b,
        "/api/v1/eval/eval_nope/trajectory-rewards",
        404,
        "resource_not_found",
    )
    .await;
}

#[tokio::test]
async fn trajectories_list_detail_and_steps() {
    let server = start(demo(1)).await;
    let (c, b) = (client(), server.base.as_str());
    let list = walk(&c, b, "/api/v1/trajectories?eval_run_id=eval_ckpt_s100", 7).await;
    assert_eq!(list.len(), 1612);
    assert!(all_distinct(&strings(&list, "trajectory_id")));
    let keys: Vec<(&str, &str)> = list
        .iter()
        .map(|t| {
            (
                t["created_at"].as_str().unwrap(),
                t["trajectory_id"].as_str().unwrap(),
            )
        })
        .collect();
    assert!(keys.windows(2).all(|w| w[0] > w[1]), "newest first");
    let page: TrajectoryPage = decode(
        &get_json(
            &c,
            b,
            "/api/v1/trajectories?eval_run_id=eval_ckpt_s100&limit=200",
            200,
        )
        .await,
    );
    assert_eq!(page.items.len(), 200);
    let ascending = walk(
        &c,
        b,
        "/api/v1/trajectories?eval_run_id=eval_ckpt_s100&order=asc",
        200,
    )
    .await;
    assert_eq!(ascending.first(), list.last());
    let searched = walk(
        &c,
        b,
        "/api/v1/trajectories?eval_run_id=eval_ckpt_s100&search=cf-0007",
        200,
    )
    .await;
    assert_eq!(searched.len(), 4);
    let training = walk(
        &c,
        b,
        &format!("/api/v1/trajectories?training_run_id={TRAINING}"),
        200,
    )
    .await;
    assert!(training.is_empty(), "the demo records no training rollouts");
    get_error(
        &c,
        b,
        "/api/v1/trajectories?eval_run_id=eval_nope",
        404,
        "resource_not_found",
    )
    .await;

    let graded = list
        .iter()
        .find(|t| t["termination_reason"] == "ENV_DONE" && t["reward"].is_number())
        .unwrap();
    let id = graded["trajectory_id"].as_str().unwrap();
    let plain: Trajectory =
        decode(&get_json(&c, b, &format!("/api/v1/trajectories/{id}"), 200).await);
    assert!(plain.reward_components.is_empty() && plain.steps.is_empty());
    let detail: Trajectory = decode(
        &get_json(
            &c,
            b,
            &format!("/api/v1/trajectories/{id}?include_reward_components=true&include_steps=true"),
            200,
        )
        .await,
    );
    assert_eq!(detail.reward_components.len(), 3);
    assert_eq!(detail.steps.len() as i64, detail.num_steps.unwrap());
    assert_eq!(detail.steps.last().unwrap().reward, detail.reward);

    let steps = walk(&c, b, &format!("/api/v1/trajectories/{id}/steps"), 2).await;
    let indices: Vec<i64> = steps
        .iter()
        .map(|s| s["step_index"].as_i64().unwrap())
        .collect();
    assert_eq!(indices, (0..detail.num_steps.unwrap()).collect::<Vec<_>>());
    let from_one: StepPage = decode(
        &get_json(
            &c,
            b,
            &format!("/api/v1/trajectories/{id}/steps?start_step_index=1"),
            200,
        )
        .await,
    );
    assert_eq!(from_one.items.first().map(|s| s.step_index), Some(1));
    assert_eq!(serde_json::to_value(&from_one.items[0]).unwrap(), steps[1]);
    let with_tools = steps
        .iter()
        .flat_map(|s| s["messages"].as_array().unwrap())
        .filter(|m| m["tool_calls"].is_string())
        .count();
    assert!(with_tools > 0);
    let cursor = get_json(
        &c,
        b,
        &format!("/api/v1/trajectories/{id}/steps?limit=1"),
        200,
    )
    .await["next_cursor"]
        .clone();
    get_error(
        &c,
        b,
        &format!(
            "/api/v1/trajectories/{id}/steps?start_step_index=1&cursor={}",
            cursor.as_str().unwrap()
        ),
        422,
        "validation_error",
    )
    .await;
    get_error(
        &c,
        b,
        "/api/v1/trajectories/trj_nope",
        404,
        "resource_not_found",
    )
    .await;
    get_error(
        &c,
        b,
        "/api/v1/trajectories/trj_nope/steps",
        404,
        "resource_not_found",
    )
    .await;
}

#[tokio::test]
async fn training_run_checkpoints_series_and_held_out() {
    let server = start(demo(1)).await;
    let (c, b) = (client(), server.base.as_str());
    let runs: TrainingRunPage =
        decode(&get_json(&c, b, &format!("/api/v1/train/{V2}/runs"), 200).await);
    assert_eq!(runs.items.len(), 1);
    let none: TrainingRunPage =
        decode(&get_json(&c, b, &format!("/api/v1/train/{V1}/runs"), 200).await);
    assert!(none.items.is_empty());
    let run: TrainingRun =
        decode(&get_json(&c, b, &format!("/api/v1/train/{TRAINING}"), 200).await);
    assert_eq!(run.bench_id.as_deref(), Some(V2));

    let checkpoints = walk(&c, b, &format!("/api/v1/train/{TRAINING}/checkpoints"), 2).await;
    let steps: Vec<i64> = checkpoints
        .iter()
        .map(|x| x["step_index"].as_i64().unwrap())
        .collect();
    assert_eq!(steps, [100, 200, 300, 400, 500]);
    let _: TrainingCheckpointPage =
        decode(&get_json(&c, b, &format!("/api/v1/train/{TRAINING}/checkpoints"), 200).await);

    let series: AgentTrainingEvaluationSeriesPage = decode(
        &get_json(
            &c,
            b,
            &format!("/api/v1/agents/{AGENT}/training-runs/{TRAINING}/evaluation-series"),
            200,
        )
        .await,
    );
    let points: Vec<i64> = series.items.iter().map(|p| p.step).collect();
    assert_eq!(
        points,
        [100, 200, 300, 400],
        "the running step-500 evaluation is not scored yet"
    );
    assert!(series.has_active_work);
    let s200 = get_json(&c, b, "/api/v1/eval/eval_ckpt_s200", 200).await;
    assert_eq!(
        Some(series.items[1].reward_mean),
        s200["reward_mean"].as_f64(),
        "latest scored evaluation of step 200"
    );
    let walked = walk(
        &c,
        b,
        &format!("/api/v1/agents/{AGENT}/training-runs/{TRAINING}/evaluation-series"),
        3,
    )
    .await;
    assert_eq!(walked.len(), 4);

    let held: HeldOutRewardsByStepPage = decode(
        &get_json(
            &c,
            b,
            &format!("/api/v1/train/{TRAINING}/step/held-out-reward-by-step"),
            200,
        )
        .await,
    );
    assert_eq!(held.training_run_id, TRAINING);
    let steps: Vec<i64> = held.items.iter().map(|h| h.step).collect();
    assert_eq!(steps, [0, 100, 200, 300, 400, 500]);
    for path in [
        "/api/v1/train/train_nope".to_owned(),
        "/api/v1/train/train_nope/checkpoints".to_owned(),
        "/api/v1/train/train_nope/step/held-out-reward-by-step".to_owned(),
        format!("/api/v1/agents/{AGENT}/training-runs/train_nope/evaluation-series"),
        format!("/api/v1/agents/agent_nope/training-runs/{TRAINING}/evaluation-series"),
    ] {
        get_error(&c, b, &path, 404, "resource_not_found").await;
    }
}

#[tokio::test]
async fn cursor_and_limit_errors() {
    let server = start(demo(1)).await;
    let (c, b) = (client(), server.base.as_str());
    let lists = [
        "/api/v1/agents".to_owned(),
        "/api/v1/benchmarks".to_owned(),
        format!("/api/v1/benchmarks/{V2}/tasks"),
        format!("/api/v1/eval/{V2}/runs"),
        format!("/api/v1/agents/{AGENT}/evaluation-runs"),
        "/api/v1/eval/eval_base_v2/trajectory-rewards".to_owned(),
        "/api/v1/trajectories?eval_run_id=eval_base_v2".to_owned(),
        format!("/api/v1/train/{TRAINING}/checkpoints"),
        format!("/api/v1/train/{TRAINING}/step/held-out-reward-by-step"),
    ];
    for list in &lists {
        let separator = if list.contains('?') { '&' } else { '?' };
        for limit in ["0", "201", "-3", "many"] {
            get_error(
                &c,
                b,
                &format!("{list}{separator}limit={limit}"),
                422,
                "validation_error",
            )
            .await;
        }
        get_error(
            &c,
            b,
            &format!("{list}{separator}cursor=not-a-cursor"),
            400,
            "invalid_cursor",
        )
        .await;
        let ok = get_json(&c, b, &format!("{list}{separator}limit=200"), 200).await;
        assert!(ok["items"].is_array());
    }
    // A cursor of one list is refused by another.
    let page = get_json(
        &c,
        b,
        "/api/v1/eval/eval_base_v2/trajectory-rewards?limit=3",
        200,
    )
    .await;
    let cursor = page["next_cursor"].as_str().unwrap();
    get_error(
        &c,
        b,
        &format!("/api/v1/eval/eval_ckpt_s100/trajectory-rewards?cursor={cursor}"),
        400,
        "invalid_cursor",
    )
    .await;
    let body = get_error(
        &c,
        b,
        &format!("/api/v1/eval/eval_base_v2/trajectory-rewards?cursor={cursor}x"),
        400,
        "invalid_cursor",
    )
    .await;
    assert_eq!(body["error"]["type"], "invalid_request_error");
    assert_eq!(body["error"]["param"], "cursor");
    // Unknown paths and methods answer in the envelope too.
    get_error(&c, b, "/api/v1/unknown", 404, "resource_not_found").await;
    let response = c.post(format!("{b}/api/v1/agents")).send().await.unwrap();
    assert_eq!(response.status().as_u16(), 405);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["error"]["type"], "invalid_request_error");
}
