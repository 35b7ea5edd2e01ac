//! Reading runs from the Trajectory API, and Chronicle jobs from the Chronicle API, with the
//! core's load engine (the viewer's too): every run's record, lists and benchmark tasks (every
//! job's record, trials and results), concurrently, with progress on stderr; then a load that
//! stopped early is refused, naming what failed: the record, or the list, the page and the
//! reason.

use eval_compare_core::api::{ChronicleJob, ChronicleTrial, JobStatus, SuiteEvalRun};
use eval_compare_core::client::{ApiError, PageProgress, TrajectoryClient, Transport};
use eval_compare_core::load::{
    component_targets, load_components, load_jobs, load_runs, ComponentReadLimits, FullRecords,
    ListForm, ListKind, LoadEvent, LoadFailure, LoadStore, Phase,
};
use eval_compare_core::model::RunSet;
use eval_compare_core::run_folder::RunFolder;
use eval_compare_core::text::{noun, visible};
use eval_compare_core::view_state::check_id;

use crate::error::CliError;
use crate::progress::Progress;

/// What the ids of a load name: evaluation runs of the Trajectory API, or Chronicle jobs (the
/// store then knows each job's suite, for the results' request).
#[derive(Debug, Clone, Copy)]
enum Records<'a> {
    Runs,
    Jobs(&'a LoadStore),
}

impl Records<'_> {
    /// The record's noun: `run` or `job`.
    fn noun(self) -> &'static str {
        match self {
            Records::Runs => "run",
            Records::Jobs(_) => "job",
        }
    }

    /// The record for people, with the request that reads it.
    fn describe(self, id: &str) -> String {
        match self {
            Records::Runs => format!("run {id} (GET /api/v1/eval/{id})"),
            Records::Jobs(_) => format!("job {id} (GET /v1/backtests/jobs/{id})"),
        }
    }
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
    check_ids("run", run_ids)?;
    let store = LoadStore::<F>::default();
    let notify = |event: LoadEvent<'_>| report_event(progress, Records::Runs, event);
    load_runs(client, &store, run_ids, &notify).await;
    match store.first_failure(run_ids) {
        None => Ok(store),
        Some(failure) => Err(failure_error(client, failure, Records::Runs)),
    }
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
                "could not read the reward components of trajectory {} (GET /api/v1/trajectories/{}?include_reward_components=true; {} of {} {} failed)",
                visible(&trajectory_id),
                visible(&trajectory_id),
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

/// The list's name in progress lines, as its run folder file is named.
fn list_name(kind: ListKind) -> &'static str {
    match kind {
        ListKind::Rewards => "trajectory-rewards",
        ListKind::Trajectories => "trajectories",
        ListKind::Tasks => "tasks",
        ListKind::Trials => "trials",
    }
}

/// The list for people, with the request that reads it.
fn list_description(kind: ListKind, owner: &str) -> String {
    match kind {
        ListKind::Rewards => format!(
            "trajectory-rewards of run {owner} (GET /api/v1/eval/{owner}/trajectory-rewards)"
        ),
        ListKind::Trajectories => {
            format!("trajectories of run {owner} (GET /api/v1/trajectories?eval_run_id={owner})")
        }
        ListKind::Tasks => {
            format!("tasks of benchmark {owner} (GET /api/v1/benchmarks/{owner}/tasks)")
        }
        ListKind::Trials => {
            format!("trials of job {owner} (GET /v1/backtests/jobs/{owner}/trials)")
        }
    }
}

/// The results of a job for people, with the request that reads them.
pub fn results_description(job_id: &str, suite_id: Option<&str>) -> String {
    let suite = suite_id.unwrap_or("{suiteId}");
    format!("the results of job {job_id} (GET /v1/task-suites/{suite}/eval-runs?job_id={job_id})")
}

fn report_event(progress: &Progress, records: Records<'_>, event: LoadEvent<'_>) {
    match event {
        LoadEvent::Moved | LoadEvent::Components { .. } => {}
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
            &format!("{owner}: {}", list_name(kind)),
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
            let label = format!("{owner}: {}", list_name(kind));
            if *phase == Phase::Complete {
                progress.finished(&label, pages, items);
            } else {
                progress.failed(&label, pages, items);
            }
        }
    }
}

fn failure_error<T>(
    client: &TrajectoryClient<T>,
    failure: LoadFailure,
    records: Records<'_>,
) -> CliError {
    let key_set = client.config().api_key.is_some();
    let api_error = |what: String, source: ApiError| CliError::Api {
        what,
        source: Box::new(source),
        key_set,
    };
    match failure {
        LoadFailure::Record {
            run_id,
            phase: Phase::Failed(source),
        } => api_error(
            format!("could not read {}", records.describe(&run_id)),
            source,
        ),
        LoadFailure::Record { run_id, .. } => CliError::Usage(format!(
            "could not read {} {run_id}: the load stopped before it ended",
            records.noun()
        )),
        LoadFailure::List {
            kind,
            owner,
            phase: Phase::Failed(source),
            ..
        } if matches!(source, ApiError::InvalidArgument(_)) => api_error(
            format!("could not read {}", list_description(kind, &owner)),
            source,
        ),
        LoadFailure::List {
            kind,
            owner,
            pages_read,
            items,
            phase: Phase::Failed(source),
        } => api_error(
            format!(
                "could not read {}: page {} failed ({pages_read} {} with {items} items read before it)",
                list_description(kind, &owner),
                pages_read + 1,
                noun(u64::from(pages_read), "page", "pages"),
            ),
            source,
        ),
        LoadFailure::List { kind, owner, .. } => CliError::Usage(format!(
            "could not read {}: the load stopped before it ended",
            list_description(kind, &owner)
        )),
        LoadFailure::Results {
            job_id,
            phase: Phase::Failed(source),
        } => {
            let suite = match records {
                Records::Jobs(store) => store.get_job(&job_id).and_then(|job| {
                    job.record
                        .borrow()
                        .0
                        .as_ref()
                        .and_then(|record| record.task_suite_id.clone())
                }),
                Records::Runs => None,
            };
            api_error(
                format!(
                    "could not read {}",
                    results_description(&job_id, suite.as_deref())
                ),
                source,
            )
        }
        LoadFailure::Results { job_id, .. } => CliError::Usage(format!(
            "could not read the results of job {job_id}: the load stopped before it ended"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use eval_compare_core::load::Packed;
    use eval_compare_core::testing::bodies::{page, reward_item, task_item, NOT_FOUND};
    use eval_compare_core::testing::scripted::client_over;
    use eval_compare_core::testing::ScriptedTransport;

    const RUN: &str = r#"{"eval_run_id":"er_1","bench_id":"b_1","agent_id":"a_1","options":{},"created_at":"2026-01-01T00:00:00Z","updated_at":"2026-01-01T00:00:00Z"}"#;

    fn block_on<F: std::future::Future>(future: F) -> F::Output {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap()
            .block_on(future)
    }

    fn ids(list: &[&str]) -> Vec<String> {
        list.iter().map(|id| (*id).to_owned()).collect()
    }

    #[test]
    fn reads_every_page_of_every_list_and_the_tasks_once_per_benchmark() {
        let transport = ScriptedTransport::default();
        transport
            .route(
                "/trajectory-rewards?cursor=c2",
                vec![(200, page("er_1", &[reward_item("x3", "t_x3", 1.0)], None))],
            )
            .route(
                "/trajectory-rewards",
                vec![(
                    200,
                    page(
                        "er_1",
                        &[
                            reward_item("x1", "t_x1", 1.0),
                            reward_item("x2", "t_x2", 1.0),
                        ],
                        Some("c2"),
                    ),
                )],
            )
            .route("/trajectories?", vec![(200, page("er_1", &[], None))])
            .route(
                "/benchmarks/b_1/tasks",
                vec![(200, page("b_1", &[task_item("t_x1")], None))],
            )
            .route("/eval/er_", vec![(200, RUN.to_owned())]);
        let client = client_over(&transport);
        let progress = Progress::silent();
        let runs = ids(&["er_1", "er_2"]);
        let store = block_on(load_complete(&client, &runs, &progress)).unwrap();
        let folder = run_folder(&store, "er_1").unwrap();
        let read: Vec<&str> = folder
            .rewards
            .iter()
            .map(|r| r.trajectory_id.as_str())
            .collect();
        assert_eq!(read, ["x1", "x2", "x3"]);
        assert_eq!(folder.tasks.as_ref().map(Vec::len), Some(1));
        assert!(folder.truncated_files.is_empty());
        // The second run of the same benchmark did not read its tasks again.
        assert_eq!(transport.count("/tasks"), 1);
    }

    #[test]
    fn a_failed_component_read_stops_the_report_naming_the_trajectory() {
        use eval_compare_core::testing::bodies::{trajectory_detail_body, trajectory_item};
        let transport = ScriptedTransport::default();
        transport
            .route(
                "/trajectory-rewards",
                vec![(
                    200,
                    page(
                        "er_1",
                        &[reward_item("x1", "t1", 1.0), reward_item("x2", "t2", 0.0)],
                        None,
                    ),
                )],
            )
            .route(
                "/trajectories?",
                vec![(
                    200,
                    page(
                        "er_1",
                        &[trajectory_item("x1", "t1"), trajectory_item("x2", "t2")],
                        None,
                    ),
                )],
            )
            .route(
                "/trajectories/x1?include_reward_components=true",
                vec![(
                    200,
                    trajectory_detail_body("x1", "t1", &[("tests", 3.0, 1.0)]),
                )],
            )
            .route(
                "/trajectories/x2?include_reward_components=true",
                vec![(404, NOT_FOUND.to_owned())],
            )
            .route("/benchmarks/b_1/tasks", vec![(200, page("b_1", &[], None))])
            .route("/eval/er_1", vec![(200, RUN.to_owned())]);
        let client = client_over(&transport);
        let progress = Progress::silent();
        let runs = ids(&["er_1"]);
        let store = block_on(load_complete(&client, &runs, &progress)).unwrap();
        let error =
            block_on(load_components_complete(&client, &store, &runs, &progress)).unwrap_err();
        let text = error.to_string();
        assert!(
            text.starts_with("could not read the reward components of trajectory x2 (GET /api/v1/trajectories/x2?include_reward_components=true; 1 of 2 reads failed)"),
            "{text}"
        );
        assert_eq!(error.exit(), crate::exit_code::Exit::Api);
        // The one that was read is attached.
        let set = run_set(&store, &runs).unwrap();
        assert_eq!(set.runs()[0].component_means().len(), 1);
    }

    #[test]
    fn a_failed_page_fails_the_load_naming_the_list_and_how_far_it_got() {
        let transport = ScriptedTransport::default();
        transport
            .route(
                "/trajectory-rewards?cursor=c2",
                vec![(
                    400,
                    eval_compare_core::testing::bodies::EXPIRED_CURSOR.to_owned(),
                )],
            )
            .route(
                "/trajectory-rewards",
                vec![(
                    200,
                    page(
                        "er_1",
                        &[reward_item("x1", "t1", 1.0), reward_item("x2", "t2", 1.0)],
                        Some("c2"),
                    ),
                )],
            )
            .route("/trajectories?", vec![(200, page("er_1", &[], None))])
            .route("/benchmarks/b_1/tasks", vec![(200, page("b_1", &[], None))])
            .route("/eval/er_1", vec![(200, RUN.to_owned())]);
        let client = client_over(&transport);
        let progress = Progress::silent();
        let error = block_on(load_complete::<_, Packed>(
            &client,
            &ids(&["er_1"]),
            &progress,
        ))
        .unwrap_err();
        let text = error.to_string();
        assert!(
            text.starts_with("could not read trajectory-rewards of run er_1 (GET /api/v1/eval/er_1/trajectory-rewards): page 2 failed (1 page with 2 items read before it): "),
            "{text}"
        );
        assert!(text.contains("invalid_cursor"), "{text}");
        assert_eq!(error.exit(), crate::exit_code::Exit::Api);
    }

    #[test]
    fn a_list_that_would_never_end_fails_the_load_naming_it() {
        let two = |a: &str, b: &str| [reward_item(a, "t1", 1.0), reward_item(b, "t2", 1.0)];
        let transport = ScriptedTransport::default();
        transport
            .route(
                "/trajectory-rewards?cursor=B",
                vec![(200, page("er_1", &two("x5", "x6"), Some("A")))],
            )
            .route(
                "/trajectory-rewards?cursor=A",
                vec![(200, page("er_1", &two("x3", "x4"), Some("B")))],
            )
            .route(
                "/trajectory-rewards",
                vec![(200, page("er_1", &two("x1", "x2"), Some("A")))],
            )
            .route("/trajectories?", vec![(200, page("er_1", &[], None))])
            .route("/benchmarks/b_1/tasks", vec![(200, page("b_1", &[], None))])
            .route("/eval/er_1", vec![(200, RUN.to_owned())]);
        let client = client_over(&transport);
        let progress = Progress::silent();
        let error = block_on(load_complete::<_, Packed>(
            &client,
            &ids(&["er_1"]),
            &progress,
        ))
        .unwrap_err();
        let text = error.to_string();
        assert!(
            text.starts_with("could not read trajectory-rewards of run er_1 (GET /api/v1/eval/er_1/trajectory-rewards): page 3 failed (2 pages with 4 items read before it): the API's answer broke the contract: the list /api/v1/eval/er_1/trajectory-rewards does not end: page 3 gives as next_cursor \"A\", the cursor page 2 was read with (a cycle); stopped after 2 pages and 4 items read"),
            "{text}"
        );
        assert_eq!(error.exit(), crate::exit_code::Exit::Api);
        assert_eq!(transport.count("/trajectory-rewards"), 3);
    }

    #[test]
    fn a_missing_run_is_an_api_error_naming_the_run() {
        let transport = ScriptedTransport::default();
        transport.route("/eval/er_9", vec![(404, NOT_FOUND.to_owned())]);
        let client = client_over(&transport);
        let progress = Progress::silent();
        let text = block_on(load_complete::<_, Packed>(
            &client,
            &ids(&["er_9"]),
            &progress,
        ))
        .unwrap_err()
        .to_string();
        assert!(
            text.starts_with("could not read run er_9 (GET /api/v1/eval/er_9): not found;"),
            "{text}"
        );
    }

    use crate::chronicle_script::script_job;
    use crate::exit_code::Exit;
    use eval_compare_core::testing::bodies::{
        chronicle_job_body, chronicle_page, chronicle_trial_item, error_body, SERVER_FAILURE,
    };

    #[test]
    fn a_job_is_read_whole_and_taken_for_its_folder() {
        let transport = ScriptedTransport::default();
        script_job(
            &transport,
            "ja",
            "succeeded",
            &["base@1", "cand@2"],
            &[("base@1", "t1", true), ("cand@2", "t1", false)],
            true,
        );
        let client = client_over(&transport);
        let store = block_on(load_jobs_complete(
            &client,
            &ids(&["ja"]),
            &Progress::silent(),
        ))
        .unwrap();
        let (job, trials, results) = job_files(&store, "ja").unwrap();
        assert_eq!(job.agents, ["base@1", "cand@2"]);
        assert_eq!(trials.len(), 2);
        assert_eq!(results.unwrap().task_results.len(), 1);
    }

    #[test]
    fn an_unknown_job_is_an_api_error_naming_the_job_endpoint() {
        let transport = ScriptedTransport::default();
        transport.route(
            "/jobs/nope",
            vec![(
                400,
                error_body(
                    "invalid_request_error",
                    "unknown_job",
                    "No job with id nope",
                    Some("jobId"),
                ),
            )],
        );
        let client = client_over(&transport);
        let error = block_on(load_jobs_complete(
            &client,
            &ids(&["nope"]),
            &Progress::silent(),
        ))
        .unwrap_err();
        let text = error.to_string();
        assert!(
            text.starts_with("could not read job nope (GET /v1/backtests/jobs/nope): Chronicle refused the request: an unknown job"),
            "{text}"
        );
        assert!(text.contains("No job with id nope"), "{text}");
        assert_eq!(error.exit(), Exit::Api);
        assert_eq!(transport.count("/api/v1/eval"), 0);
    }

    #[test]
    fn a_job_with_no_trials_yet_is_refused_in_the_guides_words() {
        let transport = ScriptedTransport::default();
        transport
            .route("/jobs/jq/trials", vec![(200, chronicle_page(&[], None))])
            .route("job_id=jq", vec![(200, chronicle_page(&[], None))])
            .route(
                "/jobs/jq",
                vec![(200, chronicle_job_body("jq", "queued", &["a@1"], 0, 4))],
            );
        let client = client_over(&transport);
        let error = block_on(load_jobs_complete(
            &client,
            &ids(&["jq"]),
            &Progress::silent(),
        ))
        .unwrap_err();
        assert_eq!(
            error.to_string(),
            "job jq has no trials yet; inspect its status (queued, 0 of 4 trials finished)"
        );
        assert_eq!(error.exit(), Exit::NoResults);
    }

    #[test]
    fn a_failed_trials_page_fails_the_load_naming_the_list_and_the_page() {
        let transport = ScriptedTransport::default();
        let first: Vec<String> = ["t1", "t2"]
            .iter()
            .map(|task| chronicle_trial_item(&format!("tr_{task}"), "a@1", task, true))
            .collect();
        transport
            .route("cursor=c2", vec![(500, SERVER_FAILURE.to_owned())])
            .route(
                "/jobs/jp/trials",
                vec![(200, chronicle_page(&first, Some("c2")))],
            )
            .route("job_id=jp", vec![(200, chronicle_page(&[], None))])
            .route(
                "/jobs/jp",
                vec![(200, chronicle_job_body("jp", "succeeded", &["a@1"], 4, 4))],
            );
        let client = client_over(&transport);
        let error = block_on(load_jobs_complete(
            &client,
            &ids(&["jp"]),
            &Progress::silent(),
        ))
        .unwrap_err();
        let text = error.to_string();
        assert!(
            text.starts_with("could not read trials of job jp (GET /v1/backtests/jobs/jp/trials): page 2 failed (1 page with 2 items read before it): "),
            "{text}"
        );
        assert_eq!(error.exit(), Exit::Api);
    }

    #[test]
    fn failed_results_name_the_suites_endpoint() {
        let transport = ScriptedTransport::default();
        transport
            .route("job_id=jr", vec![(500, SERVER_FAILURE.to_owned())])
            .route(
                "/jobs/jr/trials",
                vec![(
                    200,
                    chronicle_page(&[chronicle_trial_item("x", "a@1", "t1", true)], None),
                )],
            )
            .route(
                "/jobs/jr",
                vec![(200, chronicle_job_body("jr", "succeeded", &["a@1"], 1, 1))],
            );
        let client = client_over(&transport);
        let text = block_on(load_jobs_complete(
            &client,
            &ids(&["jr"]),
            &Progress::silent(),
        ))
        .unwrap_err()
        .to_string();
        assert!(
            text.starts_with("could not read the results of job jr (GET /v1/task-suites/suite_1/eval-runs?job_id=jr): "),
            "{text}"
        );
    }
}
