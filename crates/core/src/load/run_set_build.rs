//! The run set of a comparison built from the store a step at a time ([`RunSetBuild`]), so a
//! page can build one of millions of trajectories in slices and stay responsive between them.
//! [`LoadStore::run_set`] is the same build run to its end.

use crate::model::{
    ApiRun, ApiRunJoin, ModelError, RunSet, RunSetBuilder, RunSetFinish, SourceKind,
};

use super::forms::ListForm;
use super::list::ListKind;
use super::store::LoadStore;

/// Items (tasks, or trajectory items walked) the final grouping by task is counted as, per
/// trajectory, in [`RunSetBuild::progress`]: about what it costs beside the join.
const FINISH_WEIGHT: usize = 1;

/// Where a [`RunSetBuild`] stands.
#[derive(Debug)]
enum Stage {
    /// Adding the task list of run `run`'s benchmark, from item `at`.
    Tasks { run: usize, at: usize },
    /// Joining run `run`'s rewards with its trajectories.
    Join { run: usize, join: Box<ApiRunJoin> },
    /// Every run added: grouping by task starts.
    Finish,
    /// Grouping the runs by task, one a step; then attaching what was read beside the runs.
    Grouping(Box<RunSetFinish>),
}

/// What one [`RunSetBuild::advance`] ended with.
#[derive(Debug)]
pub enum BuildStep {
    /// More steps are needed.
    Working,
    /// The run set, or why the runs could not be combined.
    Built(Result<RunSet, ModelError>),
    /// The runs are no longer ready in the store (a load started again): there is nothing to
    /// build until they are.
    NotReady,
}

/// A run set of the store being built a step at a time ([`LoadStore::start_run_set`]).
///
/// Each [`Self::advance`] reads the store's lists again. When a run's list changed in between
/// (a refresh of a running run swapped it, or it grew), the build starts over by itself, so
/// what it returns is the run set of one state of the store.
#[derive(Debug)]
pub struct RunSetBuild {
    run_ids: Vec<String>,
    builder: RunSetBuilder,
    stage: Stage,
    /// Items walked so far and in all, for progress.
    walked: usize,
    total: usize,
}

impl<F: ListForm> LoadStore<F> {
    /// The run set of `run_ids` in order (the baseline first): for each run its benchmark's
    /// tasks, then the run, labelled as read from the API, with the reward components read so
    /// far attached. `None` until [`Self::is_ready`].
    pub fn run_set(&self, run_ids: &[String]) -> Option<Result<RunSet, ModelError>> {
        let mut build = self.start_run_set(run_ids)?;
        loop {
            match build.advance(self, usize::MAX) {
                BuildStep::Working => continue,
                BuildStep::Built(built) => return Some(built),
                BuildStep::NotReady => return None,
            }
        }
    }

    /// A build of the run set of `run_ids` (see [`Self::run_set`]); `None` until
    /// [`Self::is_ready`].
    pub fn start_run_set(&self, run_ids: &[String]) -> Option<RunSetBuild> {
        if !self.is_ready(run_ids) {
            return None;
        }
        let total = run_ids
            .iter()
            .map(|id| {
                let run = self.run(id);
                let bench_id = run.bench_id().unwrap_or_default();
                let tasks = self.tasks(&bench_id).borrow().items.len();
                let rewards = run.rewards.borrow().items.len();
                let trajectories = run.trajectories.borrow().items.len();
                tasks
                    + ApiRunJoin::work(rewards, trajectories)
                    + FINISH_WEIGHT * rewards.max(trajectories)
            })
            .sum();
        Some(RunSetBuild {
            run_ids: run_ids.to_vec(),
            builder: RunSetBuilder::new(),
            stage: Stage::Tasks { run: 0, at: 0 },
            walked: 0,
            total,
        })
    }
}

impl RunSetBuild {
    /// The share of the work done, from 0 to 1.
    pub fn progress(&self) -> f64 {
        if self.total == 0 {
            1.0
        } else {
            (self.walked as f64 / self.total as f64).min(1.0)
        }
    }

    /// Goes on for about `budget` items (tasks added, trajectory items walked); grouping a
    /// run by task, at the end, is one step per run.
    pub fn advance<F: ListForm>(&mut self, store: &LoadStore<F>, budget: usize) -> BuildStep {
        match self.step(store, budget.max(1)) {
            Ok(Some(set)) => BuildStep::Built(Ok(set)),
            Ok(None) => BuildStep::Working,
            Err(StepError::Model(ModelError::ListingsChanged)) => {
                match store.start_run_set(&self.run_ids) {
                    Some(fresh) => {
                        *self = fresh;
                        BuildStep::Working
                    }
                    None => BuildStep::NotReady,
                }
            }
            Err(StepError::Model(error)) => BuildStep::Built(Err(error)),
            Err(StepError::NotReady) => BuildStep::NotReady,
        }
    }

    fn step<F: ListForm>(
        &mut self,
        store: &LoadStore<F>,
        budget: usize,
    ) -> Result<Option<RunSet>, StepError> {
        let mut left = budget;
        while left > 0 {
            match &mut self.stage {
                Stage::Tasks { run, at } => {
                    let Some(id) = self.run_ids.get(*run) else {
                        self.stage = Stage::Finish;
                        continue;
                    };
                    let record = store.run(id).record.borrow().0.clone();
                    let record = record.ok_or(StepError::NotReady)?;
                    let tasks = store.tasks(&record.bench_id);
                    let tasks = tasks.borrow();
                    let start = (*at).min(tasks.items.len());
                    let end = start.saturating_add(left).min(tasks.items.len());
                    self.builder.add_api_tasks(&tasks.items[start..end])?;
                    self.walked += end - start;
                    left = left.saturating_sub((end - start).max(1));
                    if end < tasks.items.len() {
                        *at = end;
                        continue;
                    }
                    let run_load = store.run(id);
                    let rewards = run_load.rewards.borrow();
                    let trajectories = run_load.trajectories.borrow();
                    let missing: Vec<String> = [
                        rewards.missing(ListKind::Rewards),
                        trajectories.missing(ListKind::Trajectories),
                        tasks.missing(ListKind::Tasks),
                    ]
                    .into_iter()
                    .flatten()
                    .collect();
                    let join = self.builder.start_api_run(ApiRun {
                        run: &record,
                        rewards: &rewards.items,
                        trajectories: &trajectories.items,
                        source: SourceKind::Api,
                        incomplete_load: (!missing.is_empty()).then(|| missing.join("; ")),
                    })?;
                    self.stage = Stage::Join {
                        run: *run,
                        join: Box::new(join),
                    };
                }
                Stage::Join { run, join } => {
                    let id = &self.run_ids[*run];
                    let run_load = store.run(id);
                    let rewards = run_load.rewards.borrow();
                    let trajectories = run_load.trajectories.borrow();
                    let before = join.progress().0;
                    let done =
                        join.advance(&mut self.builder, &rewards.items, &trajectories.items, left)?;
                    let walked = join.progress().0 - before;
                    self.walked += walked;
                    left = left.saturating_sub(walked.max(1));
                    if !done {
                        continue;
                    }
                    let next = *run + 1;
                    let Stage::Join { join, .. } =
                        std::mem::replace(&mut self.stage, Stage::Tasks { run: next, at: 0 })
                    else {
                        unreachable!("the stage was matched as a join just above");
                    };
                    let index = join.finish(&mut self.builder)?;
                    let record = run_load.record.borrow().0.clone();
                    let record = record.ok_or(StepError::NotReady)?;
                    self.builder
                        .set_setting_inputs(index, store.setting_inputs(&record))?;
                    let costs = store.cost_reads();
                    self.builder
                        .set_cost(index, costs.cost(id), costs.statistics(id))?;
                }
                Stage::Finish => {
                    let finishing = std::mem::take(&mut self.builder).finishing();
                    self.stage = Stage::Grouping(Box::new(finishing));
                }
                Stage::Grouping(finishing) => {
                    // About `left` rows of a run put in task order a step, or a run's
                    // statistics; then the step ends.
                    let before = finishing.rows_done();
                    let grouped = finishing.finish_step(left);
                    self.walked += FINISH_WEIGHT * finishing.rows_done().saturating_sub(before);
                    left = 0;
                    if !grouped {
                        continue;
                    }
                    let Stage::Grouping(finishing) =
                        std::mem::replace(&mut self.stage, Stage::Finish)
                    else {
                        unreachable!("the stage was matched as grouping just above");
                    };
                    let mut set = finishing.build();
                    store.attach_components(&mut set);
                    store.attach_tokens(&mut set);
                    store.attach_platform_series(&mut set, &self.run_ids);
                    self.walked = self.total;
                    return Ok(Some(set));
                }
            }
        }
        Ok(None)
    }
}

/// Why a step stopped.
#[derive(Debug)]
enum StepError {
    Model(ModelError),
    NotReady,
}

impl From<ModelError> for StepError {
    fn from(error: ModelError) -> Self {
        StepError::Model(error)
    }
}
