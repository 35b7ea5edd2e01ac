//! Every real run folder in shared/real-data decodes with the API types.

#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};

use eval_compare_core::api::*;

fn real_data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/real-data")
}

fn run_folders() -> Vec<PathBuf> {
    let mut folders = Vec::new();
    for suite in std::fs::read_dir(real_data_dir()).unwrap() {
        let suite = suite.unwrap().path();
        if !suite.is_dir() {
            continue;
        }
        for run in std::fs::read_dir(&suite).unwrap() {
            let run = run.unwrap().path();
            if run.join("run.json").is_file() {
                folders.push(run);
            }
        }
    }
    folders.sort();
    folders
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|error| panic!("{}: {error}", path.display()))
}

#[test]
fn every_real_run_folder_decodes() {
    let folders = run_folders();
    assert!(
        folders.len() >= 7,
        "expected the real run folders, found {folders:?}"
    );
    for folder in folders {
        let name = folder.display();
        let run: EvalRun = decode(&read(&folder.join("run.json")))
            .unwrap_or_else(|error| panic!("{name}/run.json: {error}"));
        assert!(!run.eval_run_id.is_empty());
        assert!(
            run.status.as_ref().is_some_and(EvalRunStatus::is_known),
            "{name}"
        );

        let rewards: Vec<EvalTrajectoryReward> =
            decode(&read(&folder.join("trajectory-rewards.json")))
                .unwrap_or_else(|error| panic!("{name}/trajectory-rewards.json: {error}"));
        let trajectories: Vec<TrajectoryMetadata> =
            decode(&read(&folder.join("trajectories.json")))
                .unwrap_or_else(|error| panic!("{name}/trajectories.json: {error}"));
        let tasks: Vec<BenchmarkSpecTask> = decode(&read(&folder.join("tasks.json")))
            .unwrap_or_else(|error| panic!("{name}/tasks.json: {error}"));

        assert!(!rewards.is_empty() && !trajectories.is_empty() && !tasks.is_empty());
        assert!(rewards.len() <= trajectories.len(), "{name}");
        for trajectory in &trajectories {
            let reason = trajectory.termination_reason.as_ref();
            assert!(
                reason.is_some_and(TerminationReason::is_known),
                "{name}: {reason:?}"
            );
        }
        let task_ids: std::collections::BTreeSet<&str> =
            tasks.iter().map(|task| task.task_id.as_str()).collect();
        for trajectory in &trajectories {
            let task_id = trajectory.task_id.as_deref().unwrap_or_default();
            assert!(task_ids.contains(task_id), "{name}: unknown task {task_id}");
        }
    }
}

#[test]
fn swe_bench_pro_endings_match_the_readme() {
    let folder = real_data_dir().join("swe-bench-pro/gpt-5-250-turns-10132025");
    let trajectories: Vec<TrajectoryMetadata> =
        decode(&read(&folder.join("trajectories.json"))).unwrap();
    let count = |reason: TerminationReason| {
        trajectories
            .iter()
            .filter(|trajectory| trajectory.termination_reason.as_ref() == Some(&reason))
            .count()
    };
    assert_eq!(trajectories.len(), 730);
    assert_eq!(count(TerminationReason::EnvDone), 623);
    assert_eq!(count(TerminationReason::Error), 53);
    assert_eq!(count(TerminationReason::MissingSubmit), 54);
    let errors_without_reward = trajectories
        .iter()
        .filter(|t| t.termination_reason == Some(TerminationReason::Error))
        .all(|t| t.reward.is_none());
    assert!(
        errors_without_reward,
        "an ERROR ending has no reward (null, not zero)"
    );
}

#[test]
fn swe_bench_pro_tasks_carry_their_repository_as_category() {
    let folder = real_data_dir().join("swe-bench-pro/claude-45sonnet-10132025");
    let tasks: Vec<BenchmarkSpecTask> = decode(&read(&folder.join("tasks.json"))).unwrap();
    assert!(tasks.iter().all(|task| task.split == Some(TaskSplit::Test)));
    let first = &tasks[0];
    assert_eq!(first.task_categories.len(), 1);
    assert!(first.task_categories[0]
        .task_category_id
        .starts_with("repo:"));
}
