//! The backtest jobs, read from the API a page at a time (newest first, as the API lists them),
//! optionally in one status.

use eval_compare_core::api::{ChronicleJob, JobStatus};
use eval_compare_core::client::{ApiError, TrajectoryClient, Transport};

/// Jobs per page of the picker.
pub const JOBS_PAGE: u32 = 25;

/// The statuses the filter offers, in the order of a job's life.
pub const STATUS_FILTERS: [JobStatus; 5] = [
    JobStatus::Queued,
    JobStatus::Running,
    JobStatus::Succeeded,
    JobStatus::Failed,
    JobStatus::Cancelled,
];

/// One page of jobs and the cursor of the next one (`None` after the last page).
#[derive(Debug, Clone, PartialEq)]
pub struct JobsPage {
    /// The jobs of this page, in the API's order.
    pub jobs: Vec<ChronicleJob>,
    /// Where the next page starts, when one follows.
    pub next: Option<String>,
}

/// Reads the page of jobs at `cursor` (the first page with `None`), only those in `status`
/// when given.
pub async fn read_jobs_page<T: Transport>(
    client: &TrajectoryClient<T>,
    status: Option<&JobStatus>,
    cursor: Option<String>,
) -> Result<JobsPage, ApiError> {
    let mut pages = client
        .chronicle_jobs(status)
        .with_limit(JOBS_PAGE)?
        .starting_at(cursor);
    let jobs = match pages.next_page().await {
        Some(page) => page?.items,
        None => Vec::new(),
    };
    let next = if pages.is_finished() {
        None
    } else {
        pages.cursor().map(str::to_owned)
    };
    Ok(JobsPage { jobs, next })
}
