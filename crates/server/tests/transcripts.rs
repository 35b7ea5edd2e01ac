//! The demo's transcripts over loopback: each step holds the conversation so far (the last step
//! is the whole transcript), tool calls carry JSON arguments, a few attempts print a very long
//! output, and a baseline and a checkpoint share their first turns on a task, then diverge at
//! the turn the dataset documents.
#![allow(clippy::unwrap_used)]

mod common;

use common::{client, demo, get_json, start, walk};
use eval_compare_server::dataset::runs::{Attempt, EvalRun};
use eval_compare_server::dataset::transcript::{self, LONG_OUTPUT_BYTES};
use eval_compare_server::dataset::Dataset;
use serde_json::Value;

const SEED: u64 = 4;

fn messages(step: &Value) -> &Vec<Value> {
    step["messages"].as_array().unwrap()
}

/// The last step of a trajectory, read the way the guide says.
async fn last_step(c: &reqwest::Client, b: &str, id: &str, num_steps: i64) -> Value {
    let page = get_json(
        c,
        b,
        &format!(
            "/api/v1/trajectories/{id}/steps?start_step_index={}&limit=1",
            num_steps - 1
        ),
        200,
    )
    .await;
    assert_eq!(page["items"].as_array().unwrap().len(), 1, "{id}");
    page["items"][0].clone()
}

/// The assistant replies of a conversation, as (reasoning, content, tool calls).
fn replies(step: &Value) -> Vec<(Value, Value, Value)> {
    messages(step)
        .iter()
        .filter(|m| m["role"] == "assistant")
        .map(|m| {
            (
                m["reasoning"].clone(),
                m["content"].clone(),
                m["tool_calls"].clone(),
            )
        })
        .collect()
}

fn check_tool_calls(message: &Value) -> usize {
    let Some(text) = message["tool_calls"].as_str() else {
        return 0;
    };
    let calls: Value = serde_json::from_str(text).unwrap();
    let calls = calls.as_array().unwrap();
    for call in calls {
        assert!(call["id"].is_string(), "{call}");
        assert!(call["function"]["name"].is_string(), "{call}");
        let arguments: Value =
            serde_json::from_str(call["function"]["arguments"].as_str().unwrap()).unwrap();
        assert!(arguments.is_object(), "{call}");
    }
    calls.len()
}

#[tokio::test]
async fn each_step_holds_the_conversation_so_far_and_the_last_is_the_whole_transcript() {
    let server = start(demo(SEED)).await;
    let (c, b) = (client(), server.base.as_str());
    for run in ["eval_base_v2", "eval_ckpt_s400"] {
        let list = get_json(
            &c,
            b,
            &format!("/api/v1/trajectories?eval_run_id={run}&limit=60"),
            200,
        )
        .await;
        let mut checked = 0;
        for t in list["items"].as_array().unwrap() {
            let (id, n) = (
                t["trajectory_id"].as_str().unwrap(),
                t["num_steps"].as_i64().unwrap(),
            );
            if n == 0 {
                continue;
            }
            let steps = walk(&c, b, &format!("/api/v1/trajectories/{id}/steps"), 3).await;
            assert_eq!(steps.len() as i64, n, "{id}: one step per model call");
            let first = messages(&steps[0]);
            assert_eq!(first[0]["role"], "system", "{id}");
            assert_eq!(first[1]["role"], "user", "{id}");
            for pair in steps.windows(2) {
                let (before, after) = (messages(&pair[0]), messages(&pair[1]));
                assert!(after.len() > before.len(), "{id}: the conversation grows");
                assert_eq!(&after[..before.len()], &before[..], "{id}: it only grows");
            }
            let last = last_step(&c, b, id, n).await;
            assert_eq!(&last, steps.last().unwrap(), "{id}");
            let ids: Vec<i64> = messages(&last)
                .iter()
                .map(|m| m["message_id"].as_i64().unwrap())
                .collect();
            assert!(ids.windows(2).all(|w| w[0] < w[1]), "{id}: {ids:?}");
            // Rewards and errors sit on the final step only.
            assert_eq!(last["reward"], t["reward"], "{id}");
            assert!(steps[..steps.len() - 1]
                .iter()
                .all(|s| s["reward"].is_null() && s["has_error"] == false));
            let failed = ["ERROR", "STALE", "SANDBOX_TIMEOUT"]
                .contains(&t["termination_reason"].as_str().unwrap_or(""));
            assert_eq!(last["has_error"], failed, "{id}");
            let calls: usize = messages(&last).iter().map(check_tool_calls).sum();
            assert!(calls > 0 || n == 1, "{id}");
            for reply in messages(&last).iter().filter(|m| m["role"] == "assistant") {
                assert!(reply["finish_reason"].is_string(), "{id}");
                assert!(reply["prompt_tokens"].as_i64().unwrap() > 0, "{id}");
                assert!(reply["completion_tokens"].as_i64().unwrap() > 0, "{id}");
            }
            checked += 1;
        }
        assert!(checked > 40, "{run}: {checked}");
    }
}

#[tokio::test]
async fn a_trajectory_that_failed_before_its_first_model_call_has_no_steps() {
    let server = start(demo(SEED)).await;
    let (c, b) = (client(), server.base.as_str());
    let list = walk(&c, b, "/api/v1/trajectories?eval_run_id=eval_base_v2", 200).await;
    let empty: Vec<&Value> = list.iter().filter(|t| t["num_steps"] == 0).collect();
    assert!(!empty.is_empty());
    for t in empty {
        assert_eq!(t["termination_reason"], "ERROR");
        let id = t["trajectory_id"].as_str().unwrap();
        let page = get_json(&c, b, &format!("/api/v1/trajectories/{id}/steps"), 200).await;
        assert!(page["items"].as_array().unwrap().is_empty());
        let detail = get_json(
            &c,
            b,
            &format!("/api/v1/trajectories/{id}?include_steps=true"),
            200,
        )
        .await;
        assert!(detail["steps"].as_array().unwrap().is_empty());
        assert!(detail["error"].is_string());
    }
}

fn finished_source<'a>(
    data: &'a Dataset,
    run: &'a EvalRun,
    attempt: &'a Attempt,
) -> transcript::TranscriptSource<'a> {
    attempt.transcript(run, &data.bench_of(run).tasks[attempt.task], true)
}

#[tokio::test]
async fn a_few_attempts_print_a_very_long_output_in_their_last_step() {
    let data = Dataset::generate(SEED);
    let server = start(demo(SEED)).await;
    let (c, b) = (client(), server.base.as_str());
    let run = data.run("eval_base_v2").unwrap();
    let long: Vec<&Attempt> = run
        .attempts
        .iter()
        .filter(|a| transcript::has_long_output(&finished_source(&data, run, a)))
        .collect();
    assert!((3..=20).contains(&long.len()), "{}", long.len());
    for attempt in long {
        let id = &run.ids(data.bench_of(run), attempt).trajectory_id();
        let n = i64::from(attempt.outcome.num_steps);
        let longest = |step: &Value| {
            messages(step)
                .iter()
                .filter_map(|m| m["tool_response"].as_str().map(str::len))
                .max()
                .unwrap_or(0)
        };
        let last = last_step(&c, b, id, n).await;
        assert!(longest(&last) >= LONG_OUTPUT_BYTES, "{id}");
        let before = last_step(&c, b, id, n - 1).await;
        assert!(longest(&before) < LONG_OUTPUT_BYTES, "{id}");
    }
}

#[tokio::test]
async fn baseline_and_checkpoint_share_the_first_turns_then_diverge() {
    let data = Dataset::generate(SEED);
    let server = start(demo(SEED)).await;
    let (c, b) = (client(), server.base.as_str());
    let base = data.run("eval_base_v2").unwrap();
    let ckpt = data.run("eval_ckpt_s400").unwrap();
    let mut compared = 0;
    let mut regressions = 0;
    for a in base.attempts.iter().filter(|a| a.sample == 0) {
        let Some(k) = ckpt
            .attempts
            .iter()
            .find(|k| k.task == a.task && k.sample == 0)
        else {
            continue;
        };
        let shared = transcript::shared_turns(a.script_seed);
        assert_eq!(a.script_seed, k.script_seed, "the task's script is shared");
        // Long enough for the divergence to come before either attempt's final turn.
        let long_enough = |x: &Attempt| x.outcome.num_steps > shared + 2;
        if !long_enough(a) || !long_enough(k) {
            continue;
        }
        let a_id = base.ids(data.bench_of(base), a).trajectory_id();
        let k_id = ckpt.ids(data.bench_of(ckpt), k).trajectory_id();
        let ra = replies(&last_step(&c, b, &a_id, a.outcome.num_steps.into()).await);
        let rk = replies(&last_step(&c, b, &k_id, k.outcome.num_steps.into()).await);
        let turn = shared as usize;
        assert_eq!(ra[..turn], rk[..turn], "{a_id} vs {k_id}");
        assert_ne!(ra[turn], rk[turn], "{a_id} vs {k_id}");
        // The checkpoint starts its fix at the divergence, the baseline explores once more.
        assert!(rk[turn].2.as_str().unwrap().contains("edit_file"));
        assert!(!ra[turn].2.as_str().unwrap().contains("edit_file"));
        if a.outcome.reward == Some(1.0) && k.outcome.reward == Some(0.0) {
            regressions += 1;
        }
        compared += 1;
        if compared == 60 {
            break;
        }
    }
    assert_eq!(compared, 60);
    assert!(regressions > 0, "some compared pairs are regressions");
}

#[tokio::test]
async fn checkpoints_carry_their_creation_time_before_their_evaluation() {
    let server = start(demo(SEED)).await;
    let (c, b) = (client(), server.base.as_str());
    let checkpoints = walk(&c, b, "/api/v1/train/train_codefix_grpo/checkpoints", 10).await;
    assert_eq!(checkpoints.len(), 5);
    let mut previous = String::new();
    for checkpoint in &checkpoints {
        let created = checkpoint["created_at"].as_str().unwrap().to_owned();
        assert!(created.ends_with('Z') && created.len() == 20, "{created}");
        assert!(created > previous, "{created} after {previous}");
        let step = checkpoint["step_index"].as_i64().unwrap();
        let eval = get_json(&c, b, &format!("/api/v1/eval/eval_ckpt_s{step}"), 200).await;
        assert!(created.as_str() < eval["created_at"].as_str().unwrap());
        previous = created;
    }
}
