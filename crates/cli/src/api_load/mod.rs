//! Reading runs from the Trajectory API, and Chronicle jobs from the Chronicle API, with the
//! core's load engine (the viewer's too): every run's record, lists and benchmark tasks (every
//! job's record, trials and results), concurrently, with progress on stderr; then a load that
//! stopped early is refused, naming what failed: the record, or the list, the page and the
//! reason. What it says then is written in `failure.rs`, its requests named by the
//! core's paths.

use eval_compare_core::api::{ChronicleJob, ChronicleTrial, JobStatus, SuiteEvalRun};
use eval_compare_core::client::{paths, PageProgress, TrajectoryClient, Transport};
use eval_compare_core::load::{
    choose_list_source, component_targets, load_components, load_jobs, load_runs,
    ComponentReadLimits, FullRecords, ListForm, LoadEvent, LoadStore, Phase,
};
use eval_compare_core::model::RunSet;
use eval_compare_core::run_folder::RunFolder;
use eval_compare_core::text::{noun, visible};
use eval_compare_core::view_state::check_id;

use crate::error::CliError;
use crate::progress::Progress;

mod failure;
#[cfg(test)]
mod tests;

pub use failure::results_description;
use failure::{failure_error, Records};

/// Chooses where the lists are read from (our server's streams when it offers them, else the
/// API's pages) and says which on stderr.
async fn choose_source<T: Transport, F: ListForm>(
    client: &TrajectoryClient<T>,
    store: &LoadStore<F>,
    progress: &Progress,
) {
    let source = choose_list_source(client, store).await;
    progress.note(&format!("lists: {}", source.describe()));
}

/// Refuses an id that breaks the rule every compared id follows ([`check_id`]).
fn check_ids(noun: &str, ids: &[String]) -> Result<(), CliError> {
    for id in ids {
        check_id(id).map_err(|reason| {
            CliError::Usage(format!(
                "{noun} id `{}` cannot be compared: {reason}",
                visible(id)
            ))
        })?;
    }
    Ok(())
}

/// Reads the runs `run_ids` completely into a store, or fails on the first record or list (in
/// argument order) that could not be read: nothing partial is returned. A run id that breaks
/// the rule every compared id follows ([`check_id`]) is a usage error, before any request.
/// The store keeps the lists in the form `F`: packed for a report, whole for run folders.
pub async fn load_complete<T: Transport, F: ListForm>(
    client: &TrajectoryClient<T>,
    run_ids: &[String],
    progress: &Progress,
) -> Result<LoadStore<F>, CliError> {
    let store = LoadStore::<F>::default();
    store.cost_reads().enable();
    load_complete_into(client, &store, run_ids, progress).await?;
    Ok(store)
}

/// [`load_complete`] into `store`, which may already hold what runs need (a scorecard's
/// training run and evaluation defaults, read with its sources): what is complete there is
/// not read again.
pub async fn load_complete_into<T: Transport, F: ListForm>(
    client: &TrajectoryClient<T>,
    store: &LoadStore<F>,
    run_ids: &[String],
    progress: &Progress,
) -> Result<(), CliError> {
    check_ids("run", run_ids)?;
    let notify = |event: LoadEvent<'_>| report_run_event(progress, event);
    choose_source(client, store, progress).await;
    load_runs(client, store, run_ids, &notify).await;
    match store.first_failure(run_ids) {
        None => Ok(()),
        Some(failure) => Err(failure_error(client, failure, Records::Runs)),
    }
}

/// Says on stderr what a load of runs did (`load_complete`'s progress lines).
pub fn report_run_event(progress: &Progress, event: LoadEvent<'_>) {
    report_event(progress, Records::Runs, event);
}

/// Reads the reward components of every trajectory of the runs `run_ids` (read completely by
/// [`load_complete`]) whose components enter the report, or fails naming the first trajectory
/// that could not be read: a report never covers only some of them. The read gives up as the
/// viewer's does ([`ComponentReadLimits::for_reads`]: ten failures in a row, or its deadline),
/// failing with the core's words.
pub async fn load_components_complete<T: Transport>(
    client: &TrajectoryClient<T>,
    store: &LoadStore,
    run_ids: &[String],
    progress: &Progress,
) -> Result<(), CliError> {
    let set = run_set(store, run_ids)?;
    let targets = component_targets(&set);
    drop(set);
    let label = "reward components";
    let done = std::cell::Cell::new(0usize);
    let notify = |event: LoadEvent<'_>| {
        if let LoadEvent::Components { .. } = event {
            done.set(done.get() + 1);
            progress.counted(label, done.get(), targets.len());
        }
    };
    let limits = ComponentReadLimits::for_reads(targets.len());
    if let Some(stop) = load_components(client, store, &targets, &limits, &notify).await {
        return Err(CliError::ComponentsStopped {
            stop: Box::new(stop),
            key_set: client.config().api_key.is_some(),
        });
    }
    let standing = store.component_progress(&targets);
    match standing.first_error {
        None => {
            progress.note(&format!(
                "{label}: {} of {} {} read",
                standing.read,
                targets.len(),
                noun(targets.len() as u64, "trajectory", "trajectories")
            ));
            Ok(())
        }
        Some((trajectory_id, source)) => Err(CliError::Api {
            what: format!(
                "could not read the reward components of trajectory {} (GET {}; {} of {} {} failed)",
                visible(&trajectory_id),
                paths::trajectory_with_components(&visible(&trajectory_id)),
                standing.failed,
                targets.len(),
                noun(targets.len() as u64, "read", "reads")
            ),
            source: Box::new(source),
            key_set: client.config().api_key.is_some(),
        }),
    }
}

/// Reads the Chronicle jobs `job_ids` completely into a store (record, every trial, the
/// platform's results), or fails on the first that could not be read, in argument order; a job
/// with no trials yet is refused too ([`CliError::NoTrials`]). A job still running is read as it
/// stands, with a warning that its numbers are partial.
pub async fn load_jobs_complete<T: Transport>(
    client: &TrajectoryClient<T>,
    job_ids: &[String],
    progress: &Progress,
) -> Result<LoadStore, CliError> {
    check_ids("job", job_ids)?;
    let store = LoadStore::new();
    let notify = |event: LoadEvent<'_>| report_event(progress, Records::Jobs(&store), event);
    choose_source(client, &store, progress).await;
    load_jobs(client, &store, job_ids, &notify).await;
    if let Some(failure) = store.first_job_failure(job_ids) {
        return Err(failure_error(client, failure, Records::Jobs(&store)));
    }
    for id in job_ids {
        let job = store.job(id);
        let record = job.record.borrow();
        let Some(record) = record.0.as_ref() else {
            continue;
        };
        let results = job.results.borrow();
        progress.note(&match &results.0 {
            Some(results) => format!(
                "{id}: results: {} task {} from the platform",
                results.task_results.len(),
                noun(results.task_results.len() as u64, "result", "results")
            ),
            None => format!("{id}: results: none listed by the platform yet"),
        });
        if job.trials.borrow().items.is_empty() {
            return Err(CliError::NoTrials {
                job_id: id.clone(),
                status: job_standing(record),
            });
        }
        if job.is_running() {
            progress.warn(&format!(
                "job {id} has not ended ({}): the numbers are partial",
                job_standing(record)
            ));
        }
    }
    Ok(store)
}

/// Where a job stands, e.g. `running, 3 of 40 trials finished`.
pub fn job_standing(job: &ChronicleJob) -> String {
    let status = job.status.as_ref().map_or("no status", JobStatus::as_str);
    match trials_finished(job) {
        Some(trials) => format!("{status}, {trials}"),
        None => status.to_owned(),
    }
}

/// How many of a job's trials finished, e.g. `3 of 40 trials finished`, when it says.
pub fn trials_finished(job: &ChronicleJob) -> Option<String> {
    match (job.completed_trials, job.total_trials) {
        (Some(done), Some(total)) => Some(format!("{done} of {total} trials finished")),
        (Some(done), None) => Some(format!("{done} {} finished", noun(done, "trial", "trials"))),
        _ => None,
    }
}

/// The run set of runs read completely by [`load_complete`], in order (the baseline first).
pub fn run_set(store: &LoadStore, run_ids: &[String]) -> Result<RunSet, CliError> {
    match store.run_set(run_ids) {
        Some(set) => set.map_err(CliError::Model),
        None => Err(CliError::Usage(
            "the runs were not read completely; nothing to compare".to_owned(),
        )),
    }
}

/// The run set of jobs read completely by [`load_jobs_complete`]: the jobs' agents in the
/// order given, the first the baseline (the viewer's [`LoadStore::chronicle_run_set`]).
pub fn job_run_set(store: &LoadStore, job_ids: &[String]) -> Result<RunSet, CliError> {
    match store.chronicle_run_set(job_ids) {
        Some(set) => set.map_err(CliError::Model),
        None => Err(CliError::Usage(
            "the jobs were not read completely; nothing to compare".to_owned(),
        )),
    }
}

/// One run read completely by [`load_complete`], as a run folder (moved out of the store).
pub fn run_folder(store: &LoadStore<FullRecords>, run_id: &str) -> Result<RunFolder, CliError> {
    store
        .take_run_folder(run_id)
        .ok_or_else(|| CliError::Usage(format!("run {run_id} was not read; nothing to write")))
}

/// One job read completely by [`load_jobs_complete`]: its record, trials and results (the
/// trials moved out of the store).
pub fn job_files(
    store: &LoadStore,
    job_id: &str,
) -> Result<(ChronicleJob, Vec<ChronicleTrial>, Option<SuiteEvalRun>), CliError> {
    store
        .take_job(job_id)
        .ok_or_else(|| CliError::Usage(format!("job {job_id} was not read; nothing to write")))
}

fn report_event(progress: &Progress, records: Records<'_>, event: LoadEvent<'_>) {
    match event {
        LoadEvent::Moved | LoadEvent::Components { .. } | LoadEvent::Tokens { .. } => {}
        LoadEvent::Record {
            run_id,
            phase: Phase::Complete,
        } => progress.fetched(&format!("{run_id}: {}", records.noun())),
        LoadEvent::Record { .. } => {}
        LoadEvent::Settings {
            what,
            owner,
            phase: Phase::Complete,
        } => progress.fetched(&format!("{owner}: {}", what.label())),
        LoadEvent::Settings {
            what,
            owner,
            phase: Phase::Failed(error),
        } => progress.warn(&format!(
            "{owner}: the {} could not be read ({error}); the settings they give are reported as not resolved",
            what.label()
        )),
        LoadEvent::Settings { .. } => {}
        LoadEvent::Page {
            kind,
            owner,
            pages,
            items,
            has_more,
        } => progress.page(
            &format!("{owner}: {}", kind.name()),
            PageProgress {
                pages_read: pages,
                items_read: items,
                has_more,
            },
        ),
        LoadEvent::ListEnded {
            kind,
            owner,
            pages,
            items,
            phase,
        } => {
            let label = format!("{owner}: {}", kind.name());
            if *phase == Phase::Complete {
                progress.finished(&label, pages, items);
            } else {
                progress.failed(&label, pages, items);
            }
        }
    }
}
