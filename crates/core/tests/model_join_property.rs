//! The merge join of a run's two listings (walked as listed when in id order, else by hash)
//! equals a plain hash join (the reference below), on random listings with repeated ids,
//! missing ids, trajectories without a task, conflicting tasks and rewards, in listing order or
//! in id order; the lean form joins as the full one, and a join a few items a step as one at
//! once.

#![allow(clippy::unwrap_used)]

use std::collections::HashMap;

use eval_compare_core::api::{decode, EvalRun, EvalTrajectoryReward, TrajectoryMetadata};
use eval_compare_core::large_list::{LeanReward, LeanTrajectory, PackedReward, PackedTrajectory};
use eval_compare_core::model::{
    ApiRun, ApiRunJoin, DuplicateConflict, JoinReport, RunSet, RunSetBuilder, SourceKind,
    TaskConflict, TrajectoryFlags, JOIN_EXAMPLES,
};
use proptest::prelude::*;
use serde_json::json;

const AGREEMENT: f64 = 1e-9;

/// One joined trajectory as the model stores it.
type Row = (String, Option<String>, Option<f64>, TrajectoryFlags);

fn eval_run() -> EvalRun {
    serde_json::from_value(json!({
        "eval_run_id": "er_1", "bench_id": "bench", "options": {},
        "created_at": "2026-01-01T00:00:00Z", "updated_at": "2026-01-01T00:00:00Z"
    }))
    .unwrap()
}

fn repeated(
    report: &mut JoinReport,
    id: &str,
    listing: &str,
    kept: Option<f64>,
    other: Option<f64>,
) {
    if let (Some(kept), Some(other)) = (kept, other) {
        if kept != other && (kept - other).abs() > AGREEMENT {
            report.conflicting_duplicates += 1;
            if report.conflicting_duplicate_examples.len() < JOIN_EXAMPLES {
                report
                    .conflicting_duplicate_examples
                    .push(DuplicateConflict {
                        trajectory_id: id.to_owned(),
                        listing: listing.to_owned(),
                        kept: Some(kept),
                        ignored: Some(other),
                    });
            }
        }
    }
}

/// The join as specified, with hash maps: rows in the order they are added, and the report.
fn reference(
    rewards: &[EvalTrajectoryReward],
    metadata: &[TrajectoryMetadata],
) -> (Vec<Row>, JoinReport) {
    let mut report = JoinReport {
        reward_items: rewards.len() as u64,
        metadata_items: metadata.len() as u64,
        ..JoinReport::default()
    };
    let mut first_metadata: HashMap<&str, usize> = HashMap::new();
    for (index, item) in metadata.iter().enumerate() {
        if let Some(&first) = first_metadata.get(item.trajectory_id.as_str()) {
            report.duplicate_metadata_items += 1;
            let kept = metadata[first].reward;
            repeated(
                &mut report,
                &item.trajectory_id,
                "trajectories",
                kept,
                item.reward,
            );
        } else {
            first_metadata.insert(&item.trajectory_id, index);
        }
    }
    let mut rows = Vec::new();
    let mut first_reward: HashMap<&str, f64> = HashMap::new();
    let mut joined = vec![false; metadata.len()];
    for reward in rewards {
        let id = reward.trajectory_id.as_str();
        if let Some(&kept) = first_reward.get(id) {
            report.duplicate_reward_items += 1;
            repeated(
                &mut report,
                id,
                "trajectory-rewards",
                Some(kept),
                Some(reward.reward),
            );
            continue;
        }
        first_reward.insert(id, reward.reward);
        match first_metadata.get(id) {
            Some(&index) => {
                joined[index] = true;
                report.matched += 1;
                let item = &metadata[index];
                let mut flags = TrajectoryFlags::NONE;
                let task = match (&reward.task_id, &item.task_id) {
                    (Some(a), Some(b)) if a != b => {
                        flags.insert(TrajectoryFlags::TASK_CONFLICT);
                        report.task_conflicts += 1;
                        if report.task_conflict_examples.len() < JOIN_EXAMPLES {
                            report.task_conflict_examples.push(TaskConflict {
                                trajectory_id: id.to_owned(),
                                reward_task: Some(a.clone()),
                                metadata_task: Some(b.clone()),
                            });
                        }
                        Some(a.clone())
                    }
                    (a, b) => a.clone().or(b.clone()),
                };
                if item
                    .reward
                    .is_some_and(|r| (r - reward.reward).abs() > AGREEMENT)
                {
                    flags.insert(TrajectoryFlags::REWARD_MISMATCH);
                    report.reward_mismatches += 1;
                }
                rows.push((id.to_owned(), task, Some(reward.reward), flags));
            }
            None => {
                report.rewards_without_metadata += 1;
                rows.push((
                    id.to_owned(),
                    reward.task_id.clone(),
                    Some(reward.reward),
                    TrajectoryFlags::REWARD_WITHOUT_METADATA,
                ));
            }
        }
    }
    for (index, item) in metadata.iter().enumerate() {
        if joined[index] || first_metadata.get(item.trajectory_id.as_str()) != Some(&index) {
            continue;
        }
        report.metadata_without_reward += 1;
        let mut flags = TrajectoryFlags::NONE;
        if item.reward.is_some() {
            report.reward_from_metadata += 1;
            flags.insert(TrajectoryFlags::REWARD_FROM_METADATA);
        }
        rows.push((
            item.trajectory_id.clone(),
            item.task_id.clone(),
            item.reward,
            flags,
        ));
    }
    (rows, report)
}

/// Rows as the run set stores them: grouped by task in order of first appearance (no task
/// last), listing order kept within a task.
fn grouped(rows: Vec<Row>) -> Vec<Row> {
    let mut order: Vec<Option<String>> = Vec::new();
    for row in &rows {
        if row.1.is_some() && !order.contains(&row.1) {
            order.push(row.1.clone());
        }
    }
    let rank = |task: &Option<String>| match task {
        None => order.len(),
        some => order.iter().position(|known| known == some).unwrap(),
    };
    let mut rows = rows;
    rows.sort_by_key(|row| rank(&row.1));
    rows
}

fn stored(set: &RunSet) -> (Vec<Row>, JoinReport) {
    let run = &set.runs()[0];
    let rows = run
        .trajectories()
        .map(|t| {
            let task = t
                .task
                .and_then(|task| set.task(task))
                .map(|task| task.id.clone());
            (t.id.to_owned(), task, t.reward, t.flags)
        })
        .collect();
    (rows, run.join().unwrap().clone())
}

fn build<R, T>(rewards: &[R], trajectories: &[T]) -> RunSet
where
    R: eval_compare_core::large_list::AsRewardFacts,
    T: eval_compare_core::large_list::AsTrajectoryFacts,
{
    let run = eval_run();
    let mut builder = RunSetBuilder::new();
    builder
        .add_api_run(ApiRun {
            run: &run,
            rewards,
            trajectories,
            source: SourceKind::Api,
            incomplete_load: None,
        })
        .unwrap();
    builder.build()
}

/// [`build`] a step at a time: the join advanced by at most `budget` items per step.
fn build_stepwise<R, T>(rewards: &[R], trajectories: &[T], budget: usize) -> RunSet
where
    R: eval_compare_core::large_list::AsRewardFacts,
    T: eval_compare_core::large_list::AsTrajectoryFacts,
{
    let run = eval_run();
    let mut builder = RunSetBuilder::new();
    let mut join = builder
        .start_api_run(ApiRun {
            run: &run,
            rewards,
            trajectories,
            source: SourceKind::Api,
            incomplete_load: None,
        })
        .unwrap();
    let mut steps = 0;
    while !join
        .advance(&mut builder, rewards, trajectories, budget)
        .unwrap()
    {
        steps += 1;
        // Every step walks an item, moves on to the next stage, checks the listings' order
        // (once), or sorts a listing's keys by one byte of their hash (8 radix passes for
        // each of the two listings).
        assert!(
            steps <= ApiRunJoin::work(rewards.len(), trajectories.len()) + 8 + 1 + 2 * 8,
            "the join never ends"
        );
    }
    join.finish(&mut builder).unwrap();
    builder.build()
}

/// (id, task, reward) of a reward item.
type RewardSpec = (u8, Option<u8>, u8);
/// (id, task, reward, ending) of a metadata item.
type MetadataSpec = (u8, Option<u8>, Option<u8>, u8);

/// Both listings, and whether to put them in id order.
fn listings() -> impl Strategy<Value = (Vec<RewardSpec>, Vec<MetadataSpec>, bool)> {
    let reward = (0u8..12, proptest::option::of(0u8..4), 0u8..3);
    let meta = (
        0u8..12,
        proptest::option::of(0u8..4),
        proptest::option::of(0u8..3),
        0u8..4,
    );
    (
        proptest::collection::vec(reward, 0..30),
        proptest::collection::vec(meta, 0..30),
        any::<bool>(),
    )
}

const ENDINGS: [&str; 4] = ["ENV_DONE", "ERROR", "SOMETHING_NEW", ""];

proptest! {
    #[test]
    fn merge_join_equals_the_hash_join(
        (rewards, metadata, in_id_order) in listings(),
        budget in 1usize..8,
    ) {
        let value = |index: u8| [0.0, 0.5, 1.0][index as usize];
        let mut reward_json: Vec<serde_json::Value> = rewards
            .iter()
            .map(|&(id, task, reward)| json!({
                "trajectory_id": format!("t{id:02}"),
                "reward": value(reward),
                "task_id": task.map(|task| format!("task-{task}")),
            }))
            .collect();
        let mut metadata_json: Vec<serde_json::Value> = metadata
            .iter()
            .map(|&(id, task, reward, ending)| {
                let mut item = json!({
                    "trajectory_id": format!("t{id:02}"),
                    "organization_id": "org",
                    "source": "eval",
                    "created_at": "2026-01-01T00:00:00Z",
                    "task_id": task.map(|task| format!("task-{task}")),
                    "reward": reward.map(value),
                });
                if !ENDINGS[ending as usize].is_empty() {
                    item["termination_reason"] = json!(ENDINGS[ending as usize]);
                }
                item
            })
            .collect();
        if in_id_order {
            let id = |item: &serde_json::Value| item["trajectory_id"].as_str().unwrap().to_owned();
            reward_json.sort_by_key(id);
            metadata_json.sort_by_key(id);
        }
        let reward_text = serde_json::to_vec(&reward_json).unwrap();
        let metadata_text = serde_json::to_vec(&metadata_json).unwrap();
        let full_rewards: Vec<EvalTrajectoryReward> = decode(&reward_text).unwrap();
        let full_metadata: Vec<TrajectoryMetadata> = decode(&metadata_text).unwrap();
        let lean_rewards: Vec<LeanReward<'_>> = decode(&reward_text).unwrap();
        let lean_metadata: Vec<LeanTrajectory<'_>> = decode(&metadata_text).unwrap();
        let packed_rewards: Vec<PackedReward> = decode(&reward_text).unwrap();
        let packed_metadata: Vec<PackedTrajectory> = decode(&metadata_text).unwrap();

        let (rows, report) = reference(&full_rewards, &full_metadata);
        let expected = (grouped(rows), report);
        let full = build(&full_rewards, &full_metadata);
        let lean = build(&lean_rewards, &lean_metadata);
        prop_assert_eq!(&stored(&full), &expected);
        prop_assert_eq!(&stored(&lean), &expected);
        let classes = |set: &RunSet| set.runs()[0]
            .trajectories()
            .map(|t| (t.class, t.ending.map(str::to_owned), t.created))
            .collect::<Vec<_>>();
        prop_assert_eq!(classes(&full), classes(&lean));
        // Packed as the load engine keeps them, the same.
        let packed = build(&packed_rewards, &packed_metadata);
        prop_assert_eq!(&stored(&packed), &expected);
        prop_assert_eq!(classes(&full), classes(&packed));
        // Step by step, a few items at a time (as the viewer builds from its store), the join
        // adds the same.
        let stepwise = build_stepwise(&packed_rewards, &packed_metadata, budget);
        prop_assert_eq!(&stored(&stepwise), &expected);
        prop_assert_eq!(classes(&stepwise), classes(&lean));
    }
}
