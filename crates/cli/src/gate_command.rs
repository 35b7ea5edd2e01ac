//! `eval-compare gate`: wait for a Chronicle job with the core's `wait_for_job` (progress from
//! the stream on stderr, summarised by [`EventLines`]; reconnects and reads paced by the core's
//! `WatchPace`), read the platform's results, and judge them ([`crate::job_gate`]).

use eval_compare_core::api::{JobEvent, JobEventKind, JobStatus};
use eval_compare_core::client::{ApiError, TrajectoryClient, Transport, WaitProgress};
use eval_compare_core::ledger::Ledger;
use eval_compare_core::text::visible;
use eval_compare_core::view_state::check_id;

use crate::api_load::{job_standing, results_description};
use crate::args::GateArgs;
use crate::connection;
use crate::error::CliError;
use crate::event_lines::EventLines;
use crate::exit_code::Exit;
use crate::job_gate::{
    contradicted, judge_end, judge_results, judge_results_with_ledger, no_suite, GateVerdict,
};
use crate::ledger_file::read_ledger;
use crate::progress::Progress;
use crate::report_command::write_output;

/// Runs the gate: its verdict line on stdout, why it failed on stderr, the exit code returned.
pub async fn gate(args: &GateArgs, progress: &Progress) -> Result<Exit, CliError> {
    let ledger = args.exclusions.as_deref().map(read_ledger).transpose()?;
    let client = connection::client(&args.server, &args.connection)?;
    let verdict = run_gate(
        &client,
        &args.job_id,
        args.timeout.saturating_mul(1000),
        args.poll.saturating_mul(1000),
        progress,
        ledger.as_ref(),
    )
    .await?;
    if let Some(note) = &verdict.note {
        progress.note(note);
    }
    if let Some(line) = &verdict.ledger {
        progress.warn(line);
    }
    for problem in &verdict.problems {
        progress.warn(problem);
    }
    if let Some(passed) = &verdict.passed {
        write_output(None, &format!("{passed}\n"))?;
    }
    Ok(verdict.exit)
}

/// Waits up to `timeout_ms` for the job to end (retrieving it every `poll_ms` when the stream
/// is not there), then judges it and, when it succeeded, its results. API failures are errors
/// naming the request (exit 4; an unknown job is Chronicle's HTTP 400). With the reviewer's
/// `ledger`, the tasks it leaves out are not judged ([`judge_results_with_ledger`]).
pub async fn run_gate<T: Transport>(
    client: &TrajectoryClient<T>,
    job_id: &str,
    timeout_ms: u64,
    poll_ms: u64,
    progress: &Progress,
    ledger: Option<&Ledger>,
) -> Result<GateVerdict, CliError> {
    check_id(job_id).map_err(|reason| {
        CliError::Usage(format!(
            "job id `{}` cannot be read: {reason}",
            visible(job_id)
        ))
    })?;
    let api_error = |what: String, source: ApiError| CliError::Api {
        what,
        source: Box::new(source),
        key_set: client.config().api_key.is_some(),
    };
    let mut shown: Option<(Option<JobStatus>, Option<u64>)> = None;
    let mut event_lines = EventLines::default();
    let transport = client.transport();
    let mut on_progress = |step: WaitProgress<'_>| match step {
        WaitProgress::Job(job) => {
            let standing = (job.status.clone(), job.completed_trials);
            if shown.as_ref() != Some(&standing) {
                progress.note(&format!("{job_id}: {}", job_standing(job)));
                shown = Some(standing);
            }
        }
        WaitProgress::Event(event) => {
            let Some(line) = event_line(job_id, event) else {
                return;
            };
            let ends = event.kind == JobEventKind::RunFinished;
            if let Some(line) = event_lines.line(transport.now_unix_ms(), line, ends) {
                progress.note(&line);
            }
        }
    };
    let outcome = client
        .wait_for_job(job_id, timeout_ms, poll_ms, &mut on_progress)
        .await
        .map_err(|source| {
            api_error(
                format!("could not read job {job_id} (GET /v1/backtests/jobs/{job_id})"),
                source,
            )
        })?;
    if let Some(line) = event_lines.finish(job_id) {
        progress.note(&line);
    }
    for problem in &outcome.stream_problems {
        progress.note(&format!(
            "{job_id}: {problem}; the wait went on by retrieving the job"
        ));
    }
    if let Some(contradiction) = &outcome.gave_up {
        return Ok(contradicted(contradiction));
    }
    if let Some(verdict) = judge_end(&outcome.job, outcome.ended, timeout_ms / 1000) {
        return Ok(verdict);
    }
    if outcome.job.task_suite_id.is_none() {
        return Ok(no_suite(job_id));
    }
    let results = client
        .chronicle_job_results(&outcome.job)
        .await
        .map_err(|source| {
            api_error(
                format!(
                    "could not read {}",
                    results_description(job_id, outcome.job.task_suite_id.as_deref())
                ),
                source,
            )
        })?;
    Ok(match ledger {
        Some(ledger) => judge_results_with_ledger(job_id, results.as_ref(), ledger),
        None => judge_results(job_id, results.as_ref()),
    })
}

/// A progress line for a stream event; `None` for `trial_started` (the finished ones count).
fn event_line(job_id: &str, event: &JobEvent) -> Option<String> {
    let data = &event.data;
    let count = match (data.completed_trials, data.total_trials) {
        (Some(done), Some(total)) => format!("; {done} of {total} trials finished"),
        (Some(done), None) => format!("; {done} trials finished"),
        _ => String::new(),
    };
    let status = data.status.as_deref().unwrap_or("no status");
    match &event.kind {
        JobEventKind::TrialStarted => None,
        JobEventKind::TrialFinished => {
            let trial = data.trial_id.as_deref().unwrap_or("?");
            let agent = data.agent.as_deref().unwrap_or("?");
            let task = data.task_id.as_deref().unwrap_or("?");
            Some(format!(
                "{job_id}: trial {trial} ({agent} on {task}) finished: {status}{count}"
            ))
        }
        JobEventKind::RunFinished => Some(format!("{job_id}: run finished: {status}{count}")),
        other => Some(format!("{job_id}: event {}{count}", other.as_str())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use eval_compare_core::testing::bodies::{
        chronicle_job_body, chronicle_page, chronicle_results_page, sse_event,
    };
    use eval_compare_core::testing::scripted::client_over;
    use eval_compare_core::testing::ScriptedTransport;

    use crate::chronicle_script::script_unknown_job;
    use crate::test_support::block_on;

    fn gate_of(transport: &ScriptedTransport, timeout_s: u64) -> Result<GateVerdict, CliError> {
        let client = client_over(transport);
        block_on(run_gate(
            &client,
            "j1",
            timeout_s * 1000,
            2_000,
            &Progress::silent(),
            None,
        ))
    }

    fn job(status: &str, done: u64) -> String {
        chronicle_job_body("j1", status, &["base@1", "cand@2"], done, 4)
    }

    fn finished(trial: &str, done: u64) -> String {
        sse_event(
            "trial_finished",
            u32::try_from(done).unwrap(),
            &format!(
                r#"{{"job_id":"j1","trial_id":"{trial}","agent":"cand@2","task_id":"t1","status":"succeeded","completed_trials":{done},"total_trials":4}}"#
            ),
        )
    }

    #[test]
    fn a_succeeded_job_whose_tasks_all_passed_passes() {
        let transport = ScriptedTransport::default();
        transport
            .route(
                "/eval-runs",
                vec![(
                    200,
                    chronicle_results_page("j1", &[("t1", true), ("t2", true)]),
                )],
            )
            .route("/jobs/j1", vec![(200, job("succeeded", 4))]);
        let verdict = gate_of(&transport, 600).unwrap();
        assert_eq!(verdict.exit, Exit::Ok);
        assert_eq!(verdict.passed.as_deref(), Some("Every task passed"));
        assert!(verdict.problems.is_empty());
        assert_eq!(
            transport.count("/stream"),
            0,
            "an ended job is not followed"
        );
        assert_eq!(
            transport.count("/v1/task-suites/suite_1/eval-runs?job_id=j1"),
            1
        );
    }

    #[test]
    fn a_running_job_is_followed_on_its_stream_until_it_ends_then_judged() {
        let transport = ScriptedTransport::default();
        let stream = [
            finished("tr_3", 3),
            finished("tr_4", 4),
            sse_event("run_finished", 5, r#"{"job_id":"j1","status":"succeeded"}"#),
        ]
        .concat();
        transport
            .route("/jobs/j1/stream", vec![(200, stream)])
            .route(
                "/eval-runs",
                vec![(
                    200,
                    chronicle_results_page("j1", &[("t1", true), ("t2", false)]),
                )],
            )
            .route(
                "/jobs/j1",
                vec![(200, job("running", 2)), (200, job("succeeded", 4))],
            );
        let verdict = gate_of(&transport, 600).unwrap();
        assert_eq!(verdict.exit, Exit::TasksFailed);
        assert_eq!(
            verdict.problems,
            [
                "job j1 did not pass every task: 1 of 2 tasks did not pass",
                "task t2 failed: tests",
            ]
        );
        assert_eq!(transport.count("/stream"), 1);
        let trial = event_line(
            "j1",
            &JobEvent {
                kind: JobEventKind::TrialFinished,
                id: None,
                data: serde_json::from_str(
                    r#"{"trial_id":"tr_3","agent":"cand@2","task_id":"t1","status":"failed","completed_trials":3,"total_trials":4}"#,
                )
                .unwrap(),
            },
        );
        assert_eq!(
            trial.as_deref(),
            Some("j1: trial tr_3 (cand@2 on t1) finished: failed; 3 of 4 trials finished")
        );
    }

    #[test]
    fn a_broken_stream_falls_back_to_the_job_record() {
        let transport = ScriptedTransport::default();
        transport
            .route("/jobs/j1/stream", vec![(200, finished("tr_3", 3))])
            .break_stream("/stream")
            .route(
                "/eval-runs",
                vec![(200, chronicle_results_page("j1", &[("t1", true)]))],
            )
            .route(
                "/jobs/j1",
                vec![(200, job("running", 2)), (200, job("succeeded", 4))],
            );
        let verdict = gate_of(&transport, 600).unwrap();
        assert_eq!(verdict.exit, Exit::Ok);
        // Retrieved before the stream and after it broke.
        assert_eq!(transport.count("/stream"), 1, "{:?}", transport.urls());
        assert_eq!(transport.count("/jobs/j1") - 1, 2, "{:?}", transport.urls());
    }

    #[test]
    fn a_failed_or_cancelled_job_fails_without_reading_results() {
        for status in ["failed", "cancelled"] {
            let transport = ScriptedTransport::default();
            transport.route("/jobs/j1", vec![(200, job(status, 1))]);
            let verdict = gate_of(&transport, 600).unwrap();
            assert_eq!(verdict.exit, Exit::JobFailed, "{status}");
            assert!(verdict.problems[0].starts_with("job j1 "), "{verdict:?}");
            assert_eq!(transport.count("/eval-runs"), 0);
        }
    }

    #[test]
    fn empty_results_fail() {
        for page in [chronicle_page(&[], None), chronicle_results_page("j1", &[])] {
            let transport = ScriptedTransport::default();
            transport
                .route("/eval-runs", vec![(200, page)])
                .route("/jobs/j1", vec![(200, job("succeeded", 4))]);
            let verdict = gate_of(&transport, 600).unwrap();
            assert_eq!(verdict.exit, Exit::NoResults);
            assert!(
                verdict.problems[0].starts_with("job j1 returned no task results"),
                "{verdict:?}"
            );
        }
    }

    #[test]
    fn a_job_without_a_suite_has_no_results_to_pass() {
        let transport = ScriptedTransport::default();
        let mut job: serde_json::Value = serde_json::from_str(&job("succeeded", 4)).unwrap();
        job["task_suite_id"] = serde_json::Value::Null;
        transport.route("/jobs/j1", vec![(200, job.to_string())]);
        let verdict = gate_of(&transport, 600).unwrap();
        assert_eq!(verdict.exit, Exit::NoResults);
        assert!(
            verdict.problems[0].contains("names no task suite"),
            "{verdict:?}"
        );
        assert_eq!(transport.count("/eval-runs"), 0);
    }

    #[test]
    fn the_timeout_stops_waiting_and_says_the_job_goes_on() {
        let transport = ScriptedTransport::default();
        transport
            .advance_clock_on_sleep()
            // The stream closes at once without an event: the wait polls the job.
            .route("/jobs/j1/stream", vec![(200, String::new())])
            .route("/jobs/j1", vec![(200, job("running", 2))]);
        let verdict = gate_of(&transport, 10).unwrap();
        assert_eq!(verdict.exit, Exit::Timeout);
        assert!(
            verdict.problems[0].contains("did not end within the timeout of 10 s (running, 2 of 4 trials finished); it goes on on the server: run the gate again with the same job id (j1)"),
            "{verdict:?}"
        );
        assert_eq!(transport.count("/eval-runs"), 0);
        // After a stream that brought nothing, the job was polled every 2 s at the fastest
        // (the backoff's steps of 1 s, 2 s, 4 s, … once they are longer) until the timeout.
        let polls = &transport.sleeps()[1..];
        assert!(polls.len() >= 3, "{polls:?}");
        assert_eq!(polls[..2], [2_000, 2_000]);
        assert_eq!(polls.iter().sum::<u64>(), 10_000, "{polls:?}");
    }

    #[test]
    fn a_stream_that_keeps_contradicting_the_record_stops_the_gate_with_a_clear_message() {
        // The stream says the job succeeded; its record keeps saying running.
        let transport = ScriptedTransport::default();
        transport
            .advance_clock_on_sleep()
            .route(
                "/jobs/j1/stream",
                vec![(
                    200,
                    sse_event("run_finished", 9, r#"{"status":"succeeded"}"#),
                )],
            )
            .route("/jobs/j1", vec![(200, job("running", 2))]);
        let verdict = gate_of(&transport, 3_600).unwrap();
        assert_eq!(verdict.exit, Exit::Api);
        let message = &verdict.problems[0];
        assert!(
            message.starts_with(
                "job j1's progress stream said it ended (succeeded), but its record still says \
                 it is running, unchanged after 8 reads over "
            ),
            "{message}"
        );
        assert!(
            message.ends_with(
                "the API contradicts itself; the gate stopped waiting. Run it again later (the \
                 record may be catching up), or check job j1 on the platform"
            ),
            "{message}"
        );
        // An hour's wait: 3 streams and 9 reads of the job, not a read every 2 s (1,800).
        let streams = transport.count("/stream");
        assert_eq!(streams, 3);
        assert_eq!(
            transport.count("/jobs/j1") - streams,
            9,
            "{:?}",
            transport.urls()
        );
        assert_eq!(transport.count("/eval-runs"), 0);
    }

    #[test]
    fn an_unknown_job_is_an_api_error_with_chronicles_message() {
        let transport = ScriptedTransport::default();
        script_unknown_job(&transport, "nope");
        let client = client_over(&transport);
        let error = block_on(run_gate(
            &client,
            "nope",
            1_000,
            1_000,
            &Progress::silent(),
            None,
        ))
        .unwrap_err();
        let text = error.to_string();
        assert!(
            text.starts_with("could not read job nope (GET /v1/backtests/jobs/nope): Chronicle refused the request"),
            "{text}"
        );
        assert!(text.contains("No job with id nope"), "{text}");
        assert_eq!(error.exit(), Exit::Api);
    }
}
