//! The app's loader: a thin reactive wrapper around the core's load engine
//! ([`eval_compare_core::load`]), which reads the runs of a comparison page by page into a
//! store, resumes what stopped, and refreshes runs still executing.
//!
//! [`Loader`] runs the engine from the page with the browser transport: a signal ticks as pages
//! arrive (progress, at most every [`PROGRESS_INTERVAL_MS`]) and another when the data settle
//! (the run set is rebuilt only then). A [`LoadPlan`] says what a comparison reads: Trajectory
//! runs, or Chronicle jobs (whose agents are the runs). Runs still executing are checked every
//! [`REFRESH_MS`]; a running Chronicle job is followed on its progress stream
//! ([`Loader::follow_jobs`]), with polling when the stream fails or closes, every reconnect and
//! read paced by the core's [`WatchPace`] (backoff with jitter while nothing changes, stopped
//! with a message when the stream keeps contradicting the job's record).

use std::cell::{Cell, RefCell};
use std::pin::pin;
use std::rc::Rc;

use eval_compare_core::api::{ChronicleJob, JobEvent, JobEventKind, JobStatus};
use eval_compare_core::client::{
    ClientConfig, NextTry, StreamEnd, TrajectoryClient, WatchPace, WatchPolicy,
};
use eval_compare_core::load::{
    jobs_of, load_components, load_jobs, load_runs, refresh_jobs, refresh_running, BuildStep,
    ComponentProgress, ComponentReadLimits, LoadEvent, LoadStore, Phase, RunProgress, RunSetBuild,
};
use eval_compare_core::model::{ModelError, RunSet};
use futures::future::{join_all, select, AbortHandle, Abortable};
use gloo_timers::future::TimeoutFuture;
use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::route::RunSource;
use crate::state::report::now_ms;
use crate::transport::FetchTransport;

/// The loading panel re-renders at most this often while pages arrive (a comparison of six runs
/// reads ~100 pages in well under a second; re-rendering after each one slowed the load).
pub const PROGRESS_INTERVAL_MS: u64 = 100;
/// How often runs still executing are checked for new results (and running jobs, when their
/// progress stream is not there).
pub const REFRESH_MS: u32 = 10_000;
/// While a job's stream reports finished trials, its trials are read again at most this often.
pub const STREAM_REFRESH_MS: u32 = 1_500;

/// Listed items (rewards, trajectories, tasks, trials) the store may hold before opening a
/// comparison forgets the others' ([`Loader::ensure`]): well above the demo's (about 10,000),
/// below one run of 100,000 tasks × 8 samples (1.6 million).
pub const RETAIN_ITEMS: usize = 1_000_000;

/// How often a follower waiting for the first load looks again.
const LOAD_WAIT_MS: u32 = 500;

/// What a comparison reads.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum LoadPlan {
    /// Trajectory evaluation runs, by run id (baseline first).
    Runs(Vec<String>),
    /// Chronicle jobs, by job id, in the order of the comparison's runs (`{job}/{agent}`).
    Jobs(Vec<String>),
}

impl LoadPlan {
    /// What the runs `run_ids` of `source` read: the runs themselves, or their jobs.
    pub fn of(source: RunSource, run_ids: &[String]) -> Self {
        match source {
            RunSource::Chronicle => LoadPlan::Jobs(jobs_of(run_ids)),
            RunSource::Trajectory | RunSource::Files => LoadPlan::Runs(run_ids.to_vec()),
        }
    }

    /// The run or job ids.
    pub fn ids(&self) -> &[String] {
        match self {
            LoadPlan::Runs(ids) | LoadPlan::Jobs(ids) => ids,
        }
    }

    /// Whether it reads Chronicle jobs.
    pub fn is_jobs(&self) -> bool {
        matches!(self, LoadPlan::Jobs(_))
    }
}

/// How a run set starts being built ([`Loader::start_run_set`]).
#[derive(Debug)]
pub enum RunSetStart {
    /// A step at a time.
    Steps(RunSetBuild),
    /// Already built.
    Built(Result<RunSet, ModelError>),
}

/// How running jobs are watched right now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LiveMode {
    /// On their progress streams.
    Streaming,
    /// By retrieving them every [`REFRESH_MS`] or less often (the stream failed, closed, or is
    /// not there).
    Polling,
    /// Not any more: the API kept contradicting itself (the sentence says how).
    Stopped(String),
}

/// What one round of following the streams brought.
struct StreamsFollowed {
    /// Every stream ended with its job's `run_finished`: worth following again.
    healthy: bool,
    /// The longest wait a refusal asked for (`Retry-After`).
    server_asked_ms: Option<u64>,
}

/// The loader of the app: the store, the client configuration it was read with, and signals for
/// the views. Provided as context; `Copy`.
#[derive(Debug, Clone, Copy)]
pub struct Loader {
    store: StoredValue<Rc<LoadStore>, LocalStorage>,
    config: StoredValue<Option<ClientConfig>>,
    in_flight: StoredValue<Option<AbortHandle>>,
    /// What the load in flight reads.
    loading_plan: StoredValue<Option<LoadPlan>>,
    /// Ticks as pages are read (progress), at most every [`PROGRESS_INTERVAL_MS`].
    tick: RwSignal<u64>,
    /// Ticks when the data settle or change (the run set must be rebuilt).
    generation: RwSignal<u64>,
    loading: RwSignal<bool>,
    /// How many loads were started: each load (another comparison, a Retry) has its own number.
    loads_started: RwSignal<u64>,
    /// How running jobs are watched (`None` when none is).
    live: RwSignal<Option<LiveMode>>,
    /// When the runs were last read or checked for new results (`Date.now()`, ms), for the live
    /// notice.
    checked_at: RwSignal<Option<f64>>,
    /// The read of reward components in flight ([`Self::load_components`]).
    components_in_flight: StoredValue<Option<AbortHandle>>,
    components_loading: RwSignal<bool>,
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
            loading_plan: StoredValue::new(None),
            tick: RwSignal::new(0),
            generation: RwSignal::new(0),
            loading: RwSignal::new(false),
            loads_started: RwSignal::new(0),
            live: RwSignal::new(None),
            checked_at: RwSignal::new(None),
            components_in_flight: StoredValue::new(None),
            components_loading: RwSignal::new(false),
        }
    }

    /// Makes sure what `plan` reads is loaded with `config`: starts (or resumes) what is
    /// missing. With another configuration (address or key) than before, everything read is
    /// dropped first. Runs and jobs already settled (complete or stopped) are not read again;
    /// Retry does that.
    pub fn ensure(&self, config: &ClientConfig, plan: &LoadPlan) {
        let same_config = self
            .config
            .with_value(|known| known.as_ref() == Some(config));
        if !same_config {
            self.abort();
            self.abort_components();
            self.store.set_value(Rc::new(LoadStore::new()));
            self.config.set_value(Some(config.clone()));
            self.bump();
        }
        self.release_others(plan);
        let store = self.store.get_value();
        let settled = match plan {
            LoadPlan::Runs(ids) => store.progress(ids).iter().all(RunProgress::is_settled),
            LoadPlan::Jobs(ids) => {
                store.job_progress(ids).iter().all(RunProgress::is_settled)
                    && ids
                        .iter()
                        .all(|id| store.job(id).results.borrow().1.is_settled())
            }
        };
        let already_loading = self.loading.get_untracked()
            && self
                .loading_plan
                .with_value(|loading| loading.as_ref() == Some(plan));
        if !settled && !already_loading {
            self.start(config.clone(), plan.clone());
        }
    }

    /// Past [`RETAIN_ITEMS`] listed items in the store, forgets what other comparisons read
    /// (stopping a load of another comparison still in flight): a tab that opens one large
    /// comparison after another holds one at a time. Below that, going back to a comparison
    /// shows it at once.
    fn release_others(&self, plan: &LoadPlan) {
        let store = self.store.get_value();
        if store.held_items() <= RETAIN_ITEMS {
            return;
        }
        let other_in_flight = self.loading.get_untracked()
            && self
                .loading_plan
                .with_value(|loading| loading.as_ref() != Some(plan));
        if other_in_flight {
            self.abort();
            store.mark_cancelled();
            self.loading.set(false);
        }
        let released = match plan {
            LoadPlan::Runs(ids) => store.release_except(ids, &[]),
            LoadPlan::Jobs(ids) => store.release_except(&[], ids),
        };
        #[cfg(debug_assertions)]
        leptos::logging::log!(
            "eval-compare: released {released} listed items of other comparisons"
        );
        #[cfg(not(debug_assertions))]
        let _ = released;
    }

    /// Loads what `plan` reads again from where each list stopped (Retry).
    pub fn retry(&self, plan: &LoadPlan) {
        if let Some(config) = self.config.get_value() {
            self.start(config, plan.clone());
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

    /// The number of the load in progress, or of the last one (tracked): a new number for each
    /// load started, even one that replaces a load still in flight.
    pub fn load_number(&self) -> u64 {
        self.loads_started.get()
    }

    /// Progress of each run or job of `plan` (tracked: changes with every page).
    pub fn progress(&self, plan: &LoadPlan) -> Vec<RunProgress> {
        self.tick.track();
        self.generation.track();
        self.store.with_value(|store| match plan {
            LoadPlan::Runs(ids) => store.progress(ids),
            LoadPlan::Jobs(ids) => store.job_progress(ids),
        })
    }

    /// The run set of `plan` (tracked: changes only when the data settle or change).
    pub fn run_set(&self, plan: &LoadPlan) -> Option<Result<RunSet, ModelError>> {
        self.generation.track();
        self.store.with_value(|store| match plan {
            LoadPlan::Runs(ids) => store.run_set(ids),
            LoadPlan::Jobs(ids) => store.chronicle_run_set(ids),
        })
    }

    /// A build of the run set of `plan` to run a step at a time, or, for Chronicle jobs (a few
    /// thousand trials at most), the run set built at once; `None` while not ready (tracked
    /// like [`Self::run_set`]).
    pub fn start_run_set(&self, plan: &LoadPlan) -> Option<RunSetStart> {
        self.generation.track();
        self.store.with_value(|store| match plan {
            LoadPlan::Runs(ids) => store.start_run_set(ids).map(RunSetStart::Steps),
            LoadPlan::Jobs(ids) => store.chronicle_run_set(ids).map(RunSetStart::Built),
        })
    }

    /// One step of `build` over the current store (see [`RunSetBuild::advance`]); `None` once
    /// the loader is gone.
    pub fn advance_run_set(&self, build: &mut RunSetBuild, budget: usize) -> Option<BuildStep> {
        self.store
            .try_with_value(|store| build.advance(store, budget))
    }

    /// The jobs of `job_ids` whose trials were all read and are none: there is nothing to
    /// compare yet (tracked like the run set).
    pub fn jobs_without_trials(&self, job_ids: &[String]) -> Vec<ChronicleJob> {
        self.generation.track();
        self.store.with_value(|store| {
            job_ids
                .iter()
                .filter_map(|id| {
                    let job = store.get_job(id)?;
                    let trials = job.trials.borrow();
                    let empty = trials.phase == Phase::Complete && trials.items.is_empty();
                    let record = job.record.borrow().0.clone();
                    record.filter(|_| empty)
                })
                .collect()
        })
    }

    /// The records of `job_ids` read so far, in order (tracked: changes with every refresh).
    pub fn job_records(&self, job_ids: &[String]) -> Vec<ChronicleJob> {
        self.tick.track();
        self.generation.track();
        self.store.with_value(|store| {
            job_ids
                .iter()
                .filter_map(|id| store.get_job(id)?.record.borrow().0.clone())
                .collect()
        })
    }

    /// How running jobs are watched now (tracked; `None` when none is).
    pub fn live_mode(&self) -> Option<LiveMode> {
        self.live.get()
    }

    /// The configuration the store was read with.
    pub fn config(&self) -> Option<ClientConfig> {
        self.config.get_value()
    }

    /// Watches what of `plan` still runs until nothing does: Trajectory runs are checked every
    /// [`REFRESH_MS`], Chronicle jobs followed ([`Self::follow_jobs`]); each change rebuilds
    /// the run set. Ends with the calling view (see `spawn_scoped`).
    pub async fn refresh_loop(self, plan: LoadPlan) {
        match plan {
            LoadPlan::Runs(run_ids) => self.refresh_runs(run_ids).await,
            LoadPlan::Jobs(job_ids) => self.follow_jobs(job_ids).await,
        }
    }

    async fn refresh_runs(self, run_ids: Vec<String>) {
        loop {
            TimeoutFuture::new(REFRESH_MS).await;
            let Some(config) = self.config.try_get_value().flatten() else {
                return;
            };
            if self.loading.try_get_untracked() != Some(false) {
                continue;
            }
            let Some(store) = self.store.try_get_value() else {
                return;
            };
            if !store.needs_refresh(&run_ids) {
                return;
            }
            let client = TrajectoryClient::new(config, FetchTransport::default());
            let changed = refresh_running(&client, &store, &run_ids).await;
            // A load started meanwhile (another comparison, Retry) owns the data now.
            if self.loading.try_get_untracked() != Some(false) {
                continue;
            }
            self.checked_at.try_set(Some(js_sys::Date::now()));
            if changed {
                self.bump();
            } else {
                self.tick.try_update(|tick| *tick += 1);
            }
        }
    }

    /// Follows the running jobs of `job_ids` until none runs. Each job's progress stream is
    /// read; its `trial_finished` and `run_finished` events read the jobs again (at most every
    /// [`STREAM_REFRESH_MS`]), and after every disconnect the jobs are read at once (the record
    /// is the truth). Once a stream fails, or closes without the job ending, the jobs are
    /// retrieved every [`REFRESH_MS`] instead. A round that moved no job's record makes the
    /// next wait (the core's [`WatchPace`]: 1 s doubling to 60 s with jitter, never below a
    /// `Retry-After`, polls never faster than [`REFRESH_MS`]); when a stream said its job ended
    /// and the record keeps saying it runs, 8 such rounds stop the follow with the reason
    /// ([`LiveMode::Stopped`]). Ends with the calling view (see `spawn_scoped`).
    pub async fn follow_jobs(self, job_ids: Vec<String>) {
        let mut streams = true;
        let seed = (js_sys::Math::random() * 9_007_199_254_740_992.0) as u64;
        let mut pace = WatchPace::new(WatchPolicy::default(), seed);
        loop {
            let Some(config) = self.config.try_get_value().flatten() else {
                return;
            };
            let Some(store) = self.store.try_get_value() else {
                return;
            };
            if self.loading.try_get_untracked() != Some(false) {
                // The first load (or a Retry) is still reading; follow once it is done.
                TimeoutFuture::new(LOAD_WAIT_MS).await;
                continue;
            }
            if !store.jobs_need_refresh(&job_ids) {
                self.live.try_set(None);
                return;
            }
            let running: Vec<String> = job_ids
                .iter()
                .filter(|id| {
                    store
                        .get_job(id)
                        .is_some_and(|job| job.is_running() && job.is_complete())
                })
                .cloned()
                .collect();
            if running.is_empty() {
                // Records not read (a failure the load panel shows): look again later.
                self.live.try_set(None);
                TimeoutFuture::new(REFRESH_MS).await;
                continue;
            }
            let client = TrajectoryClient::new(config, FetchTransport::default());
            let before = standings(&store, &job_ids);
            let mut server_asked_ms = None;
            if streams {
                self.live.try_set(Some(LiveMode::Streaming));
                let followed = self
                    .follow_streams(&client, &store, &running, &job_ids, &mut pace)
                    .await;
                streams = followed.healthy;
                server_asked_ms = followed.server_asked_ms;
            } else {
                self.live.try_set(Some(LiveMode::Polling));
            }
            self.refresh_jobs_now(&client, &store, &job_ids).await;
            let moved = standings(&store, &job_ids) != before;
            let refused = job_ids
                .iter()
                .filter_map(|id| {
                    store
                        .get_job(id)?
                        .refresh_error
                        .borrow()
                        .as_ref()?
                        .retry_after_ms()
                })
                .max();
            let floor = if streams { 0 } else { u64::from(REFRESH_MS) };
            match pace.after_try(moved, floor, server_asked_ms.max(refused)) {
                NextTry::After(0) => {}
                NextTry::After(ms) => {
                    TimeoutFuture::new(u32::try_from(ms).unwrap_or(u32::MAX)).await;
                }
                NextTry::GiveUp(why) => {
                    self.live.try_set(Some(LiveMode::Stopped(why.to_string())));
                    return;
                }
            }
        }
    }

    /// Reads the progress streams of `running` until each ended, reading `job_ids` again while
    /// trials finish; a stream's `run_finished` is told to `pace`.
    async fn follow_streams(
        &self,
        client: &TrajectoryClient<FetchTransport>,
        store: &LoadStore,
        running: &[String],
        job_ids: &[String],
        pace: &mut WatchPace,
    ) -> StreamsFollowed {
        let trial_finished = Cell::new(false);
        let healthy = Cell::new(true);
        let server_asked_ms = Cell::new(None::<u64>);
        let claims = RefCell::new(Vec::new());
        let follows = join_all(running.iter().map(|id| {
            let (trial_finished, healthy) = (&trial_finished, &healthy);
            let (server_asked_ms, claims) = (&server_asked_ms, &claims);
            async move {
                let mut on_event = |event: &JobEvent| {
                    match event.kind {
                        JobEventKind::TrialFinished => trial_finished.set(true),
                        JobEventKind::RunFinished => {
                            trial_finished.set(true);
                            claims
                                .borrow_mut()
                                .push((id.clone(), event.data.status.clone()));
                        }
                        _ => {}
                    }
                    true
                };
                let ended = client.follow_job(id, &mut on_event).await;
                if let Err(error) = &ended {
                    server_asked_ms.set(server_asked_ms.get().max(error.retry_after_ms()));
                }
                if !matches!(&ended, Ok(summary) if summary.end == StreamEnd::RunFinished) {
                    healthy.set(false);
                }
            }
        }));
        let refresher = async {
            loop {
                TimeoutFuture::new(STREAM_REFRESH_MS).await;
                if trial_finished.replace(false) {
                    self.refresh_jobs_now(client, store, job_ids).await;
                }
            }
        };
        // The refresher never ends: this returns once every stream has.
        let _ = select(pin!(follows), pin!(refresher)).await;
        for (job_id, status) in claims.into_inner() {
            pace.stream_said_ended(&job_id, status.as_deref());
        }
        StreamsFollowed {
            healthy: healthy.get(),
            server_asked_ms: server_asked_ms.get(),
        }
    }

    /// Reads the running jobs of `job_ids` again, unless a load owns the data.
    async fn refresh_jobs_now(
        &self,
        client: &TrajectoryClient<FetchTransport>,
        store: &LoadStore,
        job_ids: &[String],
    ) {
        if self.loading.try_get_untracked() != Some(false) {
            return;
        }
        let changed = refresh_jobs(client, store, job_ids).await;
        // A load started meanwhile (another comparison, Retry) owns the data now.
        if self.loading.try_get_untracked() != Some(false) {
            return;
        }
        if changed {
            self.generation.try_update(|generation| *generation += 1);
        } else {
            self.tick.try_update(|tick| *tick += 1);
        }
    }

    fn start(&self, config: ClientConfig, plan: LoadPlan) {
        if self.loading.get_untracked() {
            // The load in flight stops; what it was reading resumes in the new one when asked.
            self.abort();
            self.store.with_value(|store| store.mark_cancelled());
        }
        self.loading_plan.set_value(Some(plan.clone()));
        let (handle, registration) = AbortHandle::new_pair();
        self.in_flight.set_value(Some(handle));
        let store = self.store.get_value();
        let (tick, generation, loading) = (self.tick, self.generation, self.loading);
        let checked_at = self.checked_at;
        self.loads_started.update(|number| *number += 1);
        loading.set(true);
        spawn_local(async move {
            let client = TrajectoryClient::new(config, FetchTransport::default());
            let throttle = ProgressThrottle::default();
            let notify = move |_: LoadEvent<'_>| throttle.notify(tick);
            let load = async {
                match &plan {
                    LoadPlan::Runs(ids) => load_runs(&client, &store, ids, &notify).await,
                    LoadPlan::Jobs(ids) => load_jobs(&client, &store, ids, &notify).await,
                }
            };
            if Abortable::new(load, registration).await.is_ok() {
                checked_at.try_set(Some(js_sys::Date::now()));
                loading.try_set(false);
                generation.try_update(|generation| *generation += 1);
            }
        });
    }

    /// When the runs were last read or checked for new results (`Date.now()` in ms; tracked).
    pub fn checked_at(&self) -> Option<f64> {
        self.checked_at.get()
    }

    /// Reads the reward components of `trajectory_ids` not read yet (those that failed again),
    /// within [`ComponentReadLimits::for_reads`] (a few at a time, given up after failures in a
    /// row or at a deadline: the progress then says why), with the store's configuration;
    /// progress ticks as they arrive, and the run set is rebuilt with them once the read ends,
    /// gives up or is cancelled.
    pub fn load_components(&self, trajectory_ids: Vec<String>) {
        let Some(config) = self.config.get_value() else {
            return;
        };
        self.abort_components();
        let (handle, registration) = AbortHandle::new_pair();
        self.components_in_flight.set_value(Some(handle));
        let store = self.store.get_value();
        let (tick, generation, loading) = (self.tick, self.generation, self.components_loading);
        loading.set(true);
        spawn_local(async move {
            let client = TrajectoryClient::new(config, FetchTransport::default());
            let throttle = ProgressThrottle::default();
            let notify = move |_: LoadEvent<'_>| throttle.notify(tick);
            let limits = ComponentReadLimits::for_reads(trajectory_ids.len());
            let read = load_components(&client, &store, &trajectory_ids, &limits, &notify);
            if Abortable::new(read, registration).await.is_ok() {
                loading.try_set(false);
                generation.try_update(|generation| *generation += 1);
            }
        });
    }

    /// Stops reading components; what was read is kept and enters the run set.
    pub fn cancel_components(&self) {
        if self.components_loading.get_untracked() {
            self.abort_components();
            self.bump();
        }
    }

    /// Whether components are being read (tracked).
    pub fn components_loading(&self) -> bool {
        self.components_loading.get()
    }

    /// Where reading the components of `trajectory_ids` stands (tracked: ticks as they arrive).
    pub fn component_progress(&self, trajectory_ids: &[String]) -> ComponentProgress {
        self.tick.track();
        self.generation.track();
        self.store
            .with_value(|store| store.component_progress(trajectory_ids))
    }

    /// Drops the component read in flight and releases the reads it had claimed in the store,
    /// so the next read asks for them again.
    fn abort_components(&self) {
        if let Some(handle) = self
            .components_in_flight
            .try_update_value(Option::take)
            .flatten()
        {
            handle.abort();
            if let Some(store) = self.store.try_get_value() {
                store.cancel_component_reads();
            }
        }
        self.components_loading.try_set(false);
    }

    fn abort(&self) {
        if let Some(handle) = self.in_flight.try_update_value(Option::take).flatten() {
            handle.abort();
        }
    }

    fn bump(&self) {
        self.generation.update(|generation| *generation += 1);
    }

    /// The trial `trial_id` of the Chronicle job `job_id` as the API listed it (status, agent,
    /// error and scores as given), when the job's trials were read (tracked: changes when the
    /// data settle or change).
    pub fn chronicle_trial(
        &self,
        job_id: &str,
        trial_id: &str,
    ) -> Option<eval_compare_core::api::ChronicleTrial> {
        self.generation.track();
        self.store.with_value(|store| {
            let job = store.get_job(job_id)?;
            let trials = job.trials.borrow();
            trials
                .items
                .iter()
                .find(|trial| trial.id == trial_id)
                .cloned()
        })
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

/// What a round of following must move to count as a change: each job's status and finished
/// trials, as last read.
fn standings(
    store: &LoadStore,
    job_ids: &[String],
) -> Vec<Option<(Option<JobStatus>, Option<u64>)>> {
    job_ids
        .iter()
        .map(|id| {
            let job = store.get_job(id)?;
            let record = job.record.borrow();
            let record = record.0.as_ref()?;
            Some((record.status.clone(), record.completed_trials))
        })
        .collect()
}

/// The loader in context, or a new one when the view is mounted alone.
pub fn use_loader() -> Loader {
    use_context::<Loader>().unwrap_or_default()
}
