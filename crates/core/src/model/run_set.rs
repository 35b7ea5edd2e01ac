//! The loaded comparison: runs, tasks and trajectories, read-only.

use std::collections::HashMap;

use super::id_map::IdMap;

use super::aggregate::{RunTotals, TaskStats};
use super::component::RewardComponent;
use super::error::ModelError;
use super::join::JoinReport;
use super::platform_series::PlatformSeries;
use super::run::{RunIdx, RunInfo};
use super::task::{Category, Task, TaskIdx, TaskListConflicts};
use super::trajectory::{Trajectory, TrajectoryColumns, NONE_U32};

/// Runs, tasks and trajectories from any source, with per-task aggregates precomputed.
/// Built by [`RunSetBuilder`](super::RunSetBuilder).
#[derive(Debug, Clone, Default)]
pub struct RunSet {
    pub(crate) runs: Vec<Run>,
    pub(crate) tasks: Vec<Task>,
    pub(crate) task_index: IdMap<Box<str>, TaskIdx>,
    pub(crate) categories: Vec<Category>,
    pub(crate) task_conflicts: TaskListConflicts,
    pub(crate) cut_labels: super::CutLabels,
    /// The platform's own progression of each training run read, by training run id, or why
    /// it could not be read.
    pub(crate) platform_series: std::collections::BTreeMap<String, Result<PlatformSeries, String>>,
    /// Token counts read on request, by trajectory id (`None`: read, no count); shared, so a
    /// set's clones do not copy them.
    pub(crate) token_counts: std::sync::Arc<super::TokenMap>,
}

/// One run: identity, trajectories grouped by task, per-task aggregates and totals.
#[derive(Debug, Clone)]
pub struct Run {
    pub(crate) info: RunInfo,
    pub(crate) join: Option<JoinReport>,
    pub(crate) columns: TrajectoryColumns,
    pub(crate) endings: Vec<String>,
    /// `task_count + 2` offsets into the rows: see `TaskGrouping::finish`.
    pub(crate) offsets: Vec<u32>,
    pub(crate) task_stats: Vec<TaskStats>,
    pub(crate) totals: RunTotals,
}

impl RunSet {
    /// Takes from `from` what belongs to the set rather than to its runs: the tasks as listed
    /// (labels, categories, whether the benchmark lists them), the categories, the task-list
    /// conflicts, the cut labels and the platform's progressions. For a set rebuilt from
    /// `from`'s tasks in the same order, with its trajectories changed (e.g. a reviewer's
    /// ledger applied).
    pub fn take_set_facts(&mut self, from: &RunSet) {
        self.tasks = from.tasks.clone();
        self.task_index = from.task_index.clone();
        self.categories = from.categories.clone();
        self.task_conflicts = from.task_conflicts.clone();
        self.cut_labels = from.cut_labels.clone();
        self.platform_series = from.platform_series.clone();
        self.token_counts = from.token_counts.clone();
    }

    /// Sets what the platform reports of `training_run_id`'s progression (or why it could not
    /// be read).
    pub fn attach_platform_series(
        &mut self,
        training_run_id: &str,
        series: Result<PlatformSeries, String>,
    ) {
        self.platform_series
            .insert(training_run_id.to_owned(), series);
    }

    /// What the platform reports of `training_run_id`'s progression, when it was read.
    pub fn platform_series(
        &self,
        training_run_id: &str,
    ) -> Option<&Result<PlatformSeries, String>> {
        self.platform_series.get(training_run_id)
    }

    /// All runs, in the order they were added.
    pub fn runs(&self) -> &[Run] {
        &self.runs
    }

    /// One run.
    pub fn run(&self, run: RunIdx) -> Result<&Run, ModelError> {
        self.runs.get(run.0).ok_or(ModelError::UnknownRun(run))
    }

    /// Index of the run with this identifier.
    pub fn find_run(&self, id: &str) -> Option<RunIdx> {
        self.runs
            .iter()
            .position(|run| run.info.id == id)
            .map(RunIdx)
    }

    /// Indices of all runs.
    pub fn run_indices(&self) -> impl Iterator<Item = RunIdx> {
        (0..self.runs.len()).map(RunIdx)
    }

    /// All tasks (listed by a benchmark or seen on a trajectory), by index.
    pub fn tasks(&self) -> &[Task] {
        &self.tasks
    }

    /// One task.
    pub fn task(&self, task: TaskIdx) -> Option<&Task> {
        self.tasks.get(task as usize)
    }

    /// Index of the task with this identifier.
    pub fn find_task(&self, id: &str) -> Option<TaskIdx> {
        self.task_index.get(id).copied()
    }

    /// All task categories, by index.
    pub fn categories(&self) -> &[Category] {
        &self.categories
    }

    /// Tasks listed more than once with another label, split or categories (the first
    /// listing is used).
    pub fn task_list_conflicts(&self) -> &TaskListConflicts {
        &self.task_conflicts
    }

    /// Task and category labels cut when the set was built, for being over
    /// [`MAX_SHOWN_FIELD_BYTES`](crate::text::MAX_SHOWN_FIELD_BYTES).
    pub fn cut_labels(&self) -> &super::CutLabels {
        &self.cut_labels
    }

    /// Attaches reward components loaded later (e.g. on drill-down) to one trajectory.
    /// `task` narrows the search to that task's trajectories; without it the run is scanned.
    pub fn attach_components(
        &mut self,
        run: RunIdx,
        task: Option<TaskIdx>,
        trajectory_id: &str,
        components: Vec<RewardComponent>,
    ) -> Result<(), ModelError> {
        let target = self
            .runs
            .get_mut(run.0)
            .ok_or(ModelError::UnknownRun(run))?;
        let rows = match task {
            Some(task) => target.task_rows(task),
            None => 0..target.columns.len(),
        };
        let row = rows
            .into_iter()
            .find(|&row| target.columns.ids.get(row) == trajectory_id)
            .ok_or_else(|| ModelError::UnknownTrajectory {
                run: target.info.id.clone(),
                trajectory: trajectory_id.to_owned(),
            })?;
        target.columns.components.insert(row as u32, components);
        Ok(())
    }

    /// Attaches reward components read later to every trajectory of every run whose id
    /// `components` holds (one pass over the rows); returns how many were attached.
    pub fn attach_component_map(
        &mut self,
        components: &HashMap<String, Vec<RewardComponent>>,
    ) -> usize {
        if components.is_empty() {
            return 0;
        }
        let mut attached = 0;
        for run in &mut self.runs {
            let columns = &mut run.columns;
            for row in 0..columns.len() {
                if let Some(parts) = components.get(columns.ids.get(row)) {
                    columns.components.insert(row as u32, parts.clone());
                    attached += 1;
                }
            }
        }
        attached
    }
}

impl Run {
    /// Identity and settings.
    pub fn info(&self) -> &RunInfo {
        &self.info
    }

    /// What joining rewards with metadata found, for sources that join two listings.
    pub fn join(&self) -> Option<&JoinReport> {
        self.join.as_ref()
    }

    /// Totals over all trajectories.
    pub fn totals(&self) -> &RunTotals {
        &self.totals
    }

    /// Per-task aggregates, indexed by [`TaskIdx`] over all tasks of the set.
    pub fn task_stats(&self) -> &[TaskStats] {
        &self.task_stats
    }

    /// Aggregate of one task.
    pub fn stats_of(&self, task: TaskIdx) -> Option<&TaskStats> {
        self.task_stats.get(task as usize)
    }

    /// Number of trajectories.
    pub fn trajectory_count(&self) -> usize {
        self.columns.len()
    }

    /// All trajectories, grouped by task in task order, those without a task last.
    pub fn trajectories(&self) -> impl Iterator<Item = Trajectory<'_>> {
        (0..self.columns.len()).filter_map(move |row| self.trajectory(row))
    }

    /// Trajectories of one task.
    pub fn trajectories_of_task(&self, task: TaskIdx) -> impl Iterator<Item = Trajectory<'_>> {
        self.task_rows(task)
            .filter_map(move |row| self.trajectory(row))
    }

    /// The endings its trajectories name, each once ([`Self::trajectories_of_task_by_ending`]).
    pub(crate) fn ending_names(&self) -> &[String] {
        &self.endings
    }

    /// Trajectories of one task, each with its ending's index in [`Self::ending_names`]
    /// (`None`: none recorded): what counts endings without comparing their names.
    pub(crate) fn trajectories_of_task_by_ending(
        &self,
        task: TaskIdx,
    ) -> impl Iterator<Item = (Trajectory<'_>, Option<u32>)> {
        self.task_rows(task).filter_map(move |row| {
            let ending = *self.columns.ending.get(row)?;
            let trajectory = self.trajectory(row)?;
            let known = (ending as usize) < self.endings.len();
            Some((trajectory, known.then_some(ending)))
        })
    }

    /// Trajectories without a task (counted, never paired).
    pub fn trajectories_without_task(&self) -> impl Iterator<Item = Trajectory<'_>> {
        let start = self
            .offsets
            .get(self.task_stats.len())
            .map_or(self.columns.len(), |&start| start as usize);
        (start..self.columns.len()).filter_map(move |row| self.trajectory(row))
    }

    /// The trajectory stored at `row` (0..[`Self::trajectory_count`]).
    pub fn trajectory(&self, row: usize) -> Option<Trajectory<'_>> {
        let columns = &self.columns;
        let task = *columns.task.get(row)?;
        let ending = *columns.ending.get(row)?;
        Some(Trajectory {
            id: columns.ids.get(row),
            task: (task != NONE_U32).then_some(task),
            class: *columns.class.get(row)?,
            reward: columns.reward.get(row)?,
            ending: self.endings.get(ending as usize).map(String::as_str),
            flags: *columns.flags.get(row)?,
            created: columns.created.get(row).flatten(),
            components: columns.components.get(&(row as u32)).map(Vec::as_slice),
            steps: columns.steps.get(row).flatten(),
        })
    }

    fn task_rows(&self, task: TaskIdx) -> std::ops::Range<usize> {
        let index = task as usize;
        match (self.offsets.get(index), self.offsets.get(index + 1)) {
            (Some(&start), Some(&end)) if index < self.task_stats.len() => {
                start as usize..end as usize
            }
            _ => 0..0,
        }
    }
}
