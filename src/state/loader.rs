//! The app's loader: a thin reactive wrapper around the core's load engine
//! ([`eval_compare_core::load`]), which reads the runs of a comparison page by page into a
//! store, resumes what stopped, and refreshes runs still executing.
//!
//! [`Loader`] runs the engine from the page with the browser transport: a signal ticks as pages
//! arrive (progress, at most every [`PROGRESS_INTERVAL_MS`]) and another when the data settle
//! (the run set is rebuilt only then); runs still executing are checked every [`REFRESH_MS`].

use std::cell::Cell;
use std::rc::Rc;

use eval_compare_core::client::{ClientConfig, TrajectoryClient};
use eval_compare_core::load::{load_runs, refresh_running, LoadEvent, LoadStore, RunProgress};
use eval_compare_core::model::{ModelError, RunSet};
use futures::future::{AbortHandle, Abortable};
use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::state::report::now_ms;
use crate::transport::FetchTransport;

/// The loading panel re-renders at most this often while pages arrive (a comparison of six runs
/// reads ~100 pages in well under a second; re-rendering after each one slowed the load).
pub const PROGRESS_INTERVAL_MS: u64 = 100;
/// How often runs still executing are checked for new results.
pub const REFRESH_MS: u32 = 10_000;

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
            if !store.needs_refresh(&run_ids) {
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
            let notify = move |_: LoadEvent<'_>| throttle.notify(tick);
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

/// The loader in context, or a new one when the view is mounted alone.
pub fn use_loader() -> Loader {
    use_context::<Loader>().unwrap_or_default()
}
