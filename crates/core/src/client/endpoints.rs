//! Typed methods for every endpoint the viewer reads (shared/trajectory-api/README.md).

use crate::api::{
    Agent, AgentListPage, AgentTrainingEvaluationSeriesPage, BenchmarkListItem, BenchmarkPage,
    BenchmarkTaskPage, EvalProgress, EvalRemainingWorkPage, EvalRun, EvalRunPage, EvalRunStatus,
    EvalTrajectoryRewardsPage, HeldOutRewardsByStepPage, Organization, RunOptionsResponse,
    StepPage, TaskSplitFilter, TrainingCheckpointPage, TrainingRun, TrainingRunPage, Trajectory,
    TrajectoryPage,
};

use super::error::ApiError;
use super::paginate::{Paginator, MAX_PAGE_LIMIT};
use super::paths;
use super::query::{segment, Query};
use super::trajectory_client::TrajectoryClient;
use super::transport::Transport;

/// Largest page of the remaining-work list.
pub const REMAINING_WORK_MAX_LIMIT: u32 = 100;

/// Filters of the evaluation runs of a benchmark.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BenchmarkRunFilter {
    /// Only runs in these statuses (any when empty).
    pub statuses: Vec<EvalRunStatus>,
    /// Only evaluations of this training run's checkpoints.
    pub training_run_id: Option<String>,
    /// Only runs of this base model.
    pub base_model_slug: Option<String>,
}

/// Filters of the evaluation runs of an agent.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AgentRunFilter {
    /// Only runs on this benchmark version.
    pub bench_id: Option<String>,
    /// Only runs in this status.
    pub status: Option<EvalRunStatus>,
    /// Only evaluations of this training run's checkpoints.
    pub training_run_id: Option<String>,
}

impl<T: Transport> TrajectoryClient<T> {
    fn pages<P>(&self, path: String, query: Query) -> Paginator<'_, T, P> {
        Paginator::new(self, path, query, Query::default(), MAX_PAGE_LIMIT)
    }

    /// `GET /api/v1/organizations/current`: checks the key and names its organization.
    pub async fn current_organization(&self) -> Result<Organization, ApiError> {
        self.get("/api/v1/organizations/current").await
    }

    /// `GET /api/v1/agents`: the organization's agents.
    pub fn list_agents(&self) -> Paginator<'_, T, AgentListPage> {
        self.pages("/api/v1/agents".to_owned(), Query::default())
    }

    /// `GET /api/v1/agents/name/{name}`: one agent by name.
    pub async fn agent_by_name(&self, name: &str) -> Result<Agent, ApiError> {
        let name = segment("agent name", name)?;
        self.get(&format!("/api/v1/agents/name/{name}")).await
    }

    /// `GET /api/v1/benchmarks`: benchmark versions, or only the latest of each name.
    pub fn list_benchmarks(&self, latest_only: bool) -> Paginator<'_, T, BenchmarkPage> {
        let mut query = Query::default();
        if latest_only {
            query.push("latest_only", "true");
        }
        self.pages("/api/v1/benchmarks".to_owned(), query)
    }

    /// `GET /api/v1/benchmarks/{bench_id}`: one benchmark version.
    pub async fn benchmark(&self, bench_id: &str) -> Result<BenchmarkListItem, ApiError> {
        let bench_id = segment("benchmark id", bench_id)?;
        self.get(&format!("/api/v1/benchmarks/{bench_id}")).await
    }

    /// `GET /api/v1/agents/{agent_id}/benchmarks/versions?name=`: every version of an agent's
    /// benchmark.
    pub fn agent_benchmark_versions(
        &self,
        agent_id: &str,
        name: &str,
    ) -> Result<Paginator<'_, T, BenchmarkPage>, ApiError> {
        let agent_id = segment("agent id", agent_id)?;
        if name.is_empty() {
            return Err(ApiError::InvalidArgument(
                "benchmark name is empty".to_owned(),
            ));
        }
        let mut query = Query::default();
        query.push("name", name);
        let path = format!("/api/v1/agents/{agent_id}/benchmarks/versions");
        Ok(self.pages(path, query))
    }

    /// `GET /api/v1/benchmarks/{bench_id}/tasks?split=`: tasks of a benchmark version.
    pub fn benchmark_tasks(
        &self,
        bench_id: &str,
        split: Option<&TaskSplitFilter>,
    ) -> Result<Paginator<'_, T, BenchmarkTaskPage>, ApiError> {
        let bench_id = segment("benchmark id", bench_id)?;
        let mut query = Query::default();
        query.push_opt("split", split.map(TaskSplitFilter::as_str));
        Ok(self.pages(paths::benchmark_tasks(&bench_id), query))
    }

    /// `GET /api/v1/eval/{bench_id}/runs`: evaluation runs of a benchmark version, newest first.
    pub fn eval_runs_of_benchmark(
        &self,
        bench_id: &str,
        filter: &BenchmarkRunFilter,
    ) -> Result<Paginator<'_, T, EvalRunPage>, ApiError> {
        let bench_id = segment("benchmark id", bench_id)?;
        let mut query = Query::default();
        for status in &filter.statuses {
            query.push("status", status.as_str());
        }
        query.push_opt("training_run_id", filter.training_run_id.as_deref());
        query.push_opt("base_model_slug", filter.base_model_slug.as_deref());
        Ok(self.pages(format!("/api/v1/eval/{bench_id}/runs"), query))
    }

    /// `GET /api/v1/agents/{agent_id}/evaluation-runs`: evaluation runs of an agent.
    pub fn eval_runs_of_agent(
        &self,
        agent_id: &str,
        filter: &AgentRunFilter,
    ) -> Result<Paginator<'_, T, EvalRunPage>, ApiError> {
        let agent_id = segment("agent id", agent_id)?;
        let mut query = Query::default();
        query.push_opt("bench_id", filter.bench_id.as_deref());
        query.push_opt("status", filter.status.as_ref().map(EvalRunStatus::as_str));
        query.push_opt("training_run_id", filter.training_run_id.as_deref());
        Ok(self.pages(paths::agent_evaluation_runs(&agent_id), query))
    }

    /// `GET /api/v1/eval/{run_id}`: one evaluation run.
    pub async fn eval_run(&self, run_id: &str) -> Result<EvalRun, ApiError> {
        let run_id = segment("evaluation run id", run_id)?;
        self.get(&paths::eval_run(&run_id)).await
    }

    /// `GET /api/v1/eval/options?bench_id=&base_model_slug=`: the evaluation options a benchmark
    /// version supports per model, with their defaults (only `base_model_slug`'s when given).
    pub async fn eval_options(
        &self,
        bench_id: &str,
        base_model_slug: Option<&str>,
    ) -> Result<RunOptionsResponse, ApiError> {
        if bench_id.is_empty() {
            return Err(ApiError::InvalidArgument(
                "benchmark id is empty".to_owned(),
            ));
        }
        let mut query = Query::default();
        query.push("bench_id", bench_id);
        query.push_opt("base_model_slug", base_model_slug);
        let path = format!("/api/v1/eval/options{}", query.to_query_string());
        self.get(&path).await
    }

    /// `GET /api/v1/eval/{run_id}/progress`: live progress of an evaluation run.
    pub async fn eval_progress(&self, run_id: &str) -> Result<EvalProgress, ApiError> {
        let run_id = segment("evaluation run id", run_id)?;
        self.get(&format!("/api/v1/eval/{run_id}/progress")).await
    }

    /// `GET /api/v1/eval/{eval_run_id}/remaining-work`: outstanding attempts (pages of at most 100).
    pub fn remaining_work(
        &self,
        eval_run_id: &str,
    ) -> Result<Paginator<'_, T, EvalRemainingWorkPage>, ApiError> {
        let eval_run_id = segment("evaluation run id", eval_run_id)?;
        let path = format!("/api/v1/eval/{eval_run_id}/remaining-work");
        Ok(Paginator::new(
            self,
            path,
            Query::default(),
            Query::default(),
            REMAINING_WORK_MAX_LIMIT,
        ))
    }

    /// `GET /api/v1/eval/{run_id}/trajectory-rewards`: effective reward per trajectory.
    pub fn trajectory_rewards(
        &self,
        run_id: &str,
    ) -> Result<Paginator<'_, T, EvalTrajectoryRewardsPage>, ApiError> {
        let run_id = segment("evaluation run id", run_id)?;
        Ok(self.pages(paths::trajectory_rewards(&run_id), Query::default()))
    }

    /// `GET /api/v1/trajectories?eval_run_id=`: trajectories of a run, unfinished and failed too.
    pub fn trajectories_of_run(
        &self,
        eval_run_id: &str,
    ) -> Result<Paginator<'_, T, TrajectoryPage>, ApiError> {
        self.run_trajectories(eval_run_id, &[])
    }

    /// [`Self::trajectories_of_run`] in ascending task order (`sort=task_id&order=asc`): the
    /// order the API lists the run's rewards in (without a task first, then by task id, then
    /// by trajectory id), where the API sorts by task; its default is by creation, newest
    /// first. The contract leaves `sort`'s values open: an API that does not know `task_id`
    /// may refuse the request (400 or 422) or list in an order of its own.
    pub fn trajectories_of_run_in_task_order(
        &self,
        eval_run_id: &str,
    ) -> Result<Paginator<'_, T, TrajectoryPage>, ApiError> {
        self.run_trajectories(
            eval_run_id,
            &[(paths::SORT_PARAM, "task_id"), (paths::ORDER_PARAM, "asc")],
        )
    }

    fn run_trajectories(
        &self,
        eval_run_id: &str,
        order: &[(&'static str, &'static str)],
    ) -> Result<Paginator<'_, T, TrajectoryPage>, ApiError> {
        if eval_run_id.is_empty() {
            return Err(ApiError::InvalidArgument(
                "evaluation run id is empty".to_owned(),
            ));
        }
        let mut query = Query::default();
        query.push(paths::RUN_PARAM, eval_run_id);
        for (name, value) in order {
            query.push(name, *value);
        }
        Ok(self.pages(paths::TRAJECTORIES.to_owned(), query))
    }

    /// `GET /api/v1/trajectories/{id}`: one trajectory, with its reward components when asked.
    pub async fn trajectory(
        &self,
        trajectory_id: &str,
        include_reward_components: bool,
    ) -> Result<Trajectory, ApiError> {
        let trajectory_id = segment("trajectory id", trajectory_id)?;
        let mut query = Query::default();
        if include_reward_components {
            query.push(paths::COMPONENTS_PARAM, "true");
        }
        let query = query.to_query_string();
        self.get(&format!("{}{query}", paths::trajectory(&trajectory_id)))
            .await
    }

    /// `GET /api/v1/trajectories/{id}/steps`: the transcript, from `start_step_index` when given
    /// (sent on the first page only: the contract forbids it with a cursor).
    pub fn trajectory_steps(
        &self,
        trajectory_id: &str,
        start_step_index: Option<u64>,
    ) -> Result<Paginator<'_, T, StepPage>, ApiError> {
        let trajectory_id = segment("trajectory id", trajectory_id)?;
        let mut first_page = Query::default();
        if let Some(start) = start_step_index {
            first_page.push("start_step_index", start.to_string());
        }
        let path = format!("{}/steps", paths::trajectory(&trajectory_id));
        Ok(Paginator::new(
            self,
            path,
            Query::default(),
            first_page,
            MAX_PAGE_LIMIT,
        ))
    }

    /// `GET /api/v1/train/{bench_id}/runs`: training runs on a benchmark version.
    pub fn training_runs(
        &self,
        bench_id: &str,
    ) -> Result<Paginator<'_, T, TrainingRunPage>, ApiError> {
        let bench_id = segment("benchmark id", bench_id)?;
        Ok(self.pages(format!("/api/v1/train/{bench_id}/runs"), Query::default()))
    }

    /// `GET /api/v1/train/{run_id}`: one training run.
    pub async fn training_run(&self, run_id: &str) -> Result<TrainingRun, ApiError> {
        let run_id = segment("training run id", run_id)?;
        self.get(&format!("/api/v1/train/{run_id}")).await
    }

    /// `GET /api/v1/train/{run_id}/checkpoints`: committed checkpoints of a training run.
    pub fn checkpoints(
        &self,
        run_id: &str,
    ) -> Result<Paginator<'_, T, TrainingCheckpointPage>, ApiError> {
        let run_id = segment("training run id", run_id)?;
        let path = format!("/api/v1/train/{run_id}/checkpoints");
        Ok(self.pages(path, Query::default()))
    }

    /// `GET /api/v1/agents/{agent_id}/training-runs/{training_run_id}/evaluation-series`:
    /// evaluation reward mean by training step.
    pub fn evaluation_series(
        &self,
        agent_id: &str,
        training_run_id: &str,
    ) -> Result<Paginator<'_, T, AgentTrainingEvaluationSeriesPage>, ApiError> {
        let agent_id = segment("agent id", agent_id)?;
        let training_run_id = segment("training run id", training_run_id)?;
        let path =
            format!("/api/v1/agents/{agent_id}/training-runs/{training_run_id}/evaluation-series");
        Ok(self.pages(path, Query::default()))
    }

    /// `GET /api/v1/train/{run_id}/step/held-out-reward-by-step`: held-out reward and sample
    /// counts per training step.
    pub fn held_out_reward_by_step(
        &self,
        run_id: &str,
    ) -> Result<Paginator<'_, T, HeldOutRewardsByStepPage>, ApiError> {
        let run_id = segment("training run id", run_id)?;
        let path = format!("/api/v1/train/{run_id}/step/held-out-reward-by-step");
        Ok(self.pages(path, Query::default()))
    }
}
