//! Waiting for a Chronicle job to end (the SDK's `evaluations.wait`): progress from the stream,
//! the job's record as the truth after every disconnect, polling when the stream is not there.

use std::pin::pin;

use futures::future::{select, Either};

use crate::api::{ChronicleJob, JobEvent};

use super::chronicle_endpoints::StreamEnd;
use super::error::ApiError;
use super::trajectory_client::TrajectoryClient;
use super::transport::Transport;

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
    /// the job ending, or one the server refused, it polls the job every `poll_ms`. The
    /// timeout only stops waiting (a quiet stream is left at the deadline too); errors
    /// retrieving the job (after the client's retries) end the wait.
    pub async fn wait_for_job(
        &self,
        job_id: &str,
        timeout_ms: u64,
        poll_ms: u64,
        on_progress: &mut dyn FnMut(WaitProgress<'_>),
    ) -> Result<WaitOutcome, ApiError> {
        let transport = self.transport();
        let deadline = transport.now_unix_ms().saturating_add(timeout_ms);
        let mut outcome = WaitOutcome {
            job: self.chronicle_job(job_id).await?,
            ended: false,
            events: 0,
            stream_problems: Vec::new(),
        };
        let mut streams_left = STREAM_ATTEMPTS;
        loop {
            on_progress(WaitProgress::Job(&outcome.job));
            outcome.ended = outcome.job.status.as_ref().is_some_and(|s| s.is_terminal());
            if outcome.ended || transport.now_unix_ms() >= deadline {
                return Ok(outcome);
            }
            if streams_left > 0 {
                streams_left -= 1;
                let mut events = 0;
                let mut on_event = |event: &JobEvent| {
                    events += 1;
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
                match followed {
                    // The timeout came first; the job is retrieved once more below.
                    None => {}
                    Some(Ok(summary)) => {
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
                            StreamEnd::Closed if events == 0 => streams_left = 0,
                            _ => {}
                        }
                    }
                    Some(Err(error)) => {
                        outcome
                            .stream_problems
                            .push(format!("the progress stream could not be read: {error}"));
                        streams_left = 0;
                    }
                }
            } else {
                let left = deadline.saturating_sub(transport.now_unix_ms());
                transport.sleep(poll_ms.min(left).max(1)).await;
            }
            outcome.job = self.chronicle_job(job_id).await?;
        }
    }
}
