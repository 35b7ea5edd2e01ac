//! The pages cut in place from kept orders are the pages of the generic path: every list built
//! whole, sorted and cut ([`paginate`]), walked page by page on the default dataset.

use std::fmt::Debug;

use super::benchmarks::{tasks_slice, TaskFilter};
use super::eval_runs::{remaining_slice, rewards_slice};
use super::sort_key;
use super::trajectories::{run_trajectories_slice, trajectory_entries, TrajectorySort};
use crate::dataset::live::Progress;
use crate::dataset::runs::EvalRun;
use crate::dataset::{Dataset, DEFAULT_SEED};
use crate::demo::paginate::{paginate, PageRequest, Slice};
use crate::demo::query::Order;
use crate::demo::render;
use crate::error::ApiError;

const LIMITS: [usize; 3] = [7, 64, 200];

/// Walks every page of one list both ways and asserts they agree page by page (items and
/// cursors); returns the pages walked.
fn same_pages<T: PartialEq + Debug>(
    what: &str,
    limit: usize,
    fast: impl Fn(&PageRequest<'_>) -> Result<Slice<T>, ApiError>,
    generic: impl Fn(&PageRequest<'_>) -> Result<Slice<T>, ApiError>,
) -> usize {
    let mut cursor: Option<String> = None;
    let mut pages = 0;
    loop {
        let request = PageRequest {
            scope: format!("test|{what}"),
            limit,
            cursor: cursor.as_deref(),
        };
        let (fast, generic) = (fast(&request).ok(), generic(&request).ok());
        assert_eq!(fast, generic, "{what}, limit {limit}, page {pages}");
        pages += 1;
        match fast.and_then(|page| page.next_cursor) {
            Some(next) => cursor = Some(next),
            None => return pages,
        }
    }
}

/// The runs whose lists differ in kind: the capped run on the first version, the run with
/// untasked attempts, the failed run and the running one.
fn runs(data: &Dataset) -> Vec<&EvalRun> {
    [
        "eval_base_v1",
        "eval_base_v2",
        "eval_ckpt_s200_failed",
        "eval_ckpt_s500",
    ]
    .iter()
    .filter_map(|id| data.run(id))
    .collect()
}

/// Where the running run stands in each walk: part way, and done.
const RUNNING: [f64; 2] = [0.6, f64::INFINITY];

#[test]
fn trajectory_rewards_pages_match_the_generic_path() {
    let data = Dataset::generate(DEFAULT_SEED);
    for run in runs(&data) {
        let bench = data.bench_of(run);
        for running in RUNNING {
            let progress = run.progress(Progress::at(running));
            let entries = || {
                run.attempts
                    .iter()
                    .filter_map(|a| {
                        let reward = a.reward_at(progress)?;
                        let task_id = a.task_recorded.then(|| bench.tasks[a.task].task_id.clone());
                        let trajectory_id = run.ids(bench, a).trajectory_id();
                        let key = match &task_id {
                            None => sort_key(&["0", &trajectory_id]),
                            Some(task) => sort_key(&["1", task, &trajectory_id]),
                        };
                        let item = eval_compare_core::api::EvalTrajectoryReward {
                            trajectory_id,
                            reward,
                            task_id,
                        };
                        Some((key, item))
                    })
                    .collect::<Vec<_>>()
            };
            for limit in LIMITS {
                let pages = same_pages(
                    &run.plan.eval_run_id,
                    limit,
                    |r| rewards_slice(bench, run, progress, r),
                    |r| paginate(entries(), Order::Asc, r),
                );
                assert!(pages > 1, "{} has several pages", run.plan.eval_run_id);
            }
        }
    }
}

#[test]
fn remaining_work_pages_match_the_generic_path() {
    let data = Dataset::generate(DEFAULT_SEED);
    let mut outstanding = 0;
    for run in runs(&data) {
        let bench = data.bench_of(run);
        for running in RUNNING {
            let progress = run.progress(Progress::at(running));
            let entries = || {
                run.attempts
                    .iter()
                    .filter_map(|a| render::remaining_attempt(bench, run, a, progress))
                    .map(|item| (item.sample_id.clone(), item))
                    .collect::<Vec<_>>()
            };
            outstanding += entries().len();
            for limit in LIMITS {
                same_pages(
                    &run.plan.eval_run_id,
                    limit,
                    |r| remaining_slice(bench, run, progress, r),
                    |r| paginate(entries(), Order::Asc, r),
                );
            }
        }
    }
    assert!(outstanding > 200, "the running run has outstanding work");
}

#[test]
fn one_runs_trajectory_pages_match_the_generic_path_for_every_sort_and_order() {
    let data = Dataset::generate(DEFAULT_SEED);
    let sorts = [
        TrajectorySort::CreatedAt,
        TrajectorySort::TrajectoryId,
        TrajectorySort::TaskId,
    ];
    for run in runs(&data) {
        let bench = data.bench_of(run);
        for running in RUNNING {
            let running = Progress::at(running);
            let progress = run.progress(running);
            for sort in sorts {
                let entries = trajectory_entries(&data, &[run], running, sort, None);
                for order in [Order::Asc, Order::Desc] {
                    for limit in [13, 200] {
                        same_pages(
                            &format!("{} {sort:?} {order:?}", run.plan.eval_run_id),
                            limit,
                            |r| run_trajectories_slice(bench, run, progress, sort, order, r),
                            |r| paginate(entries.clone(), order, r),
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn benchmark_task_pages_match_the_generic_path() {
    let data = Dataset::generate(DEFAULT_SEED);
    let splits = [None, Some("train"), Some("test"), Some("unassigned")];
    for bench in &data.benchmarks {
        for by_label in [false, true] {
            for split in splits {
                for environment in [None, Some("ready"), Some("building")] {
                    let filter = TaskFilter { split, environment };
                    let entries = || {
                        let mut kept = Vec::new();
                        for task in &bench.tasks {
                            let in_split = match split {
                                Some("train") => task.split.map(|s| s.as_str()) == Some("train"),
                                Some("test") => task.split.map(|s| s.as_str()) == Some("test"),
                                Some(_) => task.split.is_none(),
                                None => true,
                            };
                            if !in_split || environment.is_some_and(|e| e != "ready") {
                                continue;
                            }
                            let key = if by_label {
                                sort_key(&[&task.label, &task.task_id])
                            } else {
                                task.task_id.clone()
                            };
                            kept.push((key, render::spec_task(task)));
                        }
                        kept
                    };
                    for order in [Order::Asc, Order::Desc] {
                        for limit in LIMITS {
                            same_pages(
                                &format!("{} {by_label} {split:?} {environment:?}", bench.bench_id),
                                limit,
                                |r| tasks_slice(bench, by_label, filter, order, r),
                                |r| paginate(entries(), order, r),
                            );
                        }
                    }
                }
            }
        }
    }
}
