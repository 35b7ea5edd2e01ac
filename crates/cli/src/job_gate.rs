//! The CI gate of a Chronicle job, as the guide's "Use results in CI": after the wait, a job
//! that did not end (exit 7), a failed or cancelled job (exit 8), empty results (exit 9) and
//! any task that did not pass (exit 10) fail, and so does an API that kept contradicting itself
//! (exit 4); otherwise "Every task passed". With a reviewer's ledger, the tasks it leaves out
//! are not judged and the verdict without it is said too. Pure decisions on what was read;
//! `gate_command` does the reading.

use std::collections::HashSet;

use eval_compare_core::api::{ChronicleJob, JobStatus, SuiteEvalRun, TaskResult};
use eval_compare_core::client::Contradiction;
use eval_compare_core::ledger::{Action, Ledger, Target};
use eval_compare_core::text::noun;

use crate::api_load::{job_standing, trials_finished};
use crate::exit_code::Exit;

/// What the gate says on stdout when it passes (the guide's words).
pub const PASSED: &str = "Every task passed";

/// How the gate ended and what it says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GateVerdict {
    /// The exit code.
    pub exit: Exit,
    /// Why it failed, one line each (stderr, shown even with `--quiet`).
    pub problems: Vec<String>,
    /// The verdict line on stdout, when it passed.
    pub passed: Option<String>,
    /// A summary for stderr (progress).
    pub note: Option<String>,
    /// With a reviewer's ledger, the verdict with and without it (stderr).
    pub ledger: Option<String>,
}

impl GateVerdict {
    fn failed(exit: Exit, problems: Vec<String>) -> Self {
        Self {
            exit,
            problems,
            passed: None,
            note: None,
            ledger: None,
        }
    }
}

/// The verdict on the job as last retrieved, when it decides the gate already: not ended
/// within `timeout_secs`, failed, or cancelled. `None`: it succeeded, read its results.
pub fn judge_end(job: &ChronicleJob, ended: bool, timeout_secs: u64) -> Option<GateVerdict> {
    let id = &job.id;
    if !ended {
        return Some(GateVerdict::failed(
            Exit::Timeout,
            vec![format!(
                "job {id} did not end within the timeout of {timeout_secs} s ({}); it goes on on \
                 the server: run the gate again with the same job id ({id}) to wait again",
                job_standing(job)
            )],
        ));
    }
    let finished = trials_finished(job)
        .map(|trials| format!(" ({trials})"))
        .unwrap_or_default();
    match job.status.as_ref() {
        Some(JobStatus::Succeeded) => None,
        Some(JobStatus::Failed) => {
            let why = job
                .error
                .as_ref()
                .map(|error| match error {
                    serde_json::Value::String(text) => format!(": {text}"),
                    other => format!(": {other}"),
                })
                .unwrap_or_default();
            Some(GateVerdict::failed(
                Exit::JobFailed,
                vec![format!("job {id} failed{finished}{why}")],
            ))
        }
        Some(JobStatus::Cancelled) => Some(GateVerdict::failed(
            Exit::JobFailed,
            vec![format!(
                "job {id} was cancelled{finished}; its finished trials keep their results, but \
                 the gate needs a job that succeeded"
            )],
        )),
        // Not reached: a wait ends only on the three statuses above (an unknown one is never
        // taken as ended); refuse rather than pass.
        _ => Some(GateVerdict::failed(
            Exit::JobFailed,
            vec![format!(
                "job {id} ended as {}, not succeeded",
                job_standing(job)
            )],
        )),
    }
}

/// The verdict when the wait stopped because the job's stream said it ended while its record
/// kept saying it runs (the core's `WatchPace` gave up): an API error (exit 4), with what the
/// user can do.
pub fn contradicted(contradiction: &Contradiction) -> GateVerdict {
    GateVerdict::failed(
        Exit::Api,
        vec![format!(
            "{contradiction}; the gate stopped waiting. Run it again later (the record may be \
             catching up), or check job {} on the platform",
            contradiction.job_id
        )],
    )
}

/// The verdict on the platform's results of a job that succeeded: every task must have
/// passed, and there must be some (a task whose `passed` is missing did not pass).
pub fn judge_results(job_id: &str, results: Option<&SuiteEvalRun>) -> GateVerdict {
    let tasks = results.map_or(&[][..], |results| results.task_results.as_slice());
    if tasks.is_empty() {
        let why = if results.is_some() {
            "the platform's results of it list no task"
        } else {
            "the platform lists no results for it"
        };
        return GateVerdict::failed(
            Exit::NoResults,
            vec![format!(
                "job {job_id} returned no task results ({why}); the gate needs every task to pass"
            )],
        );
    }
    let failing: Vec<&TaskResult> = tasks
        .iter()
        .filter(|task| task.passed != Some(true))
        .collect();
    if failing.is_empty() {
        let rate = results
            .and_then(|results| results.pass_rate)
            .map(|rate| format!(", pass rate {rate:.2} per the platform"))
            .unwrap_or_default();
        return GateVerdict {
            exit: Exit::Ok,
            problems: Vec::new(),
            passed: Some(PASSED.to_owned()),
            note: Some(format!(
                "job {job_id}: {count} of {count} {} passed{rate}",
                noun(tasks.len() as u64, "task", "tasks"),
                count = tasks.len()
            )),
            ledger: None,
        };
    }
    let mut problems = vec![format!(
        "job {job_id} did not pass every task: {} of {} {} did not pass",
        failing.len(),
        tasks.len(),
        noun(tasks.len() as u64, "task", "tasks")
    )];
    problems.extend(failing.iter().map(|task| failing_task(task)));
    GateVerdict::failed(Exit::TasksFailed, problems)
}

/// [`judge_results`] with the reviewer's ledger: the tasks it leaves out are not judged; its
/// other entries change nothing here (a task counted as a failure where it has no pass/fail
/// already fails; the platform's results are per task, so an entry naming one trial does not
/// apply). [`GateVerdict::ledger`] says the verdict with and without the ledger.
pub fn judge_results_with_ledger(
    job_id: &str,
    results: Option<&SuiteEvalRun>,
    ledger: &Ledger,
) -> GateVerdict {
    let left_out: HashSet<&str> = ledger
        .entries
        .iter()
        .filter(|entry| entry.action == Action::LeaveOut)
        .filter_map(|entry| match &entry.target {
            Target::Task(id) => Some(id.as_str()),
            Target::Trajectory(_) => None,
        })
        .collect();
    let tasks = results.map_or(&[][..], |results| results.task_results.as_slice());
    let kept_results = results.map(|results| SuiteEvalRun {
        task_results: results
            .task_results
            .iter()
            .filter(|task| !left_out.contains(task.task_id.as_str()))
            .cloned()
            .collect(),
        ..results.clone()
    });
    let kept = kept_results
        .as_ref()
        .map_or(&[][..], |results| results.task_results.as_slice());
    let set_aside = (tasks.len() - kept.len()) as u64;
    let known: HashSet<&str> = tasks.iter().map(|task| task.task_id.as_str()).collect();
    let idle = ledger
        .entries
        .iter()
        .filter(|entry| !matches!(&entry.target, Target::Task(id) if known.contains(id.as_str())))
        .count() as u64;
    let mut line = format!(
        "reviewer's ledger: with {set_aside} {} left out: {}; without: {}",
        noun(set_aside, "task", "tasks"),
        pass_words(kept),
        pass_words(tasks)
    );
    if idle > 0 {
        line.push_str(&format!(
            " ({idle} {} not apply: {} no task of the results)",
            noun(idle, "entry does", "entries do"),
            noun(idle, "it names", "they name")
        ));
    }
    let mut verdict = judge_results(job_id, kept_results.as_ref());
    verdict.ledger = Some(line);
    verdict
}

/// "every task passed (40 tasks)", "3 of 40 tasks did not pass", "no task results".
fn pass_words(tasks: &[TaskResult]) -> String {
    let failing = tasks
        .iter()
        .filter(|task| task.passed != Some(true))
        .count();
    let all = tasks.len() as u64;
    match (all, failing) {
        (0, _) => "no task results".to_owned(),
        (_, 0) => format!("every task passed ({all} {})", noun(all, "task", "tasks")),
        _ => format!(
            "{failing} of {all} {} did not pass",
            noun(all, "task", "tasks")
        ),
    }
}

/// The verdict on a job that names no task suite: its results cannot be read, so there are
/// none to pass.
pub fn no_suite(job_id: &str) -> GateVerdict {
    GateVerdict::failed(
        Exit::NoResults,
        vec![format!(
            "job {job_id} returned no task results (it names no task suite, so the platform's \
             results of it cannot be read); the gate needs every task to pass"
        )],
    )
}

/// A task that did not pass, with the scorers that missed (the guide's Go example's line).
fn failing_task(task: &TaskResult) -> String {
    let title = task
        .title
        .as_deref()
        .filter(|title| !title.trim().is_empty() && *title != task.task_id)
        .map(|title| format!(" ({title})"))
        .unwrap_or_default();
    let id = &task.task_id;
    match (task.passed, task.failed_scorers.is_empty()) {
        (None, _) => {
            format!("task {id}{title} has no pass/fail from the platform (passed is null)")
        }
        (_, true) => format!("task {id}{title} failed (no failed scorer named)"),
        (_, false) => format!(
            "task {id}{title} failed: {}",
            task.failed_scorers.join(", ")
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(status: &str) -> ChronicleJob {
        serde_json::from_str(&eval_compare_core::testing::bodies::chronicle_job_body(
            "j1",
            status,
            &["agent@1"],
            2,
            4,
        ))
        .unwrap()
    }

    fn results(tasks: &[(&str, Option<bool>, &[&str])]) -> SuiteEvalRun {
        SuiteEvalRun {
            job_id: "j1".to_owned(),
            name: None,
            status: Some(JobStatus::Succeeded),
            pass_rate: None,
            task_results: tasks
                .iter()
                .map(|(id, passed, scorers)| TaskResult {
                    task_id: (*id).to_owned(),
                    title: Some(format!("title of {id}")),
                    passed: *passed,
                    failed_scorers: scorers.iter().map(|s| (*s).to_owned()).collect(),
                })
                .collect(),
        }
    }

    #[test]
    fn the_end_of_the_wait_decides_a_timeout_a_failure_and_a_cancellation() {
        let timeout = judge_end(&job("running"), false, 600).unwrap();
        assert_eq!(timeout.exit, Exit::Timeout);
        assert!(
            timeout.problems[0].starts_with("job j1 did not end within the timeout of 600 s (running, 2 of 4 trials finished); it goes on on the server"),
            "{:?}",
            timeout.problems
        );
        let mut failed = job("failed");
        failed.error = Some(serde_json::json!("runtime lost"));
        let verdict = judge_end(&failed, true, 600).unwrap();
        assert_eq!(verdict.exit, Exit::JobFailed);
        assert_eq!(
            verdict.problems,
            ["job j1 failed (2 of 4 trials finished): runtime lost"]
        );
        assert_eq!(
            judge_end(&job("cancelled"), true, 600).unwrap().exit,
            Exit::JobFailed
        );
        assert_eq!(judge_end(&job("succeeded"), true, 600), None);
    }

    #[test]
    fn every_task_must_pass_and_there_must_be_tasks() {
        let all = results(&[("t1", Some(true), &[]), ("t2", Some(true), &[])]);
        let verdict = judge_results("j1", Some(&all));
        assert_eq!(verdict.exit, Exit::Ok);
        assert_eq!(verdict.passed.as_deref(), Some("Every task passed"));
        let some = results(&[
            ("t1", Some(true), &[]),
            ("t2", Some(false), &["tests", "lint"]),
            ("t3", None, &[]),
        ]);
        let verdict = judge_results("j1", Some(&some));
        assert_eq!(verdict.exit, Exit::TasksFailed);
        assert_eq!(
            verdict.problems,
            [
                "job j1 did not pass every task: 2 of 3 tasks did not pass",
                "task t2 (title of t2) failed: tests, lint",
                "task t3 (title of t3) has no pass/fail from the platform (passed is null)",
            ]
        );
        assert_eq!(judge_results("j1", None).exit, Exit::NoResults);
        let empty = results(&[]);
        let verdict = judge_results("j1", Some(&empty));
        assert_eq!(verdict.exit, Exit::NoResults);
        assert!(verdict.problems[0].contains("list no task"), "{verdict:?}");
    }

    #[test]
    fn the_ledger_leaves_its_tasks_out_of_the_gate_and_says_both_verdicts() {
        let some = results(&[
            ("t1", Some(true), &[]),
            ("t2", Some(false), &["tests"]),
            ("t3", None, &[]),
        ]);
        let ledger = Ledger::parse(
            br#"{"version": 1, "entries": [
                {"task_id": "t2", "action": "leave_out", "reason": "broken_task"},
                {"task_id": "t3", "action": "leave_out", "reason": "infrastructure_error"},
                {"task_id": "t9", "action": "leave_out", "reason": "duplicate"}]}"#,
        )
        .unwrap();
        let verdict = judge_results_with_ledger("j1", Some(&some), &ledger);
        assert_eq!(verdict.exit, Exit::Ok);
        assert_eq!(verdict.passed.as_deref(), Some(PASSED));
        assert_eq!(
            verdict.ledger.as_deref(),
            Some(
                "reviewer's ledger: with 2 tasks left out: every task passed (1 task); \
                 without: 2 of 3 tasks did not pass (1 entry does not apply: it names no task \
                 of the results)"
            )
        );
        // Counting a task as a failure changes nothing: a task without pass/fail fails.
        let failure = Ledger::parse(
            br#"{"version": 1, "entries": [
                {"task_id": "t3", "action": "count_as_failure", "reason": "grader_error"}]}"#,
        )
        .unwrap();
        let verdict = judge_results_with_ledger("j1", Some(&some), &failure);
        assert_eq!(verdict.exit, Exit::TasksFailed);
        assert_eq!(verdict.problems, judge_results("j1", Some(&some)).problems);
    }
}
