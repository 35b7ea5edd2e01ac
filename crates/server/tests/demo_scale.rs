//! The demo at another scale (`--demo-scale 3000x2`): the same runs over more tasks with
//! fewer samples, whose lists page through to the end.
#![allow(clippy::unwrap_used)]

mod common;

use common::{all_distinct, client, demo, get_json, start, strings, walk};
use eval_compare_server::dataset::scale::DemoScale;
use eval_compare_server::dataset::DEFAULT_SEED;
use eval_compare_server::Mode;

#[tokio::test]
async fn a_scaled_demo_pages_a_whole_run_and_its_tasks() {
    let mut config = demo(DEFAULT_SEED);
    if let Mode::Demo(demo) = &mut config.mode {
        demo.scale = DemoScale {
            test_tasks: 3_000,
            samples: 2,
            ..DemoScale::DEFAULT
        };
    }
    let server = start(config).await;
    let (c, b) = (client(), server.base.as_str());

    // Version 2: 3000 - 90 removed + 113 added test tasks, 2 samples each.
    let run = get_json(&c, b, "/api/v1/eval/eval_base_v2", 200).await;
    assert_eq!(run["total_rollouts"], 6_046);
    let capped = get_json(&c, b, "/api/v1/eval/eval_base_v1", 200).await;
    assert_eq!(capped["task_selection"]["selected_task_count"], 2_250);
    assert_eq!(
        capped["display_name"],
        "Baseline qwen3-235b (codefix v1, 2250 tasks)"
    );

    let listed = walk(
        &c,
        b,
        "/api/v1/trajectories?eval_run_id=eval_base_v2&sort=task_id&order=asc",
        200,
    )
    .await;
    assert_eq!(listed.len(), 6_046);
    let rewards = walk(&c, b, "/api/v1/eval/eval_base_v2/trajectory-rewards", 200).await;
    let rewarded = listed.iter().filter(|t| !t["reward"].is_null()).count();
    assert_eq!(rewards.len(), rewarded);
    let ids = strings(&rewards, "trajectory_id");
    assert!(all_distinct(&ids));
    let untasked = rewards
        .iter()
        .take_while(|r| r["task_id"].is_null())
        .count();
    assert!(untasked <= 2, "{untasked} untasked");
    assert!(
        rewards[untasked..].iter().all(|r| r["task_id"].is_string()),
        "untasked ones first"
    );
    let tasks: Vec<&str> = strings(&rewards[untasked..], "task_id");
    assert!(tasks.windows(2).all(|w| w[0] <= w[1]), "ascending task ids");

    // A listed trajectory is found by its id; an id written otherwise is not.
    let last = ids[ids.len() - 1];
    let one = get_json(&c, b, &format!("/api/v1/trajectories/{last}"), 200).await;
    assert_eq!(one["trajectory_id"], last);
    let (head, sample) = last.rsplit_once('_').unwrap();
    get_json(
        &c,
        b,
        &format!("/api/v1/trajectories/{head}_0{sample}"),
        404,
    )
    .await;

    let test_tasks = walk(
        &c,
        b,
        "/api/v1/benchmarks/bench_codefix_v2/tasks?split=test",
        200,
    )
    .await;
    assert_eq!(test_tasks.len(), 3_023);
    assert_eq!(test_tasks[0]["task_id"], "cf-0001");
}
