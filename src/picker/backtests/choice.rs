//! What a choice of Chronicle jobs compares: the agents of the jobs in the order given, the
//! first agent of the first (baseline) job the baseline, every other agent a candidate. Jobs on
//! another task suite than the baseline job's cannot join (their tasks differ); another version
//! of the same suite can, and the report's comparability audit flags it.

use eval_compare_core::api::{ChronicleJob, JobMode, JobStatus};
use eval_compare_core::model::chronicle_run_id;
use eval_compare_core::text::visible;
use eval_compare_core::view_state::check_id;

/// The runs (`{job}/{agent}`) of `jobs`' agents in order: the baseline and the candidates;
/// `None` when there is no candidate (a single job with a single agent).
pub fn comparison_of(jobs: &[&ChronicleJob]) -> Option<(String, Vec<String>)> {
    let mut runs = jobs.iter().flat_map(|job| {
        job.agents
            .iter()
            .map(|agent| chronicle_run_id(&job.id, agent))
    });
    let baseline = runs.next()?;
    let candidates: Vec<String> = runs.collect();
    (!candidates.is_empty()).then_some((baseline, candidates))
}

/// Whether one click opens `job` as a comparison: a compare-mode job with at least two agents.
pub fn opens_alone(job: &ChronicleJob) -> bool {
    job.mode == Some(JobMode::Compare) && job.agents.len() >= 2 && refusal_of(job).is_none()
}

/// Why `job` cannot be compared at all: no agents, or a run id no link can carry.
pub fn refusal_of(job: &ChronicleJob) -> Option<String> {
    if job.agents.is_empty() {
        return Some("This job lists no agents.".to_owned());
    }
    job.agents.iter().find_map(|agent| {
        check_id(&chronicle_run_id(&job.id, agent))
            .err()
            .map(|why| format!("This job cannot be compared: the id of its run is {why}."))
    })
}

/// Why `job` cannot join a comparison whose baseline job is `baseline`: it cannot be compared
/// at all, or it ran on another task suite.
pub fn refusal_beside(baseline: &ChronicleJob, job: &ChronicleJob) -> Option<String> {
    if let Some(why) = refusal_of(job) {
        return Some(why);
    }
    match (&baseline.task_suite_id, &job.task_suite_id) {
        (Some(base), Some(own)) if base != own => Some(format!(
            "On task suite {}, not the baseline job's {}: their tasks differ.",
            visible(own),
            visible(base)
        )),
        (Some(base), None) => Some(format!(
            "Names no task suite; the baseline job ran on {}.",
            visible(base)
        )),
        _ => None,
    }
}

/// A job's suite as shown: `id · version`, either alone, or "no suite".
pub fn suite_label(job: &ChronicleJob) -> String {
    match (&job.task_suite_id, &job.task_suite_version) {
        (Some(id), Some(version)) => format!("{} · {}", visible(id), visible(version)),
        (Some(id), None) => visible(id).into_owned(),
        (None, Some(version)) => format!("version {}", visible(version)),
        (None, None) => "no suite".to_owned(),
    }
}

/// A job's status as a label and the badge's class; an unknown status is shown by name.
pub fn status_label(status: Option<&JobStatus>) -> (String, &'static str) {
    match status {
        None => ("unknown".to_owned(), "status-unknown"),
        Some(JobStatus::Queued) => ("queued".to_owned(), "status-queued"),
        Some(JobStatus::Running) => ("running".to_owned(), "status-running"),
        Some(JobStatus::Succeeded) => ("succeeded".to_owned(), "status-completed"),
        Some(JobStatus::Failed) => ("failed".to_owned(), "status-failed"),
        Some(JobStatus::Cancelled) => ("cancelled".to_owned(), "status-cancelled"),
        Some(JobStatus::Other(name)) => (visible(name).into_owned(), "status-unknown"),
    }
}

/// A job's mode by name ("suite" when it names none: the API's default).
pub fn mode_label(mode: Option<&JobMode>) -> String {
    mode.map_or_else(
        || "suite".to_owned(),
        |mode| visible(mode.as_str()).into_owned(),
    )
}

/// "12 / 40 trials" (or what of it the job says).
pub fn trials_label(job: &ChronicleJob) -> Option<String> {
    match (job.completed_trials, job.total_trials) {
        (Some(done), Some(total)) => Some(format!("{done} / {total} trials")),
        (Some(done), None) => Some(format!("{done} trials finished")),
        (None, Some(total)) => Some(format!("{total} trials scheduled")),
        (None, None) => None,
    }
}
