//! The paths of the reads a comparison's load makes, written once: the client's methods send
//! them (each id percent-encoded as a path segment or a query value), and messages name them
//! (each id as given: "could not read run er_1 (GET /api/v1/eval/er_1)").

/// `/api/v1/eval/{run}`: an evaluation run's record.
pub fn eval_run(run: &str) -> String {
    format!("/api/v1/eval/{run}")
}

/// `/api/v1/eval/{run}/trajectory-rewards`: a run's effective reward per trajectory.
pub fn trajectory_rewards(run: &str) -> String {
    format!("{}/trajectory-rewards", eval_run(run))
}

/// `/api/v1/eval/{run}/rollout-statistics`: the runtime distributions of a run's rollouts.
pub fn rollout_statistics(run: &str) -> String {
    format!("{}/rollout-statistics", eval_run(run))
}

/// `/api/v1/billing/usage/runs`: the organization's run costs (offset-paged).
pub const BILLING_RUN_COSTS: &str = "/api/v1/billing/usage/runs";

/// The trajectories list (a run's with [`RUN_PARAM`]), and below it one trajectory.
pub const TRAJECTORIES: &str = "/api/v1/trajectories";
/// The query parameter naming the run whose trajectories are listed.
pub const RUN_PARAM: &str = "eval_run_id";
/// A list's sort parameter (the field it is sorted by; the contract leaves its values open).
pub const SORT_PARAM: &str = "sort";
/// A list's order parameter: `asc` or `desc`.
pub const ORDER_PARAM: &str = "order";
/// The query parameter asking for a trajectory's reward components.
pub const COMPONENTS_PARAM: &str = "include_reward_components";

/// `/api/v1/trajectories?eval_run_id={run}`: a run's trajectories.
pub fn trajectories_of_run(run: &str) -> String {
    format!("{TRAJECTORIES}?{RUN_PARAM}={run}")
}

/// `/api/v1/trajectories/{trajectory}`: one trajectory.
pub fn trajectory(trajectory: &str) -> String {
    format!("{TRAJECTORIES}/{trajectory}")
}

/// `/api/v1/trajectories/{trajectory}?include_reward_components=true`: one trajectory with its
/// reward components.
pub fn trajectory_with_components(trajectory_id: &str) -> String {
    format!("{}?{COMPONENTS_PARAM}=true", trajectory(trajectory_id))
}

/// `/api/v1/benchmarks/{bench}/tasks`: a benchmark version's tasks.
pub fn benchmark_tasks(bench: &str) -> String {
    format!("/api/v1/benchmarks/{bench}/tasks")
}

/// `/v1/backtests/jobs`: Chronicle's jobs, and below it each job.
pub const CHRONICLE_JOBS: &str = "/v1/backtests/jobs";

/// `/v1/backtests/jobs/{job}`: a Chronicle job's record.
pub fn chronicle_job(job: &str) -> String {
    format!("{CHRONICLE_JOBS}/{job}")
}

/// `/v1/backtests/jobs/{job}/trials`: a Chronicle job's trials.
pub fn chronicle_trials(job: &str) -> String {
    format!("{}/trials", chronicle_job(job))
}

/// `/v1/task-suites/{suite}/eval-runs`: the pass/fail per task of a suite's jobs.
pub fn suite_eval_runs(suite: &str) -> String {
    format!("/v1/task-suites/{suite}/eval-runs")
}

/// The query parameter naming the one job whose results a suite lists.
pub const JOB_PARAM: &str = "job_id";

/// `/v1/task-suites/{suite}/eval-runs?job_id={job}`: the platform's results of one job.
pub fn job_results(suite: &str, job: &str) -> String {
    format!("{}?{JOB_PARAM}={job}", suite_eval_runs(suite))
}

/// `/api/v1/agents/{agent}/evaluation-runs`: an agent's evaluation runs (filtered by
/// `training_run_id`, `bench_id` or `status`).
pub fn agent_evaluation_runs(agent: &str) -> String {
    format!("/api/v1/agents/{agent}/evaluation-runs")
}
