//! Decoding the two large lists' pages from their JSON line in its kept form (the plain
//! scanner, `decode_plain`, what the viewer reads today) and from their packed wire frame
//! (`decode_trajectory_page`): 1,000 pages of 100 items shaped as the demo lists them, a
//! trajectory in fifty with a harness diagnostic (left to serde by the scanner). Prints the
//! bytes of either form once.
//!
//! `EVAL_COMPARE_BENCH_TRAJECTORY_LINES` / `EVAL_COMPARE_BENCH_REWARD_LINES` may name a file of
//! page lines (a run folder's list, or a stream's body without its trailer) to measure those
//! instead.

use criterion::{criterion_group, criterion_main, Criterion};
use eval_compare_core::large_list::{
    decode_plain, decode_reward_page, decode_trajectory_page, encode_reward_page,
    encode_trajectory_page, PackedRewardsPage, PackedTrajectoryPage,
};
use std::hint::black_box;

const PAGES: u32 = 1000;
const PER_PAGE: u32 = 100;

/// A trajectory in the demo's kept form: the `n`th of the list.
fn trajectory(n: u32) -> String {
    let (task, attempt) = (n / 8, n % 8);
    let reward = f64::from(n * 7 % 17) / 16.0;
    let steps = n % 29 + 1;
    let rollout_end = if n % 50 == 7 {
        r#""termination_reason":"ERROR","harness_diagnostic":{"category":"timeout","exception_chain":["sandbox.WallClockExceeded"],"locations":["sandbox-supervisor"],"preceding_tracebacks":[],"exit_code":137,"exception_messages":["sandbox exceeded its 1800 s wall-clock limit"]}"#
    } else {
        r#""termination_reason":"ENV_DONE""#
    };
    format!(
        r#"{{"trajectory_id":"trj_basev2_cf-{task:06}_{attempt}","organization_id":"org_demo","source":"eval","status":"completed","termination_reason":"ENV_DONE","reward":{reward:?},"num_steps":{steps},"created_at":"2026-09-22T12:52:{:02}Z","task_id":"cf-{task:06}","rollout":{{"rollout_id":"ro_basev2_cf-{task:06}_{attempt}","status":"COMPLETED",{rollout_end}}}}}"#,
        n / 100 % 60
    )
}

/// A reward in the demo's kept form: the `n`th of the list.
fn reward(n: u32) -> String {
    let (task, attempt) = (n / 8, n % 8);
    let reward = f64::from(n * 7 % 17) / 16.0;
    format!(
        r#"{{"trajectory_id":"trj_basev2_cf-{task:06}_{attempt}","reward":{reward:?},"task_id":"cf-{task:06}"}}"#
    )
}

/// 1,000 page lines of 100 items, `item` the list's `n`th, `head` the page's first members.
fn pages(item: fn(u32) -> String, head: &str) -> Vec<Vec<u8>> {
    (0..PAGES)
        .map(|page| {
            let items: Vec<String> = (0..PER_PAGE).map(|n| item(page * PER_PAGE + n)).collect();
            format!(
                r#"{{{head}"items":[{}],"next_cursor":"djEfNTE3MDk2Y2YzM2FhMDI4Zh8yMDI2LTA5LTIyVDEyOjUyOjQ1Wh90cmpf{page}","has_more":true}}"#,
                items.join(",")
            )
            .into_bytes()
        })
        .collect()
}

/// The page lines of the file `variable` names, when it is set.
fn lines_from(variable: &str) -> Option<Vec<Vec<u8>>> {
    let path = std::env::var_os(variable)?;
    let text = std::fs::read(path).ok()?;
    Some(
        text.split(|&byte| byte == b'\n')
            .filter(|line| line.starts_with(b"{\"items\"") || line.starts_with(b"{\"eval_run_id\""))
            .map(<[u8]>::to_vec)
            .collect(),
    )
}

fn bytes(lines: &[Vec<u8>]) -> usize {
    lines.iter().map(Vec::len).sum()
}

fn decode_pages(c: &mut Criterion) {
    let trajectories =
        lines_from("EVAL_COMPARE_BENCH_TRAJECTORY_LINES").unwrap_or_else(|| pages(trajectory, ""));
    let rewards = lines_from("EVAL_COMPARE_BENCH_REWARD_LINES")
        .unwrap_or_else(|| pages(reward, r#""eval_run_id":"eval_base_v2","#));
    let trajectory_frames: Vec<Vec<u8>> = trajectories
        .iter()
        .map(|line| encode_trajectory_page(line).expect("a page"))
        .collect();
    let reward_frames: Vec<Vec<u8>> = rewards
        .iter()
        .map(|line| encode_reward_page(line).expect("a page"))
        .collect();
    eprintln!(
        "trajectories: {} pages, {} B as JSON, {} B packed; rewards: {} pages, {} B as JSON, {} B packed",
        trajectories.len(),
        bytes(&trajectories),
        bytes(&trajectory_frames),
        rewards.len(),
        bytes(&rewards),
        bytes(&reward_frames),
    );

    let mut group = c.benchmark_group("packed_wire");
    group.sample_size(10);
    group.bench_function("trajectory pages, JSON (decode_plain)", |b| {
        b.iter(|| {
            for line in &trajectories {
                black_box(decode_plain::<PackedTrajectoryPage>(line).expect("a page"));
            }
        })
    });
    group.bench_function("trajectory pages, packed", |b| {
        b.iter(|| {
            for frame in &trajectory_frames {
                black_box(decode_trajectory_page(frame).expect("a page"));
            }
        })
    });
    group.bench_function("reward pages, JSON (decode_plain)", |b| {
        b.iter(|| {
            for line in &rewards {
                black_box(decode_plain::<PackedRewardsPage>(line).expect("a page"));
            }
        })
    });
    group.bench_function("reward pages, packed", |b| {
        b.iter(|| {
            for frame in &reward_frames {
                black_box(decode_reward_page(frame).expect("a page"));
            }
        })
    });
    group.bench_function("trajectory pages, packing (the server's)", |b| {
        b.iter(|| {
            for line in &trajectories {
                black_box(encode_trajectory_page(line).expect("a page"));
            }
        })
    });
    group.finish();
}

criterion_group!(benches, decode_pages);
criterion_main!(benches);
