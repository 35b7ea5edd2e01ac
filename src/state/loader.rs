//! Loading the runs of a comparison from the Trajectory API.
//!
//! For each chosen run (baseline and candidates, concurrently): the run (`eval_run`), its
//! trajectory rewards and its trajectories (cursor pages of 200), and its benchmark version's
//! task list, read once per `bench_id` whichever run needs it first. Every page lands in the
//! store as it arrives, so progress shows pages and items as they load, and what was read
//! survives a failure or a Cancel. A list that stopped keeps its cursor: Retry resumes there
//! ([`Paginator::starting_at`]) without reading the first pages again; only a cursor the API
//! refuses as expired makes the list start over. A run whose lists stopped early still enters the
//! run set, with `incomplete_load` saying what is missing, so the coverage ledger says so.
//!
//! Runs still executing are refreshed: every [`REFRESH_MS`] their progress is read, and when it
//! moved the run and its lists are read again in the background and swapped in once complete.
//!
//! The async functions here are generic over the core's [`Transport`] and take the store by
//! reference; [`Loader`] runs them from the page with the browser transport, a signal ticking as
//! pages arrive (progress, at most every 100 ms) and another when the data settle (the run set is
//! rebuilt only then).

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;

use eval_compare_core::api::{
    BenchmarkSpecTask, CursorPage, EvalProgress, EvalRun, EvalRunStatus, EvalTrajectoryReward,
    TrajectoryMetadata,
};
use eval_compare_core::client::{
    ApiError, ClientConfig, Paginator, TrajectoryClient, Transport, MAX_PAGE_LIMIT,
};
use eval_compare_core::model::{ApiRun, ModelError, RunSet, RunSetBuilder};
use futures::future::{join, join3, join_all, AbortHandle, Abortable};
use leptos::prelude::*;
use leptos::task::spawn_local;
use serde::de::DeserializeOwned;

use crate::state::report::now_ms;
use crate::transport::FetchTransport;

/// Items per page requested from every list.
pub const PAGE_LIMIT: u32 = MAX_PAGE_LIMIT;

/// The loading panel re-renders at most this often while pages arrive (a comparison of six runs
/// reads ~100 pages in well under a second; re-rendering after each one slowed the load).
pub const PROGRESS_INTERVAL_MS: u64 = 100;
/// How often runs still executing are checked for new results.
pub const REFRESH_MS: u32 = 10_000;
/// The source label of runs read from the API (the CLI's too).
pub const API_SOURCE: &str = "api";

/// The lists read for a comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListKind {
    /// `GET /api/v1/eval/{run}/trajectory-rewards`.
    Rewards,
    /// `GET /api/v1/trajectories?eval_run_id={run}`.
    Trajectories,
    /// `GET /api/v1/benchmarks/{bench}/tasks`.
    Tasks,
}

impl ListKind {
    /// The list's name for people.
    pub fn label(self) -> &'static str {
        match self {
            ListKind::Rewards => "trajectory rewards",
            ListKind::Trajectories => "trajectories",
            ListKind::Tasks => "benchmark tasks",
        }
    }
}

/// Where a request or a list stands.
#[derive(Debug, Clone, PartialEq)]
pub enum Phase {
    /// Not started.
    Waiting,
    /// In progress.
    Loading,
    /// Everything was read.
    Complete,
    /// Stopped by a failure (after the client's retries).
    Failed(ApiError),
    /// Stopped by the user.
    Cancelled,
}

impl Phase {
    /// Whether nothing is in progress or pending.
    pub fn is_settled(&self) -> bool {
        !matches!(self, Phase::Waiting | Phase::Loading)
    }

    /// Whether it stopped before the end (failed or cancelled).
    pub fn is_stopped(&self) -> bool {
        matches!(self, Phase::Failed(_) | Phase::Cancelled)
    }
}

/// A list read page by page: what arrived so far and where to continue.
#[derive(Debug, Clone, PartialEq)]
pub struct ListLoad<T> {
    /// Items read, in list order.
    pub items: Vec<T>,
    /// Pages read.
    pub pages_read: u32,
    /// Cursor of the next page to read (`None`: the first page, or nothing left once complete).
    pub resume_cursor: Option<String>,
    /// Where it stands.
    pub phase: Phase,
}

impl<T> Default for ListLoad<T> {
    fn default() -> Self {
        Self {
            items: Vec::new(),
            pages_read: 0,
            resume_cursor: None,
            phase: Phase::Waiting,
        }
    }
}

impl<T> ListLoad<T> {
    /// What stopped the list early, as a phrase for the coverage ledger ("3 pages (600 items)
    /// read, then …"); `None` when it is complete or not stopped.
    pub fn missing(&self, kind: ListKind) -> Option<String> {
        let read = format!(
            "{} page{} ({} item{}) read",
            self.pages_read,
            plural(self.pages_read as usize),
            self.items.len(),
            plural(self.items.len())
        );
        match &self.phase {
            Phase::Failed(error) => Some(format!(
                "{}: {read}, then a page failed: {error}",
                kind.label()
            )),
            Phase::Cancelled => Some(format!(
                "{}: {read}, then loading was cancelled",
                kind.label()
            )),
            Phase::Waiting | Phase::Loading => Some(format!("{}: {read} so far", kind.label())),
            Phase::Complete => None,
        }
    }
}

fn plural(count: usize) -> &'static str {
    if count == 1 {
        ""
    } else {
        "s"
    }
}

/// One run of the comparison as far as it was read.
#[derive(Debug)]
pub struct RunLoad {
    /// The run's id.
    pub run_id: String,
    /// The run record and where its request stands.
    pub record: RefCell<(Option<EvalRun>, Phase)>,
    /// Latest progress of a running run (its planned and finished rollouts).
    pub progress: RefCell<Option<EvalProgress>>,
    /// Its trajectory rewards.
    pub rewards: RefCell<ListLoad<EvalTrajectoryReward>>,
    /// Its trajectories.
    pub trajectories: RefCell<ListLoad<TrajectoryMetadata>>,
    /// The last refresh of a running run that failed (the data shown stay the previous ones).
    pub refresh_error: RefCell<Option<ApiError>>,
}

impl RunLoad {
    fn new(run_id: &str) -> Self {
        Self {
            run_id: run_id.to_owned(),
            record: RefCell::new((None, Phase::Waiting)),
            progress: RefCell::new(None),
            rewards: RefCell::default(),
            trajectories: RefCell::default(),
            refresh_error: RefCell::new(None),
        }
    }

    /// The run's benchmark version, once its record is read.
    pub fn bench_id(&self) -> Option<String> {
        self.record
            .borrow()
            .0
            .as_ref()
            .map(|run| run.bench_id.clone())
    }

    /// Whether the run is still executing (latest progress first, else its record).
    pub fn is_running(&self) -> bool {
        let from_progress = self
            .progress
            .borrow()
            .as_ref()
            .and_then(|progress| progress.status.clone());
        let status = from_progress.or_else(|| {
            self.record
                .borrow()
                .0
                .as_ref()
                .and_then(|run| run.status.clone())
        });
        status == Some(EvalRunStatus::Running)
    }

    /// Whether the record and both lists were read completely.
    pub fn is_complete(&self) -> bool {
        self.record.borrow().1 == Phase::Complete
            && self.rewards.borrow().phase == Phase::Complete
            && self.trajectories.borrow().phase == Phase::Complete
    }
}

/// Everything read from the API for the comparisons of this page, by run and benchmark.
#[derive(Debug, Default)]
pub struct LoadStore {
    runs: RefCell<HashMap<String, Rc<RunLoad>>>,
    tasks: RefCell<HashMap<String, Rc<RefCell<ListLoad<BenchmarkSpecTask>>>>>,
}

/// Progress of one list, for display.
#[derive(Debug, Clone, PartialEq)]
pub struct ListProgress {
    /// Which list.
    pub kind: ListKind,
    /// Pages read.
    pub pages: u32,
    /// Items read.
    pub items: usize,
    /// How many items there are at most, when known (planned rollouts of the run).
    pub total: Option<u64>,
    /// Where it stands.
    pub phase: Phase,
}

/// Progress of one run, for display.
#[derive(Debug, Clone, PartialEq)]
pub struct RunProgress {
    /// The run's id.
    pub run_id: String,
    /// Its display name, once its record is read.
    pub name: Option<String>,
    /// Where reading its record stands.
    pub record: Phase,
    /// Whether it is still executing.
    pub running: bool,
    /// Finished and planned rollouts of a running run.
    pub rollouts: Option<(i64, i64)>,
    /// Its lists, and its benchmark's task list.
    pub lists: Vec<ListProgress>,
    /// The last failed refresh of a running run.
    pub refresh_error: Option<ApiError>,
}

impl RunProgress {
    /// Whether everything of this run is read or stopped.
    pub fn is_settled(&self) -> bool {
        self.record.is_settled() && self.lists.iter().all(|list| list.phase.is_settled())
    }

    /// Whether something stopped early.
    pub fn has_stopped(&self) -> bool {
        self.record.is_stopped() || self.lists.iter().any(|list| list.phase.is_stopped())
    }
}

impl LoadStore {
    /// An empty store.
    pub fn new() -> Self {
        Self::default()
    }

    /// The run's entry, created when new.
    pub fn run(&self, run_id: &str) -> Rc<RunLoad> {
        Rc::clone(
            self.runs
                .borrow_mut()
                .entry(run_id.to_owned())
                .or_insert_with(|| Rc::new(RunLoad::new(run_id))),
        )
    }

    /// The run's entry, if it was ever asked for.
    pub fn get(&self, run_id: &str) -> Option<Rc<RunLoad>> {
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
    }

    /// Progress of the runs `run_ids`, in order.
    pub fn progress(&self, run_ids: &[String]) -> Vec<RunProgress> {
        run_ids
            .iter()
            .map(|id| {
                let run = self.run(id);
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
                    run_id: id.clone(),
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
                    refresh_error,
                }
            })
            .collect()
    }

    /// Whether every list of `run_ids` is read or stopped and every record is read: then a run
    /// set can be built.
    pub fn is_ready(&self, run_ids: &[String]) -> bool {
        self.progress(run_ids).iter().all(|run| {
            run.record == Phase::Complete && run.lists.iter().all(|list| list.phase.is_settled())
        })
    }

    /// The run set of `run_ids` in order (the baseline first), built as the CLI builds it: for
    /// each run its benchmark's tasks, then the run. `None` until [`Self::is_ready`].
    pub fn run_set(&self, run_ids: &[String]) -> Option<Result<RunSet, ModelError>> {
        if !self.is_ready(run_ids) {
            return None;
        }
        let mut builder = RunSetBuilder::new();
        for id in run_ids {
            let run = self.run(id);
            let record = run.record.borrow();
            let eval_run = record.0.as_ref()?;
            let tasks = self.tasks(&eval_run.bench_id);
            let tasks = tasks.borrow();
            if let Err(error) = builder.add_api_tasks(&tasks.items) {
                return Some(Err(error));
            }
            let rewards = run.rewards.borrow();
            let trajectories = run.trajectories.borrow();
            let missing: Vec<String> = [
                rewards.missing(ListKind::Rewards),
                trajectories.missing(ListKind::Trajectories),
                tasks.missing(ListKind::Tasks),
            ]
            .into_iter()
            .flatten()
            .collect();
            let added = builder.add_api_run(ApiRun {
                run: eval_run,
                rewards: &rewards.items,
                trajectories: &trajectories.items,
                source: API_SOURCE,
                incomplete_load: (!missing.is_empty()).then(|| missing.join("; ")),
            });
            if let Err(error) = added {
                return Some(Err(error));
            }
        }
        Some(Ok(builder.build()))
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

/// Reads a list into `list`, page by page, from where it stopped; calls `notify` after each
/// page and when it ends. A list already complete is left alone; one whose cursor the API
/// refused as expired starts over.
pub async fn read_list<T, P>(
    paginator: Result<Paginator<'_, T, P>, ApiError>,
    list: &RefCell<ListLoad<P::Item>>,
    notify: &dyn Fn(),
) where
    T: Transport,
    P: CursorPage + DeserializeOwned,
{
    let start = {
        let mut list = list.borrow_mut();
        match &list.phase {
            Phase::Complete | Phase::Loading => return,
            Phase::Failed(error) if error.is_invalid_cursor() => *list = ListLoad::default(),
            _ => {}
        }
        list.phase = Phase::Loading;
        list.resume_cursor.clone()
    };
    notify();
    let paginator = paginator.and_then(|paginator| paginator.with_limit(PAGE_LIMIT));
    let mut paginator = match paginator {
        Ok(paginator) => paginator.starting_at(start),
        Err(error) => {
            list.borrow_mut().phase = Phase::Failed(error);
            notify();
            return;
        }
    };
    loop {
        let page = paginator.next_page().await;
        {
            let mut list = list.borrow_mut();
            match page {
                None => {
                    list.phase = Phase::Complete;
                    list.resume_cursor = None;
                }
                Some(Ok(page)) => {
                    list.pages_read += 1;
                    list.items.extend(page.into_items());
                    list.resume_cursor = paginator.cursor().map(str::to_owned);
                }
                Some(Err(error)) => list.phase = Phase::Failed(error),
            }
        }
        notify();
        if list.borrow().phase != Phase::Loading {
            return;
        }
    }
}

/// Loads the runs `run_ids` concurrently into `store`, resuming whatever stopped; calls
/// `notify` whenever something arrived.
pub async fn load_runs<T: Transport>(
    client: &TrajectoryClient<T>,
    store: &LoadStore,
    run_ids: &[String],
    notify: &dyn Fn(),
) {
    join_all(run_ids.iter().map(|id| load_run(client, store, id, notify))).await;
}

async fn load_run<T: Transport>(
    client: &TrajectoryClient<T>,
    store: &LoadStore,
    run_id: &str,
    notify: &dyn Fn(),
) {
    let run = store.run(run_id);
    let needs_record = run.record.borrow().1 != Phase::Complete;
    if needs_record {
        run.record.borrow_mut().1 = Phase::Loading;
        notify();
        match client.eval_run(run_id).await {
            Ok(eval_run) => *run.record.borrow_mut() = (Some(eval_run), Phase::Complete),
            Err(error) => {
                run.record.borrow_mut().1 = Phase::Failed(error);
                notify();
                return;
            }
        }
        notify();
    }
    let Some(bench_id) = run.bench_id() else {
        return;
    };
    let tasks = store.tasks(&bench_id);
    let progress = async {
        if run.is_running() && run.progress.borrow().is_none() {
            // Only for the totals shown: a failure here leaves the planned rollouts as the total.
            if let Ok(progress) = client.eval_progress(run_id).await {
                *run.progress.borrow_mut() = Some(progress);
                notify();
            }
        }
    };
    join(
        join3(
            read_list(client.trajectory_rewards(run_id), &run.rewards, notify),
            read_list(
                client.trajectories_of_run(run_id),
                &run.trajectories,
                notify,
            ),
            read_list(client.benchmark_tasks(&bench_id, None), &tasks, notify),
        ),
        progress,
    )
    .await;
}

/// Reads the progress of each complete running run of `run_ids`; when it moved, reads the run
/// and its lists again and swaps them in once complete. Returns whether any run changed.
pub async fn refresh_running<T: Transport>(
    client: &TrajectoryClient<T>,
    store: &LoadStore,
    run_ids: &[String],
) -> bool {
    let mut changed = false;
    for id in run_ids {
        let Some(run) = store.get(id) else {
            continue;
        };
        if !(run.is_running() && run.is_complete()) {
            continue;
        }
        match refresh_run(client, &run).await {
            Ok(updated) => {
                *run.refresh_error.borrow_mut() = None;
                changed |= updated;
            }
            Err(error) => *run.refresh_error.borrow_mut() = Some(error),
        }
    }
    changed
}

async fn refresh_run<T: Transport>(
    client: &TrajectoryClient<T>,
    run: &RunLoad,
) -> Result<bool, ApiError> {
    let progress = client.eval_progress(&run.run_id).await?;
    let moved = run.progress.borrow().as_ref().is_none_or(|known| {
        known.terminal_rollouts != progress.terminal_rollouts || known.status != progress.status
    });
    if !moved {
        return Ok(false);
    }
    let record = client.eval_run(&run.run_id).await?;
    let rewards = RefCell::new(ListLoad::default());
    let trajectories = RefCell::new(ListLoad::default());
    let quiet = || {};
    join(
        read_list(client.trajectory_rewards(&run.run_id), &rewards, &quiet),
        read_list(
            client.trajectories_of_run(&run.run_id),
            &trajectories,
            &quiet,
        ),
    )
    .await;
    for list in [&rewards.borrow().phase, &trajectories.borrow().phase] {
        if let Phase::Failed(error) = list {
            return Err(error.clone());
        }
    }
    *run.record.borrow_mut() = (Some(record), Phase::Complete);
    *run.progress.borrow_mut() = Some(progress);
    *run.rewards.borrow_mut() = rewards.into_inner();
    *run.trajectories.borrow_mut() = trajectories.into_inner();
    Ok(true)
}

/// The loader of the app: the store, the client configuration it was read with, and signals for
/// the views. Provided as context; `Copy`.
#[derive(Debug, Clone, Copy)]
pub struct Loader {
    store: StoredValue<Rc<LoadStore>, LocalStorage>,
    config: StoredValue<Option<ClientConfig>>,
    in_flight: StoredValue<Option<AbortHandle>>,
    /// The runs the load in flight reads.
    loading_ids: StoredValue<Vec<String>>,
    /// Ticks as pages are read (progress), at most every [`PROGRESS_INTERVAL_MS`].
    tick: RwSignal<u64>,
    /// Ticks when the data settle or change (the run set must be rebuilt).
    generation: RwSignal<u64>,
    loading: RwSignal<bool>,
}

impl Default for Loader {
    fn default() -> Self {
        Self::new()
    }
}

impl Loader {
    /// An empty loader.
    pub fn new() -> Self {
        Self {
            store: StoredValue::new_local(Rc::new(LoadStore::new())),
            config: StoredValue::new(None),
            in_flight: StoredValue::new(None),
            loading_ids: StoredValue::new(Vec::new()),
            tick: RwSignal::new(0),
            generation: RwSignal::new(0),
            loading: RwSignal::new(false),
        }
    }

    /// Makes sure `run_ids` are loaded with `config`: starts (or resumes) what is missing. With
    /// another configuration (address or key) than before, everything read is dropped first.
    /// Runs already settled (complete or stopped) are not read again; Retry does that.
    pub fn ensure(&self, config: &ClientConfig, run_ids: &[String]) {
        let same_config = self
            .config
            .with_value(|known| known.as_ref() == Some(config));
        if !same_config {
            self.abort();
            self.store.set_value(Rc::new(LoadStore::new()));
            self.config.set_value(Some(config.clone()));
            self.bump();
        }
        let store = self.store.get_value();
        let settled = store.progress(run_ids).iter().all(RunProgress::is_settled);
        let already_loading =
            self.loading.get_untracked() && self.loading_ids.with_value(|ids| ids == run_ids);
        if !settled && !already_loading {
            self.start(config.clone(), run_ids.to_vec());
        }
    }

    /// Loads `run_ids` again from where each stopped (Retry).
    pub fn retry(&self, run_ids: &[String]) {
        if let Some(config) = self.config.get_value() {
            self.start(config, run_ids.to_vec());
        }
    }

    /// Stops loading; what was read is kept and the run set is built from it.
    pub fn cancel(&self) {
        if self.loading.get_untracked() {
            self.abort();
            self.store.with_value(|store| store.mark_cancelled());
            self.loading.set(false);
            self.bump();
        }
    }

    /// Whether a load is in progress (tracked).
    pub fn is_loading(&self) -> bool {
        self.loading.get()
    }

    /// Progress of `run_ids` (tracked: changes with every page).
    pub fn progress(&self, run_ids: &[String]) -> Vec<RunProgress> {
        self.tick.track();
        self.generation.track();
        self.store.with_value(|store| store.progress(run_ids))
    }

    /// The run set of `run_ids` (tracked: changes only when the data settle or change).
    pub fn run_set(&self, run_ids: &[String]) -> Option<Result<RunSet, ModelError>> {
        self.generation.track();
        self.store.with_value(|store| store.run_set(run_ids))
    }

    /// The configuration the store was read with.
    pub fn config(&self) -> Option<ClientConfig> {
        self.config.get_value()
    }

    /// Checks the running runs of `run_ids` every [`REFRESH_MS`] until none is running; each
    /// change rebuilds the run set. Ends with the calling view (see `spawn_scoped`).
    pub async fn refresh_loop(self, run_ids: Vec<String>) {
        loop {
            gloo_timers::future::TimeoutFuture::new(REFRESH_MS).await;
            let Some(config) = self.config.try_get_value().flatten() else {
                return;
            };
            if self.loading.try_get_untracked() != Some(false) {
                continue;
            }
            let Some(store) = self.store.try_get_value() else {
                return;
            };
            let runs: Vec<Option<Rc<RunLoad>>> = run_ids.iter().map(|id| store.get(id)).collect();
            let all_read = runs.iter().all(|run| {
                run.as_ref()
                    .is_some_and(|run| run.record.borrow().1 == Phase::Complete)
            });
            let any_running = runs.iter().flatten().any(|run| run.is_running());
            if all_read && !any_running {
                return;
            }
            let client = TrajectoryClient::new(config, FetchTransport::default());
            let changed = refresh_running(&client, &store, &run_ids).await;
            // A load started meanwhile (another comparison, Retry) owns the data now.
            if self.loading.try_get_untracked() != Some(false) {
                continue;
            }
            if changed {
                self.bump();
            } else {
                self.tick.try_update(|tick| *tick += 1);
            }
        }
    }

    fn start(&self, config: ClientConfig, run_ids: Vec<String>) {
        if self.loading.get_untracked() {
            // The load in flight stops; what it was reading resumes in the new one when asked.
            self.abort();
            self.store.with_value(|store| store.mark_cancelled());
        }
        self.loading_ids.set_value(run_ids.clone());
        let (handle, registration) = AbortHandle::new_pair();
        self.in_flight.set_value(Some(handle));
        let store = self.store.get_value();
        let (tick, generation, loading) = (self.tick, self.generation, self.loading);
        loading.set(true);
        spawn_local(async move {
            let client = TrajectoryClient::new(config, FetchTransport::default());
            let throttle = ProgressThrottle::default();
            let notify = move || throttle.notify(tick);
            let load = load_runs(&client, &store, &run_ids, &notify);
            if Abortable::new(load, registration).await.is_ok() {
                loading.try_set(false);
                generation.try_update(|generation| *generation += 1);
            }
        });
    }

    fn abort(&self) {
        if let Some(handle) = self.in_flight.try_update_value(Option::take).flatten() {
            handle.abort();
        }
    }

    fn bump(&self) {
        self.generation.update(|generation| *generation += 1);
    }
}

/// Ticks the progress signal at most every [`PROGRESS_INTERVAL_MS`]: at once when the last tick
/// is older than that (so Retry or Cancel shows immediately), else once at the end of the
/// interval for everything that arrived meanwhile.
#[derive(Clone, Default)]
struct ProgressThrottle {
    last_tick_ms: Rc<Cell<f64>>,
    scheduled: Rc<Cell<bool>>,
}

impl ProgressThrottle {
    fn notify(&self, tick: RwSignal<u64>) {
        if self.scheduled.get() {
            return;
        }
        let interval = PROGRESS_INTERVAL_MS as f64;
        let wait = self.last_tick_ms.get() + interval - now_ms();
        if wait <= 0.0 {
            self.last_tick_ms.set(now_ms());
            tick.try_update(|tick| *tick += 1);
            return;
        }
        self.scheduled.set(true);
        let this = self.clone();
        set_timeout(
            move || {
                this.scheduled.set(false);
                this.last_tick_ms.set(now_ms());
                tick.try_update(|tick| *tick += 1);
            },
            std::time::Duration::from_millis(wait.ceil() as u64),
        );
    }
}

/// The loader in context, or a new one when the view is mounted alone.
pub fn use_loader() -> Loader {
    use_context::<Loader>().unwrap_or_default()
}
