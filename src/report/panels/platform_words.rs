//! What the page says of the platform's own number for a run: a Trajectory run's reward mean,
//! or a Chronicle job's pass rate, which in `compare` mode covers every agent of the job
//! together and so belongs to no one agent. Plain functions, tested natively.

use eval_compare_core::report::{ChronicleSummary, RunSummary};

use crate::components::stat_text::optional_mean;

/// Whether the job's pass rate covers several agents together (`compare` mode).
fn shared_by_agents(job: &ChronicleSummary) -> bool {
    job.mode.as_deref() == Some("compare")
}

/// The compared-runs table's platform cell: the value, and the line under it saying whose
/// number it is. A `compare` job's pass rate is no agent's: the cell says so instead.
pub fn platform_cell(run: &RunSummary) -> (String, Option<String>) {
    match &run.chronicle {
        None => (optional_mean(run.platform_reward_mean), None),
        Some(job) if shared_by_agents(job) && job.platform_pass_rate.is_some() => (
            optional_mean(None),
            Some(format!(
                "job-wide, all agents: {}",
                optional_mean(job.platform_pass_rate)
            )),
        ),
        Some(job) => (
            optional_mean(job.platform_pass_rate),
            Some("the job's pass rate".to_owned()),
        ),
    }
}

/// The headline card's platform part, after the task-weighted means: the platform's pooled
/// means, or the jobs' pass rates (once, when both runs are agents of one `compare` job).
pub fn platform_means(baseline: &RunSummary, run: &RunSummary) -> String {
    match (&baseline.chronicle, &run.chronicle) {
        (Some(base_job), Some(job)) if base_job.job_id == job.job_id && shared_by_agents(job) => {
            format!(
                "platform pass rate {} (the job's, both agents together)",
                optional_mean(job.platform_pass_rate)
            )
        }
        (Some(base_job), Some(job)) => format!(
            "platform pass rate {} → {} (each job's)",
            optional_mean(base_job.platform_pass_rate),
            optional_mean(job.platform_pass_rate)
        ),
        _ => format!(
            "platform {} → {} (pooled)",
            optional_mean(baseline.platform_reward_mean),
            optional_mean(run.platform_reward_mean)
        ),
    }
}

#[cfg(test)]
mod tests {
    use eval_compare_core::model::{RunIdx, SourceKind, TaskScoring};
    use eval_compare_core::report::Role;
    use eval_compare_core::stats::NotComputable;

    use super::*;

    fn job(job_id: &str, mode: &str, rate: Option<f64>) -> ChronicleSummary {
        ChronicleSummary {
            job_id: job_id.to_owned(),
            job_name: None,
            agent: "agent@1".to_owned(),
            agent_position: 0,
            mode: Some(mode.to_owned()),
            task_suite_id: None,
            task_suite_version: None,
            tasks: None,
            scorers: Vec::new(),
            environment_version_id: None,
            job_status: None,
            job_error: None,
            completed_trials: None,
            total_trials: None,
            decided_tasks: 0,
            pass_rate: None,
            platform_pass_rate: rate,
        }
    }

    fn run(platform: Option<f64>, chronicle: Option<ChronicleSummary>) -> RunSummary {
        RunSummary {
            index: RunIdx(0),
            role: Role::Candidate,
            id: "r".to_owned(),
            name: "r".to_owned(),
            display_name: None,
            base_model: None,
            step: None,
            training_run_id: None,
            bench_id: None,
            status: None,
            source: if chronicle.is_some() {
                SourceKind::Chronicle
            } else {
                SourceKind::Api
            },
            incomplete_load: None,
            trajectories: 0,
            tasks_scored: 0,
            platform_reward_mean: platform,
            pooled_mean: None,
            task_weighted_mean: None,
            task_weighted_interval: Err(NotComputable::ZeroVariance),
            binary: true,
            flaky_tasks: 0,
            task_scoring: TaskScoring::AllSamplesPass,
            chronicle,
        }
    }

    #[test]
    fn a_compare_jobs_pass_rate_is_said_once_for_its_agents_together() {
        let (base, cand) = (
            run(None, Some(job("job_1", "compare", Some(0.373)))),
            run(None, Some(job("job_1", "compare", Some(0.373)))),
        );
        assert_eq!(
            platform_means(&base, &cand),
            "platform pass rate 0.373 (the job's, both agents together)"
        );
        let (value, detail) = platform_cell(&cand);
        assert_eq!(value, "—");
        assert_eq!(detail.as_deref(), Some("job-wide, all agents: 0.373"));
    }

    #[test]
    fn jobs_of_one_agent_and_trajectory_runs_have_their_own_numbers() {
        let (base, cand) = (
            run(None, Some(job("job_1", "single", Some(0.25)))),
            run(None, Some(job("job_2", "single", Some(0.5)))),
        );
        assert_eq!(
            platform_means(&base, &cand),
            "platform pass rate 0.250 → 0.500 (each job's)"
        );
        assert_eq!(platform_cell(&cand).0, "0.500");
        assert_eq!(
            platform_means(&run(Some(0.4), None), &run(None, None)),
            "platform 0.400 → — (pooled)"
        );
    }
}
