//! What the views read from the loader: progress, the run set and its build, Chronicle jobs
//! and trials, how running jobs are watched; each tracked by the signal that says it changed
//! (a page read, or the data settling).

use eval_compare_core::api::{ChronicleJob, ChronicleTrial};
use eval_compare_core::client::ClientConfig;
use eval_compare_core::load::{BuildStep, Phase, RunProgress, RunSetBuild};
use eval_compare_core::model::{ModelError, RunSet};
use leptos::prelude::*;

use super::{LiveMode, LoadPlan, Loader, RunSetStart};

impl Loader {
    /// Where the lists are read from: the server's streams or the API's pages (tracked by
    /// progress: chosen when the first load starts).
    pub fn list_source(&self) -> eval_compare_core::load::ListSource {
        self.tick.track();
        self.store.with_value(|store| store.list_source())
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
            LoadPlan::Runs(ids) | LoadPlan::ScorecardRuns(ids) => store.progress(ids),
            LoadPlan::Jobs(ids) => store.job_progress(ids),
        })
    }

    /// The run set of `plan` (tracked: changes only when the data settle or change).
    pub fn run_set(&self, plan: &LoadPlan) -> Option<Result<RunSet, ModelError>> {
        self.generation.track();
        self.store.with_value(|store| match plan {
            LoadPlan::Runs(ids) | LoadPlan::ScorecardRuns(ids) => store.run_set(ids),
            LoadPlan::Jobs(ids) => store.chronicle_run_set(ids),
        })
    }

    /// A build of the run set of `plan` to run a step at a time, or, for Chronicle jobs (a few
    /// thousand trials at most), the run set built at once; `None` while not ready (tracked
    /// like [`Self::run_set`]).
    pub fn start_run_set(&self, plan: &LoadPlan) -> Option<RunSetStart> {
        self.generation.track();
        self.store.with_value(|store| match plan {
            LoadPlan::Runs(ids) | LoadPlan::ScorecardRuns(ids) => {
                store.start_run_set(ids).map(RunSetStart::Steps)
            }
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

    /// The trial `trial_id` of the Chronicle job `job_id` as the API listed it (status, agent,
    /// error and scores as given), when the job's trials were read (tracked: changes when the
    /// data settle or change).
    pub fn chronicle_trial(&self, job_id: &str, trial_id: &str) -> Option<ChronicleTrial> {
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

    /// How running jobs are watched now (tracked; `None` when none is).
    pub fn live_mode(&self) -> Option<LiveMode> {
        self.live.get()
    }

    /// When the runs were last read or checked for new results (`Date.now()` in ms; tracked).
    pub fn checked_at(&self) -> Option<f64> {
        self.checked_at.get()
    }

    /// The configuration the store was read with.
    pub fn config(&self) -> Option<ClientConfig> {
        self.config.get_value()
    }
}
