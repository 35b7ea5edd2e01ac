//! Waiting for a Chronicle job to end (the SDK's `evaluations.wait`): progress from the stream,
//! the job's record as the truth after every disconnect, polling when the stream is not there,
//! each reconnect and read paced by [`WatchPace`] (backoff with jitter while nothing changes,
//! `Retry-After` honoured, a stream that keeps contradicting the record given up).

use std::pin::pin;

use futures::future::{select, Either};

use crate::api::{ChronicleJob, JobEvent, JobEventKind, JobStatus};

use super::chronicle_endpoints::StreamEnd;
use super::error::ApiError;
use super::trajectory_client::TrajectoryClient;
use super::transport::Transport;
use super::watch_pace::{Contradiction, NextTry, WatchPace, WatchPolicy};

/// Connections to the stream tried before waiting by polling alone.
pub const STREAM_ATTEMPTS: u32 = 3;

/// How the wait went.
#[derive(Debug, Clone, PartialEq)]
pub struct WaitOutcome {
    /// The job as last retrieved.
    pub job: ChronicleJob,
    /// Whether it ended (succeeded, failed or cancelled); `false` when the timeout came first:
    /// the job goes on on the server.
    pub ended: bool,
    /// Progress events read from the stream.
    pub events: usize,
    /// What went wrong with the stream, if anything (the wait went on by polling).
    pub stream_problems: Vec<String>,
    /// Why the wait stopped before the job ended and before the timeout: its stream said it
    /// ended while its record kept saying it runs ([`WatchPolicy::give_up_after`] reads).
    pub gave_up: Option<Contradiction>,
}

/// What a wait tells its caller as it goes.
#[derive(Debug, Clone, Copy)]
pub enum WaitProgress<'a> {
    /// The job was retrieved.
    Job(&'a ChronicleJob),
    /// A progress event arrived.
    Event(&'a JobEvent),
}

impl<T: Transport> TrajectoryClient<T> {
    /// Waits until the job `job_id` ends or `timeout_ms` passes, whichever comes first, telling
    /// `on_progress` what it sees. It follows the progress stream and, after every disconnect,
    /// retrieves the job (the truth); after [`STREAM_ATTEMPTS`] streams that ended without
    /// the job ending, or one the server refused, it polls the job, every `poll_ms` at the
    /// fastest. Each reconnect and poll is paced by a [`WatchPace`] with the default
    /// [`WatchPolicy`]: while nothing changes the waits back off (1 s doubling to 60 s, with
    /// jitter, a refusal's `Retry-After` honoured), and when the stream said the job ended but
    /// its record keeps saying it runs, the wait stops after 8 such reads
    /// ([`WaitOutcome::gave_up`]). The timeout only stops waiting (a quiet stream is left at
    /// the deadline too); errors retrieving the job (after the client's retries) end the wait.
    pub async fn wait_for_job(
        &self,
        job_id: &str,
        timeout_ms: u64,
        poll_ms: u64,
        on_progress: &mut dyn FnMut(WaitProgress<'_>),
    ) -> Result<WaitOutcome, ApiError> {
        let transport = self.transport();
        let started = transport.now_unix_ms();
        let deadline = started.saturating_add(timeout_ms);
        let mut pace = WatchPace::new(WatchPolicy::default(), started);
        let mut outcome = WaitOutcome {
            job: self.chronicle_job(job_id).await?,
            ended: false,
            events: 0,
            stream_problems: Vec::new(),
            gave_up: None,
        };
        let mut streams_left = STREAM_ATTEMPTS;
        let mut wait_ms = 0;
        loop {
            on_progress(WaitProgress::Job(&outcome.job));
            outcome.ended = outcome.job.status.as_ref().is_some_and(|s| s.is_terminal());
            if outcome.ended || outcome.gave_up.is_some() || transport.now_unix_ms() >= deadline {
                return Ok(outcome);
            }
            if wait_ms > 0 {
                let left = deadline.saturating_sub(transport.now_unix_ms());
                transport.sleep(wait_ms.min(left).max(1)).await;
            }
            let before = standing(&outcome.job);
            let mut server_asked = None;
            if streams_left > 0 && transport.now_unix_ms() < deadline {
                streams_left -= 1;
                let tried = self
                    .follow_until(job_id, deadline, &mut outcome, on_progress, &mut pace)
                    .await;
                match tried {
                    Ok(true) => {}
                    Ok(false) => streams_left = 0,
                    Err(error) => {
                        server_asked = error.retry_after_ms();
                        outcome
                            .stream_problems
                            .push(format!("the progress stream could not be read: {error}"));
                        streams_left = 0;
                    }
                }
            }
            outcome.job = self.chronicle_job(job_id).await?;
            let moved = standing(&outcome.job) != before;
            let floor = if streams_left > 0 { 0 } else { poll_ms };
            wait_ms = match pace.after_try(moved, floor, server_asked) {
                NextTry::After(ms) => ms,
                NextTry::GiveUp(contradiction) => {
                    outcome.gave_up = Some(contradiction);
                    0
                }
            };
        }
    }

    /// Follows the job's stream once, until it ends or the deadline; events go to
    /// `on_progress` and are counted in `outcome`, a `run_finished` is told to `pace`, and
    /// what went wrong with a stream that was read is kept in `outcome`. Returns whether the
    /// stream is worth following again (not when it closed without an event); an error: it
    /// could not be read at all.
    async fn follow_until(
        &self,
        job_id: &str,
        deadline: u64,
        outcome: &mut WaitOutcome,
        on_progress: &mut dyn FnMut(WaitProgress<'_>),
        pace: &mut WatchPace,
    ) -> Result<bool, ApiError> {
        let transport = self.transport();
        let mut events = 0;
        let mut finished_status: Option<Option<String>> = None;
        let mut on_event = |event: &JobEvent| {
            events += 1;
            if event.kind == JobEventKind::RunFinished {
                finished_status = Some(event.data.status.clone());
            }
            on_progress(WaitProgress::Event(event));
            true
        };
        let stream = self.follow_job(job_id, &mut on_event);
        let timer = transport.sleep(deadline.saturating_sub(transport.now_unix_ms()));
        let followed = match select(pin!(stream), pin!(timer)).await {
            Either::Left((followed, _)) => Some(followed),
            Either::Right(((), _)) => None,
        };
        outcome.events += events;
        if let Some(status) = &finished_status {
            pace.stream_said_ended(job_id, status.as_deref());
        }
        // `None`: the timeout came first; the job is retrieved once more by the caller.
        let Some(summary) = followed.transpose()? else {
            return Ok(true);
        };
        if summary.unreadable > 0 {
            outcome.stream_problems.push(format!(
                "{} stream events could not be read, e.g. {}",
                summary.unreadable,
                summary.unreadable_examples.join("; ")
            ));
        }
        match summary.end {
            StreamEnd::Broken(error) => outcome
                .stream_problems
                .push(format!("the progress stream broke: {error}")),
            StreamEnd::Closed if events == 0 => return Ok(false),
            _ => {}
        }
        Ok(true)
    }
}

/// What a try must move to count as a change: the job's status and its finished trials.
fn standing(job: &ChronicleJob) -> (Option<JobStatus>, Option<u64>) {
    (job.status.clone(), job.completed_trials)
}
