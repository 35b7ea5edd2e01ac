//! Packed forms of the two large lists, as the load engine keeps them: each item decoded lean
//! ([`LeanTrajectory`], [`LeanReward`]: the same items accepted and refused as the full types)
//! and its strings kept in one allocation.
//!
//! A listed trajectory in its full form ([`super::TrajectoryMetadata`]) is a dozen separate
//! strings; the comparison reads seven of them. A [`PackedTrajectory`] holds those seven in one
//! boxed text with their ends, so 800,000 of them take a quarter of the memory, decode with one
//! allocation each, and are read by the join from one place.

use serde::de::{self, Deserializer};
use serde::ser::Serializer;
use serde::{Deserialize, Serialize};

use super::lean::{
    AsRewardFacts, AsTrajectoryFacts, JsonStr, LeanReward, LeanTrajectory, TrajectoryFacts,
};
use super::page::Page;
use super::plain_scan::{scan_reward, scan_trajectory, Cursor, PlainItem};
use super::rewards::EvalTrajectoryRewardsPage;

/// A page of trajectories, packed.
pub type PackedTrajectoryPage = Page<PackedTrajectory>;

/// A page of trajectory rewards, packed.
pub type PackedRewardsPage = EvalTrajectoryRewardsPage<PackedReward>;

/// The texts of one item, appended one after another, with where each ends.
#[derive(Debug, Clone, PartialEq, Eq)]
struct PackedText<const N: usize> {
    text: Box<str>,
    /// End of each text in `text`; an absent text is empty and flagged in `present`.
    ends: [u32; N],
    /// Bit `i` set: text `i` is present (a string, not null or missing).
    present: u8,
}

impl<const N: usize> PackedText<N> {
    /// Packs `parts` (each present or not) into one text.
    fn pack<E: de::Error>(parts: [Option<&str>; N]) -> Result<Self, E> {
        let length: usize = parts.iter().flatten().map(|part| part.len()).sum();
        if u32::try_from(length).is_err() {
            return Err(E::custom("an item's strings exceed 4 GiB"));
        }
        let mut text = String::with_capacity(length);
        let mut ends = [0u32; N];
        let mut present = 0u8;
        for (index, part) in parts.iter().enumerate() {
            if let Some(part) = part {
                text.push_str(part);
                present |= 1 << index;
            }
            // Cannot truncate: the whole text's length fits in u32 (checked above).
            ends[index] = text.len() as u32;
        }
        Ok(Self {
            text: text.into_boxed_str(),
            ends,
            present,
        })
    }

    /// Text `index`, when present.
    fn get(&self, index: usize) -> Option<&str> {
        if self.present & (1 << index) == 0 {
            return None;
        }
        let start = if index == 0 {
            0
        } else {
            self.ends[index - 1] as usize
        };
        self.text.get(start..self.ends[index] as usize)
    }

    /// Text `index` of a required field (empty if it were ever absent).
    fn required(&self, index: usize) -> &str {
        self.get(index).unwrap_or_default()
    }
}

/// Where each of a packed trajectory's texts is kept.
mod slot {
    pub const ID: usize = 0;
    pub const CREATED_AT: usize = 1;
    pub const TASK: usize = 2;
    pub const STATUS: usize = 3;
    pub const TERMINATION_REASON: usize = 4;
    pub const ROLLOUT_STATUS: usize = 5;
    pub const ROLLOUT_TERMINATION_REASON: usize = 6;
    pub const COUNT: usize = 7;
}

/// A listed trajectory as the load engine keeps it: what the comparison reads
/// ([`TrajectoryFacts`]), its strings in one allocation. Decodes exactly the items
/// [`super::TrajectoryMetadata`] decodes (through [`LeanTrajectory`]); serializes as its facts.
#[derive(Debug, Clone, PartialEq)]
pub struct PackedTrajectory {
    texts: PackedText<{ slot::COUNT }>,
    reward: Option<f64>,
}

impl PackedTrajectory {
    /// Packs a trajectory's facts.
    fn from_facts<E: de::Error>(facts: &TrajectoryFacts<'_>) -> Result<Self, E> {
        let mut parts = [None; slot::COUNT];
        parts[slot::ID] = Some(facts.id);
        parts[slot::CREATED_AT] = Some(facts.created_at);
        parts[slot::TASK] = facts.task;
        parts[slot::STATUS] = facts.status;
        parts[slot::TERMINATION_REASON] = facts.termination_reason;
        parts[slot::ROLLOUT_STATUS] = facts.rollout_status;
        parts[slot::ROLLOUT_TERMINATION_REASON] = facts.rollout_termination_reason;
        Ok(Self {
            texts: PackedText::pack(parts)?,
            reward: facts.reward,
        })
    }
}

impl<'de> Deserialize<'de> for PackedTrajectory {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let lean = LeanTrajectory::deserialize(deserializer)?;
        Self::from_facts(&lean.facts())
    }
}

impl PlainItem for PackedTrajectory {
    fn scan_plain(text: &str) -> Option<(Self, usize)> {
        let mut cursor = Cursor::new(text);
        let facts = scan_trajectory(&mut cursor)?;
        let packed = Self::from_facts::<serde_json::Error>(&facts).ok()?;
        Some((packed, cursor.at()))
    }
}

impl Serialize for PackedTrajectory {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.facts().serialize(serializer)
    }
}

impl AsTrajectoryFacts for PackedTrajectory {
    fn trajectory_id(&self) -> &str {
        self.texts.required(slot::ID)
    }
    fn listed_reward(&self) -> Option<f64> {
        self.reward
    }
    fn facts(&self) -> TrajectoryFacts<'_> {
        let texts = &self.texts;
        TrajectoryFacts {
            id: texts.required(slot::ID),
            task: texts.get(slot::TASK),
            reward: self.reward,
            created_at: texts.required(slot::CREATED_AT),
            status: texts.get(slot::STATUS),
            termination_reason: texts.get(slot::TERMINATION_REASON),
            rollout_status: texts.get(slot::ROLLOUT_STATUS),
            rollout_termination_reason: texts.get(slot::ROLLOUT_TERMINATION_REASON),
        }
    }
}

/// A trajectory reward as the load engine keeps it: its id and task in one allocation.
/// Decodes exactly the items [`super::EvalTrajectoryReward`] decodes; serializes as that.
#[derive(Debug, Clone, PartialEq)]
pub struct PackedReward {
    texts: PackedText<2>,
    reward: f64,
}

impl PackedReward {
    /// Packs a reward's id, value and task.
    fn from_parts<E: de::Error>(id: &str, reward: f64, task: Option<&str>) -> Result<Self, E> {
        Ok(Self {
            texts: PackedText::pack([Some(id), task])?,
            reward,
        })
    }
}

impl PlainItem for PackedReward {
    fn scan_plain(text: &str) -> Option<(Self, usize)> {
        let mut cursor = Cursor::new(text);
        let (id, reward, task) = scan_reward(&mut cursor)?;
        let packed = Self::from_parts::<serde_json::Error>(id, reward, task).ok()?;
        Some((packed, cursor.at()))
    }
}

impl<'de> Deserialize<'de> for PackedReward {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let lean = LeanReward::deserialize(deserializer)?;
        Self::from_parts(
            lean.trajectory_id.as_str(),
            lean.reward,
            lean.task_id.as_ref().map(JsonStr::as_str),
        )
    }
}

impl Serialize for PackedReward {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Reward<'a> {
            trajectory_id: &'a str,
            reward: f64,
            task_id: Option<&'a str>,
        }
        Reward {
            trajectory_id: self.trajectory_id(),
            reward: self.reward,
            task_id: self.task_id(),
        }
        .serialize(serializer)
    }
}

impl AsRewardFacts for PackedReward {
    fn trajectory_id(&self) -> &str {
        self.texts.required(0)
    }
    fn reward(&self) -> f64 {
        self.reward
    }
    fn task_id(&self) -> Option<&str> {
        self.texts.get(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::{decode, EvalTrajectoryReward, TrajectoryMetadata};

    const FULL: &str = r#"{"trajectory_id":"t\u00e9","organization_id":"org","source":"eval",
        "status":"paused_new","termination_reason":"SANDBOX_OOM","reward":0.5,"num_steps":3,
        "created_at":"2026-11-01T00:00:00Z","task_id":"","rollout":{"rollout_id":"r",
        "status":"QUEUED_NEW","termination_reason":null},"extra":1}"#;

    #[test]
    fn packed_full_and_lean_forms_give_the_same_facts() {
        let full: TrajectoryMetadata = decode(FULL.as_bytes()).unwrap();
        let packed: PackedTrajectory = decode(FULL.as_bytes()).unwrap();
        assert_eq!(packed.facts(), full.facts());
        assert_eq!(
            packed.facts().task,
            Some(""),
            "an empty task is kept, not absent"
        );
        assert_eq!(packed.facts().rollout_termination_reason, None);
        assert_eq!(packed.trajectory_id(), "té");
        assert_eq!(packed.listed_reward(), Some(0.5));
    }

    #[test]
    fn every_absent_text_stays_absent() {
        let bare =
            r#"{"trajectory_id":"t","organization_id":"o","source":"eval","created_at":"c"}"#;
        let packed: PackedTrajectory = decode(bare.as_bytes()).unwrap();
        let full: TrajectoryMetadata = decode(bare.as_bytes()).unwrap();
        assert_eq!(packed.facts(), full.facts());
        assert_eq!(packed.facts().status, None);
        assert_eq!(packed.listed_reward(), None);
    }

    #[test]
    fn packed_form_refuses_what_the_full_form_refuses() {
        let cases = [
            r#"{"trajectory_id":"t","source":"eval","created_at":"x"}"#,
            r#"{"trajectory_id":"t","organization_id":"o","source":"eval","created_at":"x","num_steps":1.5}"#,
            r#"{"trajectory_id":"t","organization_id":"o","source":"eval","created_at":"x","reward":"1"}"#,
        ];
        for case in cases {
            let full = decode::<TrajectoryMetadata>(case.as_bytes()).unwrap_err();
            let packed = decode::<PackedTrajectory>(case.as_bytes()).unwrap_err();
            assert_eq!((packed.kind, packed.path), (full.kind, full.path), "{case}");
        }
        assert!(decode::<PackedReward>(br#"{"trajectory_id":"t"}"#).is_err());
    }

    #[test]
    fn packed_reward_serializes_as_the_full_reward() {
        for text in [
            r#"{"trajectory_id":"t","reward":1.0,"task_id":null}"#,
            r#"{"trajectory_id":"a\"b","reward":-0.25,"task_id":"task-9"}"#,
        ] {
            let full: EvalTrajectoryReward = decode(text.as_bytes()).unwrap();
            let packed: PackedReward = decode(text.as_bytes()).unwrap();
            assert_eq!(
                serde_json::to_string(&packed).unwrap(),
                serde_json::to_string(&full).unwrap()
            );
            assert_eq!(
                (packed.trajectory_id(), packed.reward(), packed.task_id()),
                (
                    full.trajectory_id.as_str(),
                    full.reward,
                    full.task_id.as_deref()
                )
            );
        }
    }
}
