//! Properties of the demo dataset, read through the API: every termination reason occurs,
//! rewards equal the component formula, endings follow the contract's semantics, checkpoints
//! improve on average, and the running evaluation grows with wall-clock time.
#![allow(clippy::unwrap_used)]

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use common::{client, demo, get_json, start, walk};
use eval_compare_server::{Config, DemoConfig, Mode};
use serde_json::Value;

const ALL_REASONS: [&str; 11] = [
    "ENV_DONE",
    "ERROR",
    "TIMEOUT",
    "TRUNCATION",
    "MISSING_SUBMIT",
    "MAX_STEPS",
    "LIMIT_REACHED",
    "CANCELLED",
    "STALE",
    "SANDBOX_TIMEOUT",
    "BUDGET_EXHAUSTED",
];

#[tokio::test]
async fn every_termination_reason_occurs_with_its_reward_semantics() {
    let server = start(demo(3)).await;
    let (c, b) = (client(), server.base.as_str());
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    for run in ["eval_base_v2", "eval_ckpt_s100", "eval_base_v2_hot"] {
        let trajectories = walk(
            &c,
            b,
            &format!("/api/v1/trajectories?eval_run_id={run}"),
            200,
        )
        .await;
        let rewards = walk(
            &c,
            b,
            &format!("/api/v1/eval/{run}/trajectory-rewards"),
            200,
        )
        .await;
        let published: BTreeMap<&str, f64> = rewards
            .iter()
            .map(|r| {
                (
                    r["trajectory_id"].as_str().unwrap(),
                    r["reward"].as_f64().unwrap(),
                )
            })
            .collect();
        for t in &trajectories {
            let reason = t["termination_reason"].as_str().unwrap();
            *seen.entry(reason.to_owned()).or_default() += 1;
            let id = t["trajectory_id"].as_str().unwrap();
            // The trajectory's reward is the one published in trajectory-rewards.
            assert_eq!(t["reward"].as_f64(), published.get(id).copied(), "{t}");
            match reason {
                "ERROR" | "STALE" | "SANDBOX_TIMEOUT" => {
                    assert!(t["reward"].is_null());
                    assert_eq!(t["rollout"]["status"], "FAILED");
                    assert!(t["rollout"]["harness_diagnostic"].is_object());
                }
                "CANCELLED" => {
                    assert!(t["reward"].is_null());
                    assert_eq!(t["status"], "aborted");
                }
                "TRUNCATION" | "MAX_STEPS" | "LIMIT_REACHED" | "MISSING_SUBMIT" => {
                    assert_eq!(t["reward"], 0.0)
                }
                _ => {}
            }
        }
    }
    for reason in ALL_REASONS {
        assert!(seen.contains_key(reason), "{reason} never occurs: {seen:?}");
    }
    let total: usize = seen.values().sum();
    assert!(
        seen["ENV_DONE"] * 100 / total >= 75,
        "mostly ENV_DONE: {seen:?}"
    );
    // The 20-turn run hits the turn limit more often than the others.
    let hot = walk(
        &c,
        b,
        "/api/v1/trajectories?eval_run_id=eval_base_v2_hot",
        200,
    )
    .await;
    let base = walk(&c, b, "/api/v1/trajectories?eval_run_id=eval_base_v2", 200).await;
    let max_steps = |ts: &[Value]| {
        ts.iter()
            .filter(|t| t["termination_reason"] == "MAX_STEPS")
            .count()
    };
    assert!(max_steps(&hot) > 2 * max_steps(&base));
    assert!(hot
        .iter()
        .filter(|t| t["termination_reason"] == "MAX_STEPS")
        .all(|t| t["num_steps"] == 20));
}

#[tokio::test]
async fn rewards_equal_the_weighted_average_of_scaled_components() {
    let server = start(demo(3)).await;
    let (c, b) = (client(), server.base.as_str());
    let trajectories = walk(
        &c,
        b,
        "/api/v1/trajectories?eval_run_id=eval_ckpt_s300",
        200,
    )
    .await;
    let (mut graded, mut ungraded_env_done, mut partial) = (0, 0, 0);
    let mut zero_weight = BTreeSet::new();
    for t in &trajectories {
        let id = t["trajectory_id"].as_str().unwrap();
        let detail = get_json(
            &c,
            b,
            &format!("/api/v1/trajectories/{id}?include_reward_components=true"),
            200,
        )
        .await;
        let components = detail["reward_components"].as_array().unwrap();
        if components.is_empty() {
            if detail["termination_reason"] == "ENV_DONE" {
                ungraded_env_done += 1;
                assert!(
                    detail["reward"].is_null(),
                    "an ungraded ENV_DONE has no reward"
                );
            }
            continue;
        }
        graded += 1;
        assert_eq!(components.len(), 3);
        let (mut sum, mut weights) = (0.0, 0.0);
        for component in components {
            let (value, min, max) = (
                component["value"].as_f64().unwrap(),
                component["score_range_min"].as_f64().unwrap(),
                component["score_range_max"].as_f64().unwrap(),
            );
            let scaled = component["scaled_value"].as_f64().unwrap();
            assert!(
                (scaled - (value - min) / (max - min)).abs() < 1e-12,
                "{component}"
            );
            let weight = component["weight"].as_f64().unwrap();
            if weight == 0.0 {
                zero_weight.insert(component["name"].as_str().unwrap().to_owned());
            }
            sum += weight * scaled;
            weights += weight;
        }
        let reward = detail["reward"].as_f64().unwrap();
        assert!(
            (reward - sum / weights).abs() < 1e-12,
            "{id}: reward {reward} != formula {}",
            sum / weights
        );
        if reward > 0.0 && reward < 1.0 {
            partial += 1;
        }
    }
    assert!(graded > 1_300, "{graded} graded");
    assert!(ungraded_env_done > 0, "some ENV_DONE are ungraded");
    assert!(partial > 50, "some partial credit: {partial}");
    assert_eq!(zero_weight.into_iter().collect::<Vec<_>>(), ["lint_score"]);
}

#[tokio::test]
async fn checkpoints_improve_on_average_and_tasks_correlate_across_runs() {
    let server = start(demo(3)).await;
    let (c, b) = (client(), server.base.as_str());
    let mut means = Vec::new();
    for run in [
        "eval_base_v2",
        "eval_ckpt_s100",
        "eval_ckpt_s300",
        "eval_ckpt_s400",
    ] {
        means.push(
            get_json(&c, b, &format!("/api/v1/eval/{run}"), 200).await["reward_mean"]
                .as_f64()
                .unwrap(),
        );
    }
    assert!(means[0] < means[3] && means[1] < means[3], "{means:?}");
    // Per-task means of two runs correlate (latent task difficulty), so pairing is meaningful.
    let per_task = |rewards: &[Value]| {
        let mut acc: BTreeMap<String, (f64, f64)> = BTreeMap::new();
        for r in rewards.iter().filter(|r| r["task_id"].is_string()) {
            let entry = acc
                .entry(r["task_id"].as_str().unwrap().to_owned())
                .or_default();
            entry.0 += r["reward"].as_f64().unwrap();
            entry.1 += 1.0;
        }
        acc.into_iter()
            .map(|(k, (s, n))| (k, s / n))
            .collect::<BTreeMap<_, _>>()
    };
    let a = per_task(&walk(&c, b, "/api/v1/eval/eval_base_v2/trajectory-rewards", 200).await);
    let z = per_task(&walk(&c, b, "/api/v1/eval/eval_ckpt_s400/trajectory-rewards", 200).await);
    let pairs: Vec<(f64, f64)> = a
        .iter()
        .filter_map(|(k, x)| z.get(k).map(|y| (*x, *y)))
        .collect();
    let n = pairs.len() as f64;
    let (mx, my) = (
        pairs.iter().map(|p| p.0).sum::<f64>() / n,
        pairs.iter().map(|p| p.1).sum::<f64>() / n,
    );
    let cov = pairs.iter().map(|(x, y)| (x - mx) * (y - my)).sum::<f64>();
    let (vx, vy) = (
        pairs.iter().map(|(x, _)| (x - mx).powi(2)).sum::<f64>(),
        pairs.iter().map(|(_, y)| (y - my).powi(2)).sum::<f64>(),
    );
    let correlation = cov / (vx * vy).sqrt();
    assert!(correlation > 0.5, "per-task correlation {correlation}");
    // ... and some tasks regress.
    let regressed = pairs.iter().filter(|(x, y)| y < &(x - 0.4)).count();
    assert!(regressed > 0, "no task regresses");
}

#[tokio::test]
async fn the_running_evaluation_grows_with_wall_clock_time() {
    let config = Config {
        mode: Mode::Demo(DemoConfig {
            seed: 3,
            scale: eval_compare_server::dataset::scale::DemoScale::DEFAULT,
            key: None,
            key_without_billing: None,
            running_duration: Duration::from_secs(4),
        }),
        ..demo(3)
    };
    let server = start(config).await;
    let (c, b) = (client(), server.base.as_str());
    let before = get_json(&c, b, "/api/v1/eval/eval_ckpt_s500/progress", 200).await;
    assert_eq!(before["status"], "running");
    let before_rewards = walk(&c, b, "/api/v1/eval/eval_ckpt_s500/trajectory-rewards", 200).await;
    let before_trajectories = walk(
        &c,
        b,
        "/api/v1/trajectories?eval_run_id=eval_ckpt_s500",
        200,
    )
    .await;
    let unfinished: Vec<&Value> = before_trajectories
        .iter()
        .filter(|t| t["termination_reason"].is_null())
        .collect();
    assert!(
        !unfinished.is_empty(),
        "a running evaluation has unfinished trajectories"
    );
    for t in &unfinished {
        assert!(
            t["reward"].is_null() && t["rollout"]["status"] == "IN_PROGRESS",
            "{t}"
        );
        assert!(["in_progress", "finalizing"].contains(&t["status"].as_str().unwrap()));
    }
    let run = get_json(&c, b, "/api/v1/eval/eval_ckpt_s500", 200).await;
    assert!(run["reward_mean"].is_null() && run["completed_at"].is_null());

    tokio::time::sleep(Duration::from_millis(1_500)).await;
    let during = get_json(&c, b, "/api/v1/eval/eval_ckpt_s500/progress", 200).await;
    assert!(during["terminal_rollouts"].as_u64() > before["terminal_rollouts"].as_u64());
    let during_rewards = walk(&c, b, "/api/v1/eval/eval_ckpt_s500/trajectory-rewards", 200).await;
    assert!(during_rewards.len() > before_rewards.len());
    let during_trajectories = walk(
        &c,
        b,
        "/api/v1/trajectories?eval_run_id=eval_ckpt_s500",
        200,
    )
    .await;
    assert!(during_trajectories.len() > before_trajectories.len());

    tokio::time::sleep(Duration::from_millis(3_000)).await;
    let after = get_json(&c, b, "/api/v1/eval/eval_ckpt_s500", 200).await;
    assert_eq!(after["status"], "completed");
    let rewards = walk(&c, b, "/api/v1/eval/eval_ckpt_s500/trajectory-rewards", 200).await;
    let mean = rewards
        .iter()
        .map(|r| r["reward"].as_f64().unwrap())
        .sum::<f64>()
        / rewards.len() as f64;
    assert!((after["reward_mean"].as_f64().unwrap() - mean).abs() < 1e-12);
    let series = get_json(
        &c,
        b,
        "/api/v1/agents/agent_demo_coder/training-runs/train_codefix_grpo/evaluation-series",
        200,
    )
    .await;
    assert_eq!(series["items"].as_array().unwrap().len(), 5);
    assert_eq!(series["has_active_work"], false);
}
