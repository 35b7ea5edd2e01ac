//! Test support: Chronicle jobs scripted on the core's [`ScriptedTransport`], as the demo and
//! the platform answer them (record, one page of trials, the suite's results of the job), and
//! the jobs that fail: unknown, or a trials page that fails.

use eval_compare_core::testing::bodies::{
    chronicle_job_body, chronicle_page, chronicle_results_page, chronicle_trial_item, error_body,
    SERVER_FAILURE,
};
use eval_compare_core::testing::ScriptedTransport;

/// One trial: its agent, its task, and whether its scorer passed.
pub type Trial<'a> = (&'a str, &'a str, bool);

/// Scripts job `job_id` on suite `suite_1`: its record (`status`, every trial finished), its
/// trials (ids `{job}_{n}`) and, when `listed`, the platform's results (a task passes when
/// every trial of it passed). Routes of a job's trials come before its record's.
pub fn script_job(
    transport: &ScriptedTransport,
    job_id: &str,
    status: &str,
    agents: &[&str],
    trials: &[Trial<'_>],
    listed: bool,
) {
    let items: Vec<String> = trials
        .iter()
        .enumerate()
        .map(|(n, (agent, task, passed))| {
            chronicle_trial_item(&format!("{job_id}_{n}"), agent, task, *passed)
        })
        .collect();
    let mut tasks: Vec<(&str, bool)> = Vec::new();
    for (_, task, passed) in trials {
        match tasks.iter_mut().find(|(known, _)| known == task) {
            Some(entry) => entry.1 &= *passed,
            None => tasks.push((task, *passed)),
        }
    }
    let results = if listed {
        chronicle_results_page(job_id, &tasks)
    } else {
        chronicle_page(&[], None)
    };
    let count = trials.len() as u64;
    transport
        .route(
            &format!("/jobs/{job_id}/trials"),
            vec![(200, chronicle_page(&items, None))],
        )
        .route(&format!("job_id={job_id}"), vec![(200, results)])
        .route(
            &format!("/jobs/{job_id}"),
            vec![(
                200,
                chronicle_job_body(job_id, status, agents, count, count),
            )],
        );
}

/// `n` tasks `t00`, `t01`, … each tried once by every agent, `passes(agent_index, task)`.
pub fn trials_of<'a>(
    agents: &[&'a str],
    tasks: &'a [String],
    passes: impl Fn(usize, usize) -> bool,
) -> Vec<Trial<'a>> {
    let mut trials = Vec::new();
    for (a, agent) in agents.iter().enumerate() {
        for (t, task) in tasks.iter().enumerate() {
            trials.push((*agent, task.as_str(), passes(a, t)));
        }
    }
    trials
}

/// Task ids `t00` … for `n` tasks.
pub fn task_ids(n: usize) -> Vec<String> {
    (0..n).map(|t| format!("t{t:02}")).collect()
}

/// Scripts `job_id` as a job Chronicle does not know (400 `unknown_job`).
pub fn script_unknown_job(transport: &ScriptedTransport, job_id: &str) {
    transport.route(
        &format!("/jobs/{job_id}"),
        vec![(
            400,
            error_body(
                "invalid_request_error",
                "unknown_job",
                &format!("No job with id {job_id}"),
                Some("jobId"),
            ),
        )],
    );
}

/// Scripts job `job_id` (succeeded, `trials` trials of agent `a@1`, no results listed) whose
/// trials' first page holds `first` and whose second page fails (500).
pub fn script_failed_trials_page(
    transport: &ScriptedTransport,
    job_id: &str,
    first: &[String],
    trials: u64,
) {
    transport
        .route("cursor=c2", vec![(500, SERVER_FAILURE.to_owned())])
        .route(
            &format!("/jobs/{job_id}/trials"),
            vec![(200, chronicle_page(first, Some("c2")))],
        )
        .route(
            &format!("job_id={job_id}"),
            vec![(200, chronicle_page(&[], None))],
        )
        .route(
            &format!("/jobs/{job_id}"),
            vec![(
                200,
                chronicle_job_body(job_id, "succeeded", &["a@1"], trials, trials),
            )],
        );
}
