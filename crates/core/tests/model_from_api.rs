//! Joining Trajectory API rewards with trajectory metadata into the model.

#![allow(clippy::unwrap_used)]

use eval_compare_core::api::{EvalRun, EvalTrajectoryReward, TrajectoryMetadata};
use eval_compare_core::coverage::coverage;
use eval_compare_core::model::{
    classify_metadata, run_info_from_api, ApiRun, DuplicateConflict, OutcomeClass, RunIdx,
    RunSetBuilder, TrajectoryFlags,
};
use serde_json::{json, Value};

fn eval_run(id: &str) -> EvalRun {
    serde_json::from_value(json!({
        "eval_run_id": id,
        "bench_id": "bench_v2",
        "agent_id": null,
        "display_name": "Step 400",
        "base_model_slug": "org/base-7b",
        "options": {
            "temperature": 0.7,
            "evaluation_temperature": 1.0,
            "reasoning_effort": "high",
            "evaluation_samples_per_task": 4,
            "evaluation_max_samples": 50,
            "max_turns_per_trajectory": 30
        },
        "status": "running",
        "step": 400,
        "training_run_id": "tr_1",
        "parent_checkpoint_id": "ckpt_400",
        "reward_mean": 0.5,
        "total_rollouts": 200,
        "task_selection": {"split": "test", "available_task_count": 80, "selected_task_count": 50, "max_samples": 50},
        "created_at": "2026-01-01T00:00:00Z",
        "updated_at": "2026-01-01T00:00:00Z",
        "failure": {"type": "x", "code": "quota", "message": "ran out"}
    }))
    .unwrap()
}

fn reward(id: &str, task: Option<&str>, value: f64) -> EvalTrajectoryReward {
    serde_json::from_value(json!({"trajectory_id": id, "reward": value, "task_id": task})).unwrap()
}

fn metadata(id: &str, task: Option<&str>, extra: Value) -> TrajectoryMetadata {
    let mut base = json!({
        "trajectory_id": id,
        "organization_id": "org",
        "source": "eval",
        "created_at": "2026-01-01T00:00:00Z",
        "task_id": task,
    });
    if let (Some(target), Some(fields)) = (base.as_object_mut(), extra.as_object()) {
        for (key, value) in fields {
            target.insert(key.clone(), value.clone());
        }
    }
    serde_json::from_value(base).unwrap()
}

#[test]
fn run_identity_and_options_are_carried_over() {
    let info = run_info_from_api(&eval_run("er_1"), eval_compare_core::model::SourceKind::Api);
    assert_eq!(info.id, "er_1");
    assert_eq!(info.name(), "Step 400");
    assert_eq!(info.base_model.as_deref(), Some("org/base-7b"));
    assert_eq!(info.checkpoint.step, Some(400));
    assert!(info.checkpoint.is_checkpoint());
    assert_eq!(info.bench_id.as_deref(), Some("bench_v2"));
    assert_eq!(info.status.as_deref(), Some("running"));
    assert_eq!(info.failure.as_deref(), Some("quota: ran out"));
    assert_eq!(info.options.evaluation_temperature, Some(1.0));
    assert_eq!(info.options.reasoning_effort.as_deref(), Some("high"));
    assert_eq!(info.options.samples_per_task, Some(4));
    assert_eq!(info.options.max_tasks, Some(50));
    let selection = info.task_selection.unwrap();
    assert_eq!(
        (
            selection.available,
            selection.selected,
            selection.max_samples
        ),
        (80, 50, Some(50))
    );
    assert_eq!(info.total_rollouts, Some(200));
    assert_eq!(info.platform_reward_mean, Some(0.5));
    assert_eq!(info.source, eval_compare_core::model::SourceKind::Api);
}

#[test]
fn endings_are_classed_from_reason_then_rollout_then_status() {
    let done = metadata(
        "t",
        None,
        json!({"termination_reason": "ENV_DONE", "status": "completed"}),
    );
    assert_eq!(
        classify_metadata(&done, true),
        (OutcomeClass::Graded, Some("ENV_DONE"))
    );
    assert_eq!(
        classify_metadata(&done, false),
        (OutcomeClass::Ungraded, Some("ENV_DONE"))
    );

    let rollout_reason = metadata(
        "t",
        None,
        json!({"rollout": {"rollout_id": "r", "status": "COMPLETED", "termination_reason": "MAX_STEPS"}}),
    );
    assert_eq!(
        classify_metadata(&rollout_reason, false),
        (OutcomeClass::CutOff, Some("MAX_STEPS"))
    );

    let running = metadata("t", None, json!({"status": "in_progress"}));
    assert_eq!(
        classify_metadata(&running, false),
        (OutcomeClass::Unfinished, Some("in_progress"))
    );

    let rollout_running = metadata(
        "t",
        None,
        json!({"status": "completed", "rollout": {"rollout_id": "r", "status": "IN_PROGRESS"}}),
    );
    assert_eq!(
        classify_metadata(&rollout_running, false).0,
        OutcomeClass::Unfinished
    );

    let aborted = metadata("t", None, json!({"status": "aborted"}));
    assert_eq!(
        classify_metadata(&aborted, false),
        (OutcomeClass::Other, Some("aborted"))
    );

    let bare = metadata("t", None, json!({}));
    assert_eq!(classify_metadata(&bare, false), (OutcomeClass::Other, None));

    let unknown = metadata(
        "t",
        None,
        json!({"termination_reason": "BRAND_NEW", "status": "completed"}),
    );
    assert_eq!(
        classify_metadata(&unknown, true),
        (OutcomeClass::Other, Some("BRAND_NEW"))
    );
}

#[test]
fn rewards_and_metadata_join_with_every_gap_counted() {
    let run = eval_run("er_1");
    let rewards = vec![
        reward("t_ok", Some("a"), 1.0),
        reward("t_conflict", Some("b"), 0.0),
        reward("t_mismatch", Some("c"), 0.25),
        reward("t_reward_only", Some("d"), 1.0),
        reward("t_ok", Some("a"), 0.0),
        reward("t_no_task", None, 1.0),
        reward("t_reward_only", Some("d"), 1.0),
    ];
    let trajectories = vec![
        metadata(
            "t_ok",
            Some("a"),
            json!({"termination_reason": "ENV_DONE", "reward": 1.0}),
        ),
        metadata(
            "t_conflict",
            Some("zzz"),
            json!({"termination_reason": "ENV_DONE"}),
        ),
        metadata(
            "t_mismatch",
            Some("c"),
            json!({"termination_reason": "ENV_DONE", "reward": 0.75}),
        ),
        metadata(
            "t_failed",
            Some("a"),
            json!({"termination_reason": "ERROR"}),
        ),
        metadata(
            "t_meta_reward",
            Some("b"),
            json!({"termination_reason": "TIMEOUT", "reward": 0.5}),
        ),
        metadata("t_running", Some("c"), json!({"status": "in_progress"})),
        metadata("t_ok", Some("a"), json!({"termination_reason": "ERROR"})),
        metadata("t_no_task", None, json!({"termination_reason": "ENV_DONE"})),
    ];
    let mut builder = RunSetBuilder::new();
    let index = builder
        .add_api_run(ApiRun {
            run: &run,
            rewards: &rewards,
            trajectories: &trajectories,
            source: eval_compare_core::model::SourceKind::Files,
            incomplete_load: Some("trajectories: page 3 failed".to_owned()),
        })
        .unwrap();
    let set = builder.build();
    let stored = set.run(index).unwrap();
    assert_eq!(
        stored.info().incomplete_load.as_deref(),
        Some("trajectories: page 3 failed")
    );

    let join = stored.join().unwrap();
    assert_eq!(join.reward_items, 7);
    assert_eq!(join.metadata_items, 8);
    assert_eq!(join.matched, 4);
    assert_eq!(join.rewards_without_metadata, 1);
    assert_eq!(join.metadata_without_reward, 3);
    assert_eq!(join.reward_from_metadata, 1);
    assert_eq!(join.task_conflicts, 1);
    assert_eq!(join.reward_mismatches, 1);
    assert_eq!(join.duplicate_reward_items, 2);
    assert_eq!(join.duplicate_metadata_items, 1);
    // t_ok is repeated with another reward (a conflict); t_reward_only with the same one, and
    // the repeated t_ok metadata without a reward (quiet counts).
    assert_eq!(join.conflicting_duplicates, 1);
    assert_eq!(
        join.conflicting_duplicate_examples,
        [DuplicateConflict {
            trajectory_id: "t_ok".to_owned(),
            listing: "trajectory-rewards".to_owned(),
            kept: Some(1.0),
            ignored: Some(0.0),
        }]
    );
    assert_eq!(join.task_conflict_examples[0].trajectory_id, "t_conflict");
    assert_eq!(
        join.task_conflict_examples[0].metadata_task.as_deref(),
        Some("zzz")
    );
    assert!(!join.is_clean());

    let find = |id: &str| stored.trajectories().find(|t| t.id == id).unwrap();
    let task_id = |t: Option<u32>| t.map(|t| set.task(t).unwrap().id.clone());

    let ok = find("t_ok");
    assert_eq!((ok.class, ok.reward), (OutcomeClass::Graded, Some(1.0)));
    assert!(ok.flags.is_empty());

    let conflict = find("t_conflict");
    assert_eq!(task_id(conflict.task).as_deref(), Some("b"));
    assert!(conflict.flags.contains(TrajectoryFlags::TASK_CONFLICT));
    assert_eq!(conflict.class, OutcomeClass::Graded);

    let mismatch = find("t_mismatch");
    assert_eq!(mismatch.reward, Some(0.25), "trajectory-rewards wins");
    assert!(mismatch.flags.contains(TrajectoryFlags::REWARD_MISMATCH));

    let reward_only = find("t_reward_only");
    assert_eq!(
        (reward_only.class, reward_only.ending),
        (OutcomeClass::Other, None)
    );
    assert!(reward_only
        .flags
        .contains(TrajectoryFlags::REWARD_WITHOUT_METADATA));

    let failed = find("t_failed");
    assert_eq!((failed.class, failed.reward), (OutcomeClass::Failed, None));

    let from_metadata = find("t_meta_reward");
    assert_eq!(
        (from_metadata.class, from_metadata.reward),
        (OutcomeClass::ModelEnding, Some(0.5))
    );
    assert!(from_metadata
        .flags
        .contains(TrajectoryFlags::REWARD_FROM_METADATA));

    assert_eq!(find("t_running").class, OutcomeClass::Unfinished);
    assert_eq!(find("t_no_task").task, None);

    let totals = stored.totals();
    assert_eq!(totals.trajectories, 8);
    assert_eq!(totals.without_task, 1);
    // The unlisted task "zzz" never entered the set: the reward's task was used.
    assert_eq!(set.find_task("zzz"), None);
}

#[test]
fn benchmark_tasks_bring_labels_and_categories() {
    let tasks: Vec<eval_compare_core::api::BenchmarkSpecTask> = serde_json::from_value(json!([
        {"task_id": "a", "label": "Alpha", "split": "test",
         "task_categories": [{"task_category_id": "repo:x", "label": "x"}]},
        {"task_id": "b", "split": "weird_split"}
    ]))
    .unwrap();
    let mut builder = RunSetBuilder::new();
    builder.add_api_tasks(&tasks).unwrap();
    let set = builder.build();
    let a = set.task(set.find_task("a").unwrap()).unwrap();
    assert_eq!((a.name(), a.split.as_deref()), ("Alpha", Some("test")));
    assert_eq!(set.categories()[a.cluster().unwrap() as usize].label, "x");
    let b = set.task(set.find_task("b").unwrap()).unwrap();
    assert_eq!(
        (b.name(), b.split.as_deref(), b.cluster()),
        ("b", Some("weird_split"), None)
    );
}

/// The coverage warnings of one run joined from `rewards` and `trajectories`.
fn warnings_of(
    rewards: &[EvalTrajectoryReward],
    trajectories: &[TrajectoryMetadata],
) -> Vec<(String, String)> {
    let run = eval_run("er_dup");
    let mut builder = RunSetBuilder::new();
    builder
        .add_api_run(ApiRun {
            run: &run,
            rewards,
            trajectories,
            source: eval_compare_core::model::SourceKind::Api,
            incomplete_load: None,
        })
        .unwrap();
    let set = builder.build();
    coverage(&set, RunIdx(0), &[])
        .unwrap()
        .warnings
        .into_iter()
        .map(|warning| (warning.code, warning.message))
        .collect()
}

#[test]
fn repeated_trajectories_with_other_rewards_are_a_coverage_warning_naming_them() {
    let done = || json!({"termination_reason": "ENV_DONE"});
    let rewards = vec![
        reward("t1", Some("a"), 1.0),
        reward("t1", Some("a"), 0.0),
        reward("t2", Some("b"), 0.5),
        reward("t2", Some("b"), 0.5),
    ];
    let trajectories = vec![
        metadata("t1", Some("a"), done()),
        metadata("t2", Some("b"), done()),
        metadata(
            "t3",
            Some("c"),
            json!({"termination_reason": "ENV_DONE", "reward": 1.0}),
        ),
        metadata(
            "t3",
            Some("c"),
            json!({"termination_reason": "ENV_DONE", "reward": 0.0}),
        ),
    ];
    let warnings = warnings_of(&rewards, &trajectories);
    let (_, message) = warnings
        .iter()
        .find(|(code, _)| code == "DUPLICATE_TRAJECTORY_CONFLICTS")
        .unwrap_or_else(|| panic!("{warnings:?}"));
    assert_eq!(
        message,
        "Step 400: 2 repeated trajectory ids carry another reward than its first item (the \
         first is used): t3 in trajectories (1 kept, 0 ignored), t1 in trajectory-rewards (1 \
         kept, 0 ignored)."
    );
}

#[test]
fn identical_repeats_are_only_counted() {
    let rewards = vec![reward("t1", Some("a"), 1.0), reward("t1", Some("a"), 1.0)];
    let trajectories = vec![metadata(
        "t1",
        Some("a"),
        json!({"termination_reason": "ENV_DONE"}),
    )];
    let warnings = warnings_of(&rewards, &trajectories);
    let codes: Vec<&str> = warnings.iter().map(|(code, _)| code.as_str()).collect();
    assert!(codes.contains(&"JOIN_ISSUES"), "{codes:?}");
    assert!(
        !codes.contains(&"DUPLICATE_TRAJECTORY_CONFLICTS"),
        "{codes:?}"
    );
}
