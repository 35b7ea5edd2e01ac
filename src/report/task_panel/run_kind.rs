//! Which kind of run a report's run is: a Trajectory API run (its trajectories fetched by id,
//! the run linked on the platform) or an agent version of a Chronicle job (its trajectories are
//! trials), and that job.

use eval_compare_core::model::{split_chronicle_run_id, SourceKind};
use eval_compare_core::report::RunSummary;

/// Whether a run's trajectories are Trajectory API records (read from the API or from exported
/// run folders), so their ids can be fetched and the run linked on the platform. Chronicle
/// trials are not.
pub fn is_trajectory_api_run(run: &RunSummary) -> bool {
    !is_chronicle_run(run)
}

/// Whether a run is an agent version of a Chronicle job (read from Chronicle or from a job's
/// folder), whose trajectories are its trials.
pub fn is_chronicle_run(run: &RunSummary) -> bool {
    run.source == SourceKind::Chronicle || run.chronicle.is_some()
}

/// The job and agent of a Chronicle run: from what the report says of its job, else from its
/// id (`{job}/{agent}`).
pub fn chronicle_job_of(run: &RunSummary) -> Option<(String, String)> {
    if let Some(job) = &run.chronicle {
        return Some((job.job_id.clone(), job.agent.clone()));
    }
    split_chronicle_run_id(&run.id).map(|(job, agent)| (job.to_owned(), agent.to_owned()))
}
