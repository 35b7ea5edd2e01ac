//! What joining a run's two trajectory listings found.

use serde::{Deserialize, Serialize};

/// How many examples of each problem a [`JoinReport`] keeps.
pub const JOIN_EXAMPLES: usize = 20;

/// Rewards closer than this are the same number (metadata and trajectory-rewards agree).
pub(super) const REWARD_AGREEMENT: f64 = 1e-9;

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
    /// Reward items repeating an earlier trajectory id (the first kept), conflicting or not.
    pub duplicate_reward_items: u64,
    /// Metadata items repeating an earlier trajectory id (the first kept), conflicting or not.
    pub duplicate_metadata_items: u64,
    /// The first [`JOIN_EXAMPLES`] task conflicts.
    pub task_conflict_examples: Vec<TaskConflict>,
    /// Of the repeated items (rewards or metadata), those whose reward differs from the first
    /// item's (the first kept). Left out of the JSON when 0.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub conflicting_duplicates: u64,
    /// The first [`JOIN_EXAMPLES`] of them. Left out of the JSON when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conflicting_duplicate_examples: Vec<DuplicateConflict>,
}

/// A trajectory id listed twice in one listing with different rewards.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DuplicateConflict {
    /// Trajectory identifier.
    pub trajectory_id: String,
    /// Which listing repeats it: `trajectory-rewards` or `trajectories`.
    pub listing: String,
    /// The reward of the first item (used).
    pub kept: Option<f64>,
    /// The reward of the repeated item (ignored).
    pub ignored: Option<f64>,
}

fn is_zero(count: &u64) -> bool {
    *count == 0
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
    /// Counts a repeated item as conflicting when its reward `ignored` and the first item's
    /// `kept` are both known and differ, and keeps it as an example.
    pub(crate) fn repeated(
        &mut self,
        trajectory_id: &str,
        listing: &str,
        kept: Option<f64>,
        ignored: Option<f64>,
    ) {
        let agree = match (kept, ignored) {
            (Some(kept), Some(ignored)) => {
                kept == ignored || (kept - ignored).abs() <= REWARD_AGREEMENT
            }
            // A metadata item without a reward does not contradict one with a reward.
            _ => true,
        };
        if agree {
            return;
        }
        self.conflicting_duplicates += 1;
        if self.conflicting_duplicate_examples.len() < JOIN_EXAMPLES {
            self.conflicting_duplicate_examples.push(DuplicateConflict {
                trajectory_id: trajectory_id.to_owned(),
                listing: listing.to_owned(),
                kept,
                ignored,
            });
        }
    }

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
