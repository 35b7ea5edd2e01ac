//! The benchmark's tasks and its two versions.
//!
//! Version 1 has 500 tasks (400 test, 100 train). Version 2 removes 12 test tasks, adds 15 new
//! test tasks and 3 tasks without a split, and relabels 10 test tasks. Which tasks change is
//! fixed by position; labels, categories and latent properties come from the seed.

use super::catalog::{
    BENCHMARK_DESCRIPTION, BENCHMARK_NAME, BENCH_V1, BENCH_V1_CREATED_AT, BENCH_V2,
    BENCH_V2_CREATED_AT, CATEGORIES, DEFECTS,
};
use super::rng::{label, SplitMix64};
use super::time::Timestamp;

/// A task's split.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Split {
    /// Training task.
    Train,
    /// Held-out test task; evaluations run these.
    Test,
}

impl Split {
    /// The wire value.
    pub fn as_str(self) -> &'static str {
        match self {
            Split::Train => "train",
            Split::Test => "test",
        }
    }
}

/// One task of a benchmark version.
#[derive(Debug, Clone)]
pub struct Task {
    /// `task_id`, e.g. `cf-0042`; zero-padded so that text order is numeric order.
    pub task_id: String,
    /// Human-readable label.
    pub label: String,
    /// Split, or none for tasks not assigned to one.
    pub split: Option<Split>,
    /// Index into [`CATEGORIES`].
    pub category: usize,
    /// The first user message.
    pub input_message: String,
    /// The repository module the task is about (used in transcripts).
    pub module: String,
    /// Latent difficulty on the logit scale: higher is harder, shared by every run.
    pub difficulty: f64,
    /// How much training helps this task; negative values regress with training.
    pub trainability: f64,
}

/// One version of the benchmark.
#[derive(Debug, Clone)]
pub struct Benchmark {
    /// `bench_id`.
    pub bench_id: &'static str,
    /// Shared name of all versions.
    pub name: &'static str,
    /// Description.
    pub description: &'static str,
    /// Creation time (also its update time).
    pub created_at: Timestamp,
    /// Tasks in ascending task-id order.
    pub tasks: Vec<Task>,
}

impl Benchmark {
    /// The test tasks, which evaluations run.
    pub fn test_tasks(&self) -> impl Iterator<Item = (usize, &Task)> {
        self.tasks
            .iter()
            .enumerate()
            .filter(|(_, task)| task.split == Some(Split::Test))
    }

    /// The index of a task by id.
    pub fn task_index(&self, task_id: &str) -> Option<usize> {
        self.tasks
            .binary_search_by(|task| task.task_id.as_str().cmp(task_id))
            .ok()
    }
}

const V1_TASKS: u32 = 500;
const V2_ADDED_TEST: u32 = 15;
const V2_ADDED_UNASSIGNED: u32 = 3;
const V2_REMOVED: usize = 12;
const V2_RELABELLED: usize = 10;

const CLARIFICATIONS: [&str; 5] = [
    "when the input is empty",
    "under Python 3.13",
    "without changing the public API",
    "for non-ASCII input",
    "with the new regression test",
];

fn task_id(number: u32) -> String {
    format!("cf-{number:04}")
}

fn new_task(seed: u64, number: u32, split: Option<Split>) -> Task {
    let mut rng = SplitMix64::stream(seed, &[label("task"), u64::from(number)]);
    let category = rng.index(CATEGORIES.len());
    let spec = &CATEGORIES[category];
    let subject = rng.pick(spec.subjects);
    let defect = rng.pick(&DEFECTS);
    let label = format!("{defect} the {subject}");
    let module = subject.replace([' ', '-'], "_").to_lowercase();
    let input_message = format!(
        "Repository `{module}`: {}{}. The failing test is `tests/test_{module}.py::test_case_{number}`. \
         Make every test pass, then submit your patch with the `submit` tool.",
        defect[..1].to_lowercase(),
        &label[1..]
    );
    Task {
        task_id: task_id(number),
        label,
        split,
        category,
        input_message,
        module,
        difficulty: 1.8 * rng.normal() + spec.difficulty_shift,
        trainability: 0.9 + 0.7 * rng.normal(),
    }
}

/// Version 1: tasks 1..=500, every fifth one a training task.
fn version_one(seed: u64) -> Vec<Task> {
    (1..=V1_TASKS)
        .map(|number| {
            let split = if number % 5 == 0 {
                Split::Train
            } else {
                Split::Test
            };
            new_task(seed, number, Some(split))
        })
        .collect()
}

/// Version 2, derived from version 1.
fn version_two(seed: u64, v1: &[Task]) -> Vec<Task> {
    let test_positions: Vec<usize> = v1
        .iter()
        .enumerate()
        .filter(|(_, task)| task.split == Some(Split::Test))
        .map(|(i, _)| i)
        .collect();
    let removed: Vec<usize> = test_positions
        .iter()
        .copied()
        .skip(7)
        .step_by(33)
        .take(V2_REMOVED)
        .collect();
    let relabelled: Vec<usize> = test_positions
        .iter()
        .copied()
        .skip(11)
        .step_by(37)
        .filter(|i| !removed.contains(i))
        .take(V2_RELABELLED)
        .collect();
    let mut tasks: Vec<Task> = v1
        .iter()
        .enumerate()
        .filter(|(i, _)| !removed.contains(i))
        .map(|(i, task)| {
            let mut task = task.clone();
            if let Some(k) = relabelled.iter().position(|&r| r == i) {
                let clarification = CLARIFICATIONS[k % CLARIFICATIONS.len()];
                task.label = format!("{} {clarification}", task.label);
                task.input_message = format!("{} Note: {clarification}.", task.input_message);
            }
            task
        })
        .collect();
    let first_new = V1_TASKS + 1;
    tasks.extend(
        (first_new..first_new + V2_ADDED_TEST).map(|n| new_task(seed, n, Some(Split::Test))),
    );
    let first_unassigned = first_new + V2_ADDED_TEST;
    tasks.extend(
        (first_unassigned..first_unassigned + V2_ADDED_UNASSIGNED).map(|n| new_task(seed, n, None)),
    );
    tasks
}

/// Both versions of the benchmark, oldest first.
pub fn benchmarks(seed: u64) -> [Benchmark; 2] {
    let v1 = version_one(seed);
    let v2 = version_two(seed, &v1);
    [
        Benchmark {
            bench_id: BENCH_V1,
            name: BENCHMARK_NAME,
            description: BENCHMARK_DESCRIPTION,
            created_at: BENCH_V1_CREATED_AT,
            tasks: v1,
        },
        Benchmark {
            bench_id: BENCH_V2,
            name: BENCHMARK_NAME,
            description: BENCHMARK_DESCRIPTION,
            created_at: BENCH_V2_CREATED_AT,
            tasks: v2,
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_differ_as_documented() {
        let [v1, v2] = benchmarks(1);
        assert_eq!(v1.test_tasks().count(), 400);
        assert_eq!(v1.tasks.len(), 500);
        assert_eq!(v2.test_tasks().count(), 400 - 12 + 15);
        assert_eq!(v2.tasks.iter().filter(|t| t.split.is_none()).count(), 3);
        let removed = v1
            .tasks
            .iter()
            .filter(|t| v2.task_index(&t.task_id).is_none())
            .count();
        assert_eq!(removed, 12);
        let relabelled = v1
            .tasks
            .iter()
            .filter_map(|t| v2.task_index(&t.task_id).map(|i| (t, &v2.tasks[i])))
            .filter(|(a, b)| a.label != b.label)
            .count();
        assert_eq!(relabelled, 10);
        assert!(v2.tasks.windows(2).all(|w| w[0].task_id < w[1].task_id));
    }

    #[test]
    fn every_category_is_used() {
        let [v1, _] = benchmarks(3);
        for category in 0..CATEGORIES.len() {
            assert!(v1.tasks.iter().any(|t| t.category == category));
        }
    }
}
