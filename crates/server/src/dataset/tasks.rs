//! The benchmark's tasks and its two versions.
//!
//! Version 1 has 500 tasks (400 test, 100 train). Version 2 removes 12 test tasks, adds 15 new
//! test tasks and 3 tasks without a split, and relabels 10 test tasks. Which tasks change is
//! fixed by position; labels, categories and latent properties come from the seed.
//!
//! At another [`DemoScale`] version 1 has `N` test tasks (and a training task after every
//! four), and each of version 2's counts is the same share of `N` as of the default's 400
//! ([`DemoScale::share`]: 3% removed, 3.75% added, 0.75% without a split, 2.5% relabelled).

use super::catalog::{
    BENCHMARK_DESCRIPTION, BENCHMARK_NAME, BENCH_V1, BENCH_V1_CREATED_AT, BENCH_V2,
    BENCH_V2_CREATED_AT, CATEGORIES, DEFECTS,
};
use super::rng::{label, SplitMix64};
use super::scale::DemoScale;
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
    /// Task indices in ascending (label, task id) order: the `sort=label` list.
    pub by_label: Vec<u32>,
    /// The tasks' ids side by side ([`TaskIds`]), as the list pages read them.
    pub task_ids: TaskIds,
    /// Whether its rewards are 0 or 1 (pass or fail), with no partial credit.
    pub binary: bool,
    /// What training forgets on every task, on the logit scale at the final step (growing with
    /// the square of the step): 0 for a benchmark training only helps.
    pub forgetting: f64,
}

/// The ids of a benchmark's tasks side by side in one text, by task index. A page of a run's
/// trajectories jumps across the tasks (they are listed by when they started): read from each
/// task's record, an id cost two cache misses per trajectory (the record, then the id's own
/// allocation), most of the time the demo spent on such a page at 100k tasks.
#[derive(Debug, Clone, Default)]
pub struct TaskIds {
    text: String,
    /// Where each id ends in `text` (it starts where the one before ends).
    ends: Vec<u32>,
}

impl TaskIds {
    /// The ids of `tasks`.
    pub fn of(tasks: &[Task]) -> Self {
        let mut ids = Self::default();
        for task in tasks {
            ids.text.push_str(&task.task_id);
            ids.ends
                .push(u32::try_from(ids.text.len()).expect("task ids under 4 GiB"));
        }
        ids
    }

    /// The id of the task at `index`.
    pub fn get(&self, index: usize) -> &str {
        let start = match index {
            0 => 0,
            _ => self.ends[index - 1] as usize,
        };
        &self.text[start..self.ends[index] as usize]
    }
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

/// Version 2's new test tasks at the default scale.
const V2_ADDED_TEST: u32 = 15;
/// Version 2's new tasks without a split at the default scale.
const V2_ADDED_UNASSIGNED: u32 = 3;
/// Version 1's test tasks version 2 removes at the default scale.
const V2_REMOVED: u32 = 12;
/// Version 1's test tasks version 2 relabels at the default scale.
const V2_RELABELLED: u32 = 10;

/// Digits of the task numbers: 4 as long as they fit (the default's `cf-0001`..`cf-0518`),
/// more for larger scales, the same for every task so that text order stays numeric order.
#[derive(Debug, Clone, Copy)]
pub(crate) struct IdWidth(pub(crate) usize);

impl IdWidth {
    /// The width for task numbers up to `last_number`.
    pub(crate) fn of(last_number: u32) -> Self {
        Self(last_number.to_string().len().max(4))
    }
}

const CLARIFICATIONS: [&str; 5] = [
    "when the input is empty",
    "under Python 3.13",
    "without changing the public API",
    "for non-ASCII input",
    "with the new regression test",
];

fn task_id(number: u32, width: IdWidth) -> String {
    format!("cf-{number:0width$}", width = width.0)
}

fn new_task(seed: u64, number: u32, split: Option<Split>, width: IdWidth) -> Task {
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
        task_id: task_id(number, width),
        label,
        split,
        category,
        input_message,
        module,
        difficulty: 1.8 * rng.normal() + spec.difficulty_shift,
        trainability: 0.9 + 0.7 * rng.normal(),
    }
}

/// Task numbers of version 1: `N` test tasks and, after every four, a training one (1..=500
/// at the default scale).
fn version_one_tasks(scale: DemoScale) -> u32 {
    scale.test_tasks + scale.test_tasks / 4
}

/// Version 1: every fifth task a training task.
fn version_one(seed: u64, scale: DemoScale, width: IdWidth) -> Vec<Task> {
    (1..=version_one_tasks(scale))
        .map(|number| {
            let split = if number % 5 == 0 {
                Split::Train
            } else {
                Split::Test
            };
            new_task(seed, number, Some(split), width)
        })
        .collect()
}

/// Version 2, derived from version 1.
fn version_two(seed: u64, v1: &[Task], scale: DemoScale, width: IdWidth) -> Vec<Task> {
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
        .take(scale.share(V2_REMOVED) as usize)
        .collect();
    let relabelled: Vec<usize> = test_positions
        .iter()
        .copied()
        .skip(11)
        .step_by(37)
        .filter(|i| removed.binary_search(i).is_err())
        .take(scale.share(V2_RELABELLED) as usize)
        .collect();
    let mut tasks: Vec<Task> = v1
        .iter()
        .enumerate()
        .filter(|(i, _)| removed.binary_search(i).is_err())
        .map(|(i, task)| {
            let mut task = task.clone();
            if let Ok(k) = relabelled.binary_search(&i) {
                let clarification = CLARIFICATIONS[k % CLARIFICATIONS.len()];
                task.label = format!("{} {clarification}", task.label);
                task.input_message = format!("{} Note: {clarification}.", task.input_message);
            }
            task
        })
        .collect();
    let first_new = version_one_tasks(scale) + 1;
    let added_test = scale.share(V2_ADDED_TEST);
    tasks.extend(
        (first_new..first_new + added_test).map(|n| new_task(seed, n, Some(Split::Test), width)),
    );
    let first_unassigned = first_new + added_test;
    tasks.extend(
        (first_unassigned..first_unassigned + scale.share(V2_ADDED_UNASSIGNED))
            .map(|n| new_task(seed, n, None, width)),
    );
    tasks
}

/// Task indices in ascending (label, task id) order.
pub(crate) fn label_order(tasks: &[Task]) -> Vec<u32> {
    let mut order: Vec<u32> = (0..tasks.len() as u32).collect();
    order.sort_unstable_by(|&a, &b| {
        let (a, b) = (&tasks[a as usize], &tasks[b as usize]);
        (a.label.as_str(), a.task_id.as_str()).cmp(&(b.label.as_str(), b.task_id.as_str()))
    });
    order
}

fn version(bench_id: &'static str, created_at: Timestamp, tasks: Vec<Task>) -> Benchmark {
    Benchmark {
        bench_id,
        name: BENCHMARK_NAME,
        description: BENCHMARK_DESCRIPTION,
        created_at,
        by_label: label_order(&tasks),
        task_ids: TaskIds::of(&tasks),
        tasks,
        binary: false,
        forgetting: 0.0,
    }
}

/// Both versions of the benchmark at `scale`, oldest first.
pub fn benchmarks(seed: u64, scale: DemoScale) -> [Benchmark; 2] {
    let last_number =
        version_one_tasks(scale) + scale.share(V2_ADDED_TEST) + scale.share(V2_ADDED_UNASSIGNED);
    let width = IdWidth::of(last_number);
    let v1 = version_one(seed, scale, width);
    let v2 = version_two(seed, &v1, scale, width);
    [
        version(BENCH_V1, BENCH_V1_CREATED_AT, v1),
        version(BENCH_V2, BENCH_V2_CREATED_AT, v2),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_differ_as_documented() {
        let [v1, v2] = benchmarks(1, DemoScale::DEFAULT);
        assert_eq!(v1.test_tasks().count(), 400);
        assert_eq!(v1.tasks.len(), 500);
        assert_eq!(v2.test_tasks().count(), 400 - 12 + 15);
        assert_eq!(v2.tasks.iter().filter(|t| t.split.is_none()).count(), 3);
        let (removed, relabelled) = changes(&v1, &v2);
        assert_eq!(removed, 12);
        assert_eq!(relabelled, 10);
        assert!(v2.tasks.windows(2).all(|w| w[0].task_id < w[1].task_id));
    }

    /// Tasks of `v1` that `v2` removed, and those it relabelled.
    fn changes(v1: &Benchmark, v2: &Benchmark) -> (usize, usize) {
        let kept = || {
            v1.tasks
                .iter()
                .filter_map(|t| v2.task_index(&t.task_id).map(|i| (t, &v2.tasks[i])))
        };
        let relabelled = kept().filter(|(a, b)| a.label != b.label).count();
        (v1.tasks.len() - kept().count(), relabelled)
    }

    #[test]
    fn the_ids_side_by_side_are_the_tasks_ids() {
        for bench in benchmarks(2, DemoScale::DEFAULT) {
            assert_eq!(bench.task_ids.ends.len(), bench.tasks.len());
            for (index, task) in bench.tasks.iter().enumerate() {
                assert_eq!(bench.task_ids.get(index), task.task_id);
            }
        }
    }

    #[test]
    fn every_category_is_used() {
        let [v1, _] = benchmarks(3, DemoScale::DEFAULT);
        for category in 0..CATEGORIES.len() {
            assert!(v1.tasks.iter().any(|t| t.category == category));
        }
    }

    #[test]
    fn scaled_versions_keep_the_shares() {
        let scale = DemoScale {
            test_tasks: 20_000,
            samples: 2,
            ..DemoScale::DEFAULT
        };
        let [v1, v2] = benchmarks(7, scale);
        assert_eq!(v1.test_tasks().count(), 20_000);
        assert_eq!(v1.tasks.len(), 25_000);
        let (removed, relabelled) = changes(&v1, &v2);
        assert_eq!(removed, 600);
        assert_eq!(v2.test_tasks().count(), 20_000 - 600 + 750);
        assert_eq!(v2.tasks.iter().filter(|t| t.split.is_none()).count(), 150);
        assert_eq!(relabelled, 500);
        assert_eq!(v1.tasks[0].task_id, "cf-00001");
        assert!(v2.tasks.windows(2).all(|w| w[0].task_id < w[1].task_id));
        for bench in [&v1, &v2] {
            assert!(bench.by_label.windows(2).all(|w| {
                let (a, b) = (&bench.tasks[w[0] as usize], &bench.tasks[w[1] as usize]);
                (&a.label, &a.task_id) < (&b.label, &b.task_id)
            }));
        }
    }

    #[test]
    fn the_smallest_scale_has_one_test_task() {
        let [v1, v2] = benchmarks(
            1,
            DemoScale {
                test_tasks: 1,
                samples: 1,
                ..DemoScale::DEFAULT
            },
        );
        assert_eq!(v1.test_tasks().count(), 1);
        assert_eq!(v2.test_tasks().count(), 1);
        assert_eq!(v1.tasks[0].task_id, "cf-0001");
    }
}
