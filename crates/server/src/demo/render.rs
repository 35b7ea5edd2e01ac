//! Renders the dataset as the contract's response types (shared with the viewer through
//! `eval_compare_core::api`), at a given point of the running evaluation's schedule.

use std::collections::BTreeMap;
use std::ops::Range;

use eval_compare_core::api::{
    Agent, AgentListItem, AgentTrainingEvaluationPoint, AsyncFailure, BenchmarkListItem,
    BenchmarkSpecTask, BenchmarkTaskCategory, ContentPart, DefaultKind, EnvVarValue,
    EvalAttemptStatus, EvalLiveSummary, EvalProgress, EvalRemainingAttempt, EvalRun, EvalRunStatus,
    EvalTaskSelection, EvalTaskSplit, HarnessCategory, HarnessDiagnostic, HeldOutReward, Message,
    MessageContent, ModelRunOptions, OptionDefault, OptionType, RecordedRunOptions, RolloutStatus,
    RunOptionMetadata, SecretRef, Step, TaskSplit, TrainingAlgorithm, TrainingCheckpoint,
    TrainingRun, TrainingRunStatus, Trajectory, TrajectoryMetadata, TrajectoryRewardComponent,
    TrajectoryRolloutStatus, TrajectoryStatus,
};

use crate::dataset::catalog::{
    checkpoint_created_at, checkpoint_id, AGENT_CREATED_AT, AGENT_ID, AGENT_NAME, BASE_MODEL_SLUG,
    BENCH_V2, ORGANIZATION_ID, PIPELINE_RUN_ID, PRODUCTION_MODEL_SLUG, TRAINING_CREATED_AT,
    TRAINING_CREATED_BY, TRAINING_RUN_ID, TRAINING_RUN_NAME,
};
use crate::dataset::live::{AttemptState, Progress, RunStatus};
use crate::dataset::outcome::{scaled, Ending, FailureNote, Grade};
use crate::dataset::runs::{
    held_out_tasks, Attempt, EvalRun as RunRecord, HeldOutRound, Lifecycle, Recorded, Settings,
    DEFAULT_EXECUTION_TIMEOUT_SECONDS, DEFAULT_TEMPERATURE, DEFAULT_TOP_P, STANDARD_SETTINGS,
};
use crate::dataset::scorecard_scale::FINAL_STEP;
use crate::dataset::suites;
use crate::dataset::tasks::{Benchmark, Split, Task};
use crate::dataset::transcript;
use crate::dataset::Dataset;

/// The agent's description.
const AGENT_DESCRIPTION: &str = "Coding agent that repairs small Python repositories.";
/// The runtime every task runs in.
const RUNTIME_ID: &str = "rt_codefix_py312";

/// The one agent.
pub fn agent(data: &Dataset) -> Agent {
    Agent {
        agent_id: AGENT_ID.into(),
        organization_id: ORGANIZATION_ID.into(),
        name: AGENT_NAME.into(),
        description: Some(AGENT_DESCRIPTION.into()),
        created_at: AGENT_CREATED_AT.to_string(),
        updated_at: data
            .benchmarks
            .iter()
            .map(|b| b.created_at)
            .max()
            .unwrap_or(AGENT_CREATED_AT)
            .to_string(),
        benchmark_count: data.benchmarks.len() as u64,
        production_model_slug: Some(PRODUCTION_MODEL_SLUG.into()),
    }
}

/// The one agent as a list item.
pub fn agent_item(data: &Dataset) -> AgentListItem {
    AgentListItem {
        is_deployed: true,
        ..AgentListItem::from_shared(agent(data))
    }
}

/// A benchmark version as listed.
pub fn benchmark(data: &Dataset, bench: &Benchmark) -> BenchmarkListItem {
    BenchmarkListItem {
        bench_id: bench.bench_id.into(),
        agent_id: Some(AGENT_ID.into()),
        organization_id: ORGANIZATION_ID.into(),
        name: bench.name.into(),
        description: bench.description.into(),
        visibility: "private".into(),
        family: None,
        created_at: bench.created_at.to_string(),
        updated_at: bench.created_at.to_string(),
        eval_run_count: data
            .runs
            .iter()
            .filter(|r| r.plan.bench_id == bench.bench_id)
            .count() as i64,
    }
}

/// The task's category as a `BenchmarkTaskCategory`.
pub fn category(task: &Task) -> BenchmarkTaskCategory {
    let spec = suites::category(task.category);
    BenchmarkTaskCategory {
        task_category_id: spec.id.into(),
        label: spec.label.into(),
    }
}

/// A task of a benchmark version.
pub fn spec_task(task: &Task) -> BenchmarkSpecTask {
    let mut env_vars = BTreeMap::new();
    env_vars.insert(
        "CODEFIX_MODULE".to_owned(),
        EnvVarValue::Plain(task.module.clone()),
    );
    env_vars.insert(
        "GRADER_TOKEN".to_owned(),
        EnvVarValue::Secret(SecretRef {
            secret_ref: "codefix-grader-token".into(),
        }),
    );
    BenchmarkSpecTask {
        task_id: task.task_id.clone(),
        label: Some(task.label.clone()),
        split: task.split.map(|split| match split {
            Split::Train => TaskSplit::Train,
            Split::Test => TaskSplit::Test,
        }),
        input_message: Some(task.input_message.clone()),
        task_categories: vec![category(task)],
        runtime_id: Some(RUNTIME_ID.into()),
        run_command: Some("python /app/harness.py".into()),
        build_status: Some("ready".into()),
        env_vars,
    }
}

/// The wire value of a run's lifecycle status.
pub fn run_status(status: RunStatus) -> EvalRunStatus {
    match status {
        RunStatus::Running => EvalRunStatus::Running,
        RunStatus::Completed => EvalRunStatus::Completed,
        RunStatus::Failed => EvalRunStatus::Failed,
    }
}

/// The options an evaluation run recorded: what its plan says it set (the other settings came
/// from its training run or the evaluation defaults).
pub fn eval_options(
    settings: &Settings,
    recorded: Recorded,
    max_samples: Option<u32>,
) -> RecordedRunOptions {
    let base = RecordedRunOptions {
        evaluation_max_samples: max_samples.map(i64::from),
        evaluation_samples_per_task: Some(i64::from(settings.samples_per_task)),
        evaluation_max_active_rollouts: Some(64),
        ..RecordedRunOptions::default()
    };
    let limits = RecordedRunOptions {
        max_output_tokens_per_step: Some(i64::from(settings.max_output_tokens_per_step)),
        max_total_tokens_per_trajectory: Some(i64::from(settings.max_total_tokens_per_trajectory)),
        max_turns_per_trajectory: Some(i64::from(settings.max_turns)),
        execution_timeout_seconds: Some(i64::from(settings.execution_timeout_seconds)),
        ..base.clone()
    };
    match recorded {
        Recorded::All => RecordedRunOptions {
            temperature: Some(settings.temperature),
            top_p: Some(settings.top_p),
            ..limits
        },
        Recorded::NoSampling => limits,
        Recorded::SamplesOnly => base,
    }
}

/// One evaluation option as `GET /api/v1/eval/options` lists it.
fn option(
    option_type: OptionType,
    bounds: (Option<f64>, Option<f64>),
    default: Option<OptionDefault>,
    description: &str,
) -> RunOptionMetadata {
    RunOptionMetadata {
        option_type,
        min: bounds.0,
        max: bounds.1,
        default,
        choices: None,
        default_kind: DefaultKind::Fixed,
        description: description.into(),
    }
}

/// The evaluation options of a model on the demo's benchmark versions, with their defaults
/// (the same for every supported model and version).
pub fn model_run_options(model: &str) -> ModelRunOptions {
    use OptionType::{Integer, Number};
    let n = |x: f64| Some(OptionDefault::Number(x));
    let mut options = BTreeMap::new();
    let mut add = |key: &str, metadata: RunOptionMetadata| {
        options.insert(key.to_owned(), metadata);
    };
    add(
        "temperature",
        option(
            Number,
            (Some(0.0), Some(2.0)),
            n(DEFAULT_TEMPERATURE),
            "Sampling temperature.",
        ),
    );
    add(
        "top_p",
        option(
            Number,
            (Some(0.0), Some(1.0)),
            n(DEFAULT_TOP_P),
            "Nucleus sampling probability.",
        ),
    );
    add(
        "top_k",
        option(
            Integer,
            (Some(-1.0), None),
            n(-1.0),
            "Top-k sampling limit; -1 disables it.",
        ),
    );
    add(
        "reasoning_effort",
        RunOptionMetadata {
            choices: Some(["off", "low", "medium", "high"].map(str::to_owned).to_vec()),
            ..option(
                OptionType::Text,
                (None, None),
                Some(OptionDefault::Text("medium".into())),
                "Reasoning level; `off` disables thinking.",
            )
        },
    );
    add(
        "evaluation_max_samples",
        option(
            Integer,
            (Some(1.0), None),
            None,
            "Distinct tasks to evaluate; unset runs every task in scope.",
        ),
    );
    add(
        "evaluation_samples_per_task",
        option(
            Integer,
            (Some(1.0), Some(16.0)),
            n(1.0),
            "Attempts per task.",
        ),
    );
    add(
        "evaluation_max_active_rollouts",
        option(
            Integer,
            (Some(1.0), Some(512.0)),
            n(50.0),
            "Evaluation attempts running at once.",
        ),
    );
    add(
        "evaluation_collection_timeout_seconds",
        option(
            Number,
            (Some(1.0), None),
            n(7200.0),
            "How long to wait for outstanding attempts.",
        ),
    );
    add(
        "max_output_tokens_per_step",
        RunOptionMetadata {
            default_kind: DefaultKind::Computed,
            ..option(
                Integer,
                (Some(1.0), None),
                None,
                "Output tokens per model call; defaults to the model's context.",
            )
        },
    );
    add(
        "max_total_tokens_per_trajectory",
        option(
            Integer,
            (Some(1024.0), Some(2_097_152.0)),
            n(262_144.0),
            "Output tokens across one attempt.",
        ),
    );
    add(
        "max_turns_per_trajectory",
        option(
            Integer,
            (Some(1.0), Some(500.0)),
            n(125.0),
            "Agent and environment turns per attempt.",
        ),
    );
    add(
        "execution_timeout_seconds",
        option(
            Integer,
            (Some(1.0), Some(36_000.0)),
            n(f64::from(DEFAULT_EXECUTION_TIMEOUT_SECONDS)),
            "Time limit per attempt, starting after sandbox startup.",
        ),
    );
    ModelRunOptions {
        base_model_slug: model.into(),
        options,
    }
}

fn run_failure(run: &RunRecord) -> Option<AsyncFailure> {
    let Lifecycle::Failed { failure, .. } = run.plan.lifecycle else {
        return None;
    };
    let mut context = serde_json::Map::new();
    context.insert("runtime_id".into(), failure.runtime_id.into());
    context.insert(
        "started_attempts".into(),
        (run.attempts.len() as u64).into(),
    );
    Some(AsyncFailure {
        failure_type: failure.kind.into(),
        code: failure.code.into(),
        message: failure.message.into(),
        context,
    })
}

fn task_selection(run: &RunRecord) -> EvalTaskSelection {
    EvalTaskSelection {
        split: EvalTaskSplit::Test,
        available_task_count: u64::from(run.available_tasks),
        selected_task_count: u64::from(run.selected_tasks),
        max_samples: run.plan.max_samples.map(i64::from),
    }
}

/// An evaluation run at `running` (the running evaluation's progress).
pub fn eval_run(run: &RunRecord, running: Progress) -> EvalRun {
    let progress = run.progress(running);
    let snapshot = run.snapshot(progress);
    let step = run.plan.checkpoint_step;
    EvalRun {
        eval_run_id: run.plan.eval_run_id.clone(),
        bench_id: run.plan.bench_id.into(),
        agent_id: Some(run.agent_id().into()),
        display_name: Some(run.plan.display_name.clone()),
        base_model_slug: Some(BASE_MODEL_SLUG.into()),
        options: eval_options(&run.plan.settings, run.plan.recorded, run.plan.max_samples),
        status: Some(run_status(snapshot.status)),
        deployment_id: None,
        parent_checkpoint_id: step.map(checkpoint_id),
        training_run_id: step.map(|_| TRAINING_RUN_ID.into()),
        step: step.map(i64::from),
        reward_mean: (snapshot.status == RunStatus::Completed)
            .then(|| snapshot.provisional_mean())
            .flatten(),
        total_rollouts: Some(i64::from(run.total_rollouts)),
        task_selection: Some(task_selection(run)),
        created_at: run.plan.created_at.to_string(),
        updated_at: run.updated_at(progress).to_string(),
        completed_at: run.finished_at(progress).map(|t| t.to_string()),
        failure: run_failure(run),
    }
}

/// An evaluation run's progress.
pub fn eval_progress(run: &RunRecord, running: Progress) -> EvalProgress {
    let snapshot = run.snapshot(run.progress(running));
    let completed = snapshot.status == RunStatus::Completed;
    EvalProgress {
        eval_run_id: run.plan.eval_run_id.clone(),
        status: Some(run_status(snapshot.status)),
        failure: run_failure(run),
        terminal_rollouts: i64::from(snapshot.terminal()),
        total_rollouts: i64::from(run.total_rollouts),
        task_selection: Some(task_selection(run)),
        live: Some(EvalLiveSummary {
            waiting_rollouts: u64::from(snapshot.waiting),
            running_rollouts: u64::from(snapshot.running),
            awaiting_result_rollouts: u64::from(snapshot.awaiting),
            scored_rollouts: u64::from(snapshot.scored),
            failed_rollouts: u64::from(snapshot.failed),
            cancelled_rollouts: u64::from(snapshot.cancelled),
            provisional_reward_mean: snapshot.provisional_mean(),
            final_reward_mean: if completed {
                snapshot.provisional_mean()
            } else {
                None
            },
        }),
    }
}

/// An outstanding attempt, or `None` once it has finished.
pub fn remaining_attempt(
    bench: &Benchmark,
    run: &RunRecord,
    attempt: &Attempt,
    progress: Progress,
) -> Option<EvalRemainingAttempt> {
    let task = &bench.tasks[attempt.task];
    let (status, started) = match attempt.state(progress) {
        AttemptState::Finished => return None,
        AttemptState::Waiting => (EvalAttemptStatus::Waiting, false),
        AttemptState::Running { .. } => (EvalAttemptStatus::Running, true),
        AttemptState::AwaitingResult => (EvalAttemptStatus::AwaitingResult, true),
    };
    let ids = run.ids(bench, attempt);
    Some(EvalRemainingAttempt {
        sample_id: ids.sample_id(),
        task_id: task.task_id.clone(),
        task_label: Some(task.label.clone()),
        trajectory_group_id: ids.group_id(),
        policy_step: run.plan.checkpoint_step.map(i64::from),
        status,
        admitted_at: started.then(|| run.timestamp_at(attempt.window.start).to_string()),
        trajectory_id: started.then(|| ids.trajectory_id()),
    })
}

/// Steps recorded by an attempt at `progress`.
pub fn recorded_steps(attempt: &Attempt, progress: Progress) -> u32 {
    let total = attempt.outcome.num_steps;
    match attempt.state(progress) {
        AttemptState::Waiting => 0,
        AttemptState::Running { done } => {
            ((f64::from(total) * done) as u32).clamp(total.min(1), total)
        }
        AttemptState::AwaitingResult | AttemptState::Finished => total,
    }
}

fn diagnostic(note: &FailureNote) -> HarnessDiagnostic {
    HarnessDiagnostic {
        category: HarnessCategory::from(note.category),
        exception_chain: note.exception_chain.clone(),
        locations: vec![note.location.clone()],
        preceding_tracebacks: Vec::new(),
        exit_code: note.exit_code,
        exception_messages: vec![note.message.clone()],
    }
}

/// A trajectory's list entry at `progress` (the attempt must have started).
pub fn trajectory_metadata(
    bench: &Benchmark,
    run: &RunRecord,
    attempt: &Attempt,
    progress: Progress,
) -> TrajectoryMetadata {
    let state = attempt.state(progress);
    let finished = state == AttemptState::Finished;
    let ending = attempt.outcome.ending;
    let status = match state {
        AttemptState::Finished if ending == Ending::Cancelled => TrajectoryStatus::Aborted,
        AttemptState::Finished => TrajectoryStatus::Completed,
        AttemptState::AwaitingResult => TrajectoryStatus::Finalizing,
        AttemptState::Running { .. } | AttemptState::Waiting => TrajectoryStatus::InProgress,
    };
    let rollout_status = match (finished, ending) {
        (false, _) => RolloutStatus::InProgress,
        (true, Ending::Cancelled) => RolloutStatus::Cancelled,
        (true, e) if e.is_execution_failure() => RolloutStatus::Failed,
        (true, _) => RolloutStatus::Completed,
    };
    let reason = finished.then(|| ending.reason());
    let ids = run.ids(bench, attempt);
    TrajectoryMetadata {
        trajectory_id: ids.trajectory_id(),
        organization_id: ORGANIZATION_ID.into(),
        dataset_id: None,
        dataset_name: None,
        dataset_source: None,
        dataset_gcs_prefix: None,
        trace_id: None,
        model_id: Some(
            run.plan
                .checkpoint_step
                .map_or_else(|| BASE_MODEL_SLUG.to_owned(), checkpoint_id),
        ),
        model_association_source: None,
        model_association_metadata: None,
        source: "eval".into(),
        status: Some(status),
        termination_reason: reason.clone(),
        reward: attempt.reward_at(progress),
        num_steps: Some(i64::from(recorded_steps(attempt, progress))),
        created_at: run.timestamp_at(attempt.window.start).to_string(),
        training_run_id: None,
        task_id: attempt
            .task_recorded
            .then(|| bench.task_ids.get(attempt.task).to_owned()),
        policy_step: run.plan.checkpoint_step.map(i64::from),
        rollout: Some(TrajectoryRolloutStatus {
            rollout_id: ids.rollout_id(),
            status: rollout_status,
            termination_reason: reason,
            harness_diagnostic: if finished {
                attempt.outcome.failure.as_deref().map(diagnostic)
            } else {
                None
            },
        }),
    }
}

fn component_explanation(name: &str, value: f64) -> String {
    match name {
        "tests_passed" => format!("{value} of 8 hidden tests passed"),
        "patch_applies" if value > 0.0 => "the submitted patch applied cleanly".into(),
        "patch_applies" => "the submission was not a patch that applies".into(),
        _ => "ruff score of the patched files (informative, weight 0)".into(),
    }
}

/// The reward components of a grade, in logged order.
pub fn reward_components(grade: &Grade) -> Vec<TrajectoryRewardComponent> {
    grade
        .components()
        .iter()
        .map(|(spec, value)| TrajectoryRewardComponent {
            name: spec.name.into(),
            value: *value,
            scaled_value: scaled(spec, *value),
            weight: spec.weight,
            score_range_min: spec.min,
            score_range_max: spec.max,
            explanation: Some(component_explanation(spec.name, *value)),
        })
        .collect()
}

/// What a trajectory's detail includes besides its metadata.
#[derive(Debug, Clone, Copy)]
pub struct DetailOptions {
    /// Every step.
    pub steps: bool,
    /// The reward components.
    pub reward_components: bool,
}

/// A trajectory's detail at `progress` (the attempt must have started).
pub fn trajectory(
    bench: &Benchmark,
    run: &RunRecord,
    attempt: &Attempt,
    progress: Progress,
    options: DetailOptions,
) -> Trajectory {
    let meta = trajectory_metadata(bench, run, attempt, progress);
    let finished = attempt.state(progress) == AttemptState::Finished;
    let steps = if options.steps {
        steps(
            bench,
            run,
            attempt,
            progress,
            0..recorded_steps(attempt, progress),
        )
    } else {
        Vec::new()
    };
    let components = match (options.reward_components, finished, &attempt.outcome.grade) {
        (true, true, Some(grade)) => reward_components(grade),
        _ => Vec::new(),
    };
    Trajectory {
        gcs_blob_uri: None,
        error: if finished {
            attempt.outcome.failure.as_ref().map(|f| f.message.clone())
        } else {
            None
        },
        steps,
        reward_components: components,
        ..Trajectory::from_shared(meta)
    }
}

/// The steps with indices in `range` of an attempt's transcript at `progress` (below its
/// recorded step count), each holding the conversation so far.
pub fn steps(
    bench: &Benchmark,
    run: &RunRecord,
    attempt: &Attempt,
    progress: Progress,
    range: Range<u32>,
) -> Vec<Step> {
    let finished = attempt.state(progress) == AttemptState::Finished;
    let source = attempt.transcript(run, &bench.tasks[attempt.task], finished);
    transcript::steps(&source, range)
        .into_iter()
        .map(wire_step)
        .collect()
}

fn wire_step(step: transcript::Step) -> Step {
    Step {
        step_index: i64::from(step.index),
        reward: step.reward,
        has_error: step.has_error,
        messages: step
            .messages
            .into_iter()
            .map(|m| Message {
                message_id: m.id,
                role: Some(m.role.into()),
                content: m.content.map(|text| {
                    if m.as_parts {
                        MessageContent::Parts(vec![ContentPart::Text { text }])
                    } else {
                        MessageContent::Text(text)
                    }
                }),
                tool_calls: m.tool_calls,
                tool_response: m.tool_response,
                reasoning: m.reasoning,
                finish_reason: m.finish_reason.map(str::to_owned),
                prompt_tokens: m.prompt_tokens,
                completion_tokens: m.completion_tokens,
            })
            .collect(),
    }
}

/// The training run.
pub fn training_run(data: &Dataset) -> TrainingRun {
    let bench = data.benchmark(BENCH_V2).map(|b| b.bench_id.to_owned());
    TrainingRun {
        training_run_id: TRAINING_RUN_ID.into(),
        agent_id: Some(AGENT_ID.into()),
        parent_checkpoint_id: None,
        pipeline_run_id: Some(PIPELINE_RUN_ID.into()),
        display_name: Some(TRAINING_RUN_NAME.into()),
        status: TrainingRunStatus::Succeeded,
        bench_id: bench,
        base_model_slug: BASE_MODEL_SLUG.into(),
        options: RecordedRunOptions {
            algorithm: Some(TrainingAlgorithm::Grpo),
            train_on_truncation: Some(false),
            train_on_error: Some(false),
            train_on_timeout: Some(false),
            evaluation_enabled: Some(true),
            evaluation_frequency: Some(100),
            evaluation_max_samples: Some(i64::from(held_out_tasks(data.scale))),
            evaluation_samples_per_task: Some(2),
            learning_rate: Some(1e-5),
            lr_warmup_steps: Some(20),
            num_steps: Some(i64::from(FINAL_STEP)),
            train_batch_size: Some(64),
            samples_per_instance: Some(8),
            // Training samples hotter; its held-out evaluations (and so the evaluations of its
            // checkpoints that set nothing else) sample with these overrides.
            temperature: Some(1.0),
            top_p: Some(1.0),
            evaluation_temperature: Some(STANDARD_SETTINGS.temperature),
            evaluation_top_p: Some(STANDARD_SETTINGS.top_p),
            max_turns_per_trajectory: Some(i64::from(STANDARD_SETTINGS.max_turns)),
            max_output_tokens_per_step: Some(i64::from(
                STANDARD_SETTINGS.max_output_tokens_per_step,
            )),
            max_total_tokens_per_trajectory: Some(i64::from(
                STANDARD_SETTINGS.max_total_tokens_per_trajectory,
            )),
            ..RecordedRunOptions::default()
        },
        created_by: TRAINING_CREATED_BY.into(),
        created_at: TRAINING_CREATED_AT.to_string(),
        failure: None,
        has_training_execution: true,
    }
}

/// A committed checkpoint.
pub fn checkpoint(step: u32) -> TrainingCheckpoint {
    TrainingCheckpoint {
        training_run_id: TRAINING_RUN_ID.into(),
        step_index: i64::from(step),
        checkpoint_id: checkpoint_id(step),
        base_model_slug: BASE_MODEL_SLUG.into(),
        is_deployable: step >= 400,
        created_at: Some(checkpoint_created_at(step).to_string()),
    }
}

/// The latest scored checkpoint evaluation of each step on the training run's own benchmark
/// (codefix v2; the series is one line, so the other benchmarks' evaluations are not mixed in),
/// ascending, and whether a checkpoint evaluation of it is still running.
pub fn evaluation_series(
    data: &Dataset,
    running: Progress,
) -> (Vec<AgentTrainingEvaluationPoint>, bool) {
    let mut points = Vec::new();
    let mut active = false;
    for step in data.scale.scorecard.steps() {
        let evals = data
            .runs
            .iter()
            .filter(|r| r.plan.bench_id == BENCH_V2 && r.plan.checkpoint_step == Some(step));
        let mut latest: Option<(&RunRecord, f64)> = None;
        for run in evals {
            let snapshot = run.snapshot(run.progress(running));
            active |= snapshot.status == RunStatus::Running;
            if let (RunStatus::Completed, Some(mean)) =
                (snapshot.status, snapshot.provisional_mean())
            {
                if latest.is_none_or(|(r, _)| r.plan.created_at < run.plan.created_at) {
                    latest = Some((run, mean));
                }
            }
        }
        if let Some((_, reward_mean)) = latest {
            points.push(AgentTrainingEvaluationPoint {
                step: i64::from(step),
                reward_mean,
            });
        }
    }
    (points, active)
}

/// A held-out round.
pub fn held_out(round: &HeldOutRound) -> HeldOutReward {
    HeldOutReward {
        step: i64::from(round.step),
        held_out_reward: round.reward,
        round_completed: Some(round.failed == 0 && round.cancelled == 0),
        expected_samples: Some(i64::from(round.expected)),
        completed_samples: Some(i64::from(round.completed)),
        failed_samples: Some(i64::from(round.failed)),
        cancelled_samples: Some(i64::from(round.cancelled)),
        loaded_trajectories: Some(i64::from(round.loaded)),
    }
}
