//! `GET /v1/backtests/jobs/{jobId}/stream`: a job's progress as server-sent events.
//!
//! A job's events form a fixed timeline: each trial's `trial_started` when its attempt starts
//! and `trial_finished` when it ends (trials a failed or cancelled job never started finish,
//! cancelled, when the job ends), then `run_finished`. Event ids are positions in that
//! timeline (from 1), the same for every connection. On connect the stream sends nothing that
//! already happened, except `run_finished` at once when the job has ended; with
//! `Last-Event-ID: N` it first replays the events after N that have happened. Then it sends
//! events as the running evaluation's wall-clock schedule reaches them (checked every 250 ms),
//! `run_finished` when the job ends, and closes; `: keep-alive` comments go out after 15 s of
//! silence. A queued job's stream only keeps alive. After a disconnect, the job's record is the
//! truth (the guide: `retrieve` to catch up).
//!
//! Each event is `id: N`, `event: KIND` and one `data:` line of JSON with `job_id`, and for
//! trial events `trial_id`, `agent`, `task_id`, `status` (`running` when started, the trial's
//! final status when finished), then `completed_trials` and `total_trials` (the job's status
//! in `status` for `run_finished`).

use std::time::{Duration, Instant};

use axum::body::{Body, Bytes};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

use crate::dataset::live::Progress;
use crate::dataset::runs::Lifecycle;
use crate::dataset::Dataset;
use crate::demo::state::DemoState;
use crate::error::ApiError;

use super::jobs::{job, slots};
use super::plans::JobPlan;
use super::trials::NotStarted;
use super::wire::{JobEventData, JobEventKind};

/// How often the stream checks the schedule, and after how much silence it keeps alive.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StreamTiming {
    /// Between two looks at the schedule.
    pub poll: Duration,
    /// Silence after which a `: keep-alive` comment is sent.
    pub keep_alive: Duration,
}

impl Default for StreamTiming {
    fn default() -> Self {
        Self {
            poll: Duration::from_millis(250),
            keep_alive: Duration::from_secs(15),
        }
    }
}

/// When a trial event happens.
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd)]
enum Moment {
    /// Before the server started (the run had ended).
    Past(f64),
    /// When the running evaluation's schedule reaches this fraction.
    Scheduled(f64),
}

impl Moment {
    fn has_happened(self, running: Progress) -> bool {
        match self {
            Moment::Past(_) => true,
            Moment::Scheduled(at) => Progress::at(at) <= running,
        }
    }
}

/// A trial event of the timeline.
#[derive(Debug, Clone, PartialEq)]
struct TrialEvent {
    at: Moment,
    kind: JobEventKind,
    data: JobEventData,
}

/// A job's trial events in the order they happen, numbered from 1; `run_finished` is number
/// `events.len() + 1`.
#[derive(Debug, Clone)]
pub struct Timeline {
    plan: &'static JobPlan,
    events: Vec<TrialEvent>,
}

impl Timeline {
    /// The timeline of `plan`.
    pub fn of(data: &Dataset, plan: &'static JobPlan) -> Self {
        let finals = slots(data, plan, Progress::DONE);
        let total = finals.len() as u64;
        let mut events = Vec::new();
        for slot in &finals {
            let scheduled = slot.run.plan.lifecycle == Lifecycle::Running;
            let moment = |at: f64| {
                if scheduled {
                    Moment::Scheduled(at)
                } else {
                    Moment::Past(at)
                }
            };
            let data = |status: &str| JobEventData {
                job_id: Some(plan.id.into()),
                trial_id: Some(slot.trial_id()),
                agent: Some(slot.agent()),
                task_id: Some(slot.task.task_id.clone()),
                status: Some(status.into()),
                completed_trials: None,
                total_trials: Some(total),
            };
            match slot.attempt {
                Ok(attempt) => {
                    events.push(TrialEvent {
                        at: moment(attempt.window.start),
                        kind: JobEventKind::TrialStarted,
                        data: data("running"),
                    });
                    events.push(TrialEvent {
                        at: moment(attempt.window.end),
                        kind: JobEventKind::TrialFinished,
                        data: data(slot.status()),
                    });
                }
                Err(NotStarted::Cancelled | NotStarted::RunFailed) => events.push(TrialEvent {
                    at: Moment::Past(f64::INFINITY),
                    kind: JobEventKind::TrialFinished,
                    data: data(slot.status()),
                }),
                Err(NotStarted::Queued) => {}
            }
        }
        // Stable: equal moments keep agent then task order, a finish before a start.
        events.sort_by(|a, b| {
            let finish_first = |e: &TrialEvent| e.kind != JobEventKind::TrialFinished;
            a.at.partial_cmp(&b.at)
                .unwrap_or(std::cmp::Ordering::Equal)
                .then(finish_first(a).cmp(&finish_first(b)))
        });
        let mut completed = 0;
        for event in &mut events {
            if event.kind == JobEventKind::TrialFinished {
                completed += 1;
            }
            event.data.completed_trials = Some(completed);
        }
        Self { plan, events }
    }

    /// How many trial events have happened at `running`.
    fn happened(&self, running: Progress) -> usize {
        self.events
            .iter()
            .take_while(|e| e.at.has_happened(running))
            .count()
    }

    /// The id of `run_finished`.
    pub fn run_finished_id(&self) -> u64 {
        self.events.len() as u64 + 1
    }
}

/// One server-sent event: `id:`, `event:` and one `data:` line of JSON.
pub fn frame(id: u64, kind: &JobEventKind, data: &JobEventData) -> Bytes {
    let json = serde_json::to_string(data).unwrap_or_else(|_| "{}".into());
    Bytes::from(format!(
        "id: {id}\nevent: {}\ndata: {json}\n\n",
        kind.as_str()
    ))
}

/// The keep-alive comment.
pub const KEEP_ALIVE: &[u8] = b": keep-alive\n\n";

/// Where a connection stands.
struct Follower {
    state: DemoState,
    timeline: Timeline,
    /// Index of the next trial event to send; `events.len()` is `run_finished`, past it the
    /// stream ends.
    next: usize,
    timing: StreamTiming,
    last_sent: Instant,
}

impl Follower {
    /// The next chunk to send; `None` when the stream is over.
    async fn next_chunk(&mut self) -> Option<Bytes> {
        let finished_index = self.timeline.events.len();
        loop {
            if self.next > finished_index {
                return None;
            }
            let running = self.state.progress();
            let record = job(&self.state.data, self.timeline.plan, running);
            let ended = record.status.as_ref().is_some_and(|s| s.is_terminal());
            let until = if ended {
                finished_index
            } else {
                self.timeline.happened(running)
            };
            let mut chunk = Vec::new();
            while self.next < until {
                let event = &self.timeline.events[self.next];
                self.next += 1;
                chunk.extend_from_slice(&frame(self.next as u64, &event.kind, &event.data));
            }
            if ended && self.next == finished_index {
                let data = JobEventData {
                    job_id: Some(record.id),
                    status: record.status.map(|s| s.as_str().to_owned()),
                    completed_trials: record.completed_trials,
                    total_trials: record.total_trials,
                    ..JobEventData::default()
                };
                self.next += 1;
                let id = self.timeline.run_finished_id();
                chunk.extend_from_slice(&frame(id, &JobEventKind::RunFinished, &data));
            }
            if !chunk.is_empty() {
                self.last_sent = Instant::now();
                return Some(Bytes::from(chunk));
            }
            if self.last_sent.elapsed() >= self.timing.keep_alive {
                self.last_sent = Instant::now();
                return Some(Bytes::from_static(KEEP_ALIVE));
            }
            tokio::time::sleep(self.timing.poll).await;
        }
    }
}

/// The `Last-Event-ID` of a reconnecting client: a number this stream sent.
fn last_event_id(headers: &HeaderMap) -> Result<Option<u64>, ApiError> {
    let Some(value) = headers.get("last-event-id") else {
        return Ok(None);
    };
    let text = value.to_str().unwrap_or("").trim();
    if text.is_empty() {
        return Ok(None);
    }
    text.parse().map(Some).map_err(|_| {
        ApiError::invalid_request(
            "Last-Event-ID",
            "Last-Event-ID must be the id of an event this stream sent (a number).",
        )
    })
}

/// The stream of `plan` for a client that last saw `last_id`.
pub fn event_stream(
    state: DemoState,
    plan: &'static JobPlan,
    headers: &HeaderMap,
    timing: StreamTiming,
) -> Result<Response, ApiError> {
    let last_id = last_event_id(headers)?;
    let timeline = Timeline::of(&state.data, plan);
    let next = match last_id {
        Some(id) => usize::try_from(id)
            .unwrap_or(usize::MAX)
            .min(timeline.events.len() + 1),
        None => timeline.happened(state.progress()),
    };
    let follower = Follower {
        state,
        timeline,
        next,
        timing,
        last_sent: Instant::now(),
    };
    let chunks = futures::stream::unfold(follower, |mut follower| async move {
        let chunk = follower.next_chunk().await?;
        Some((Ok::<_, std::convert::Infallible>(chunk), follower))
    });
    let mut response = (StatusCode::OK, Body::from_stream(chunks)).into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/event-stream"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    headers.insert("x-accel-buffering", HeaderValue::from_static("no"));
    Ok(response)
}

#[cfg(test)]
mod tests {
    use futures::StreamExt as _;

    use super::*;
    use crate::demo::chronicle::jobs::job_plan;

    #[tokio::test]
    async fn a_silent_stream_keeps_alive() {
        let state = DemoState::new(2, Duration::from_secs(3_600));
        let plan = job_plan("job_s500_rerun").unwrap();
        let timing = StreamTiming {
            poll: Duration::from_millis(10),
            keep_alive: Duration::from_millis(50),
        };
        let response = event_stream(state, plan, &HeaderMap::new(), timing).unwrap();
        let mut body = response.into_body().into_data_stream();
        for _ in 0..2 {
            let chunk = tokio::time::timeout(Duration::from_secs(5), body.next()).await;
            let chunk = chunk.unwrap().unwrap().unwrap();
            assert_eq!(&chunk[..], KEEP_ALIVE);
        }
    }

    #[test]
    fn a_frame_is_id_event_and_one_line_of_json() {
        let data = JobEventData {
            job_id: Some("job_1".into()),
            status: Some("succeeded".into()),
            completed_trials: Some(2),
            total_trials: Some(2),
            ..JobEventData::default()
        };
        assert_eq!(
            &frame(5, &JobEventKind::RunFinished, &data)[..],
            b"id: 5\nevent: run_finished\ndata: {\"job_id\":\"job_1\",\"trial_id\":null,\"agent\":null,\"task_id\":null,\"status\":\"succeeded\",\"completed_trials\":2,\"total_trials\":2}\n\n"
        );
    }

    #[test]
    fn timelines_are_ordered_and_count_finished_trials() {
        let data = Dataset::generate(2);
        for plan in &super::super::plans::JOBS {
            let timeline = Timeline::of(&data, plan);
            let moments: Vec<Moment> = timeline.events.iter().map(|e| e.at).collect();
            assert!(moments.windows(2).all(|w| w[0] <= w[1]), "{}", plan.id);
            let finished = timeline
                .events
                .iter()
                .filter(|e| e.kind == JobEventKind::TrialFinished)
                .count();
            let total = slots(&data, plan, Progress::DONE).len();
            let expected = if plan.launch == super::super::plans::Launch::Queued {
                0
            } else {
                total
            };
            assert_eq!(finished, expected, "{}", plan.id);
        }
    }
}
