//! What the comparison model keeps of the two large lists' items, listed once: each item's
//! fields in the contract's order and how each is read ([`TRAJECTORY`], [`ROLLOUT`],
//! [`REWARD`]): kept in a text slot or as the reward, or only checked as the full type checks
//! it. The lean form (serde), the plain scanner and the packed form all follow these tables,
//! so a field the model starts to read is a row changed here (a slot, and its place in
//! [`TrajectoryFacts`]), plus the scanner's test. A trajectory keeps one number besides its
//! reward: its step count (`num_steps`, [`Read::OptionalInteger`]).
//!
//! [`TrajectoryFacts`] is what the model reads of a listed trajectory, in any form: the full
//! contract type, the lean and the packed ones ([`AsTrajectoryFacts`], [`AsRewardFacts`]).

use serde::Serialize;

use crate::api::{EvalTrajectoryReward, TrajectoryMetadata};

/// How a reader takes one field of a listed item.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Read {
    /// A string (required), kept in this text slot.
    Text(usize),
    /// A string or null (an `Option<String>` or an open enum), kept in this text slot.
    OptionalText(usize),
    /// A number (required), kept as the item's reward.
    Number,
    /// A number or null, kept as the item's reward.
    OptionalNumber,
    /// An integer (`i64`) or null, kept as the item's step count (`num_steps`).
    OptionalInteger,
    /// Null, or the rollout object: its fields read by [`ROLLOUT`].
    Rollout,
    /// Checked, not kept: a string (required).
    CheckText,
    /// Checked: a string or null.
    CheckOptionalText,
    /// Checked: an integer (`i64`) or null.
    CheckOptionalInteger,
    /// Checked: null or an object of any JSON values.
    CheckOptionalObject,
    /// Checked: null or a harness diagnostic.
    CheckOptionalDiagnostic,
}

impl Read {
    /// Whether the contract requires the field (a `String` or an `f64`, not an `Option`).
    pub(crate) const fn required(self) -> bool {
        matches!(self, Read::Text(_) | Read::Number | Read::CheckText)
    }

    /// Whether the kept form of a page ([`super::kept_form`]) carries the field: the model
    /// keeps it, or the full type requires it (the same decoder then reads either form); the
    /// optional fields only checked are left out.
    pub(crate) const fn in_kept_form(self) -> bool {
        !matches!(
            self,
            Read::CheckOptionalText
                | Read::CheckOptionalInteger
                | Read::CheckOptionalObject
                | Read::CheckOptionalDiagnostic
        )
    }
}

/// One field of a listed item: its wire name and how it is read.
pub(crate) type Field = (&'static str, Read);

/// The text slots of a listed trajectory (its rollout's included): where each kept string is.
pub(crate) mod slot {
    pub const ID: usize = 0;
    pub const CREATED_AT: usize = 1;
    pub const TASK: usize = 2;
    pub const STATUS: usize = 3;
    pub const TERMINATION_REASON: usize = 4;
    pub const ROLLOUT_STATUS: usize = 5;
    pub const ROLLOUT_TERMINATION_REASON: usize = 6;
    /// How many.
    pub const COUNT: usize = 7;
}

/// The text slots of a trajectory reward.
pub(crate) mod reward_slot {
    pub const ID: usize = 0;
    pub const TASK: usize = 1;
    /// How many.
    pub const COUNT: usize = 2;
}

/// A listed trajectory's fields (`TrajectoryMetadata`), in the contract's order.
pub(crate) const TRAJECTORY: Table = Table::new(&[
    ("trajectory_id", Read::Text(slot::ID)),
    ("organization_id", Read::CheckText),
    ("dataset_id", Read::CheckOptionalText),
    ("dataset_name", Read::CheckOptionalText),
    ("dataset_source", Read::CheckOptionalText),
    ("dataset_gcs_prefix", Read::CheckOptionalText),
    ("trace_id", Read::CheckOptionalText),
    ("model_id", Read::CheckOptionalText),
    ("model_association_source", Read::CheckOptionalText),
    ("model_association_metadata", Read::CheckOptionalObject),
    ("source", Read::CheckText),
    ("status", Read::OptionalText(slot::STATUS)),
    (
        "termination_reason",
        Read::OptionalText(slot::TERMINATION_REASON),
    ),
    ("reward", Read::OptionalNumber),
    ("num_steps", Read::OptionalInteger),
    ("created_at", Read::Text(slot::CREATED_AT)),
    ("training_run_id", Read::CheckOptionalText),
    ("task_id", Read::OptionalText(slot::TASK)),
    ("policy_step", Read::CheckOptionalInteger),
    ("rollout", Read::Rollout),
]);

/// A trajectory's rollout state (`TrajectoryRolloutStatus`), in the contract's order.
pub(crate) const ROLLOUT: Table = Table::new(&[
    ("rollout_id", Read::CheckText),
    ("status", Read::Text(slot::ROLLOUT_STATUS)),
    (
        "termination_reason",
        Read::OptionalText(slot::ROLLOUT_TERMINATION_REASON),
    ),
    ("harness_diagnostic", Read::CheckOptionalDiagnostic),
]);

/// A trajectory reward's fields (`EvalTrajectoryReward`), in the contract's order.
pub(crate) const REWARD: Table = Table::new(&[
    ("trajectory_id", Read::Text(reward_slot::ID)),
    ("reward", Read::Number),
    ("task_id", Read::OptionalText(reward_slot::TASK)),
]);

/// An item's fields (see [`TRAJECTORY`]), and its required fields as a mask, computed when the
/// crate is built. The readers inline their lookups with the table a constant, so a key is
/// compared with each wire name as one `match` on the key would (a search of the table at run
/// time, through a slice, made the plain scanner a fifth slower).
pub(crate) struct Table {
    /// The fields, in the contract's order.
    pub fields: &'static [Field],
    /// Bit `i` set: field `i` is required.
    required: u32,
}

impl Table {
    /// `fields` and their mask (a table of more than 32 fields does not build).
    const fn new(fields: &'static [Field]) -> Self {
        assert!(
            fields.len() <= 32,
            "a table has at most 32 fields (`seen`: u32)"
        );
        let mut required = 0;
        let mut index = 0;
        while index < fields.len() {
            if fields[index].1.required() {
                required |= 1 << index;
            }
            index += 1;
        }
        Self { fields, required }
    }

    /// The field `key` names, by index.
    #[inline(always)]
    pub(crate) fn index(&self, key: &str) -> Option<usize> {
        self.fields.iter().position(|(wire, _)| *wire == key)
    }

    /// Whether every field the table requires is among those `seen` (bit `i`: field `i`).
    #[inline(always)]
    pub(crate) fn has_required(&self, seen: u32) -> bool {
        seen & self.required == self.required
    }
}

/// What the comparison model reads of a listed trajectory, borrowed from either form.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct TrajectoryFacts<'a> {
    /// Trajectory id.
    pub id: &'a str,
    /// Benchmark task.
    pub task: Option<&'a str>,
    /// Reward recorded on the listing; `None` when null.
    pub reward: Option<f64>,
    /// Creation time as listed.
    pub created_at: &'a str,
    /// Recorded trajectory state (wire string).
    pub status: Option<&'a str>,
    /// Recorded termination reason (wire string).
    pub termination_reason: Option<&'a str>,
    /// The rollout's state (wire string), when the trajectory has a rollout.
    pub rollout_status: Option<&'a str>,
    /// The rollout's termination reason (wire string).
    pub rollout_termination_reason: Option<&'a str>,
    /// Steps (turns) the trajectory took, as listed (`num_steps`); `None` when null or absent.
    pub num_steps: Option<i64>,
}

impl<'a> TrajectoryFacts<'a> {
    /// The facts of a trajectory's texts by [`slot`], its reward and its step count (a
    /// required text absent reads as empty: the readers refuse an item without it).
    pub(crate) fn from_texts(
        texts: [Option<&'a str>; slot::COUNT],
        reward: Option<f64>,
        num_steps: Option<i64>,
    ) -> Self {
        TrajectoryFacts {
            id: texts[slot::ID].unwrap_or_default(),
            task: texts[slot::TASK],
            reward,
            created_at: texts[slot::CREATED_AT].unwrap_or_default(),
            status: texts[slot::STATUS],
            termination_reason: texts[slot::TERMINATION_REASON],
            rollout_status: texts[slot::ROLLOUT_STATUS],
            rollout_termination_reason: texts[slot::ROLLOUT_TERMINATION_REASON],
            num_steps,
        }
    }

    /// Its texts by [`slot`].
    pub(crate) fn texts(&self) -> [Option<&'a str>; slot::COUNT] {
        let mut texts = [None; slot::COUNT];
        texts[slot::ID] = Some(self.id);
        texts[slot::CREATED_AT] = Some(self.created_at);
        texts[slot::TASK] = self.task;
        texts[slot::STATUS] = self.status;
        texts[slot::TERMINATION_REASON] = self.termination_reason;
        texts[slot::ROLLOUT_STATUS] = self.rollout_status;
        texts[slot::ROLLOUT_TERMINATION_REASON] = self.rollout_termination_reason;
        texts
    }
}

/// A listed trajectory in either form (full or lean), as the model builder reads it.
pub trait AsTrajectoryFacts {
    /// Trajectory id.
    fn trajectory_id(&self) -> &str;
    /// Reward recorded on the listing.
    fn listed_reward(&self) -> Option<f64>;
    /// Everything the model reads.
    fn facts(&self) -> TrajectoryFacts<'_>;
}

/// A trajectory reward in either form, as the model builder reads it.
pub trait AsRewardFacts {
    /// Trajectory id.
    fn trajectory_id(&self) -> &str;
    /// The effective reward.
    fn reward(&self) -> f64;
    /// Benchmark task, when recorded.
    fn task_id(&self) -> Option<&str>;
}

impl AsTrajectoryFacts for TrajectoryMetadata {
    fn trajectory_id(&self) -> &str {
        &self.trajectory_id
    }
    fn listed_reward(&self) -> Option<f64> {
        self.reward
    }
    fn facts(&self) -> TrajectoryFacts<'_> {
        let rollout = self.rollout.as_ref();
        TrajectoryFacts {
            id: &self.trajectory_id,
            task: self.task_id.as_deref(),
            reward: self.reward,
            created_at: &self.created_at,
            status: self.status.as_ref().map(|status| status.as_str()),
            termination_reason: self
                .termination_reason
                .as_ref()
                .map(|reason| reason.as_str()),
            rollout_status: rollout.map(|rollout| rollout.status.as_str()),
            rollout_termination_reason: rollout
                .and_then(|rollout| rollout.termination_reason.as_ref())
                .map(|reason| reason.as_str()),
            num_steps: self.num_steps,
        }
    }
}

impl AsRewardFacts for EvalTrajectoryReward {
    fn trajectory_id(&self) -> &str {
        &self.trajectory_id
    }
    fn reward(&self) -> f64 {
        self.reward
    }
    fn task_id(&self) -> Option<&str> {
        self.task_id.as_deref()
    }
}
