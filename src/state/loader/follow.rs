//! Watching what still runs: Trajectory runs checked every [`REFRESH_MS`], Chronicle jobs
//! followed on their progress streams (polling when a stream fails or closes), every reconnect
//! and read paced by the core's [`WatchPace`].

use std::cell::{Cell, RefCell};
use std::pin::pin;

use eval_compare_core::api::{JobEvent, JobEventKind, JobStatus};
use eval_compare_core::client::{NextTry, StreamEnd, TrajectoryClient, WatchPace, WatchPolicy};
use eval_compare_core::load::{refresh_jobs, refresh_running, LoadStore};
use futures::future::{join_all, select};
use gloo_timers::future::TimeoutFuture;
use leptos::prelude::*;

use super::{LoadPlan, Loader};
use crate::transport::FetchTransport;

/// How often runs still executing are checked for new results (and running jobs, when their
/// progress stream is not there).
pub const REFRESH_MS: u32 = 10_000;
/// While a job's stream reports finished trials, its trials are read again at most this often.
pub const STREAM_REFRESH_MS: u32 = 1_500;

/// How often a follower waiting for the first load looks again.
const LOAD_WAIT_MS: u32 = 500;

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

impl Loader {
    /// Watches what of `plan` still runs until nothing does: Trajectory runs are checked every
    /// [`REFRESH_MS`], Chronicle jobs followed ([`Self::follow_jobs`]); each change rebuilds
    /// the run set. Ends with the calling view (see `spawn_scoped`).
    pub async fn refresh_loop(self, plan: LoadPlan) {
        match plan {
            LoadPlan::Runs(run_ids) | LoadPlan::ScorecardRuns(run_ids) => {
                self.refresh_runs(run_ids).await
            }
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
