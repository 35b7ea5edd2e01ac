//! The JSON cursor's hot loops (`large_list/cursor.rs`: plain strings and values skipped by
//! their brackets) under what runs them at scale: the viewer's `decode_plain` of the kept
//! trajectory and reward pages, and the server's page scans of the API's trajectory pages (a
//! raw page, its items skipped, and the kept form written from it).
//!
//! `EVAL_COMPARE_BENCH_TRAJECTORY_LINES` / `EVAL_COMPARE_BENCH_REWARD_LINES` may name a file of
//! kept page lines (a stream's body: `head -n 2000` of the demo's trajectories); otherwise 200
//! pages of 200 items shaped as the demo lists them are measured. The API's form of the
//! trajectory pages is the kept lines decoded and written again by serde (every field the
//! contract has, the absent ones null), as the demo server writes them.
//!
//! Run: `cargo bench -p eval-compare-core --bench large_list_cursor`.
#![allow(clippy::unwrap_used)]

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use eval_compare_core::api::{Page, TrajectoryMetadata};
use eval_compare_core::large_list::{
    decode_plain, read_kept_trajectory_page, PackedRewardsPage, PackedTrajectoryPage,
    RawTrajectoryPage,
};
use std::hint::black_box;

const PAGES: u32 = 200;
const PER_PAGE: u32 = 200;

/// A trajectory in the demo's kept form: the `n`th of the list, one in fifty with a harness
/// diagnostic.
fn trajectory(n: u32) -> String {
    let (task, attempt) = (n / 8, n % 8);
    let reward = f64::from(n * 7 % 17) / 16.0;
    let rollout_end = if n % 50 == 7 {
        r#""termination_reason":"ERROR","harness_diagnostic":{"category":"timeout","exception_chain":["sandbox.WallClockExceeded"],"locations":["sandbox-supervisor"],"preceding_tracebacks":[],"exit_code":137,"exception_messages":["sandbox exceeded its 1800 s wall-clock limit"]}"#
    } else {
        r#""termination_reason":"ENV_DONE""#
    };
    format!(
        r#"{{"trajectory_id":"trj_basev2_cf-{task:06}_{attempt}","organization_id":"org_demo","source":"eval","status":"completed","termination_reason":"ENV_DONE","reward":{reward:?},"num_steps":{},"created_at":"2026-09-22T12:52:{:02}Z","task_id":"cf-{task:06}","rollout":{{"rollout_id":"ro_basev2_cf-{task:06}_{attempt}","status":"COMPLETED",{rollout_end}}}}}"#,
        n % 29 + 1,
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

/// The page lines of `item`, `head` the page's first members.
fn pages(item: fn(u32) -> String, head: &str) -> Vec<String> {
    (0..PAGES)
        .map(|page| {
            let items: Vec<String> = (0..PER_PAGE).map(|n| item(page * PER_PAGE + n)).collect();
            format!(
                r#"{{{head}"items":[{}],"next_cursor":"djEfNTE3MDk2Y2YzM2FhMDI4Zh8yMDI2LTA5LTIyVDEyOjUyOjQ1Wh90cmpf{page}","has_more":true}}"#,
                items.join(",")
            )
        })
        .collect()
}

/// The page lines of the file `variable` names, when it is set.
fn lines_from(variable: &str) -> Option<Vec<String>> {
    let text = std::fs::read_to_string(std::env::var_os(variable)?).unwrap();
    Some(
        text.lines()
            .filter(|line| line.starts_with("{\"items\"") || line.starts_with("{\"eval_run_id\""))
            .map(str::to_owned)
            .collect(),
    )
}

/// The API's form of a kept trajectory page: every field of the contract written.
fn api_form(line: &str) -> String {
    let page: Page<TrajectoryMetadata> = serde_json::from_str(line).unwrap();
    serde_json::to_string(&page).unwrap()
}

fn bytes(lines: &[String]) -> u64 {
    lines.iter().map(|line| line.len() as u64).sum()
}

fn cursor_loops(c: &mut Criterion) {
    let trajectories =
        lines_from("EVAL_COMPARE_BENCH_TRAJECTORY_LINES").unwrap_or_else(|| pages(trajectory, ""));
    let rewards = lines_from("EVAL_COMPARE_BENCH_REWARD_LINES")
        .unwrap_or_else(|| pages(reward, r#""eval_run_id":"eval_base_v2","#));
    let api: Vec<String> = trajectories.iter().map(|line| api_form(line)).collect();
    // Every page is read by the scanners, none left to serde whole.
    assert!(api
        .iter()
        .all(|line| read_kept_trajectory_page(line).is_some()));

    let mut group = c.benchmark_group("large_list_cursor");
    group.sample_size(10);
    group.throughput(Throughput::Bytes(bytes(&trajectories)));
    group.bench_function("kept trajectory pages, decode_plain", |b| {
        b.iter(|| {
            for line in &trajectories {
                black_box(decode_plain::<PackedTrajectoryPage>(line.as_bytes()).unwrap());
            }
        })
    });
    group.throughput(Throughput::Bytes(bytes(&rewards)));
    group.bench_function("kept reward pages, decode_plain", |b| {
        b.iter(|| {
            for line in &rewards {
                black_box(decode_plain::<PackedRewardsPage>(line.as_bytes()).unwrap());
            }
        })
    });
    group.throughput(Throughput::Bytes(bytes(&trajectories)));
    group.bench_function("kept trajectory pages, raw page scan", |b| {
        b.iter(|| {
            for line in &trajectories {
                black_box(decode_plain::<RawTrajectoryPage>(line.as_bytes()).unwrap());
            }
        })
    });
    group.throughput(Throughput::Bytes(bytes(&api)));
    group.bench_function("API trajectory pages, raw page scan", |b| {
        b.iter(|| {
            for line in &api {
                black_box(decode_plain::<RawTrajectoryPage>(line.as_bytes()).unwrap());
            }
        })
    });
    group.bench_function("API trajectory pages, kept form read", |b| {
        b.iter(|| {
            for line in &api {
                black_box(read_kept_trajectory_page(line).unwrap());
            }
        })
    });
    group.finish();
}

criterion_group!(benches, cursor_loops);
criterion_main!(benches);
