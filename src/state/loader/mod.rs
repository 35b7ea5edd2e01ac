//! The app's loader: a reactive wrapper around the core's load engine
//! ([`eval_compare_core::load`]), which reads the runs of a comparison page by page into a
//! store, resumes what stopped, and refreshes runs still executing.
//!
//! [`Loader`] runs the engine from the page with the browser transport: a signal ticks as pages
//! arrive (progress, at most every [`PROGRESS_INTERVAL_MS`]: [`throttle`]) and another when the
//! data settle (the run set is rebuilt only then). A [`LoadPlan`] says what a comparison reads:
//! Trajectory runs, or Chronicle jobs (whose agents are the runs), or a scorecard's runs, and
//! what is read beside the runs (costs and the platform's progression for a comparison of runs
//! only; turned on when a comparison needs them, read then for runs already read) ([`plan`]).
//! Here: starting, resuming, cancelling a load and what the store keeps; [`reads`]: what the
//! views read, each tracked; [`follow`]: runs still executing checked every [`REFRESH_MS`], a
//! running Chronicle job followed on its progress stream ([`Loader::follow_jobs`]), with
//! polling when the stream fails or closes, every reconnect and read paced by the core's
//! `WatchPace` (backoff with jitter while nothing changes, stopped with a message when the
//! stream keeps contradicting the job's record); [`reward_components`]: reward components
//! read on request.

pub mod follow;
pub mod plan;
pub mod reads;
pub mod reward_components;
pub mod scorecard;
pub mod throttle;
pub mod trial_details;

use std::rc::Rc;

use eval_compare_core::client::{ClientConfig, TrajectoryClient};
use eval_compare_core::load::{
    choose_list_source, load_jobs, load_runs, LoadEvent, LoadStore, RunProgress,
};
use futures::future::{AbortHandle, Abortable};
use leptos::prelude::*;
use leptos::task::spawn_local;

pub use follow::{LiveMode, REFRESH_MS, STREAM_REFRESH_MS};
pub use plan::{LoadPlan, RunSetStart};
use throttle::ProgressThrottle;
pub use throttle::PROGRESS_INTERVAL_MS;

use crate::transport::FetchTransport;

/// Listed items (rewards, trajectories, tasks, trials) the store may hold before opening a
/// comparison forgets the others' ([`Loader::ensure`]): well above the demo's (about 10,000),
/// below one run of 100,000 tasks × 8 samples (1.6 million).
pub const RETAIN_ITEMS: usize = 1_000_000;

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
    /// The read of reward components on request ([`Self::load_components`]).
    components: reward_components::OnDemandRead,
    /// The read of token counts on request ([`Self::load_tokens`]).
    tokens: reward_components::OnDemandRead,
    /// The read of Chronicle trials' details on request ([`Self::load_trial_details`]).
    trial_details: reward_components::OnDemandRead,
}

impl Default for Loader {
    fn default() -> Self {
        Self::new()
    }
}

/// The runs whose lists a browser reads at once: two runs' four lists and the benchmark's
/// tasks take five of its six connections to the server; the later runs' lists wait, so the
/// server is asked to read those ahead ([`LoadStore::read_ahead_after`]).
const RUNS_READ_AT_ONCE: usize = 2;

/// An empty store; what its loads read beside the runs is each plan's ([`LoadPlan::beside`]).
fn empty_store() -> Rc<LoadStore> {
    let store = LoadStore::new();
    store.read_ahead_after(RUNS_READ_AT_ONCE);
    Rc::new(store)
}

impl Loader {
    /// An empty loader.
    pub fn new() -> Self {
        Self {
            store: StoredValue::new_local(empty_store()),
            config: StoredValue::new(None),
            in_flight: StoredValue::new(None),
            loading_plan: StoredValue::new(None),
            tick: RwSignal::new(0),
            generation: RwSignal::new(0),
            loading: RwSignal::new(false),
            loads_started: RwSignal::new(0),
            live: RwSignal::new(None),
            checked_at: RwSignal::new(None),
            components: reward_components::OnDemandRead::new(),
            tokens: reward_components::OnDemandRead::new(),
            trial_details: reward_components::OnDemandRead::new(),
        }
    }

    /// Makes sure what `plan` reads is loaded with `config`: starts (or resumes) what is
    /// missing. With another configuration (address or key) than before, everything read is
    /// dropped first. Runs and jobs already settled (complete or stopped) are not read again;
    /// Retry does that. What the plan reads beside its runs and no load asked for yet (a
    /// comparison's costs after a scorecard read its runs) is read then.
    pub fn ensure(&self, config: &ClientConfig, plan: &LoadPlan) {
        let same_config = self
            .config
            .with_value(|known| known.as_ref() == Some(config));
        if !same_config {
            self.abort();
            self.abort_components();
            self.abort_tokens();
            self.abort_trial_details();
            self.store.set_value(empty_store());
            self.config.set_value(Some(config.clone()));
            self.bump();
        }
        self.release_others(plan);
        let store = self.store.get_value();
        if !self.loading.get_untracked() {
            // Progress then counts what this plan reads (a load sets it when it starts).
            store.set_reads_beside(plan.beside());
        }
        let settled = match plan {
            LoadPlan::Runs(ids) | LoadPlan::ScorecardRuns(ids) => {
                store.progress(ids).iter().all(RunProgress::is_settled)
                    && !store.lacks_beside(ids, plan.beside())
            }
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
            LoadPlan::Runs(ids) | LoadPlan::ScorecardRuns(ids) => store.release_except(ids, &[]),
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
        store.set_reads_beside(plan.beside());
        let (tick, generation, loading) = (self.tick, self.generation, self.loading);
        let checked_at = self.checked_at;
        self.loads_started.update(|number| *number += 1);
        loading.set(true);
        spawn_local(async move {
            let client = TrajectoryClient::new(config, FetchTransport::default());
            let throttle = ProgressThrottle::default();
            let notify = move |_: LoadEvent<'_>| throttle.notify(tick);
            let load = async {
                // Our server streams each list whole; any other API is paged (asked once).
                choose_list_source(&client, &store).await;
                match &plan {
                    LoadPlan::Runs(ids) | LoadPlan::ScorecardRuns(ids) => {
                        load_runs(&client, &store, ids, &notify).await
                    }
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

    fn abort(&self) {
        if let Some(handle) = self.in_flight.try_update_value(Option::take).flatten() {
            handle.abort();
        }
    }

    fn bump(&self) {
        self.generation.update(|generation| *generation += 1);
    }
}

/// The loader in context, or a new one when the view is mounted alone.
pub fn use_loader() -> Loader {
    use_context::<Loader>().unwrap_or_default()
}
