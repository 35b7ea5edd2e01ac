//! Decoding contract-shaped payloads: nulls, unknown fields, unknown enum values, round trips.

#![allow(clippy::unwrap_used)]

use eval_compare_core::api::*;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

fn fixture(name: &str) -> Vec<u8> {
    let path = format!("{}/tests/fixtures/api/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|error| panic!("cannot read {path}: {error}"))
}

/// Decodes a fixture, and checks that serializing and decoding again gives the same value.
fn load<T: DeserializeOwned + Serialize + PartialEq + std::fmt::Debug>(name: &str) -> T {
    let value: T = decode(&fixture(name)).unwrap_or_else(|error| panic!("{name}: {error}"));
    let written = serde_json::to_vec(&value).unwrap();
    let again: T = decode(&written).unwrap();
    assert_eq!(again, value, "{name} does not round-trip");
    value
}

/// For fixtures that carry every field and nothing unknown: serializing gives back the same JSON.
fn assert_same_json<T: Serialize>(value: &T, name: &str) {
    let original: Value = serde_json::from_slice(&fixture(name)).unwrap();
    assert_eq!(serde_json::to_value(value).unwrap(), original, "{name}");
}

#[test]
fn organization_keeps_every_key() {
    let organization: Organization = load("organization.json");
    assert_eq!(organization.organization_id(), Some("org_123"));
    assert_eq!(
        organization.0.get("name").map(String::as_str),
        Some("Acme Research")
    );
    assert_same_json(&organization, "organization.json");
}

#[test]
fn agents_page_and_agent() {
    let page: AgentListPage = load("agents_page.json");
    assert_eq!(page.items.len(), 2);
    assert_eq!(page.total_count, 7);
    assert_eq!(page.next_cursor(), Some("c2"));
    assert!(page.has_more());
    assert_eq!(page.items[0].description, None);
    assert!(page.items[1].is_deployed);
    assert_same_json(&page, "agents_page.json");

    let agent: Agent = load("agent.json");
    assert_eq!(agent.production_model_slug.as_deref(), Some("acme/swe-2"));
    assert_same_json(&agent, "agent.json");
}

#[test]
fn benchmarks_page_applies_contract_defaults() {
    let page: BenchmarkPage = load("benchmarks_page.json");
    assert!(!page.has_more);
    assert_eq!(page.next_cursor, None);
    let second = &page.items[1];
    assert_eq!(second.agent_id, None);
    assert_eq!(second.description, "");
    assert_eq!(second.visibility, "private");
    assert_eq!(second.eval_run_count, 0);
    assert_eq!(page.items[0].eval_run_count, 4);
}

#[test]
fn tasks_keep_categories_null_split_and_unknown_split() {
    let page: BenchmarkTaskPage = load("tasks_page.json");
    let first = &page.items[0];
    assert_eq!(first.label.as_deref(), Some("Fix the parser"));
    assert_eq!(first.split, Some(TaskSplit::Test));
    assert_eq!(
        first.task_categories,
        vec![
            BenchmarkTaskCategory {
                task_category_id: "cat-parsing".into(),
                label: "Parsing".into()
            },
            BenchmarkTaskCategory {
                task_category_id: "cat-easy".into(),
                label: "Easy".into()
            },
        ]
    );
    assert_eq!(
        first.env_vars.get("TOKEN"),
        Some(&EnvVarValue::Secret(SecretRef {
            secret_ref: "github-token".into()
        }))
    );
    assert_eq!(
        first.env_vars.get("MODE"),
        Some(&EnvVarValue::Plain("strict".into()))
    );
    assert_eq!(page.items[1].split, None);
    assert_eq!(page.items[1].label, None);
    assert_eq!(
        page.items[2].split,
        Some(TaskSplit::Other("holdout".into()))
    );
    assert!(page.items[2].task_categories.is_empty());
}

#[test]
fn eval_run_reads_every_option() {
    let run: EvalRun = load("eval_run.json");
    assert_eq!(run.status, Some(EvalRunStatus::Completed));
    assert_eq!(run.reward_mean, Some(0.5125));
    assert_eq!(run.step, Some(400));
    assert_eq!(run.training_run_id.as_deref(), Some("tr_run_7"));
    assert_eq!(run.parent_checkpoint_id.as_deref(), Some("ckpt_400"));
    assert_eq!(run.total_rollouts, Some(400));
    let selection = run.task_selection.as_ref().unwrap();
    assert_eq!(selection.split, EvalTaskSplit::Test);
    assert_eq!(selection.selected_task_count, 100);
    let options = &run.options;
    assert_eq!(options.algorithm, Some(TrainingAlgorithm::Grpo));
    assert_eq!(options.reasoning_effort, Some(ReasoningEffort::High));
    assert_eq!(
        options.evaluation_reasoning_effort,
        Some(ReasoningEffort::Medium)
    );
    assert_eq!(options.evaluation_top_k, None);
    assert_eq!(options.train_on_timeout, None);
    assert_eq!(options.evaluation_collection_timeout_seconds, Some(1800.5));
    assert_eq!(options.max_turns_per_trajectory, Some(50));
    assert_eq!(options.max_total_tokens_per_trajectory, Some(65536));
    assert_same_json(&run, "eval_run.json");
}

#[test]
fn eval_runs_keep_unknown_status_and_ignore_unknown_fields() {
    let page: EvalRunPage = load("eval_runs_page_forward.json");
    let legacy = &page.items[0];
    assert_eq!(
        legacy.status,
        Some(EvalRunStatus::Other("quarantined".into()))
    );
    assert!(!legacy.status.as_ref().unwrap().is_known());
    assert_eq!(legacy.agent_id, None);
    assert_eq!(legacy.options.temperature, Some(0.2));
    assert_eq!(legacy.task_selection, None);
    let failure = legacy.failure.as_ref().unwrap();
    assert_eq!(failure.code, "sandbox_lost");
    assert_eq!(failure.context.get("attempts"), Some(&Value::from(3)));
    let written = serde_json::to_value(legacy).unwrap();
    assert_eq!(written["status"], "quarantined");

    let nulls = &page.items[1];
    assert_eq!(nulls.status, None);
    assert_eq!(nulls.reward_mean, None);
    assert_eq!(nulls.options, RecordedRunOptions::default());
}

#[test]
fn progress_with_live_summary() {
    let progress: EvalProgress = load("progress.json");
    assert_eq!(progress.status, Some(EvalRunStatus::Running));
    assert_eq!(progress.terminal_rollouts, 37);
    let live = progress.live.as_ref().unwrap();
    assert_eq!(live.failed_rollouts, 5);
    assert_eq!(live.provisional_reward_mean, Some(0.4));
    assert_eq!(live.final_reward_mean, None);
    assert_eq!(
        progress.task_selection.as_ref().unwrap().split,
        EvalTaskSplit::All
    );
    assert_same_json(&progress, "progress.json");
}

#[test]
fn remaining_work_keeps_unknown_attempt_status() {
    let page: EvalRemainingWorkPage = load("remaining_work.json");
    assert!(page.supported);
    assert!(page.page_reset);
    assert_eq!(page.items[0].status, EvalAttemptStatus::Running);
    assert_eq!(
        page.items[1].status,
        EvalAttemptStatus::Other("queued_for_gpu".into())
    );
    assert_eq!(page.items[1].trajectory_id, None);
    assert_same_json(&page, "remaining_work.json");
}

#[test]
fn trajectory_rewards_page() {
    let page: EvalTrajectoryRewardsPage = load("trajectory_rewards_page.json");
    assert_eq!(page.eval_run_id, "er_42");
    assert_eq!(page.items[0].task_id, None);
    assert_eq!(page.items[2].reward, 0.25);
    assert_eq!(page.into_items().len(), 3);
}

#[test]
fn trajectories_keep_rollout_state_and_unknown_values() {
    let page: TrajectoryPage = load("trajectories_page.json");
    let done = &page.items[0];
    assert_eq!(done.status, Some(TrajectoryStatus::Completed));
    assert_eq!(done.termination_reason, Some(TerminationReason::EnvDone));
    assert_eq!(
        done.rollout.as_ref().unwrap().status,
        RolloutStatus::Completed
    );

    let running = &page.items[1];
    assert_eq!(running.reward, None);
    assert_eq!(running.termination_reason, None);
    let rollout = running.rollout.as_ref().unwrap();
    assert_eq!(rollout.status, RolloutStatus::InProgress);
    assert_eq!(rollout.harness_diagnostic, None);

    let sandbox = &page.items[2];
    assert_eq!(
        sandbox.termination_reason,
        Some(TerminationReason::Sandbox("SANDBOX_OOM".into()))
    );
    assert_eq!(sandbox.reward, Some(0.0));
    let diagnostic = sandbox
        .rollout
        .as_ref()
        .unwrap()
        .harness_diagnostic
        .as_ref()
        .unwrap();
    assert_eq!(diagnostic.category, HarnessCategory::Server);
    assert_eq!(diagnostic.exit_code, Some(137));
    assert_eq!(
        diagnostic.preceding_tracebacks[0].exception_chain,
        ["TimeoutError"]
    );

    let strange = &page.items[3];
    assert_eq!(
        strange.termination_reason,
        Some(TerminationReason::Other("QUANTUM_DECOHERENCE".into()))
    );
    assert_eq!(
        strange.status,
        Some(TrajectoryStatus::Other("teleported".into()))
    );
    let rollout = strange.rollout.as_ref().unwrap();
    assert_eq!(
        rollout.status,
        RolloutStatus::Other("PAUSED_BY_OPERATOR".into())
    );
    assert_eq!(
        rollout.harness_diagnostic.as_ref().unwrap().category,
        HarnessCategory::Unrecognized("cosmic_rays".into())
    );
    let written = serde_json::to_value(strange).unwrap();
    assert_eq!(written["termination_reason"], "QUANTUM_DECOHERENCE");
    assert_eq!(written["rollout"]["status"], "PAUSED_BY_OPERATOR");
    assert_eq!(
        written["rollout"]["harness_diagnostic"]["category"],
        "cosmic_rays"
    );
}

#[test]
fn trajectory_detail_with_reward_components() {
    let trajectory: Trajectory = load("trajectory_detail.json");
    assert_eq!(trajectory.error.as_deref(), Some("context window exceeded"));
    assert_eq!(
        trajectory.termination_reason,
        Some(TerminationReason::Truncation)
    );
    let components = &trajectory.reward_components;
    assert_eq!(components.len(), 2);
    assert_eq!(components[0].name, "tests_passed");
    assert_eq!(components[0].scaled_value, 0.7);
    assert_eq!(components[0].score_range_max, 10.0);
    assert_eq!(components[1].weight, 0.0);
    assert_eq!(components[1].explanation, None);
    let metadata = trajectory.metadata();
    assert_eq!(metadata.trajectory_id, "traj_1");
    assert_eq!(metadata.reward, Some(0.0));
    assert_eq!(metadata.policy_step, Some(400));
    assert_same_json(&trajectory, "trajectory_detail.json");
}

#[test]
fn steps_with_text_parts_images_and_unknown_parts() {
    let page: StepPage = load("steps_page.json");
    let first = &page.items[0];
    assert_eq!(
        first.messages[0].content,
        Some(MessageContent::Text("You are a careful engineer.".into()))
    );
    let Some(MessageContent::Parts(parts)) = &first.messages[1].content else {
        panic!("expected parts");
    };
    assert_eq!(
        parts[0],
        ContentPart::Text {
            text: "What is in this screenshot?".into()
        }
    );
    assert_eq!(
        parts[1],
        ContentPart::Image {
            artifact_id: "art_9".into()
        }
    );
    assert_eq!(
        parts[2],
        ContentPart::Text {
            text: "untyped text part".into()
        }
    );
    let ContentPart::Other(audio) = &parts[3] else {
        panic!("expected an unknown part");
    };
    assert_eq!(audio["type"], "audio");
    assert_eq!(audio["seconds"], 3);
    assert_eq!(
        first.messages[1].content.as_ref().unwrap().text(),
        "What is in this screenshot?\nuntyped text part"
    );

    let second = &page.items[1];
    assert!(second.has_error);
    assert_eq!(second.reward, Some(0.5));
    let call = &second.messages[0];
    assert_eq!(call.content, None);
    assert_eq!(call.finish_reason.as_deref(), Some("tool_calls"));
    assert_eq!(call.prompt_tokens, Some(1200));
    assert_eq!(call.completion_tokens, Some(85));
    assert!(call.tool_calls.as_deref().unwrap().contains("bash"));
    assert_eq!(call.reasoning.as_deref(), Some("List the files first."));

    let sparse = &page.items[2];
    assert!(!sparse.has_error);
    assert_eq!(sparse.reward, None);
    assert_eq!(sparse.messages[0].role, None);

    let written = serde_json::to_value(&page).unwrap();
    assert_eq!(
        written["items"][0]["messages"][1]["content"][2]["type"],
        "text"
    );
    assert_eq!(
        written["items"][0]["messages"][1]["content"][3]["seconds"],
        3
    );
}

#[test]
fn training_runs_checkpoints_series_and_held_out() {
    let runs: TrainingRunPage = load("training_runs_page.json");
    assert_eq!(runs.items[0].status, TrainingRunStatus::Running);
    assert_eq!(
        runs.items[1].status,
        TrainingRunStatus::Other("hibernating".into())
    );
    assert_eq!(
        runs.items[1].options.algorithm,
        Some(TrainingAlgorithm::Other("dpo".into()))
    );
    assert_eq!(runs.items[1].agent_id, None);

    let checkpoints: TrainingCheckpointPage = load("checkpoints_page.json");
    assert_eq!(checkpoints.items[1].step_index, 400);
    assert!(!checkpoints.items[1].is_deployable);

    let series: AgentTrainingEvaluationSeriesPage = load("evaluation_series_page.json");
    assert!(series.has_active_work);
    assert_eq!(series.items[2].step, 400);
    assert_eq!(series.items[2].reward_mean, 0.5125);
    assert_same_json(&series, "evaluation_series_page.json");

    let held_out: HeldOutRewardsByStepPage = load("held_out_page.json");
    assert_eq!(held_out.training_run_id, "tr_run_7");
    assert_eq!(held_out.items[0].failed_samples, Some(15));
    assert_eq!(held_out.items[0].round_completed, Some(false));
    assert_eq!(held_out.items[1].loaded_trajectories, None);
    assert_eq!(held_out.next_cursor(), Some("h2"));
    assert_same_json(&held_out, "held_out_page.json");
}

#[test]
fn error_envelopes() {
    let envelope: ApiErrorEnvelope = load("error_invalid_cursor.json");
    assert_eq!(envelope.error.error_type, ErrorType::InvalidRequest);
    assert_eq!(envelope.error.code, "invalid_cursor");
    assert_eq!(envelope.error.param.as_deref(), Some("cursor"));
    assert_same_json(&envelope, "error_invalid_cursor.json");

    let unknown: ApiErrorEnvelope = load("error_unknown_type.json");
    assert_eq!(
        unknown.error.error_type,
        ErrorType::Other("cosmic_error".into())
    );
    assert_eq!(unknown.error.param, None);
    assert_eq!(unknown.error.context.get("retry_in"), Some(&Value::from(5)));
}
