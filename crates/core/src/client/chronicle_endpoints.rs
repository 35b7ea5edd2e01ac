//! Typed methods for the Chronicle evaluations API's read endpoints
//! (`shared/chronicle-api/README.md`): jobs, trials, a trial's detail, a suite's results and
//! the progress stream. Same client, key, retries and typed errors as the Trajectory API; the
//! statuses the guide names (400 unknown id, 403 no sandbox access, 409, 429, 503) are described
//! in Chronicle's words ([`Service::Chronicle`]).

use crate::api::{
    ChronicleJob, ChronicleJobPage, ChronicleTrialDetail, ChronicleTrialPage, JobEvent,
    JobEventData, JobEventKind, JobStatus, SuiteEvalRun, SuiteEvalRunPage,
};
use crate::text::visible;

use super::error::{scrub, ApiError, Service};
use super::key::ApiKey;
use super::paginate::Paginator;
use super::paths;
use super::query::{segment, Query};
use super::sse::{SseEvent, SseParser, MAX_EVENT_BYTES};
use super::trajectory_client::TrajectoryClient;
use super::transport::Transport;

/// Largest page of Chronicle's lists.
pub const CHRONICLE_MAX_LIMIT: u32 = 100;
/// Stream events that could not be read, quoted at most in a [`StreamSummary`].
const QUOTED_BAD_EVENTS: usize = 3;
/// How much of an unreadable event's data a message quotes.
const BAD_EVENT_EXCERPT_CHARS: usize = 80;

/// How a progress stream ended.
#[derive(Debug, Clone, PartialEq)]
pub enum StreamEnd {
    /// A `run_finished` event arrived: the job ended.
    RunFinished,
    /// The server closed the stream without `run_finished` (retrieve the job: it is the truth).
    Closed,
    /// The connection broke (retrieve the job: it is the truth).
    Broken(ApiError),
    /// The caller stopped reading.
    Stopped,
}

/// What one connection to a job's progress stream brought.
#[derive(Debug, Clone, PartialEq)]
pub struct StreamSummary {
    /// Events read and handed over.
    pub events: usize,
    /// Events that could not be read (data not the expected JSON).
    pub unreadable: usize,
    /// The first few unreadable events, described.
    pub unreadable_examples: Vec<String>,
    /// How it ended.
    pub end: StreamEnd,
}

impl<T: Transport> TrajectoryClient<T> {
    fn chronicle_pages<P>(&self, path: String, query: Query) -> Paginator<'_, T, P> {
        Paginator::new(self, path, query, Query::default(), CHRONICLE_MAX_LIMIT)
    }

    /// `GET /v1/backtests/jobs`: the jobs, newest first, optionally in one status.
    pub fn chronicle_jobs(&self, status: Option<&JobStatus>) -> Paginator<'_, T, ChronicleJobPage> {
        let mut query = Query::default();
        query.push_opt("status", status.map(JobStatus::as_str));
        self.chronicle_pages(paths::CHRONICLE_JOBS.to_owned(), query)
    }

    /// `GET /v1/backtests/jobs/{jobId}`: one job, its status and progress.
    pub async fn chronicle_job(&self, job_id: &str) -> Result<ChronicleJob, ApiError> {
        let job_id = segment("job id", job_id)?;
        self.get(&paths::chronicle_job(&job_id)).await
    }

    /// `GET /v1/backtests/jobs/{jobId}/trials`: every trial of a job with its scores.
    pub fn chronicle_trials(
        &self,
        job_id: &str,
    ) -> Result<Paginator<'_, T, ChronicleTrialPage>, ApiError> {
        let job_id = segment("job id", job_id)?;
        Ok(self.chronicle_pages(paths::chronicle_trials(&job_id), Query::default()))
    }

    /// `GET /v1/backtests/jobs/{jobId}/trials/{trialId}`: one trial with its instruction, steps
    /// and artifacts.
    pub async fn chronicle_trial(
        &self,
        job_id: &str,
        trial_id: &str,
    ) -> Result<ChronicleTrialDetail, ApiError> {
        let job_id = segment("job id", job_id)?;
        let trial_id = segment("trial id", trial_id)?;
        self.get(&format!("{}/{trial_id}", paths::chronicle_trials(&job_id)))
            .await
    }

    /// `GET /v1/task-suites/{suiteId}/eval-runs`: the pass/fail per task of the suite's jobs
    /// (of one job with `job_id`).
    pub fn chronicle_suite_results(
        &self,
        suite_id: &str,
        job_id: Option<&str>,
    ) -> Result<Paginator<'_, T, SuiteEvalRunPage>, ApiError> {
        let suite_id = segment("task suite id", suite_id)?;
        let mut query = Query::default();
        query.push_opt(paths::JOB_PARAM, job_id);
        Ok(self.chronicle_pages(paths::suite_eval_runs(&suite_id), query))
    }

    /// The platform's pass/fail per task of one job (the SDK's `evaluations.results`): the
    /// job's entry among its suite's results; `None` when the suite lists none for it (no task
    /// has finished, or the platform keeps none).
    pub async fn chronicle_job_results(
        &self,
        job: &ChronicleJob,
    ) -> Result<Option<SuiteEvalRun>, ApiError> {
        let Some(suite_id) = job.task_suite_id.as_deref() else {
            return Err(ApiError::InvalidArgument(format!(
                "job `{}` names no task suite, so its results cannot be read",
                visible(&job.id)
            )));
        };
        let mut pages = self.chronicle_suite_results(suite_id, Some(&job.id))?;
        while let Some(page) = pages.next_page().await {
            if let Some(found) = page?.items.into_iter().find(|run| run.job_id == job.id) {
                return Ok(Some(found));
            }
        }
        Ok(None)
    }

    /// Reads `GET /v1/backtests/jobs/{jobId}/stream` (server-sent events) once, handing each
    /// event to `on_event` as it arrives; `on_event` returns `false` to stop. Reading ends at
    /// `run_finished`, when the server closes the stream, or when the connection breaks: the
    /// events read stay handed over, and the summary says which. An event whose data is not the
    /// expected JSON is counted and described, never fatal; an event that goes on past
    /// [`MAX_EVENT_BYTES`] without ending stops the reading with an error (memory stays
    /// bounded). Not retried: after a disconnect the job's record is the truth (see
    /// [`TrajectoryClient::wait_for_job`]).
    pub async fn follow_job(
        &self,
        job_id: &str,
        on_event: &mut dyn FnMut(&JobEvent) -> bool,
    ) -> Result<StreamSummary, ApiError> {
        let job_id = segment("job id", job_id)?;
        let path = format!("{}/stream", paths::chronicle_job(&job_id));
        let mut request = self.request(&path);
        for (name, value) in &mut request.headers {
            if name.eq_ignore_ascii_case("accept") {
                *value = "text/event-stream".to_owned();
            }
        }
        let mut parser = SseParser::new();
        let mut summary = StreamSummary {
            events: 0,
            unreadable: 0,
            unreadable_examples: Vec::new(),
            end: StreamEnd::Closed,
        };
        let mut finished = false;
        let mut stopped = false;
        let mut too_long = false;
        let outcome = self
            .transport()
            .send_streaming(request, &mut |chunk| {
                let events = parser.feed(chunk);
                too_long = parser.event_too_long();
                for event in events {
                    match job_event(&event, self.config().api_key.as_ref()) {
                        Ok(event) => {
                            summary.events += 1;
                            finished |= event.kind == JobEventKind::RunFinished;
                            if !on_event(&event) {
                                stopped = true;
                            }
                        }
                        Err(problem) => {
                            summary.unreadable += 1;
                            if summary.unreadable_examples.len() < QUOTED_BAD_EVENTS {
                                summary.unreadable_examples.push(problem);
                            }
                        }
                    }
                    if finished || stopped {
                        return false;
                    }
                }
                !too_long
            })
            .await;
        if too_long && !finished && !stopped {
            return Err(ApiError::UnexpectedResponse {
                message: format!(
                    "an event of the progress stream went on past {} MiB without the blank line \
                     that ends it; reading stopped there ({} events read before)",
                    MAX_EVENT_BYTES >> 20,
                    summary.events
                ),
                request_id: None,
            });
        }
        summary.end = match outcome {
            Ok(response) if (200..300).contains(&response.status) => {
                if finished {
                    StreamEnd::RunFinished
                } else if stopped {
                    StreamEnd::Stopped
                } else {
                    StreamEnd::Closed
                }
            }
            Ok(response) => return Err(self.failure(Ok(response), Service::Chronicle)),
            Err(error) if summary.events == 0 && summary.unreadable == 0 => {
                return Err(self.failure(Err(error), Service::Chronicle));
            }
            Err(error) => StreamEnd::Broken(self.failure(Err(error), Service::Chronicle)),
        };
        if finished {
            summary.end = StreamEnd::RunFinished;
        }
        Ok(summary)
    }
}

/// A stream event as a [`JobEvent`], or what is wrong with it: the key is redacted from the
/// data before its excerpt is cut (a cut key would otherwise escape the redaction).
fn job_event(event: &SseEvent, key: Option<&ApiKey>) -> Result<JobEvent, String> {
    let kind = JobEventKind::from(event.event.as_deref().unwrap_or("message"));
    let data: JobEventData = serde_json::from_str(&event.data).map_err(|error| {
        let redacted = scrub(&event.data, key);
        let excerpt: String = redacted.chars().take(BAD_EVENT_EXCERPT_CHARS).collect();
        format!(
            "a `{}` event whose data could not be read ({}): {}",
            scrub(&visible(kind.as_str()), key),
            scrub(&error.to_string(), key),
            visible(&excerpt)
        )
    })?;
    Ok(JobEvent {
        kind,
        id: event.id.clone(),
        data,
    })
}
