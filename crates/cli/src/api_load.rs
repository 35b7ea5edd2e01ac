//! Reading runs from the Trajectory API with the core's load engine (the viewer's too): every
//! run's record, lists and benchmark tasks, concurrently, with progress on stderr; then a load
//! that stopped early is refused, naming the list, the page and the reason.

use eval_compare_core::client::{ApiError, PageProgress, TrajectoryClient, Transport};
use eval_compare_core::load::{load_runs, ListKind, LoadEvent, LoadFailure, LoadStore, Phase};
use eval_compare_core::model::RunSet;
use eval_compare_core::run_folder::RunFolder;
use eval_compare_core::text::{noun, visible};
use eval_compare_core::view_state::check_id;

use crate::error::CliError;
use crate::progress::Progress;

/// Reads the runs `run_ids` completely into a store, or fails on the first record or list (in
/// argument order) that could not be read: nothing partial is returned. A run id that breaks
/// the rule every compared id follows ([`check_id`]) is a usage error, before any request.
pub async fn load_complete<T: Transport>(
    client: &TrajectoryClient<T>,
    run_ids: &[String],
    progress: &Progress,
) -> Result<LoadStore, CliError> {
    for id in run_ids {
        check_id(id).map_err(|reason| {
            CliError::Usage(format!(
                "run id `{}` cannot be compared: {reason}",
                visible(id)
            ))
        })?;
    }
    let store = LoadStore::new();
    let notify = |event: LoadEvent<'_>| report_event(progress, event);
    load_runs(client, &store, run_ids, &notify).await;
    match store.first_failure(run_ids) {
        None => Ok(store),
        Some(failure) => Err(failure_error(client, failure)),
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

/// One run read completely by [`load_complete`], as a run folder (moved out of the store).
pub fn run_folder(store: &LoadStore, run_id: &str) -> Result<RunFolder, CliError> {
    store
        .take_run_folder(run_id)
        .ok_or_else(|| CliError::Usage(format!("run {run_id} was not read; nothing to write")))
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

fn report_event(progress: &Progress, event: LoadEvent<'_>) {
    match event {
        LoadEvent::Moved => {}
        LoadEvent::Record {
            run_id,
            phase: Phase::Complete,
        } => progress.fetched(&format!("{run_id}: run")),
        LoadEvent::Record { .. } => {}
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

fn failure_error<T>(client: &TrajectoryClient<T>, failure: LoadFailure) -> CliError {
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
            format!("could not read run {run_id} (GET /api/v1/eval/{run_id})"),
            source,
        ),
        LoadFailure::Record { run_id, .. } => CliError::Usage(format!(
            "could not read run {run_id}: the load stopped before it ended"
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
        } => api_error(
            format!(
                "could not read the results of job {job_id} (GET /v1/task-suites/{{suiteId}}/eval-runs?job_id={job_id})"
            ),
            source,
        ),
        LoadFailure::Results { job_id, .. } => CliError::Usage(format!(
            "could not read the results of job {job_id}: the load stopped before it ended"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let error = block_on(load_complete(&client, &ids(&["er_1"]), &progress)).unwrap_err();
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
        let error = block_on(load_complete(&client, &ids(&["er_1"]), &progress)).unwrap_err();
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
        let text = block_on(load_complete(&client, &ids(&["er_9"]), &progress))
            .unwrap_err()
            .to_string();
        assert!(
            text.starts_with("could not read run er_9 (GET /api/v1/eval/er_9): not found;"),
            "{text}"
        );
    }
}
