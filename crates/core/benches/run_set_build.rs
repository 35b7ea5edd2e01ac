//! The run set's build as the page does it after a load: two runs of 100,000 tasks × 8
//! samples, each list kept packed as the load engine keeps it (pages read by the plain scanner,
//! their texts shared), the rewards listed by task and the trajectories by creation time (no
//! id order: the join hashes and sorts), built a step of 20,000 items at a time
//! ([`RunSetBuilder::start_api_run`], [`ApiRunJoin::advance`], then the grouping by task), as
//! `load::RunSetBuild` steps it between paints. Besides criterion's figure, the longest step is
//! printed once (a step must stay short: the page yields between them).
//!
//! Run: `cargo bench -p eval-compare-core --bench run_set_build`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::fmt::Write;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use eval_compare_core::api::{decode, BenchmarkSpecTask, EvalRun};
use eval_compare_core::large_list::{
    decode_plain, PackedReward, PackedRewardsPage, PackedTrajectory, PackedTrajectoryPage,
};
use eval_compare_core::model::{ApiRun, RunSet, RunSetBuilder, SourceKind};

const TASKS: usize = 100_000;
const SAMPLES: usize = 8;
const PAGE: usize = 1000;
/// Items a step walks, as the viewer's `ITEMS_PER_STEP`.
const STEP: usize = 20_000;

/// Deterministic pseudo-random numbers (SplitMix64).
struct Mix(u64);
impl Mix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// One run as the load engine keeps it.
struct KeptRun {
    run: EvalRun,
    rewards: Vec<PackedReward>,
    trajectories: Vec<PackedTrajectory>,
}

/// Endings as a finished run has them, most trajectories done.
const ENDINGS: [(&str, f64); 4] = [
    ("ENV_DONE", 0.85),
    ("MAX_TURNS_REACHED", 0.08),
    ("EXECUTION_TIMEOUT", 0.05),
    ("SANDBOX_ERROR", 0.02),
];

/// Items as the pages of a list, each page decoded by the plain scanner as the load does.
fn pages_of(items: &[String], extra: &str) -> Vec<Vec<u8>> {
    let chunks: Vec<&[String]> = items.chunks(PAGE).collect();
    let last = chunks.len() - 1;
    chunks
        .iter()
        .enumerate()
        .map(|(i, chunk)| {
            let mut page = String::from("{\"items\":[");
            page.push_str(&chunk.join(","));
            let more = i < last;
            let cursor = if more {
                format!("\"c{}\"", i + 1)
            } else {
                "null".into()
            };
            let _ = write!(
                page,
                "],\"next_cursor\":{cursor},\"has_more\":{more}{extra}}}"
            );
            page.into_bytes()
        })
        .collect()
}

fn kept_run(run: usize) -> KeptRun {
    let mut rng = Mix(run as u64 + 1);
    let tag = format!("r{run}x7f3a");
    let mut rewards = Vec::with_capacity(TASKS * SAMPLES);
    // (created second, item): the trajectories are listed by creation time.
    let mut trajectories: Vec<(u64, String)> = Vec::with_capacity(TASKS * SAMPLES);
    for task in 0..TASKS {
        let task_id = format!("codefix-{task:06}");
        for sample in 0..SAMPLES {
            let id = format!("trj_{tag}_{task_id}_{sample}");
            let draw = rng.unit();
            let mut at = 0.0;
            let ending = ENDINGS
                .iter()
                .find(|(_, share)| {
                    at += share;
                    draw < at
                })
                .map_or("ENV_DONE", |(ending, _)| ending);
            let failed = ending == "SANDBOX_ERROR";
            let reward = if rng.unit() < 0.6 { 1.0 } else { 0.0 };
            if !failed {
                rewards.push(format!(
                    r#"{{"trajectory_id":"{id}","reward":{reward:.1},"task_id":"{task_id}"}}"#
                ));
            }
            let reward_field = if failed {
                "null".to_owned()
            } else {
                format!("{reward:.1}")
            };
            let second = rng.next() % 86_400;
            let created = format!(
                "2026-11-01T{:02}:{:02}:{:02}Z",
                second / 3600,
                second / 60 % 60,
                second % 60
            );
            trajectories.push((second, format!(
                r#"{{"trajectory_id":"{id}","organization_id":"org","source":"eval","status":"completed","termination_reason":"{ending}","reward":{reward_field},"num_steps":{},"created_at":"{created}","task_id":"{task_id}","rollout":{{"rollout_id":"ro_{tag}_{task_id}_{sample}","status":"COMPLETED","termination_reason":"{ending}"}}}}"#,
                3 + rng.next() % 20
            )));
        }
    }
    trajectories.sort();
    let trajectories: Vec<String> = trajectories.into_iter().map(|(_, item)| item).collect();
    let mut kept = KeptRun {
        run: decode(format!(
            r#"{{"eval_run_id":"er_{run}","agent_id":"agent","bench_id":"bench","display_name":"run {run}","options":{{"temperature":0.7}},"status":"completed","created_at":"2026-11-01T00:00:00Z","updated_at":"2026-11-01T00:00:00Z"}}"#
        ).as_bytes())
        .unwrap(),
        rewards: Vec::with_capacity(rewards.len()),
        trajectories: Vec::with_capacity(trajectories.len()),
    };
    for page in pages_of(&rewards, &format!(",\"eval_run_id\":\"er_{run}\"")) {
        kept.rewards
            .extend(decode_plain::<PackedRewardsPage>(&page).unwrap().items);
    }
    for page in pages_of(&trajectories, "") {
        kept.trajectories
            .extend(decode_plain::<PackedTrajectoryPage>(&page).unwrap().items);
    }
    kept
}

fn benchmark_tasks() -> Vec<BenchmarkSpecTask> {
    let json: Vec<String> = (0..TASKS)
        .map(|t| {
            format!(
                r#"{{"task_id":"codefix-{t:06}","label":"Task {t}","split":"test","task_categories":[{{"task_category_id":"c{}","label":"Category {}"}}]}}"#,
                t % 8,
                t % 8
            )
        })
        .collect();
    decode(format!("[{}]", json.join(",")).as_bytes()).unwrap()
}

/// The parts of the build whose longest step is told apart.
const PARTS: [&str; 3] = ["task list", "join", "grouping"];

/// The stepped build, as `load::RunSetBuild` does it; the run set and the longest step of
/// each of [`PARTS`].
fn build_stepped(runs: &[KeptRun], tasks: &[BenchmarkSpecTask]) -> (RunSet, [Duration; 3]) {
    let mut longest = [Duration::ZERO; 3];
    let mut timed = |part: usize, step: &mut dyn FnMut() -> bool| loop {
        let started = Instant::now();
        let done = step();
        longest[part] = longest[part].max(started.elapsed());
        if done {
            break;
        }
    };
    let mut builder = RunSetBuilder::new();
    for run in runs {
        let mut at = 0;
        timed(0, &mut || {
            let end = (at + STEP).min(tasks.len());
            builder.add_api_tasks(&tasks[at..end]).unwrap();
            at = end;
            at == tasks.len()
        });
        let mut join = builder
            .start_api_run(ApiRun {
                run: &run.run,
                rewards: &run.rewards,
                trajectories: &run.trajectories,
                source: SourceKind::Api,
                incomplete_load: None,
            })
            .unwrap();
        timed(1, &mut || {
            join.advance(&mut builder, &run.rewards, &run.trajectories, STEP)
                .unwrap()
        });
        join.finish(&mut builder).unwrap();
    }
    let mut finishing = builder.finishing();
    timed(2, &mut || finishing.finish_step(STEP));
    (finishing.build(), longest)
}

/// Nanoseconds this thread has run on a core (`/proc/thread-self/schedstat`), where known.
fn on_core_ns() -> Option<u64> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    stat.split_whitespace().next()?.parse().ok()
}

fn run_set_build(c: &mut Criterion) {
    let runs = [kept_run(0), kept_run(1)];
    let tasks = benchmark_tasks();
    let (set, longest) = build_stepped(&runs, &tasks);
    eprintln!(
        "run set of {} trajectories",
        set.runs()
            .iter()
            .map(|run| run.trajectory_count())
            .sum::<usize>()
    );
    for (part, longest) in PARTS.iter().zip(longest) {
        eprintln!(
            "  longest step of the {part}: {:.2} ms",
            longest.as_secs_f64() * 1000.0
        );
    }
    drop(set);
    // The fastest of a few builds, by the clock and by the time this thread was on a core
    // (Linux): on a machine shared with other work, criterion's mean moves with the load.
    let (wall, on_core) = (0..5)
        .map(|_| {
            let (started, on_core) = (Instant::now(), on_core_ns());
            drop(build_stepped(&runs, &tasks));
            let on_core = on_core.zip(on_core_ns()).map(|(from, to)| to - from);
            (started.elapsed(), on_core)
        })
        .fold((Duration::MAX, None::<u64>), |(wall, core), (w, c)| {
            (wall.min(w), c.map(|c| core.map_or(c, |core| core.min(c))))
        });
    eprintln!(
        "  fastest of 5 builds: {:.0} ms; on a core: {}",
        wall.as_secs_f64() * 1000.0,
        on_core.map_or("unknown".to_owned(), |ns| format!(
            "{:.0} ms",
            ns as f64 / 1e6
        ))
    );
    let mut group = c.benchmark_group("run_set_build_2x100k_tasks_x8");
    group.sample_size(10);
    let items: usize = runs
        .iter()
        .map(|run| run.rewards.len() + run.trajectories.len())
        .sum();
    group.throughput(Throughput::Elements(items as u64));
    group.bench_function("stepped_packed_join", |b| {
        b.iter(|| build_stepped(&runs, &tasks))
    });
    group.finish();
}

criterion_group!(benches, run_set_build);
criterion_main!(benches);
