//! Tasks and their categories.

use serde::{Deserialize, Serialize};

/// Index of a task in its [`RunSet`](super::RunSet) (dense, assigned in first-seen order).
pub type TaskIdx = u32;

/// Index of a category in [`RunSet::categories`](super::RunSet::categories).
pub type CategoryIdx = u32;

/// A benchmark task.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Task {
    /// Benchmark task identifier.
    pub id: String,
    /// Human-readable label, when known.
    pub label: Option<String>,
    /// Split the task belongs to, kept by name, when known.
    pub split: Option<String>,
    /// Categories of the task; the first one is its cluster in clustered analyses.
    pub categories: Vec<CategoryIdx>,
    /// Whether the task came from a benchmark task list (not only from trajectories).
    pub listed: bool,
}

impl Task {
    /// The name to show: the label, else the id.
    pub fn name(&self) -> &str {
        self.label.as_deref().unwrap_or(&self.id)
    }

    /// The task's cluster: its first category.
    pub fn cluster(&self) -> Option<CategoryIdx> {
        self.categories.first().copied()
    }
}

/// A task category (Trajectory `BenchmarkTaskCategory`), usable as a cluster.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Category {
    /// Stable category identifier.
    pub id: String,
    /// Human-readable label.
    pub label: String,
}

/// A task as a source lists it, before interning.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TaskInput {
    /// Benchmark task identifier.
    pub id: String,
    /// Human-readable label.
    pub label: Option<String>,
    /// Split, kept by name.
    pub split: Option<String>,
    /// Categories, in the source's order.
    pub categories: Vec<Category>,
}

/// How many task ids a [`TaskListConflicts`] keeps as examples.
pub const TASK_CONFLICT_EXAMPLES: usize = 20;

/// Tasks listed more than once (in one task list, or in the lists of several runs) with
/// another split or other categories.
///
/// The rule: a task's first listing decides each of its fields (label, split, categories); a
/// later listing only fills a field the first left empty. One that gives the split or the
/// categories another value is counted here (they change the analysis: categories are the
/// clusters); another label only changes what is shown (benchmark versions relabel tasks).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TaskListConflicts {
    /// Later listings that disagreed with the first.
    pub count: u64,
    /// The ids of the first [`TASK_CONFLICT_EXAMPLES`] tasks concerned, each once.
    pub examples: Vec<String>,
}

impl TaskListConflicts {
    pub(crate) fn record(&mut self, task_id: &str) {
        self.count += 1;
        if self.examples.len() < TASK_CONFLICT_EXAMPLES
            && !self.examples.iter().any(|id| id == task_id)
        {
            self.examples.push(task_id.to_owned());
        }
    }
}
