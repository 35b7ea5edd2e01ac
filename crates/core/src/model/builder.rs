//! Building a [`RunSet`] from any source.

use super::id_map::IdMap;

use super::aggregate::{RunTotals, TaskStats};
use super::cut_text::{cut_display_name, CutLabels};
use super::error::ModelError;
use super::join::JoinReport;
use super::run::{RunIdx, RunInfo, TaskScoring};
use super::run_set::{Run, RunSet};
use super::setting_inputs::SettingInputs;
use super::task::{Category, CategoryIdx, Task, TaskIdx, TaskInput, TaskListConflicts};
use super::trajectory::{TaskGrouping, TrajectoryColumns, TrajectoryInput, NONE_U32};
use super::word_cmp::same_text;

/// Collects runs, tasks and trajectories, then computes per-task aggregates in [`Self::build`].
///
/// Task ids are interned to dense indices and trajectories stored column by column, so a set of
/// millions of trajectories costs a few hash lookups and pushes per trajectory.
#[derive(Debug, Default)]
pub struct RunSetBuilder {
    tasks: Vec<Task>,
    task_index: IdMap<Box<str>, TaskIdx>,
    categories: Vec<Category>,
    category_index: IdMap<Box<str>, CategoryIdx>,
    runs: Vec<PendingRun>,
    /// The last task interned: sources list a task's samples together, so most lookups hit it.
    last_task: Option<TaskIdx>,
    task_conflicts: TaskListConflicts,
    cut_labels: CutLabels,
}

/// Tasks after the last one interned [`RunSetBuilder::intern_task`] compares before it looks
/// the id up in the map.
const TASKS_LOOKED_AHEAD: u32 = 3;

#[derive(Debug)]
struct PendingRun {
    info: RunInfo,
    join: Option<JoinReport>,
    columns: TrajectoryColumns,
    endings: Vec<String>,
    ending_index: IdMap<Box<str>, u32>,
    /// The last ending interned, to skip the hash lookup on runs of equal endings.
    last_ending: Option<u32>,
}

impl RunSetBuilder {
    /// An empty builder.
    pub fn new() -> Self {
        RunSetBuilder::default()
    }

    /// Adds a task from a benchmark task list. A task listed twice keeps the first label, split
    /// and categories it was given; a later listing fills only what is missing, and one that
    /// gives another split or categories is counted in [`RunSet::task_list_conflicts`]. A
    /// label (of the task or a category) over
    /// [`MAX_SHOWN_FIELD_BYTES`](crate::text::MAX_SHOWN_FIELD_BYTES) is cut to it
    /// ([`RunSet::cut_labels`]).
    pub fn add_task(&mut self, mut input: TaskInput) -> Result<TaskIdx, ModelError> {
        let categories = input
            .categories
            .into_iter()
            .map(|category| self.intern_category(category))
            .collect::<Result<Vec<_>, _>>()?;
        let index = self.intern_task(&input.id)?;
        if let Some(task) = self.tasks.get_mut(index as usize) {
            let listed_before = task.listed;
            task.listed = true;
            // Another label only changes what is shown; another split or categories changes
            // the analysis (clusters), so that is a conflict. A label kept is cut to size.
            if let (None, Some(label)) = (&task.label, &mut input.label) {
                self.cut_labels.cut(label, "task", &input.id);
            }
            fill(&mut task.label, input.label);
            let conflict = fill(&mut task.split, input.split)
                | fill_categories(&mut task.categories, categories);
            if listed_before && conflict {
                self.task_conflicts.record(&task.id);
            }
        }
        Ok(index)
    }

    /// Adds a run; its trajectories follow with [`Self::add_trajectory`]. A display name over
    /// [`MAX_SHOWN_FIELD_BYTES`](crate::text::MAX_SHOWN_FIELD_BYTES) is cut to it
    /// ([`RunInfo::cut_texts`]).
    pub fn add_run(&mut self, mut info: RunInfo) -> Result<RunIdx, ModelError> {
        self.check_new_run(&info.id)?;
        cut_display_name(&mut info.display_name, &mut info.cut_texts);
        self.runs.push(PendingRun {
            info,
            join: None,
            columns: TrajectoryColumns::default(),
            endings: Vec::new(),
            ending_index: IdMap::default(),
            last_ending: None,
        });
        Ok(RunIdx(self.runs.len() - 1))
    }

    /// Refuses the id of a run the builder already holds.
    pub(crate) fn check_new_run(&self, id: &str) -> Result<(), ModelError> {
        if self.runs.iter().any(|run| run.info.id == id) {
            return Err(ModelError::DuplicateRun(id.to_owned()));
        }
        Ok(())
    }

    /// Adds the runs `apart` holds: a builder of their own that added their trajectories apart
    /// (on another thread: [`crate::run_folder::FolderSetBuilder::add_all`]) and no task list.
    /// Its tasks are interned here in the order it met them and its runs' rows pointed at them,
    /// so the run set is the one adding the runs here would have made. Returns the runs.
    pub(crate) fn absorb_runs(&mut self, apart: RunSetBuilder) -> Result<Vec<RunIdx>, ModelError> {
        let RunSetBuilder {
            tasks,
            task_index,
            runs,
            ..
        } = apart;
        debug_assert!(tasks.iter().all(|task| !task.listed), "a task list apart");
        // Each task's key moved here rather than copied again.
        let mut keys: Vec<Option<Box<str>>> = Vec::new();
        keys.resize_with(tasks.len(), || None);
        for (key, index) in task_index {
            if let Some(slot) = keys.get_mut(index as usize) {
                *slot = Some(key);
            }
        }
        self.tasks.reserve(tasks.len());
        let mut here: Vec<TaskIdx> = Vec::with_capacity(tasks.len());
        for (task, key) in tasks.into_iter().zip(keys) {
            let index = match self.task_index.get(task.id.as_str()) {
                Some(&index) => index,
                None => {
                    let key = key.unwrap_or_else(|| task.id.as_str().into());
                    self.insert_task(task, key)?
                }
            };
            here.push(index);
        }
        let mut added = Vec::with_capacity(runs.len());
        for mut pending in runs {
            self.check_new_run(&pending.info.id)?;
            for task in &mut pending.columns.task {
                // NONE_U32 (no task) is past the end and stays.
                if let Some(&index) = here.get(*task as usize) {
                    *task = index;
                }
            }
            self.runs.push(pending);
            added.push(RunIdx(self.runs.len() - 1));
        }
        Ok(added)
    }

    /// Records what joining the run's listings found.
    pub fn set_join_report(&mut self, run: RunIdx, report: JoinReport) -> Result<(), ModelError> {
        let pending = self
            .runs
            .get_mut(run.0)
            .ok_or(ModelError::UnknownRun(run))?;
        pending.join = Some(report);
        Ok(())
    }

    /// Records what was read to resolve the run's settings (its training run's options, the
    /// evaluation defaults).
    pub fn set_setting_inputs(
        &mut self,
        run: RunIdx,
        inputs: SettingInputs,
    ) -> Result<(), ModelError> {
        let pending = self
            .runs
            .get_mut(run.0)
            .ok_or(ModelError::UnknownRun(run))?;
        pending.info.settings_inputs = inputs;
        Ok(())
    }

    /// Records what the run cost (or why that is not known) and the platform's rollout
    /// statistics, as read beside the run.
    pub fn set_cost(
        &mut self,
        run: RunIdx,
        cost: super::RunCost,
        rollout_statistics: super::Lookup<crate::api::EvalRolloutStatistics>,
    ) -> Result<(), ModelError> {
        let pending = self
            .runs
            .get_mut(run.0)
            .ok_or(ModelError::UnknownRun(run))?;
        pending.info.cost = cost;
        pending.info.rollout_statistics = rollout_statistics;
        Ok(())
    }

    /// Reserves room for `additional` more trajectories of a run, their ids `id_bytes` long
    /// in all.
    pub fn reserve_trajectories(
        &mut self,
        run: RunIdx,
        additional: usize,
        id_bytes: usize,
    ) -> Result<(), ModelError> {
        let pending = self
            .runs
            .get_mut(run.0)
            .ok_or(ModelError::UnknownRun(run))?;
        pending.columns.reserve(additional, id_bytes);
        Ok(())
    }

    /// Adds one trajectory to a run. The caller passes each trajectory once.
    pub fn add_trajectory(
        &mut self,
        run: RunIdx,
        trajectory: TrajectoryInput<'_>,
    ) -> Result<(), ModelError> {
        self.add_trajectory_with_steps(run, trajectory, None)
    }

    /// [`Self::add_trajectory`] with the steps (turns) it took, as its source records them
    /// (`num_steps`; `None`: not recorded, never zero).
    pub fn add_trajectory_with_steps(
        &mut self,
        run: RunIdx,
        trajectory: TrajectoryInput<'_>,
        steps: Option<i64>,
    ) -> Result<(), ModelError> {
        let task = match trajectory.task {
            Some(id) => self.intern_task(id)?,
            None => NONE_U32,
        };
        let pending = self
            .runs
            .get_mut(run.0)
            .ok_or(ModelError::UnknownRun(run))?;
        let row = dense_index(pending.columns.len(), "trajectories")?;
        let ending = match trajectory.ending {
            Some(name) => pending.intern_ending(name)?,
            None => NONE_U32,
        };
        let columns = &mut pending.columns;
        columns.ids.push(trajectory.id);
        columns.task.push(task);
        columns.class.push(trajectory.class);
        columns.reward.push(trajectory.reward);
        columns.ending.push(ending);
        columns.flags.push(trajectory.flags);
        columns.created.push(trajectory.created);
        columns.steps.push(steps);
        if let Some(components) = trajectory.components {
            columns.components.insert(row, components);
        }
        Ok(())
    }

    /// Groups each run's trajectories by task and computes the per-task aggregates, the runs
    /// side by side on the machine's cores ([`RunSetFinish::finish_on_cores`]).
    pub fn build(self) -> RunSet {
        let mut finishing = self.finishing();
        finishing.finish_on_cores();
        finishing.build()
    }

    /// [`Self::build`] a run at a time: names the runs, then each
    /// [`RunSetFinish::finish_step`] does the next step of grouping a run by task.
    pub fn finishing(mut self) -> RunSetFinish {
        self.name_shared_agents();
        self.name_shared_names();
        let finished = Vec::with_capacity(self.runs.len());
        RunSetFinish {
            task_count: self.tasks.len(),
            pending: std::mem::take(&mut self.runs).into_iter(),
            current: None,
            finished,
            rows_finished: 0,
            builder: self,
        }
    }

    /// Chronicle runs are named by their agent version; the same agent in several jobs would
    /// read as one run, so each of those is named `{agent} · {job id}`.
    fn name_shared_agents(&mut self) {
        let names: Vec<Option<String>> = self
            .runs
            .iter()
            .map(|run| {
                run.info
                    .chronicle
                    .as_ref()
                    .map(|_| run.info.name().to_owned())
            })
            .collect();
        for (index, run) in self.runs.iter_mut().enumerate() {
            let (Some(job), Some(Some(name))) = (&run.info.chronicle, names.get(index)) else {
                continue;
            };
            let shared = names
                .iter()
                .enumerate()
                .any(|(other, known)| other != index && known.as_ref() == Some(name));
            if shared {
                run.info.display_name = Some(format!("{name} · {}", job.job_id));
            }
        }
    }

    /// Runs whose display names are still the same (two evaluations both called "Step 400")
    /// would read as one run in titles, columns and choices: each of those is named
    /// `{name} · {run id}`.
    fn name_shared_names(&mut self) {
        let names: Vec<String> = self
            .runs
            .iter()
            .map(|run| run.info.name().to_owned())
            .collect();
        for (index, run) in self.runs.iter_mut().enumerate() {
            let name = &names[index];
            let shared = names
                .iter()
                .enumerate()
                .any(|(other, known)| other != index && known == name);
            if shared && *name != run.info.id {
                run.info.display_name = Some(format!("{name} · {}", run.info.id));
            }
        }
    }

    fn intern_task(&mut self, id: &str) -> Result<TaskIdx, ModelError> {
        if let Some(last) = self.last_task {
            // The last task, else one of the few after it: sources list a task's samples
            // together, and the tasks in the order of the benchmark's list, which made the
            // indices, skipping the tasks an evaluation did not run (another split's). The map
            // (a few cache misses a lookup among 100,000 tasks) is for the rest.
            for next in (0..=TASKS_LOOKED_AHEAD).map(|ahead| last.saturating_add(ahead)) {
                if self
                    .tasks
                    .get(next as usize)
                    .is_some_and(|task| same_text(&task.id, id))
                {
                    self.last_task = Some(next);
                    return Ok(next);
                }
            }
        }
        if let Some(&index) = self.task_index.get(id) {
            self.last_task = Some(index);
            return Ok(index);
        }
        let task = Task {
            id: id.to_owned(),
            label: None,
            split: None,
            categories: Vec::new(),
            listed: false,
        };
        let index = self.insert_task(task, id.into())?;
        self.last_task = Some(index);
        Ok(index)
    }

    /// Adds a task not known yet, `key` its id, under the next index.
    fn insert_task(&mut self, task: Task, key: Box<str>) -> Result<TaskIdx, ModelError> {
        let index = dense_index(self.tasks.len(), "tasks")?;
        self.tasks.push(task);
        self.task_index.insert(key, index);
        Ok(index)
    }

    fn intern_category(&mut self, mut category: Category) -> Result<CategoryIdx, ModelError> {
        if let Some(&index) = self.category_index.get(category.id.as_str()) {
            return Ok(index);
        }
        self.cut_labels
            .cut(&mut category.label, "category", &category.id);
        let index =
            u32::try_from(self.categories.len()).map_err(|_| ModelError::TooMany("categories"))?;
        self.category_index
            .insert(category.id.as_str().into(), index);
        self.categories.push(category);
        Ok(index)
    }
}

/// The index the next of `len` interned things (tasks, endings, a run's rows) gets: a u32
/// below [`NONE_U32`], which means "none"; `what` names them when there are too many.
fn dense_index(len: usize, what: &'static str) -> Result<u32, ModelError> {
    u32::try_from(len)
        .ok()
        .filter(|&index| index < NONE_U32)
        .ok_or(ModelError::TooMany(what))
}

/// Endings of a run compared one by one before its map of endings is looked up.
const FEW_ENDINGS: usize = 8;

impl PendingRun {
    fn intern_ending(&mut self, name: &str) -> Result<u32, ModelError> {
        if let Some(last) = self.last_ending {
            if self
                .endings
                .get(last as usize)
                .is_some_and(|known| same_text(known, name))
            {
                return Ok(last);
            }
        }
        // A run has a handful of endings: comparing them (their lengths first) is quicker than
        // hashing the name; the map serves runs with many.
        let few = &self.endings[..self.endings.len().min(FEW_ENDINGS)];
        let known = few
            .iter()
            .position(|known| same_text(known, name))
            .map(|index| index as u32);
        let mapped = || {
            (self.endings.len() > FEW_ENDINGS)
                .then(|| self.ending_index.get(name).copied())
                .flatten()
        };
        let index = match known.or_else(mapped) {
            Some(index) => index,
            None => {
                let index = dense_index(self.endings.len(), "ending names")?;
                self.endings.push(name.to_owned());
                self.ending_index.insert(name.into(), index);
                index
            }
        };
        self.last_ending = Some(index);
        Ok(index)
    }
}

/// A [`RunSetBuilder`] whose runs are being grouped by task, one at a time, in steps
/// ([`RunSetBuilder::finishing`]).
#[derive(Debug)]
pub struct RunSetFinish {
    /// The builder, its runs moved out.
    builder: RunSetBuilder,
    task_count: usize,
    pending: std::vec::IntoIter<PendingRun>,
    /// The run being grouped: its rows put in task order, then its statistics.
    current: Option<GroupingRun>,
    finished: Vec<Run>,
    /// Rows of the finished runs.
    rows_finished: usize,
}

impl RunSetFinish {
    /// Does the next step: about `rows` more rows of the current run put in task order (the
    /// first step of a run also finds that order), or, once they all are, that run's per-task
    /// statistics and totals. True once every run is done.
    pub fn finish_step(&mut self, rows: usize) -> bool {
        match self.current.take() {
            Some(mut run) if !run.grouping.is_done() => {
                run.grouping.advance(rows);
                self.current = Some(run);
            }
            Some(run) => {
                self.rows_finished += run.grouping.progress().1;
                self.finished.push(summarize_grouped(run, self.task_count));
            }
            None => {
                self.current = self
                    .pending
                    .next()
                    .map(|pending| start_grouping(pending, self.task_count));
            }
        }
        self.current.is_none() && self.pending.len() == 0
    }

    /// Finishes every run not finished yet, each on its own thread (one after another in
    /// the browser): the same runs, in the same order, as [`Self::finish_step`] makes. A run
    /// being grouped step by step is finished so first.
    pub fn finish_on_cores(&mut self) {
        while self.current.is_some() {
            self.finish_step(usize::MAX);
        }
        let task_count = self.task_count;
        let mut left: Vec<(Option<PendingRun>, Option<Run>)> = self
            .pending
            .by_ref()
            .map(|pending| (Some(pending), None))
            .collect();
        crate::parallel::for_each_in_parallel(&mut left, |(pending, run)| {
            *run = pending
                .take()
                .map(|pending| finish_run(pending, task_count));
        });
        for run in left.into_iter().filter_map(|(_, run)| run) {
            self.rows_finished += run.columns.len();
            self.finished.push(run);
        }
    }

    /// Rows grouped so far: those of the runs done and of the current run.
    pub fn rows_done(&self) -> usize {
        self.rows_finished
            + self
                .current
                .as_ref()
                .map_or(0, |run| run.grouping.progress().0)
    }

    /// The run set; runs not grouped yet are grouped first.
    pub fn build(mut self) -> RunSet {
        while !self.finish_step(usize::MAX) {}
        let builder = self.builder;
        RunSet {
            runs: self.finished,
            tasks: builder.tasks,
            task_index: builder.task_index,
            categories: builder.categories,
            task_conflicts: builder.task_conflicts,
            cut_labels: builder.cut_labels,
            platform_series: std::collections::BTreeMap::new(),
            token_counts: std::sync::Arc::default(),
        }
    }
}

/// `run` with only the trajectories (rows) `keep` says, its aggregates and totals computed
/// again as [`RunSetBuilder::build`] does.
pub(crate) fn rebuild_run(run: &Run, keep: impl Fn(usize) -> bool, task_count: usize) -> Run {
    let old = &run.columns;
    let mut columns = TrajectoryColumns::default();
    for row in (0..old.len()).filter(|&row| keep(row)) {
        let new_row = columns.len() as u32;
        columns.push_row_of(old, row);
        if let Some(parts) = old.components.get(&(row as u32)) {
            columns.components.insert(new_row, parts.clone());
        }
    }
    finish_run(
        PendingRun {
            info: run.info.clone(),
            join: run.join.clone(),
            columns,
            endings: run.endings.clone(),
            ending_index: IdMap::default(),
            last_ending: None,
        },
        task_count,
    )
}

/// A run whose rows are being put in task order ([`start_grouping`]).
#[derive(Debug)]
struct GroupingRun {
    info: RunInfo,
    join: Option<JoinReport>,
    endings: Vec<String>,
    grouping: TaskGrouping,
}

fn finish_run(pending: PendingRun, task_count: usize) -> Run {
    summarize_grouped(start_grouping(pending, task_count), task_count)
}

/// `pending` to put in task order.
fn start_grouping(pending: PendingRun, task_count: usize) -> GroupingRun {
    GroupingRun {
        info: pending.info,
        join: pending.join,
        endings: pending.endings,
        grouping: pending.columns.grouping_by_task(task_count),
    }
}

/// The run of `grouped`, with its per-task statistics and totals; rows not yet in task order
/// are put there first.
fn summarize_grouped(grouped: GroupingRun, task_count: usize) -> Run {
    let GroupingRun {
        info,
        join,
        endings,
        grouping,
    } = grouped;
    let (columns, offsets) = grouping.finish();
    let mut task_stats = vec![TaskStats::new(); task_count];
    let mut totals = RunTotals {
        trajectories: columns.len() as u64,
        ..RunTotals::default()
    };
    let mut binary = true;
    for (row, &task) in columns.task.iter().enumerate() {
        let (Some(&class), Some(reward)) = (columns.class.get(row), columns.reward.get(row)) else {
            continue;
        };
        totals.by_class.add(class, 1);
        if task == NONE_U32 {
            totals.without_task += 1;
            let mut alone = TaskStats::new();
            alone.push(class, reward);
            add_to_totals(&mut totals, &alone, &mut binary);
        } else if let Some(stats) = task_stats.get_mut(task as usize) {
            stats.push(class, reward);
        }
    }
    let mut mean_sum = 0.0;
    let all_pass = info.task_scoring == TaskScoring::AllSamplesPass;
    for stats in &mut task_stats {
        if all_pass {
            stats.collapse_to_all_passed();
        }
        if stats.samples() > 0 {
            totals.tasks_attempted += 1;
        }
        if let Some(mean) = stats.primary.mean() {
            totals.tasks_scored += 1;
            mean_sum += mean;
        }
        add_to_totals(&mut totals, stats, &mut binary);
    }
    totals.binary = binary && totals.included > 0;
    totals.task_mean = (totals.tasks_scored > 0).then(|| mean_sum / totals.tasks_scored as f64);
    Run {
        info,
        join,
        columns,
        endings,
        offsets,
        task_stats,
        totals,
    }
}

fn add_to_totals(totals: &mut RunTotals, stats: &TaskStats, binary: &mut bool) {
    totals.included += u64::from(stats.included_samples);
    totals.invalid_rewards += u64::from(stats.invalid_rewards);
    totals.zero_by_platform_rule += u64::from(stats.zero_by_platform_rule);
    totals.zero_without_grade += u64::from(stats.zero_without_grade);
    *binary &= stats.primary_binary;
}

/// Fills `field` from a later listing when it is empty; whether the listing disagreed.
fn fill(field: &mut Option<String>, later: Option<String>) -> bool {
    match (field.as_ref(), later) {
        (None, later) => {
            *field = later;
            false
        }
        (Some(first), Some(later)) => *first != later,
        (Some(_), None) => false,
    }
}

/// [`fill`] for a task's categories (empty is missing).
fn fill_categories(field: &mut Vec<CategoryIdx>, later: Vec<CategoryIdx>) -> bool {
    if field.is_empty() {
        *field = later;
        false
    } else {
        !later.is_empty() && *field != later
    }
}
