//! What a load that stopped says: the record, list or results that could not be read, with the
//! request that reads it (its path from the client's [`paths`], its list's name from the core's
//! [`ListKind`]), and how far it got.

use eval_compare_core::client::{paths, ApiError, TrajectoryClient};
use eval_compare_core::load::{ListKind, LoadFailure, LoadStore, Phase};
use eval_compare_core::text::noun;

use crate::error::CliError;

/// What the ids of a load name: evaluation runs of the Trajectory API, or Chronicle jobs (the
/// store then knows each job's suite, for the results' request).
#[derive(Debug, Clone, Copy)]
pub(super) enum Records<'a> {
    Runs,
    Jobs(&'a LoadStore),
}

impl Records<'_> {
    /// The record's noun: `run` or `job`.
    pub(super) fn noun(self) -> &'static str {
        match self {
            Records::Runs => "run",
            Records::Jobs(_) => "job",
        }
    }

    /// The record for people, with the request that reads it.
    fn describe(self, id: &str) -> String {
        match self {
            Records::Runs => format!("run {id} (GET {})", paths::eval_run(id)),
            Records::Jobs(_) => format!("job {id} (GET {})", paths::chronicle_job(id)),
        }
    }
}

/// The list for people, with the request that reads it: `trials of job j_1 (GET …)`.
fn list_description(kind: ListKind, owner: &str) -> String {
    format!(
        "{} of {} {owner} (GET {})",
        kind.name(),
        kind.owner_noun(),
        kind.path(owner)
    )
}

/// The results of a job for people, with the request that reads them.
pub fn results_description(job_id: &str, suite_id: Option<&str>) -> String {
    let suite = suite_id.unwrap_or("{suiteId}");
    format!(
        "the results of job {job_id} (GET {})",
        paths::job_results(suite, job_id)
    )
}

pub(super) fn failure_error<T>(
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
