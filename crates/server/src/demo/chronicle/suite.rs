//! The demo's one task suite and its versions. A job freezes the suite's tasks and scorers at
//! launch, so a job launched before the current version runs other tasks with other scorers.

use crate::dataset::catalog::FORMAT_COMPONENT;
use crate::dataset::catalog::{ComponentSpec, BENCH_V2, COMPONENTS, TESTS_COMPONENT};
use crate::dataset::Dataset;

/// The task suite every job runs.
pub const SUITE_ID: &str = "suite_codefix_smoke";
/// Tasks in the suite: every `SUITE_STRIDE`-th test task of codefix v2.
const SUITE_STRIDE: usize = 8;

/// A version of the suite: which of its tasks it had and which scorers each trial got.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SuiteVersion {
    /// `task_suite_version`.
    pub id: &'static str,
    /// How many of the current suite's tasks it had (the first ones, in task order); none: all.
    pub first_tasks: Option<usize>,
    /// The scorers of every task, in order.
    pub scorers: &'static [ComponentSpec],
}

/// The current version: 51 tasks, scored by the three reward components.
pub const CURRENT: SuiteVersion = SuiteVersion {
    id: "v3",
    first_tasks: None,
    scorers: &COMPONENTS,
};

/// The version before: 45 tasks (v3 added 6), without the lint scorer (v3 added it).
pub const PREVIOUS: SuiteVersion = SuiteVersion {
    id: "v2",
    first_tasks: Some(45),
    scorers: &[TESTS_COMPONENT, FORMAT_COMPONENT],
};

/// The current suite's tasks (indices into codefix v2), in task order.
pub fn current_tasks(data: &Dataset) -> Vec<usize> {
    data.benchmark(BENCH_V2)
        .map(|bench| {
            bench
                .test_tasks()
                .map(|(i, _)| i)
                .step_by(SUITE_STRIDE)
                .collect()
        })
        .unwrap_or_default()
}

impl SuiteVersion {
    /// This version's tasks (indices into codefix v2), in task order.
    pub fn tasks(&self, data: &Dataset) -> Vec<usize> {
        let mut tasks = current_tasks(data);
        if let Some(n) = self.first_tasks {
            tasks.truncate(n);
        }
        tasks
    }
}
