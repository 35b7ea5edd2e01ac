//! Same seed, byte-identical responses; another seed, other outcomes.
#![allow(clippy::unwrap_used)]

mod common;

use common::{client, demo, start};

/// Endpoints whose bodies do not depend on the running evaluation's progress.
const PATHS: [&str; 14] = [
    "/api/v1/agents",
    "/api/v1/benchmarks",
    "/api/v1/benchmarks/bench_codefix_v2/tasks?limit=200",
    "/api/v1/eval/eval_base_v2",
    "/api/v1/eval/eval_ckpt_s200_failed/progress",
    "/api/v1/eval/eval_base_v2/trajectory-rewards?limit=200",
    "/api/v1/trajectories?eval_run_id=eval_ckpt_s300&limit=200",
    "/api/v1/trajectories/trj_s100_cf-0002_3?include_reward_components=true&include_steps=true",
    "/api/v1/trajectories/trj_basehot_cf-0011_0/steps",
    "/api/v1/train/train_codefix_grpo",
    "/api/v1/train/train_codefix_grpo/step/held-out-reward-by-step",
    "/v1/backtests/jobs/job_s300/trials?limit=100",
    "/v1/backtests/jobs/job_compare_base_s400/trials/trial_s400_cf-0012",
    "/v1/task-suites/suite_codefix_smoke/eval-runs?job_id=job_s100",
];

async fn bodies(seed: u64) -> Vec<Vec<u8>> {
    let server = start(demo(seed)).await;
    let c = client();
    let mut bodies = Vec::new();
    for path in PATHS {
        let response = c
            .get(format!("{}{path}", server.base))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status().as_u16(), 200, "{path}");
        bodies.push(response.bytes().await.unwrap().to_vec());
    }
    bodies
}

#[tokio::test]
async fn the_same_seed_gives_byte_identical_bodies() {
    let (a, b) = (bodies(11).await, bodies(11).await);
    for (i, path) in PATHS.iter().enumerate() {
        assert_eq!(a[i], b[i], "{path}");
    }
}

#[tokio::test]
async fn another_seed_gives_other_outcomes_under_the_same_ids() {
    let (a, b) = (bodies(11).await, bodies(12).await);
    // Ids and names are fixed; outcomes differ.
    assert_eq!(a[0], b[0], "the agent does not depend on the seed");
    for i in [5, 6, 7] {
        assert_ne!(a[i], b[i], "{}", PATHS[i]);
    }
}
