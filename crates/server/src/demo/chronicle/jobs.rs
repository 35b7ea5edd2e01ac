//! The Chronicle view of the dataset: jobs and their trials at a point of the running
//! evaluation's schedule, and the platform's pass/fail per task of a job.

use crate::dataset::catalog::BENCH_V2;
use crate::dataset::live::Progress;
use crate::dataset::runs::Lifecycle;
use crate::dataset::time::Timestamp;
use crate::dataset::Dataset;

use super::plans::{JobPlan, Launch, TaskSubset, JOBS};
use super::suite::SUITE_ID;
use super::trials::{agent_ref, NotStarted, Slot};
use super::wire::{ChronicleJob, JobMode, JobStatus, SuiteEvalRun, TaskResult};

/// A job plan by id.
pub fn job_plan(job_id: &str) -> Option<&'static JobPlan> {
    JOBS.iter().find(|job| job.id == job_id)
}

/// The tasks a job runs (indices into codefix v2), in task order.
pub fn job_tasks(data: &Dataset, job: &JobPlan) -> Vec<usize> {
    let tasks = job.suite.tasks(data);
    match job.subset {
        TaskSubset::Whole => tasks,
        TaskSubset::EveryNth(n) => tasks.into_iter().step_by(n.max(1)).collect(),
    }
}

/// Every trial slot of a job, by agent then task.
pub fn slots<'a>(data: &'a Dataset, job: &'a JobPlan, running: Progress) -> Vec<Slot<'a>> {
    let tasks = job_tasks(data, job);
    let mut slots = Vec::new();
    for (agent_index, (run_id, version)) in job.agents.iter().enumerate() {
        let Some(run) = data.run(run_id) else {
            continue;
        };
        let bench = data.bench_of(run);
        let progress = run.progress(running);
        for &task_index in &tasks {
            // A run with fewer samples per task than the job's sample number provides the
            // sample it has in its place.
            let sample = job.sample % run.plan.settings.samples_per_task.max(1);
            let attempt = run.attempt_at(task_index, sample);
            let attempt = match (job.launch, attempt) {
                (Launch::Queued, _) => Err(NotStarted::Queued),
                (Launch::Cancelled { at }, Some(a)) if a.window.start >= at => {
                    Err(NotStarted::Cancelled)
                }
                (_, Some(a)) => Ok(a),
                (_, None) => Err(NotStarted::RunFailed),
            };
            slots.push(Slot {
                job,
                agent_index,
                version,
                run,
                task: &bench.tasks[task_index],
                attempt,
                progress,
            });
        }
    }
    slots
}

/// When a job was created: a while after its latest run was.
pub fn created_at(data: &Dataset, job: &JobPlan) -> Timestamp {
    job.agents
        .iter()
        .filter_map(|(run_id, _)| data.run(run_id))
        .map(|run| run.plan.created_at)
        .max()
        .unwrap_or(Timestamp(0))
        .plus(job.created_after_run_secs)
}

/// The failure message of a job whose run failed.
fn failure(data: &Dataset, job: &JobPlan) -> Option<&'static str> {
    job.agents
        .iter()
        .filter_map(|(run_id, _)| data.run(run_id))
        .find_map(|run| match run.plan.lifecycle {
            Lifecycle::Failed { failure, .. } => Some(failure.message),
            _ => None,
        })
}

/// A job's status given its slots.
fn status(data: &Dataset, job: &JobPlan, slots: &[Slot<'_>]) -> JobStatus {
    match job.launch {
        Launch::Queued => JobStatus::Queued,
        Launch::Cancelled { .. } => JobStatus::Cancelled,
        Launch::Ran if failure(data, job).is_some() => JobStatus::Failed,
        Launch::Ran if slots.iter().any(|s| !s.is_finished()) => JobStatus::Running,
        Launch::Ran => JobStatus::Succeeded,
    }
}

/// A job at `running`.
pub fn job(data: &Dataset, plan: &JobPlan, running: Progress) -> ChronicleJob {
    let slots = slots(data, plan, running);
    let completed = slots.iter().filter(|s| s.is_finished()).count() as u64;
    let status = status(data, plan, &slots);
    let tasks = match plan.subset {
        TaskSubset::Whole => None,
        TaskSubset::EveryNth(_) => data.benchmark(BENCH_V2).map(|b| {
            job_tasks(data, plan)
                .into_iter()
                .map(|i| b.tasks[i].task_id.clone())
                .collect()
        }),
    };
    let error = (status == JobStatus::Failed)
        .then(|| failure(data, plan))
        .flatten()
        .map(|message| serde_json::Value::String(message.into()));
    ChronicleJob {
        id: plan.id.into(),
        name: Some(plan.name.into()),
        status: Some(status),
        mode: Some(JobMode::from(plan.mode)),
        agents: plan
            .agents
            .iter()
            .map(|(_, version)| agent_ref(version))
            .collect(),
        completed_trials: Some(completed),
        total_trials: Some(slots.len() as u64),
        task_suite_id: Some(SUITE_ID.into()),
        task_suite_version: Some(plan.suite.id.into()),
        tasks,
        scorers: plan
            .extra_scorers
            .iter()
            .map(|s| s.id().to_owned())
            .collect(),
        environment_version_id: Some(plan.environment.into()),
        concurrency: Some(plan.concurrency),
        created_at: Some(created_at(data, plan).to_string()),
        error,
    }
}

/// A job's pass/fail per task (tasks whose trials have all finished; every agent's in a
/// comparison): a task passes when every scorer with a threshold met it in every trial.
pub fn suite_eval_run(data: &Dataset, plan: &JobPlan, running: Progress) -> SuiteEvalRun {
    let slots = slots(data, plan, running);
    let mut results = Vec::new();
    let bench = data.benchmark(BENCH_V2);
    for task in job_tasks(data, plan)
        .into_iter()
        .filter_map(|i| bench?.tasks.get(i))
    {
        let trials: Vec<&Slot<'_>> = slots
            .iter()
            .filter(|s| s.task.task_id == task.task_id)
            .collect();
        if trials.is_empty() || !trials.iter().all(|s| s.is_finished()) {
            continue;
        }
        let mut failed_scorers: Vec<String> = Vec::new();
        for slot in &trials {
            for score in slot.scores() {
                if score.threshold.is_some()
                    && score.passed != Some(true)
                    && !failed_scorers.contains(&score.name)
                {
                    failed_scorers.push(score.name);
                }
            }
        }
        results.push(TaskResult {
            task_id: task.task_id.clone(),
            title: Some(task.label.clone()),
            passed: Some(failed_scorers.is_empty()),
            failed_scorers,
        });
    }
    let passed = results.iter().filter(|r| r.passed == Some(true)).count();
    let job = job(data, plan, running);
    SuiteEvalRun {
        job_id: job.id,
        name: job.name,
        status: job.status,
        pass_rate: (!results.is_empty()).then(|| passed as f64 / results.len() as f64),
        task_results: results,
    }
}
