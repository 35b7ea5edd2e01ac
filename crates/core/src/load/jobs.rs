//! Chronicle jobs in the same engine: for each job its record, its trials (pages of 100) and
//! the platform's pass/fail per task, read concurrently into the [`LoadStore`], resumable,
//! refreshed while the job runs. A job's agents become the runs of the comparison
//! (`{job}/{agent}`), in the order the jobs are given.

use std::cell::RefCell;
use std::rc::Rc;

use futures::future::{join, join_all};

use crate::api::{ChronicleJob, ChronicleTrial, SuiteEvalRun};
use crate::client::{ApiError, PageCap, TrajectoryClient, Transport};
use crate::model::{split_chronicle_run_id, ModelError, RunSet, RunSetBuilder, SourceKind};
use crate::text::visible;

use super::engine::read_list;
use super::forms::ListForm;
use super::job_load::JobLoad;
use super::list::{ListKind, ListLoad, Phase};
use super::progress::{ListProgress, LoadEvent, RunProgress};
use super::store::{LoadFailure, LoadStore};
use super::stream_source::read_list_from;

/// The jobs of Chronicle run ids (`{job}/{agent}`), each once, in first-seen order; an id
/// without a `/` is taken as a job id.
pub fn jobs_of(run_ids: &[String]) -> Vec<String> {
    let mut jobs: Vec<String> = Vec::new();
    for id in run_ids {
        let job = split_chronicle_run_id(id).map_or(id.as_str(), |(job, _)| job);
        if !jobs.iter().any(|known| known == job) {
            jobs.push(job.to_owned());
        }
    }
    jobs
}

/// Loads the jobs `job_ids` concurrently into `store`, resuming whatever stopped and leaving
/// alone what is complete; tells `notify` whenever something arrived.
pub async fn load_jobs<T: Transport, F: ListForm>(
    client: &TrajectoryClient<T>,
    store: &LoadStore<F>,
    job_ids: &[String],
    notify: &dyn Fn(LoadEvent<'_>),
) {
    join_all(job_ids.iter().map(|id| load_job(client, store, id, notify))).await;
}

async fn load_job<T: Transport, F: ListForm>(
    client: &TrajectoryClient<T>,
    store: &LoadStore<F>,
    job_id: &str,
    notify: &dyn Fn(LoadEvent<'_>),
) {
    let job = store.job(job_id);
    if job.record.borrow().1 != Phase::Complete {
        job.record.borrow_mut().1 = Phase::Loading;
        notify(LoadEvent::Moved);
        let phase = match client.chronicle_job(job_id).await {
            Ok(record) => {
                *job.record.borrow_mut() = (Some(record), Phase::Complete);
                Phase::Complete
            }
            Err(error) => {
                job.record.borrow_mut().1 = Phase::Failed(error);
                job.record.borrow().1.clone()
            }
        };
        notify(LoadEvent::Record {
            run_id: job_id,
            phase: &phase,
        });
        if phase != Phase::Complete {
            return;
        }
    }
    let Some(record) = job.record.borrow().0.clone() else {
        return;
    };
    join(
        read_list_from(
            store.list_source(),
            client,
            ListKind::Trials,
            job_id,
            client.chronicle_trials(job_id),
            trials_cap(&record),
            &job.trials,
            notify,
        ),
        read_results(client, &record, &job.results, notify),
    )
    .await;
}

async fn read_results<T: Transport>(
    client: &TrajectoryClient<T>,
    record: &ChronicleJob,
    results: &RefCell<(Option<SuiteEvalRun>, Phase)>,
    notify: &dyn Fn(LoadEvent<'_>),
) {
    if results.borrow().1 == Phase::Complete {
        return;
    }
    results.borrow_mut().1 = Phase::Loading;
    *results.borrow_mut() = match client.chronicle_job_results(record).await {
        Ok(found) => (found, Phase::Complete),
        Err(error) => (None, Phase::Failed(error)),
    };
    notify(LoadEvent::Moved);
}

/// The page cap of a job's trials: one per scheduled trial (`total_trials`), when it says.
fn trials_cap(job: &ChronicleJob) -> PageCap {
    match job.total_trials {
        Some(total) => PageCap::expected(total, format!("job {}'s total_trials", visible(&job.id))),
        None => PageCap::unknown(),
    }
}

/// Retrieves each complete running job of `job_ids`; when its progress or status moved, reads
/// its trials and results again and swaps them in once complete (a failure keeps the previous
/// data and is kept as the job's `refresh_error`). Returns whether any job changed.
pub async fn refresh_jobs<T: Transport, F: ListForm>(
    client: &TrajectoryClient<T>,
    store: &LoadStore<F>,
    job_ids: &[String],
) -> bool {
    let mut changed = false;
    for id in job_ids {
        let Some(job) = store.get_job(id) else {
            continue;
        };
        // A job whose results could not be read is refreshed too: its record and trials are
        // what moves, and the refresh reads the results again.
        let read = job.record.borrow().1 == Phase::Complete
            && job.trials.borrow().phase == Phase::Complete;
        if !(job.is_running() && read) {
            continue;
        }
        match refresh_job(client, &job).await {
            Ok(updated) => {
                *job.refresh_error.borrow_mut() = None;
                changed |= updated;
            }
            Err(error) => *job.refresh_error.borrow_mut() = Some(error),
        }
    }
    changed
}

async fn refresh_job<T: Transport>(
    client: &TrajectoryClient<T>,
    job: &JobLoad,
) -> Result<bool, ApiError> {
    let record = client.chronicle_job(&job.job_id).await?;
    let moved = job.record.borrow().0.as_ref().is_none_or(|known| {
        known.completed_trials != record.completed_trials || known.status != record.status
    });
    if !moved {
        return Ok(false);
    }
    let trials = RefCell::new(ListLoad::default());
    let results = RefCell::new((None, Phase::Waiting));
    let quiet = |_: LoadEvent<'_>| {};
    join(
        read_list(
            ListKind::Trials,
            &job.job_id,
            client.chronicle_trials(&job.job_id),
            trials_cap(&record),
            &trials,
            &quiet,
        ),
        read_results(client, &record, &results, &quiet),
    )
    .await;
    if let Phase::Failed(error) = &trials.borrow().phase {
        return Err(error.clone());
    }
    if let Phase::Failed(error) = &results.borrow().1 {
        return Err(error.clone());
    }
    *job.record.borrow_mut() = (Some(record), Phase::Complete);
    *job.trials.borrow_mut() = trials.into_inner();
    *job.results.borrow_mut() = results.into_inner();
    Ok(true)
}

impl<F: ListForm> LoadStore<F> {
    /// Progress of the jobs `job_ids`, in order (a job's trials are its one list; `rollouts`
    /// are its finished and scheduled trials while it runs).
    pub fn job_progress(&self, job_ids: &[String]) -> Vec<RunProgress> {
        job_ids.iter().map(|id| self.one_job_progress(id)).collect()
    }

    fn one_job_progress(&self, job_id: &str) -> RunProgress {
        let job = self.job(job_id);
        let (record, phase) = job.record.borrow().clone();
        let trials = job.trials.borrow();
        let scheduled = record.as_ref().and_then(|job| job.total_trials);
        let running = job.is_running();
        let refresh_error = job.refresh_error.borrow().clone();
        RunProgress {
            run_id: job_id.to_owned(),
            name: record.as_ref().map(|job| {
                job.name
                    .clone()
                    .filter(|name| !name.trim().is_empty())
                    .unwrap_or_else(|| job.id.clone())
            }),
            record: phase,
            running,
            rollouts: record
                .as_ref()
                .filter(|_| running)
                .and_then(|job| Some((job.completed_trials?, job.total_trials?)))
                .map(|(done, total)| (saturating_i64(done), saturating_i64(total))),
            lists: vec![ListProgress {
                kind: ListKind::Trials,
                pages: trials.pages_read,
                items: trials.items.len(),
                total: scheduled,
                phase: trials.phase.clone(),
            }],
            settings_reads: Vec::new(),
            refresh_error,
        }
    }

    /// Whether every job of `job_ids` has its record read and its trials and results read or
    /// stopped: then a run set can be built.
    pub fn jobs_ready(&self, job_ids: &[String]) -> bool {
        job_ids.iter().all(|id| {
            let job = self.job(id);
            let record = job.record.borrow().1 == Phase::Complete;
            record && job.trials.borrow().phase.is_settled() && job.results.borrow().1.is_settled()
        })
    }

    /// Whether any of `job_ids` still needs watching: a record not read yet, or a job still
    /// queued or running.
    pub fn jobs_need_refresh(&self, job_ids: &[String]) -> bool {
        job_ids.iter().any(|id| {
            self.get_job(id)
                .is_none_or(|job| job.record.borrow().1 != Phase::Complete || job.is_running())
        })
    }

    /// The first record, trial list or results of `job_ids` that did not complete, in order;
    /// `None` when everything was read.
    pub fn first_job_failure(&self, job_ids: &[String]) -> Option<LoadFailure> {
        job_ids.iter().find_map(|id| {
            let job = self.job(id);
            let phase = job.record.borrow().1.clone();
            if phase != Phase::Complete {
                return Some(LoadFailure::Record {
                    run_id: id.clone(),
                    phase,
                });
            }
            let trials = job.trials.borrow();
            if trials.phase != Phase::Complete {
                return Some(LoadFailure::List {
                    kind: ListKind::Trials,
                    owner: id.clone(),
                    pages_read: trials.pages_read,
                    items: trials.items.len(),
                    phase: trials.phase.clone(),
                });
            }
            let results = job.results.borrow().1.clone();
            (results != Phase::Complete).then(|| LoadFailure::Results {
                job_id: id.clone(),
                phase: results,
            })
        })
    }

    /// The run set of the jobs `job_ids`: each job's agents as runs in the job's order, jobs in
    /// the order given (the first run is the baseline), labelled as read from Chronicle. `None`
    /// until [`Self::jobs_ready`]. A job whose trials stopped early still enters, with
    /// `incomplete_load` saying what is missing. The trials' details read on request
    /// ([`super::load_trial_details`]) are attached.
    pub fn chronicle_run_set(&self, job_ids: &[String]) -> Option<Result<RunSet, ModelError>> {
        if !self.jobs_ready(job_ids) {
            return None;
        }
        let mut builder = RunSetBuilder::new();
        for id in job_ids {
            let job = self.job(id);
            let record = job.record.borrow();
            let record = record.0.as_ref()?;
            let trials = job.trials.borrow();
            let results = job.results.borrow();
            let mut missing: Vec<String> = trials.missing(ListKind::Trials).into_iter().collect();
            if let Phase::Failed(error) = &results.1 {
                missing.push(format!("the platform's results could not be read: {error}"));
            }
            let added = builder.add_chronicle_job_from(
                record,
                &trials.items,
                results.0.as_ref(),
                SourceKind::Chronicle,
                (!missing.is_empty()).then(|| missing.join("; ")),
            );
            if let Err(error) = added {
                return Some(Err(error));
            }
        }
        let mut set = builder.build();
        self.attach_read_trial_details(&mut set);
        Some(Ok(set))
    }

    /// A job's record, trials and results as read (to write its folder), when its record was
    /// read; the trials are moved out of the store. Check [`Self::first_job_failure`] first.
    pub fn take_job(
        &self,
        job_id: &str,
    ) -> Option<(ChronicleJob, Vec<ChronicleTrial>, Option<SuiteEvalRun>)> {
        let job = self.get_job(job_id)?;
        let record = job.record.borrow().0.clone()?;
        let trials = std::mem::take(&mut job.trials.borrow_mut().items);
        let results = job.results.borrow().0.clone();
        Some((record, trials, results))
    }

    /// The job's entry, created when new.
    pub fn job(&self, job_id: &str) -> Rc<JobLoad> {
        Rc::clone(
            self.jobs
                .borrow_mut()
                .entry(job_id.to_owned())
                .or_insert_with(|| Rc::new(JobLoad::new(job_id))),
        )
    }

    /// The job's entry, if it was ever asked for.
    pub fn get_job(&self, job_id: &str) -> Option<Rc<JobLoad>> {
        self.jobs.borrow().get(job_id).cloned()
    }
}

fn saturating_i64(value: u64) -> i64 {
    i64::try_from(value).unwrap_or(i64::MAX)
}
