//! The analysis pipeline at 2 runs × 100,000 tasks × 8 samples, one figure per stage:
//! decoding the API's JSON pages (into the full types, as the load engine keeps them, and into
//! the lean ones, as a report from run folders reads them), building the RunSet (the join on
//! trajectory id) from each form, the report without bootstrap, and the paired bootstrap with
//! B = 2000; then the whole pipeline without bootstrap as the CLI runs it on the machine's cores
//! (run folders held in memory: each list fed 8 MiB at a time and decoded packed, the folders
//! side by side, the runs joined side by side, built, reported).
//!
//! Run: `cargo bench -p eval-compare-core --bench report_pipeline`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use eval_compare_core::api::{
    decode, BenchmarkSpecTask, EvalRun, EvalTrajectoryRewardsPage, Page, TrajectoryMetadata,
};
use eval_compare_core::large_list::{
    decode_plain, AsRewardFacts, AsTrajectoryFacts, LeanReward, LeanTrajectory, PackedReward,
    PackedRewardsPage, PackedTrajectory, PackedTrajectoryPage, PlainItem,
};
use eval_compare_core::model::{ApiRun, RunIdx, RunSet, RunSetBuilder, SourceKind};
use eval_compare_core::parallel::map_in_parallel;
use eval_compare_core::report::{build_report, ReportSettings};
use eval_compare_core::run_folder::{
    finish_run_folder, parse_list, parse_run_record, Folder, FolderSetBuilder, ParsedList,
    RunFolderExtras,
};
use eval_compare_core::stats::{paired_bootstrap, BootstrapSettings};
use eval_compare_core::testing::feed::feed_in_chunks;
use std::fmt::Write;

const TASKS: usize = 100_000;
const SAMPLES: usize = 8;
const PAGE: usize = 200;

/// Deterministic pseudo-random numbers (SplitMix64) for the synthetic data.
struct Mix(u64);
impl Mix {
    fn next(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// One run's API pages as the server would send them (JSON bytes), 200 items a page.
struct RunPages {
    run: Vec<u8>,
    rewards: Vec<Vec<u8>>,
    trajectories: Vec<Vec<u8>>,
}

fn run_pages(run: usize, shift: f64) -> RunPages {
    let mut rng = Mix(run as u64 + 1);
    let mut reward_items = Vec::with_capacity(TASKS * SAMPLES);
    let mut meta_items = Vec::with_capacity(TASKS * SAMPLES);
    for task in 0..TASKS {
        let difficulty = (task as f64 * 0.618_033_988_75).fract();
        for s in 0..SAMPLES {
            let id = format!("tr-{run}-{task:06}-{s}");
            let failed = rng.next() < 0.02;
            let pass = rng.next() < (1.0 - difficulty + shift).clamp(0.0, 1.0);
            let reward = if pass { 1.0 } else { 0.0 };
            if !failed {
                reward_items.push(format!(
                    r#"{{"trajectory_id":"{id}","reward":{reward:.1},"task_id":"task-{task:06}"}}"#
                ));
            }
            let (ending, reward_field) = if failed {
                ("ERROR", "null".to_owned())
            } else {
                ("ENV_DONE", format!("{reward:.1}"))
            };
            meta_items.push(format!(
                r#"{{"trajectory_id":"{id}","organization_id":"org","source":"eval","status":"completed","termination_reason":"{ending}","reward":{reward_field},"num_steps":12,"created_at":"2026-11-01T00:00:00Z","task_id":"task-{task:06}","rollout":{{"rollout_id":"ro-{id}","status":"COMPLETED","termination_reason":"{ending}"}}}}"#
            ));
        }
    }
    let pages = |items: &[String], extra: &str| -> Vec<Vec<u8>> {
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
    };
    let run_json = format!(
        r#"{{"eval_run_id":"er_{run}","agent_id":"agent","bench_id":"bench","display_name":"run {run}","options":{{"temperature":0.7}},"status":"completed","created_at":"2026-11-01T00:00:00Z","updated_at":"2026-11-01T00:00:00Z"}}"#
    );
    RunPages {
        run: run_json.into_bytes(),
        rewards: pages(&reward_items, &format!(",\"eval_run_id\":\"er_{run}\"")),
        trajectories: pages(&meta_items, ""),
    }
}

/// Decoded items of one run.
struct Decoded<R = eval_compare_core::api::EvalTrajectoryReward, T = TrajectoryMetadata> {
    run: EvalRun,
    rewards: Vec<R>,
    trajectories: Vec<T>,
}

/// The items of a list's pages, decoded as `T`.
fn page_items<'a, T: serde::Deserialize<'a>>(pages: &'a [Vec<u8>]) -> Vec<T> {
    let mut items = Vec::with_capacity(TASKS * SAMPLES);
    for page in pages {
        items.extend(decode::<Page<T>>(page).unwrap().items);
    }
    items
}

/// One run's pages decoded with the list items as `R` and `T` (lean, packed).
fn decode_run_as<'a, R: serde::Deserialize<'a>, T: serde::Deserialize<'a>>(
    pages: &'a RunPages,
) -> Decoded<R, T> {
    Decoded {
        run: decode(&pages.run).unwrap(),
        rewards: page_items(&pages.rewards),
        trajectories: page_items(&pages.trajectories),
    }
}

fn decode_run_lean(pages: &RunPages) -> Decoded<LeanReward<'_>, LeanTrajectory<'_>> {
    decode_run_as(pages)
}

/// Decoded as the load engine keeps them.
fn decode_run_packed(pages: &RunPages) -> Decoded<PackedReward, PackedTrajectory> {
    decode_run_as(pages)
}

/// One run's pages decoded as the load engine reads them: packed, through the plain scanner
/// (`decode_plain`), serde for what is not plain.
fn decode_run_plain(pages: &RunPages) -> Decoded<PackedReward, PackedTrajectory> {
    let mut rewards = Vec::with_capacity(TASKS * SAMPLES);
    for page in &pages.rewards {
        rewards.extend(decode_plain::<PackedRewardsPage>(page).unwrap().items);
    }
    let mut trajectories = Vec::with_capacity(TASKS * SAMPLES);
    for page in &pages.trajectories {
        trajectories.extend(decode_plain::<PackedTrajectoryPage>(page).unwrap().items);
    }
    Decoded {
        run: decode(&pages.run).unwrap(),
        rewards,
        trajectories,
    }
}

fn decode_run(pages: &RunPages) -> Decoded {
    let mut rewards = Vec::with_capacity(TASKS * SAMPLES);
    for page in &pages.rewards {
        rewards.extend(decode::<EvalTrajectoryRewardsPage>(page).unwrap().items);
    }
    let mut trajectories = Vec::with_capacity(TASKS * SAMPLES);
    for page in &pages.trajectories {
        trajectories.extend(decode::<Page<TrajectoryMetadata>>(page).unwrap().items);
    }
    Decoded {
        run: decode(&pages.run).unwrap(),
        rewards,
        trajectories,
    }
}

fn build<R: AsRewardFacts, T: AsTrajectoryFacts>(
    decoded: &[Decoded<R, T>],
    tasks: &[BenchmarkSpecTask],
) -> RunSet {
    let mut builder = RunSetBuilder::new();
    builder.add_api_tasks(tasks).unwrap();
    for d in decoded {
        builder
            .add_api_run(ApiRun {
                run: &d.run,
                rewards: &d.rewards,
                trajectories: &d.trajectories,
                source: eval_compare_core::model::SourceKind::Api,
                incomplete_load: None,
            })
            .unwrap();
    }
    builder.build()
}

/// One run's folder files as `eval-compare export` writes them (lists as arrays of pages), the
/// first run's with the benchmark's `tasks.json`.
struct FolderContents {
    run: Vec<u8>,
    rewards: Vec<u8>,
    trajectories: Vec<u8>,
    tasks: Option<Vec<u8>>,
}

fn folder_contents(pages: &RunPages, tasks: Option<Vec<u8>>) -> FolderContents {
    let array = |pages: &[Vec<u8>]| [&b"["[..], &pages.join(&b","[..]), b"]"].concat();
    FolderContents {
        run: pages.run.clone(),
        rewards: array(&pages.rewards),
        trajectories: array(&pages.trajectories),
        tasks,
    }
}

/// The CLI's report from run folders without the bootstrap: the folders decoded packed on the
/// machine's cores, their runs joined side by side, the report built.
fn report_from_folders(folders: &[FolderContents], settings: &ReportSettings) -> usize {
    // As the CLI reads a folder (`read_packed_folder`): the run record, then each list fed
    // 8 MiB at a time, told its size, then the folder put together.
    let parsed = map_in_parallel(folders, |files| {
        finish_run_folder(
            RunFolderExtras::from_files(|_| None),
            parse_run_record(&files.run).unwrap(),
            fed::<PackedReward>(&files.rewards),
            fed::<PackedTrajectory>(&files.trajectories),
            files.tasks.as_deref().map(fed),
        )
        .unwrap()
    });
    let folders: Vec<Folder<_, _>> = parsed
        .into_iter()
        .map(|run| Folder::Trajectory(Box::new(run)))
        .collect();
    let mut builder = FolderSetBuilder::new();
    builder.add_all(folders, SourceKind::Files).unwrap();
    let set = builder.build();
    let report = build_report(&set, RunIdx(0), &[RunIdx(1)], settings).unwrap();
    report.tasks.len()
}

/// A list file fed to a `ListFeed` 8 MiB at a time, as the viewer's Files page reads it.
fn fed<T: PlainItem>(bytes: &[u8]) -> ParsedList<T> {
    feed_in_chunks(bytes, 8 << 20, usize::MAX).expect("a valid list")
}

fn benchmark_tasks_json() -> String {
    let json: Vec<String> = (0..TASKS)
        .map(|t| {
            format!(
                r#"{{"task_id":"task-{t:06}","label":"Task {t}","split":"test","task_categories":[{{"task_category_id":"c{}","label":"Category {}"}}]}}"#,
                t % 8,
                t % 8
            )
        })
        .collect();
    format!("[{}]", json.join(","))
}

fn benchmark_tasks() -> Vec<BenchmarkSpecTask> {
    decode(benchmark_tasks_json().as_bytes()).unwrap()
}

fn pipeline(c: &mut Criterion) {
    let pages = [run_pages(0, 0.0), run_pages(1, 0.02)];
    let bytes: usize = pages
        .iter()
        .map(|p| {
            p.rewards
                .iter()
                .chain(&p.trajectories)
                .map(Vec::len)
                .sum::<usize>()
        })
        .sum();
    let items = (2 * 2 * TASKS * SAMPLES) as u64;
    let mut group = c.benchmark_group("pipeline_2x100k_tasks_x8");
    group.sample_size(10);

    group.throughput(Throughput::Bytes(bytes as u64));
    group.bench_function("decode_api_pages", |b| {
        b.iter(|| pages.iter().map(decode_run).collect::<Vec<_>>())
    });

    group.bench_function("decode_api_pages_lean", |b| {
        b.iter(|| pages.iter().map(decode_run_lean).collect::<Vec<_>>())
    });

    group.bench_function("decode_api_pages_packed", |b| {
        b.iter(|| pages.iter().map(decode_run_packed).collect::<Vec<_>>())
    });

    group.bench_function("decode_api_pages_packed_plain", |b| {
        b.iter(|| pages.iter().map(decode_run_plain).collect::<Vec<_>>())
    });

    // The viewer's Files page reads a list as it arrives (8 MiB pushes, `ListFeed`); the CLI
    // reads it whole (`parse_list`): the same lists, as one array of items each.
    let folders: Vec<FolderContents> = pages.iter().map(|p| folder_contents(p, None)).collect();
    group.bench_function("decode_folder_lists_packed_whole", |b| {
        b.iter(|| {
            folders
                .iter()
                .map(|folder| {
                    let rewards = parse_list::<PackedReward>("r", &folder.rewards).unwrap();
                    let trajectories =
                        parse_list::<PackedTrajectory>("t", &folder.trajectories).unwrap();
                    (rewards, trajectories)
                })
                .collect::<Vec<_>>()
        })
    });
    group.bench_function("decode_folder_lists_packed_fed_8mib", |b| {
        b.iter(|| {
            folders
                .iter()
                .map(|folder| {
                    let rewards = fed::<PackedReward>(&folder.rewards);
                    let trajectories = fed::<PackedTrajectory>(&folder.trajectories);
                    (rewards, trajectories)
                })
                .collect::<Vec<_>>()
        })
    });
    drop(folders);

    let decoded: Vec<Decoded> = pages.iter().map(decode_run).collect();
    let lean: Vec<Decoded<_, _>> = pages.iter().map(decode_run_lean).collect();
    let packed: Vec<Decoded<_, _>> = pages.iter().map(decode_run_packed).collect();
    let tasks = benchmark_tasks();
    group.throughput(Throughput::Elements(items));
    group.bench_function("build_run_set_join", |b| b.iter(|| build(&decoded, &tasks)));
    group.bench_function("build_run_set_join_lean", |b| {
        b.iter(|| build(&lean, &tasks))
    });
    group.bench_function("build_run_set_join_packed", |b| {
        b.iter(|| build(&packed, &tasks))
    });

    let set = build(&lean, &tasks);
    let no_bootstrap = ReportSettings {
        resamples: 0,
        ..ReportSettings::default()
    };
    group.throughput(Throughput::Elements(TASKS as u64));
    group.bench_function("report_without_bootstrap", |b| {
        b.iter(|| build_report(&set, RunIdx(0), &[RunIdx(1)], &no_bootstrap).unwrap())
    });

    let scores = set
        .paired(
            RunIdx(0),
            RunIdx(1),
            eval_compare_core::model::Analysis::Primary,
        )
        .unwrap();
    let deltas: Vec<f64> = scores
        .base
        .iter()
        .zip(&scores.cand)
        .map(|(b, c)| c - b)
        .collect();
    let settings = BootstrapSettings {
        resamples: 2000,
        seed: 7,
        level: 0.95,
    };
    group.bench_function("paired_bootstrap_b2000", |b| {
        b.iter_batched(
            || deltas.clone(),
            |d| paired_bootstrap(&d, &settings).unwrap(),
            BatchSize::LargeInput,
        )
    });

    let folders = [
        folder_contents(&pages[0], Some(benchmark_tasks_json().into_bytes())),
        folder_contents(&pages[1], None),
    ];
    drop((decoded, lean, set));
    group.throughput(Throughput::Bytes(bytes as u64));
    group.bench_function("pipeline_without_bootstrap_on_cores", |b| {
        b.iter(|| report_from_folders(&folders, &no_bootstrap))
    });
    group.finish();
}

criterion_group!(benches, pipeline);
criterion_main!(benches);
