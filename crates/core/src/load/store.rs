//! Everything read for the comparisons of a page or a command, by run and by benchmark.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;

use crate::api::{BenchmarkSpecTask, EvalRun, EvalRunStatus, RunOptionsResponse, TrainingRun};
use crate::model::{setting_inputs, Lookup, PlatformSeries, RunSet, SettingInputs};
use crate::run_folder::RunFolder;

use super::component_reads::ComponentReads;
use super::forms::{FullRecords, ListForm, Packed};
use super::job_load::JobLoad;
use super::list::{ListKind, ListLoad, Phase};
use super::progress::{ListProgress, RunProgress, SettingsRead};
use super::run_load::{defaults_key, DefaultsKey, RunLoad, SingleRead};
use super::stream_source::ListSource;

/// The first thing of a load that did not complete, in the order the runs were asked for (for
/// each run: its record, its rewards, its trajectories, its benchmark's tasks).
#[derive(Debug, Clone, PartialEq)]
pub enum LoadFailure {
    /// The run's record could not be read.
    Record {
        /// The run.
        run_id: String,
        /// Failed, cancelled, or never finished.
        phase: Phase,
    },
    /// A list stopped early.
    List {
        /// Which list.
        kind: ListKind,
        /// Whose list: the run id, or the benchmark id for tasks.
        owner: String,
        /// Pages read before it stopped.
        pages_read: u32,
        /// Items read before it stopped.
        items: usize,
        /// Failed, cancelled, or never finished.
        phase: Phase,
    },
    /// The platform's results of a Chronicle job could not be read.
    Results {
        /// The job.
        job_id: String,
        /// Failed, cancelled, or never finished.
        phase: Phase,
    },
}

/// Everything read from the API, by run and benchmark. Runs are loaded into it by
/// [`load_runs`](super::load_runs); it is shared by reference (`Rc`), never across threads.
/// It keeps the runs' lists in the form `F`: packed by default ([`LoadStore::new`]), whole
/// for writing run folders ([`LoadStore::with_full_records`]).
#[derive(Debug, Default)]
pub struct LoadStore<F: ListForm = Packed> {
    runs: RefCell<HashMap<String, Rc<RunLoad<F>>>>,
    /// Chronicle jobs, by id (read by `load_jobs`).
    pub(super) jobs: RefCell<HashMap<String, Rc<JobLoad>>>,
    tasks: RefCell<HashMap<String, Rc<RefCell<ListLoad<BenchmarkSpecTask>>>>>,
    /// Reward components read per trajectory on request (by `load_components`).
    pub(super) components: ComponentReads,
    /// Token counts read per trajectory on request (by `load_tokens`; `None`: no count).
    pub(super) tokens: super::TrajectoryReads<Option<crate::model::TokenCount>>,
    /// Chronicle trials' steps and durations read on request (by `load_trial_details`).
    pub(super) trial_details: super::TrajectoryReads<crate::model::TrialEffort>,
    training_runs: RefCell<HashMap<String, SingleRead<TrainingRun>>>,
    eval_options: RefCell<HashMap<DefaultsKey, SingleRead<RunOptionsResponse>>>,
    platform_series: RefCell<HashMap<String, SingleRead<PlatformSeries>>>,
    /// Where runs' and jobs' lists are read from, once chosen (the API's pages until then).
    list_source: Cell<Option<ListSource>>,
    /// Costs and rollout statistics read beside the runs (when enabled).
    costs: super::billing::CostReads,
    /// Whether loads leave out the platform's progression ([`BesideRuns`]; read by default).
    skip_platform_progression: Cell<bool>,
    /// Naming later runs to the server to read ahead ([`Self::read_ahead_after`]).
    pub(super) read_ahead: super::read_ahead::ReadAhead,
}

/// What a load reads beside each run's record, lists and settings: what the page or command
/// shows decides it ([`LoadStore::set_reads_beside`]). A comparison shows both; a scorecard
/// neither, so its load reads none of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BesideRuns {
    /// Each run's billing row and rollout statistics ([`super::load_costs`]).
    pub costs: bool,
    /// The platform's progression of each checkpoint evaluation's training run (its
    /// evaluation series and held-out reward by step).
    pub platform_progression: bool,
}

impl BesideRuns {
    /// Everything a comparison shows.
    pub const ALL: Self = Self {
        costs: true,
        platform_progression: true,
    };
    /// Nothing beside the runs.
    pub const NONE: Self = Self {
        costs: false,
        platform_progression: false,
    };
}

impl LoadStore {
    /// An empty store keeping what a comparison reads of each listed item.
    pub fn new() -> Self {
        Self::default()
    }
}

impl LoadStore<FullRecords> {
    /// An empty store keeping the API's records whole (to write run folders).
    pub fn with_full_records() -> Self {
        Self::default()
    }
}

impl<F: ListForm> LoadStore<F> {
    /// Where the lists are read from next ([`ListSource::ContractPages`] unless set).
    pub fn list_source(&self) -> ListSource {
        self.list_source.get().unwrap_or_default()
    }

    /// Where the lists are read from, once chosen ([`Self::set_list_source`]).
    pub fn chosen_list_source(&self) -> Option<ListSource> {
        self.list_source.get()
    }

    /// Reads the lists from `source` from now on (lists already read stay).
    pub fn set_list_source(&self, source: ListSource) {
        self.list_source.set(Some(source));
    }

    /// Has each load name the runs after its `first` to the server to read ahead, when the
    /// server offers it ([`super::read_ahead`]): for a browser, whose six connections per
    /// server take the first runs' lists and leave the later ones waiting.
    pub fn read_ahead_after(&self, first: usize) {
        self.read_ahead.set_after(first);
    }

    /// The runs' costs and rollout statistics, read beside them once enabled.
    pub fn cost_reads(&self) -> &super::billing::CostReads {
        &self.costs
    }

    /// What loads read beside the runs (a new store: the platform's progression, not costs).
    pub fn reads_beside(&self) -> BesideRuns {
        BesideRuns {
            costs: self.costs.is_enabled(),
            platform_progression: !self.skip_platform_progression.get(),
        }
    }

    /// Makes later loads read `beside` the runs; what was read stays. Turned on for runs already
    /// read, the next load reads only what is missing.
    pub fn set_reads_beside(&self, beside: BesideRuns) {
        self.costs.set_enabled(beside.costs);
        self.skip_platform_progression
            .set(!beside.platform_progression);
    }

    /// Whether `beside` names a read of `run_ids` no load ever started: a cost, or the
    /// platform's progression of a read run's training run (a run whose record is not read
    /// lacks nothing here: its own load is due). A read that failed or was cancelled was
    /// started (a Retry reads it again).
    pub fn lacks_beside(&self, run_ids: &[String], beside: BesideRuns) -> bool {
        if beside.costs && !self.costs.asked_for_all(run_ids) {
            return true;
        }
        beside.platform_progression
            && run_ids.iter().filter_map(|id| self.get(id)).any(|run| {
                let record = run.record.borrow();
                let training_run_id = record
                    .0
                    .as_ref()
                    .filter(|record| record.agent_id.is_some())
                    .and_then(|record| record.training_run_id.as_ref());
                training_run_id.is_some_and(|id| {
                    self.platform_series
                        .borrow()
                        .get(id)
                        .is_none_or(|read| read.borrow().1 == Phase::Waiting)
                })
            })
    }

    /// The run's entry, created when new.
    pub fn run(&self, run_id: &str) -> Rc<RunLoad<F>> {
        Rc::clone(
            self.runs
                .borrow_mut()
                .entry(run_id.to_owned())
                .or_insert_with(|| Rc::new(RunLoad::new(run_id))),
        )
    }

    /// Listed items held (rewards, trajectories, tasks and trials): what the store's memory
    /// grows with.
    pub fn held_items(&self) -> usize {
        let runs: usize = self
            .runs
            .borrow()
            .values()
            .map(|run| run.rewards.borrow().items.len() + run.trajectories.borrow().items.len())
            .sum();
        let tasks: usize = self
            .tasks
            .borrow()
            .values()
            .map(|list| list.borrow().items.len())
            .sum();
        let trials: usize = self
            .jobs
            .borrow()
            .values()
            .map(|job| job.trials.borrow().items.len())
            .sum();
        runs + tasks + trials
    }

    /// Forgets every run and job but `run_ids` and `job_ids`, and the task lists of benchmarks
    /// none of the runs kept is on, so another comparison's data do not pile up; what is
    /// forgotten is read again when asked for. The listed items released.
    pub fn release_except(&self, run_ids: &[String], job_ids: &[String]) -> usize {
        let before = self.held_items();
        self.runs.borrow_mut().retain(|id, _| run_ids.contains(id));
        self.jobs.borrow_mut().retain(|id, _| job_ids.contains(id));
        let benches: Vec<String> = self
            .runs
            .borrow()
            .values()
            .filter_map(|run| run.bench_id())
            .collect();
        self.tasks
            .borrow_mut()
            .retain(|bench, _| benches.contains(bench));
        before - self.held_items()
    }

    /// The run's entry, if it was ever asked for.
    pub fn get(&self, run_id: &str) -> Option<Rc<RunLoad<F>>> {
        self.runs.borrow().get(run_id).cloned()
    }

    /// A benchmark's task list, created when new.
    pub fn tasks(&self, bench_id: &str) -> Rc<RefCell<ListLoad<BenchmarkSpecTask>>> {
        Rc::clone(
            self.tasks
                .borrow_mut()
                .entry(bench_id.to_owned())
                .or_default(),
        )
    }

    /// A training run's read (for the settings of its checkpoints' evaluations), created when new.
    pub fn training_run(&self, training_run_id: &str) -> SingleRead<TrainingRun> {
        Rc::clone(
            self.training_runs
                .borrow_mut()
                .entry(training_run_id.to_owned())
                .or_insert_with(|| Rc::new(RefCell::new((None, Phase::Waiting)))),
        )
    }

    /// The read of the platform's progression of a training run (for the progression of its
    /// checkpoints' evaluations), created when new.
    pub fn platform_series(&self, training_run_id: &str) -> SingleRead<PlatformSeries> {
        Rc::clone(
            self.platform_series
                .borrow_mut()
                .entry(training_run_id.to_owned())
                .or_insert_with(|| Rc::new(RefCell::new((None, Phase::Waiting)))),
        )
    }

    /// The evaluation defaults' read of a benchmark version and base model, created when new.
    pub fn eval_options(&self, key: &DefaultsKey) -> SingleRead<RunOptionsResponse> {
        Rc::clone(
            self.eval_options
                .borrow_mut()
                .entry(key.clone())
                .or_insert_with(|| Rc::new(RefCell::new((None, Phase::Waiting)))),
        )
    }

    /// The reads that resolve a run's settings, once its record is read: its training run's
    /// (checkpoint evaluations naming one), with the platform's progression when loads read it,
    /// and its evaluation defaults.
    fn settings_reads(&self, run: &EvalRun) -> Vec<(SettingsRead, Phase)> {
        let mut reads = Vec::new();
        if let Some(id) = &run.training_run_id {
            let read = self.training_run(id);
            reads.push((SettingsRead::TrainingRun, read.borrow().1.clone()));
            if run.agent_id.is_some() && !self.skip_platform_progression.get() {
                let read = self.platform_series(id);
                reads.push((SettingsRead::PlatformProgression, read.borrow().1.clone()));
            }
        }
        let read = self.eval_options(&defaults_key(run));
        reads.push((SettingsRead::EvaluationDefaults, read.borrow().1.clone()));
        reads
    }

    /// What was read to resolve a run's settings, as the model takes it.
    pub(super) fn setting_inputs(&self, run: &EvalRun) -> SettingInputs {
        fn failed(phase: &Phase) -> String {
            match phase {
                Phase::Failed(error) => error.to_string(),
                Phase::Cancelled => "loading was cancelled".to_owned(),
                Phase::Waiting | Phase::Loading | Phase::Complete => "not read yet".to_owned(),
            }
        }
        let training_read = run.training_run_id.as_ref().map(|id| self.training_run(id));
        let training_state = training_read.as_ref().map(|read| read.borrow());
        let training = match training_state.as_deref() {
            Some((Some(training), Phase::Complete)) => Lookup::Read(training),
            Some((_, phase)) => Lookup::Failed(failed(phase)),
            None => Lookup::NotRead,
        };
        let defaults_read = self.eval_options(&defaults_key(run));
        let defaults_state = defaults_read.borrow();
        let defaults = match &*defaults_state {
            (Some(response), Phase::Complete) => Lookup::Read(response),
            (_, phase) => Lookup::Failed(failed(phase)),
        };
        setting_inputs(run, training, defaults)
    }

    /// The training run and the evaluation defaults read for `run`, when both were read
    /// completely (a read that failed or was not made is `None`).
    fn settings_read(&self, run: &EvalRun) -> (Option<TrainingRun>, Option<RunOptionsResponse>) {
        let training =
            run.training_run_id
                .as_ref()
                .and_then(|id| match &*self.training_run(id).borrow() {
                    (Some(training), Phase::Complete) => Some(training.clone()),
                    _ => None,
                });
        let defaults = match &*self.eval_options(&defaults_key(run)).borrow() {
            (Some(response), Phase::Complete) => Some(response.clone()),
            _ => None,
        };
        (training, defaults)
    }

    /// Marks everything in progress as cancelled (the futures were dropped).
    pub fn mark_cancelled(&self) {
        for run in self.runs.borrow().values() {
            let mut record = run.record.borrow_mut();
            if !record.1.is_settled() {
                record.1 = Phase::Cancelled;
            }
            drop(record);
            for phase in [
                &mut run.rewards.borrow_mut().phase,
                &mut run.trajectories.borrow_mut().phase,
            ] {
                if *phase == Phase::Loading {
                    *phase = Phase::Cancelled;
                }
            }
        }
        for list in self.tasks.borrow().values() {
            let mut list = list.borrow_mut();
            if list.phase == Phase::Loading {
                list.phase = Phase::Cancelled;
            }
        }
        for read in self.training_runs.borrow().values() {
            let mut read = read.borrow_mut();
            if !read.1.is_settled() {
                read.1 = Phase::Cancelled;
            }
        }
        for read in self.eval_options.borrow().values() {
            let mut read = read.borrow_mut();
            if !read.1.is_settled() {
                read.1 = Phase::Cancelled;
            }
        }
        for read in self.platform_series.borrow().values() {
            let mut read = read.borrow_mut();
            if !read.1.is_settled() {
                read.1 = Phase::Cancelled;
            }
        }
        for job in self.jobs.borrow().values() {
            for phase in [
                &mut job.record.borrow_mut().1,
                &mut job.results.borrow_mut().1,
            ] {
                if !phase.is_settled() {
                    *phase = Phase::Cancelled;
                }
            }
            let mut trials = job.trials.borrow_mut();
            if trials.phase == Phase::Loading {
                trials.phase = Phase::Cancelled;
            }
        }
    }

    /// Progress of the runs `run_ids`, in order.
    pub fn progress(&self, run_ids: &[String]) -> Vec<RunProgress> {
        run_ids.iter().map(|id| self.run_progress(id)).collect()
    }

    fn run_progress(&self, run_id: &str) -> RunProgress {
        let run = self.run(run_id);
        let (record, phase) = run.record.borrow().clone();
        let planned = record
            .as_ref()
            .and_then(|run| run.total_rollouts)
            .and_then(|total| u64::try_from(total).ok());
        let progress = run.progress.borrow().clone();
        let refresh_error = run.refresh_error.borrow().clone();
        let mut lists = vec![
            list_progress(ListKind::Rewards, &run.rewards.borrow(), planned),
            list_progress(ListKind::Trajectories, &run.trajectories.borrow(), planned),
        ];
        if let Some(bench) = run.bench_id() {
            let tasks = self.tasks(&bench);
            lists.push(list_progress(ListKind::Tasks, &tasks.borrow(), None));
        }
        RunProgress {
            run_id: run_id.to_owned(),
            name: record.as_ref().map(|run| {
                run.display_name
                    .clone()
                    .filter(|name| !name.trim().is_empty())
                    .unwrap_or_else(|| run.eval_run_id.clone())
            }),
            record: phase,
            running: run.is_running(),
            rollouts: progress
                .filter(|progress| progress.status == Some(EvalRunStatus::Running))
                .map(|progress| (progress.terminal_rollouts, progress.total_rollouts)),
            lists,
            settings_reads: record
                .as_ref()
                .map(|run| self.settings_reads(run))
                .unwrap_or_default(),
            refresh_error,
        }
    }

    /// Whether every list of `run_ids` is read or stopped and every record is read: then a run
    /// set can be built.
    pub fn is_ready(&self, run_ids: &[String]) -> bool {
        self.progress(run_ids)
            .iter()
            .all(|run| run.record == Phase::Complete && run.is_settled())
    }

    /// Whether any of `run_ids` still needs watching for new results: a record not read yet,
    /// or a run still executing.
    pub fn needs_refresh(&self, run_ids: &[String]) -> bool {
        let runs: Vec<Option<Rc<RunLoad<F>>>> = run_ids.iter().map(|id| self.get(id)).collect();
        let all_read = runs.iter().all(|run| {
            run.as_ref()
                .is_some_and(|run| run.record.borrow().1 == Phase::Complete)
        });
        let any_running = runs.iter().flatten().any(|run| run.is_running());
        !all_read || any_running
    }

    /// The first record or list of `run_ids` that did not complete, in order; `None` when
    /// everything was read.
    pub fn first_failure(&self, run_ids: &[String]) -> Option<LoadFailure> {
        run_ids.iter().find_map(|id| self.failure_of(id))
    }

    fn failure_of(&self, run_id: &str) -> Option<LoadFailure> {
        let run = self.run(run_id);
        let phase = run.record.borrow().1.clone();
        if phase != Phase::Complete {
            return Some(LoadFailure::Record {
                run_id: run_id.to_owned(),
                phase,
            });
        }
        let list_failure = |kind: ListKind, owner: &str, pages_read, items, phase: &Phase| {
            (*phase != Phase::Complete).then(|| LoadFailure::List {
                kind,
                owner: owner.to_owned(),
                pages_read,
                items,
                phase: phase.clone(),
            })
        };
        let rewards = run.rewards.borrow();
        let trajectories = run.trajectories.borrow();
        let bench_id = run.bench_id().unwrap_or_default();
        let tasks = self.tasks(&bench_id);
        let tasks = tasks.borrow();
        list_failure(
            ListKind::Rewards,
            run_id,
            rewards.pages_read,
            rewards.items.len(),
            &rewards.phase,
        )
        .or_else(|| {
            list_failure(
                ListKind::Trajectories,
                run_id,
                trajectories.pages_read,
                trajectories.items.len(),
                &trajectories.phase,
            )
        })
        .or_else(|| {
            list_failure(
                ListKind::Tasks,
                &bench_id,
                tasks.pages_read,
                tasks.items.len(),
                &tasks.phase,
            )
        })
    }

    /// What the read of `training_run_id`'s platform progression ended with: the series, or
    /// why it failed; `None` when it was never asked for or has not ended.
    fn platform_series_read(
        &self,
        training_run_id: &str,
    ) -> Option<Result<PlatformSeries, String>> {
        let read = self
            .platform_series
            .borrow()
            .get(training_run_id)
            .cloned()?;
        let read = read.borrow();
        match &*read {
            (Some(series), Phase::Complete) => Some(Ok(series.clone())),
            (_, Phase::Failed(error)) => Some(Err(error.to_string())),
            _ => None,
        }
    }

    /// Attaches the platform's progression of every training run among `run_ids`' records
    /// that was read, or why its read failed.
    pub(super) fn attach_platform_series(&self, set: &mut RunSet, run_ids: &[String]) {
        for id in run_ids {
            let run = self.run(id);
            let record = run.record.borrow();
            let Some(training_run_id) = record.0.as_ref().and_then(|r| r.training_run_id.clone())
            else {
                continue;
            };
            if let Some(series) = self.platform_series_read(&training_run_id) {
                set.attach_platform_series(&training_run_id, series);
            }
        }
    }
}

impl LoadStore<FullRecords> {
    /// The run as a run folder (to write it to disk), when its record was read, with the
    /// training run and evaluation defaults read to resolve its settings; its lists are moved
    /// out of the store. Check [`Self::first_failure`] first: a folder of a list that
    /// stopped early holds only what was read.
    pub fn take_run_folder(&self, run_id: &str) -> Option<RunFolder> {
        let run = self.get(run_id)?;
        let record = run.record.borrow().0.clone()?;
        let tasks = self.tasks(&record.bench_id).borrow().items.clone();
        let rewards = std::mem::take(&mut run.rewards.borrow_mut().items);
        let trajectories = std::mem::take(&mut run.trajectories.borrow_mut().items);
        let (training_run, eval_options) = self.settings_read(&record);
        let platform_series = record
            .training_run_id
            .as_ref()
            .and_then(|id| self.platform_series_read(id)?.ok());
        Some(RunFolder {
            run: record,
            rewards,
            trajectories,
            tasks: Some(tasks),
            training_run,
            eval_options,
            platform_series,
            truncated_files: Vec::new(),
            costs: crate::run_folder::FolderCosts {
                billing: self.costs.billing_row(run_id),
                rollout_statistics: match self.costs.statistics(run_id) {
                    Lookup::Read(statistics) => Some(statistics),
                    _ => None,
                },
            },
        })
    }
}

fn list_progress<T>(kind: ListKind, list: &ListLoad<T>, total: Option<u64>) -> ListProgress {
    ListProgress {
        kind,
        pages: list.pages_read,
        items: list.items.len(),
        total,
        phase: list.phase.clone(),
    }
}
