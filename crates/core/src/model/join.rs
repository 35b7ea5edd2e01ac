//! What joining a run's two trajectory listings found.

use serde::{Deserialize, Serialize};

/// How many examples of each problem a [`JoinReport`] keeps.
pub const JOIN_EXAMPLES: usize = 20;

/// The join of a run's trajectory rewards with its trajectory metadata on `trajectory_id`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct JoinReport {
    /// Items in trajectory rewards.
    pub reward_items: u64,
    /// Items in trajectory metadata.
    pub metadata_items: u64,
    /// Trajectories found in both.
    pub matched: u64,
    /// Rewards whose trajectory is missing from metadata (ending unknown: classed "other").
    pub rewards_without_metadata: u64,
    /// Metadata without a reward item (normal for failed, cancelled, unfinished, ungraded).
    pub metadata_without_reward: u64,
    /// Of those, trajectories whose metadata carried a reward, which was used.
    pub reward_from_metadata: u64,
    /// Trajectories whose metadata names another task than the reward item (the reward's used).
    pub task_conflicts: u64,
    /// Trajectories whose metadata reward differs from the reward item (the reward item's used).
    pub reward_mismatches: u64,
    /// Reward items repeating an earlier trajectory id (the first kept).
    pub duplicate_reward_items: u64,
    /// Metadata items repeating an earlier trajectory id (the first kept).
    pub duplicate_metadata_items: u64,
    /// The first [`JOIN_EXAMPLES`] task conflicts.
    pub task_conflict_examples: Vec<TaskConflict>,
}

/// A trajectory whose two listings name different tasks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TaskConflict {
    /// Trajectory identifier.
    pub trajectory_id: String,
    /// Task named by the reward item (used).
    pub reward_task: Option<String>,
    /// Task named by the metadata.
    pub metadata_task: Option<String>,
}

impl JoinReport {
    /// Whether the join found nothing worth a reader's attention.
    pub fn is_clean(&self) -> bool {
        self.rewards_without_metadata == 0
            && self.reward_from_metadata == 0
            && self.task_conflicts == 0
            && self.reward_mismatches == 0
            && self.duplicate_reward_items == 0
            && self.duplicate_metadata_items == 0
    }
}
