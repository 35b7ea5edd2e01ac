//! The one load engine: reading the runs of a comparison from the Trajectory API into a store,
//! page by page, for the viewer and the CLI alike.
//!
//! For each run (baseline and candidates, concurrently): the run record, its trajectory rewards
//! and its trajectories (cursor pages of 200), and its benchmark version's task list, read once
//! per `bench_id` whichever run needs it first. Every page lands in the [`LoadStore`] as it
//! arrives, so progress shows pages and items as they load, and what was read survives a failure
//! or a Cancel (dropping the future, then [`LoadStore::mark_cancelled`]). A list that stopped
//! keeps its cursor: loading again resumes there without reading the first pages again; only a
//! cursor the API refuses as expired makes the list start over. A run whose lists stopped early
//! still enters the run set, with `incomplete_load` saying what is missing, so the coverage
//! ledger says so; a caller that must not go on with partial data (the CLI) asks
//! [`LoadStore::first_failure`] instead.
//!
//! To resolve each run's settings (`model::RunInfo::effective_settings`) the engine also reads,
//! after the run record and alongside its lists, the training run of a checkpoint evaluation
//! (`GET /api/v1/train/{id}`) and the evaluation defaults of the run's benchmark version and base
//! model (`GET /api/v1/eval/options`), each once per distinct key. They resume and cancel like
//! the other reads, but a failure there never stops the run: its settings are then "could not
//! be resolved", with the reason, and [`LoadStore::first_failure`] does not count it.
//!
//! A store told to ([`LoadStore::read_ahead_after`]: the viewer, with its six connections per
//! server) names the runs it gets to only later to our server at a load's start, to be read
//! ahead into the server's cache (`read_ahead.rs`).
//!
//! Runs still executing are refreshed by [`refresh_running`]: their progress is read, and when it
//! moved the run and its lists are read again and swapped in once complete.
//!
//! Chronicle backtest jobs load the same way ([`load_jobs`], [`refresh_jobs`]): each job's
//! record, its trials (pages of 100) and the platform's pass/fail per task; a job's agents are
//! the runs (`{job}/{agent}`) of [`LoadStore::chronicle_run_set`].
//!
//! With [`CostReads::enable`] (the CLI, and any caller that shows costs), a load also reads each
//! run's billing row (one offset walk of `GET /api/v1/billing/usage/runs` for every run still
//! without a cost) and its rollout statistics ([`load_costs`], in `billing.rs`); like the
//! settings reads they never stop a run, and a 403 or a run the list does not hold leaves the
//! cost unavailable with the reason, never 0. The run set carries them on `RunInfo`.
//! What a load reads beside the runs (costs, the platform's progression of a checkpoint's
//! training run) is the store's [`BesideRuns`], set by what the caller shows: a scorecard
//! reads neither; a comparison turning them on later reads only them
//! ([`LoadStore::lacks_beside`] says whether anything it names was never asked for).
//!
//! Reward components, which the run lists do not carry, are read per trajectory on request
//! ([`load_components`], bounded in concurrency, given up after failures in a row or at an
//! overall deadline, resumable) and attached to the run set; so are token counts, from each
//! counted trajectory's last step ([`load_tokens`]), on the same engine (`per_trajectory.rs`).
//! Chronicle trials' steps and durations, which the trials list does not carry, are read per
//! trial from its detail on the same engine ([`load_trial_details`]).
//!
//! Everything here is generic over the client's [`Transport`](crate::client::Transport); the
//! caller owns time (when to refresh, how often to repaint) and receives a [`LoadEvent`] for
//! every request that ended.

mod billing;
mod component_reads;
mod component_stop;
mod components;
mod engine;
mod forms;
mod job_load;
mod jobs;
mod list;
mod pace;
mod per_trajectory;
mod progress;
mod read_ahead;
mod run_load;
mod run_set_build;
mod scorecard;
mod store;
mod stream_slices;
mod stream_source;
mod tokens;
mod trial_details;

pub use billing::{load_costs, CostReads};
pub use component_reads::{ComponentReads, TrajectoryReads};
pub use component_stop::{
    read_deadline_minutes, read_deadline_ms, ComponentReadLimits, ComponentStop,
    ComponentStopCause, DEADLINE_BASE_MINUTES, DEADLINE_TRAJECTORIES_PER_MINUTE, FAILURES_IN_A_ROW,
};
pub use components::{
    component_offer, component_targets, load_components, ComponentProgress, ReadOffer,
    COMPONENT_CONCURRENCY,
};
pub use engine::{load_runs, read_list, refresh_running};
pub use forms::{FullRecords, ListForm, Packed};
pub use job_load::JobLoad;
pub use jobs::{jobs_of, load_jobs, refresh_jobs};
pub use list::{ListKind, ListLoad, Phase, PAGE_LIMIT};
pub use pace::{ItemsRead, LoadPace, PACE_MIN_ELAPSED_MS, PACE_MIN_SHARE};
pub use progress::{ListProgress, LoadEvent, RunProgress, SettingsRead};
pub use run_load::RunLoad;
pub use run_set_build::{BuildStep, RunSetBuild};
pub use scorecard::{
    load_scorecard, load_scorecard_sources, run_versions, RunVersion, ScorecardSources,
};
pub use store::{BesideRuns, LoadFailure, LoadStore};
pub use stream_slices::{STREAM_SLICE_BYTES, STREAM_SLICE_MS};
pub use stream_source::{choose_list_source, probe_list_source, ListSource};
pub use tokens::{
    load_tokens, token_count_of, token_offer, token_targets, TokenOffer, TokenTargets,
};
pub use trial_details::{load_trial_details, trial_read_key, trial_read_keys};
