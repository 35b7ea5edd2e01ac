//! What the start page shows: each agent's benchmark versions with their evaluation runs, and
//! live progress for runs still executing. Loaded through the core Trajectory client.

use eval_compare_core::api::{
    AgentListItem, BenchmarkListItem, EvalProgress, EvalRun, EvalRunStatus,
};
use eval_compare_core::client::{ApiError, BenchmarkRunFilter, TrajectoryClient, Transport};
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
