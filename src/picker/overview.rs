//! What the start page shows: each agent's benchmark versions with their evaluation runs, and
//! live progress for runs still executing. Loaded through the core Trajectory client. Also the
//! picker's defaults: which benchmark version, baseline and candidates are preselected.

use eval_compare_core::api::{
    AgentListItem, BenchmarkListItem, EvalProgress, EvalRun, EvalRunStatus,
};
use eval_compare_core::client::{ApiError, BenchmarkRunFilter, TrajectoryClient, Transport};
use eval_compare_core::model::run_info_from_api;
use futures::future::try_join_all;

/// The agents of the organization, each with its benchmarks and runs.
#[derive(Debug, Clone, PartialEq)]
pub struct Overview {
    /// Agents in the API's order.
    pub agents: Vec<AgentRuns>,
}

/// One agent and its benchmark versions.
#[derive(Debug, Clone, PartialEq)]
pub struct AgentRuns {
    /// The agent.
    pub agent: AgentListItem,
    /// Its benchmark versions, grouped by name, newest version first.
    pub benchmarks: Vec<BenchmarkRuns>,
}

/// One benchmark version and its evaluation runs.
#[derive(Debug, Clone, PartialEq)]
pub struct BenchmarkRuns {
    /// The benchmark version.
    pub benchmark: BenchmarkListItem,
    /// Its runs, newest first.
    pub runs: Vec<RunRow>,
}

/// One evaluation run, with its live progress when it is running.
#[derive(Debug, Clone, PartialEq)]
pub struct RunRow {
    /// The run.
    pub run: EvalRun,
    /// Progress of a running run.
    pub progress: Option<EvalProgress>,
}

/// Loads every agent, the benchmark versions each owns, their runs, and the progress of the
/// runs still executing. Fails on the first request that fails (after the client's retries).
pub async fn load_overview<T: Transport>(
    client: &TrajectoryClient<T>,
) -> Result<Overview, ApiError> {
    let agents = client
        .list_agents()
        .collect_all(|_, _| {})
        .await
        .into_result()?;
    let benchmarks = client
        .list_benchmarks(false)
        .collect_all(|_, _| {})
        .await
        .into_result()?;
    let mut overview = Vec::with_capacity(agents.len());
    for agent in agents {
        let mut owned: Vec<BenchmarkListItem> = benchmarks
            .iter()
            .filter(|benchmark| benchmark.agent_id.as_deref() == Some(agent.agent_id.as_str()))
            .cloned()
            .collect();
        sort_versions(&mut owned);
        let benchmarks = try_join_all(
            owned
                .into_iter()
                .map(|benchmark| load_benchmark(client, benchmark)),
        )
        .await?;
        overview.push(AgentRuns { agent, benchmarks });
    }
    Ok(Overview { agents: overview })
}

/// Benchmarks by name, and the versions of one name newest first.
fn sort_versions(benchmarks: &mut [BenchmarkListItem]) {
    benchmarks.sort_by(|a, b| {
        a.name
            .cmp(&b.name)
            .then_with(|| b.created_at.cmp(&a.created_at))
    });
}

/// The runs of one benchmark version, with progress for the running ones.
async fn load_benchmark<T: Transport>(
    client: &TrajectoryClient<T>,
    benchmark: BenchmarkListItem,
) -> Result<BenchmarkRuns, ApiError> {
    let runs = client
        .eval_runs_of_benchmark(&benchmark.bench_id, &BenchmarkRunFilter::default())?
        .collect_all(|_, _| {})
        .await
        .into_result()?;
    let runs = try_join_all(runs.into_iter().map(|run| load_progress(client, run))).await?;
    Ok(BenchmarkRuns { benchmark, runs })
}

/// Adds live progress to a running run.
async fn load_progress<T: Transport>(
    client: &TrajectoryClient<T>,
    run: EvalRun,
) -> Result<RunRow, ApiError> {
    let progress = if run.status == Some(EvalRunStatus::Running) {
        Some(client.eval_progress(&run.eval_run_id).await?)
    } else {
        None
    };
    Ok(RunRow { run, progress })
}

/// The benchmark version preselected for an agent: the one with the most recently created run
/// (ties and versions without runs: the first in display order).
pub fn default_benchmark(agent: &AgentRuns) -> Option<&BenchmarkRuns> {
    agent
        .benchmarks
        .iter()
        .enumerate()
        .max_by(|(ia, a), (ib, b)| {
            let newest = |entry: &BenchmarkRuns| {
                entry
                    .runs
                    .iter()
                    .map(|row| row.run.created_at.clone())
                    .max()
            };
            // Later in display order loses a tie: compare indices reversed.
            newest(a).cmp(&newest(b)).then_with(|| ib.cmp(ia))
        })
        .map(|(_, entry)| entry)
}

/// Whether a run evaluated a base model rather than a training checkpoint.
pub fn is_base_model_run(run: &EvalRun) -> bool {
    run.step.is_none() && run.training_run_id.is_none() && run.parent_checkpoint_id.is_none()
}

/// The preselected comparison among one benchmark version's runs.
///
/// Candidates: the completed or running checkpoint evaluations of the newest training run (the
/// one whose checkpoint evaluation was created last), one per step (the newest), by step; never
/// failed or cancelled ones. Baseline: the latest completed base-model run, preferring one
/// sampled with the same settings as the candidates (temperature, top-p, top-k, reasoning
/// effort, samples per task, limits), since a baseline with other settings would not compare
/// like with like.
pub fn default_selection(runs: &[RunRow]) -> (Option<String>, Vec<String>) {
    let usable = |run: &EvalRun| {
        matches!(
            run.status,
            Some(EvalRunStatus::Completed | EvalRunStatus::Running)
        )
    };
    let newest_training_run = runs
        .iter()
        .map(|row| &row.run)
        .filter(|run| run.training_run_id.is_some() && usable(run))
        .max_by(|a, b| a.created_at.cmp(&b.created_at))
        .and_then(|run| run.training_run_id.clone());
    let mut checkpoints: Vec<&EvalRun> = runs
        .iter()
        .map(|row| &row.run)
        .filter(|run| usable(run) && run.training_run_id == newest_training_run)
        .filter(|run| newest_training_run.is_some() && run.step.is_some())
        .collect();
    // Newest first, so the first evaluation kept for a step is its newest.
    checkpoints.sort_by(|a, b| b.created_at.cmp(&a.created_at));
    let mut candidates: Vec<&EvalRun> = Vec::new();
    for run in checkpoints {
        if !candidates.iter().any(|kept| kept.step == run.step) {
            candidates.push(run);
        }
    }
    candidates.sort_by_key(|run| run.step);

    let mut baselines: Vec<&EvalRun> = runs
        .iter()
        .map(|row| &row.run)
        .filter(|run| is_base_model_run(run) && run.status == Some(EvalRunStatus::Completed))
        .collect();
    baselines.sort_by(|a, b| b.created_at.cmp(&a.created_at));
    let baseline = candidates
        .first()
        .and_then(|first| {
            baselines
                .iter()
                .find(|run| same_settings(run, first))
                .copied()
        })
        .or_else(|| baselines.first().copied());
    (
        baseline.map(|run| run.eval_run_id.clone()),
        candidates
            .into_iter()
            .map(|run| run.eval_run_id.clone())
            .collect(),
    )
}

/// Whether two runs sampled and were limited alike (the settings the audit compares).
fn same_settings(a: &EvalRun, b: &EvalRun) -> bool {
    let (a, b) = (
        run_info_from_api(a, eval_compare_core::model::SourceKind::Api).options,
        run_info_from_api(b, eval_compare_core::model::SourceKind::Api).options,
    );
    a.effective() == b.effective()
        && a.samples_per_task == b.samples_per_task
        && a.max_turns_per_trajectory == b.max_turns_per_trajectory
        && a.max_output_tokens_per_step == b.max_output_tokens_per_step
        && a.max_total_tokens_per_trajectory == b.max_total_tokens_per_trajectory
        && a.execution_timeout_seconds == b.execution_timeout_seconds
}
