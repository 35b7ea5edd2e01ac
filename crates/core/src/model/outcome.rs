//! Outcome classes and the one table that decides how each class is scored.
//!
//! A trajectory's class comes from how it ended (its termination reason, or its status when no
//! reason is recorded) and whether a reward was published; see [`classify_termination`] for the
//! Trajectory API and `model::chronicle` for Chronicle trials. The class then decides, together
//! with the reward, the trajectory's value in the primary and the sensitivity analyses
//! ([`OutcomeClass::score`]).

use serde::{Deserialize, Serialize};

/// How a trajectory ended, as this project classes it (trajectory-api/README.md, "How this
/// project classes a trajectory").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OutcomeClass {
    /// Finished normally (`ENV_DONE`) with a reward.
    Graded,
    /// Finished normally (`ENV_DONE`) but no reward was published.
    Ungraded,
    /// Stopped by a token, context or turn limit (`TRUNCATION`, `MAX_STEPS`, `LIMIT_REACHED`).
    CutOff,
    /// The model's own ending: out of time or no submission (`TIMEOUT`, `MISSING_SUBMIT`).
    ModelEnding,
    /// Execution failure (`ERROR`, `STALE`, `SANDBOX_*`).
    Failed,
    /// Cancelled (`CANCELLED`).
    Cancelled,
    /// No ending yet: the trajectory or its rollout is not terminal.
    Unfinished,
    /// Any other ending, kept by name on the trajectory (including no ending recorded).
    Other,
}

impl OutcomeClass {
    /// Every class, in display order.
    pub const ALL: [OutcomeClass; 8] = [
        OutcomeClass::Graded,
        OutcomeClass::Ungraded,
        OutcomeClass::CutOff,
        OutcomeClass::ModelEnding,
        OutcomeClass::Failed,
        OutcomeClass::Cancelled,
        OutcomeClass::Unfinished,
        OutcomeClass::Other,
    ];

    /// Position of this class in [`OutcomeClass::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// Short human label, e.g. "cut-off".
    pub fn label(self) -> &'static str {
        match self {
            OutcomeClass::Graded => "graded",
            OutcomeClass::Ungraded => "ungraded",
            OutcomeClass::CutOff => "cut-off",
            OutcomeClass::ModelEnding => "model ending",
            OutcomeClass::Failed => "failed",
            OutcomeClass::Cancelled => "cancelled",
            OutcomeClass::Unfinished => "unfinished",
            OutcomeClass::Other => "other",
        }
    }

    /// The scoring table: the value of a trajectory of this class with this reward in the
    /// primary paired analysis and in the sensitivity analysis.
    ///
    /// | class        | reward  | primary                                   | sensitivity |
    /// |--------------|---------|-------------------------------------------|-------------|
    /// | graded       | valid r | r                                         | r           |
    /// | ungraded     | none    | excluded, counted                         | 0           |
    /// | cut-off      | valid r | r (as the API reports it)                 | r           |
    /// | cut-off      | none    | 0, "scored 0 by the platform rule"        | 0           |
    /// | model ending | valid r | r                                         | r           |
    /// | model ending | none    | 0, "no grade, scored 0"                   | 0           |
    /// | failed       | any     | excluded, counted                         | 0           |
    /// | cancelled    | any     | excluded, counted                         | 0           |
    /// | unfinished   | any     | excluded, counted                         | 0           |
    /// | other        | valid r | r, flagged by its class                   | r           |
    /// | other        | none    | excluded, counted                         | excluded    |
    /// | graded, cut-off, model ending, other | invalid | excluded, counted as invalid | excluded |
    ///
    /// A reward is invalid when it is NaN, infinite or outside the platform's declared [0, 1]
    /// (see [`RewardState::from_reward`]); an invalid number is never used. Failed, cancelled,
    /// unfinished and ungraded trajectories score 0 in the sensitivity analysis whatever their
    /// reward: an incidental grade on a failed attempt is not a result.
    pub fn score(self, reward: RewardState) -> Scoring {
        use OutcomeClass::*;
        use PrimaryValue::*;
        let (primary, sensitivity) = match (self, reward) {
            (Graded | CutOff | ModelEnding | Other, RewardState::Valid(r)) => (Reward(r), Some(r)),
            (Graded | CutOff | ModelEnding | Other, RewardState::Invalid) => {
                (Excluded(Exclusion::InvalidReward), None)
            }
            (CutOff, RewardState::Missing) => (ZeroByPlatformRule, Some(0.0)),
            (ModelEnding, RewardState::Missing) => (ZeroWithoutGrade, Some(0.0)),
            (Other, RewardState::Missing) => (Excluded(Exclusion::NoReward), None),
            // An ENV_DONE trajectory classed graded always carries a reward; should one arrive
            // without, it is treated as ungraded.
            (Graded | Ungraded, RewardState::Missing) => (Excluded(Exclusion::NoReward), Some(0.0)),
            (Ungraded, _) => (Excluded(Exclusion::NoReward), Some(0.0)),
            (Failed, _) => (Excluded(Exclusion::Failed), Some(0.0)),
            (Cancelled, _) => (Excluded(Exclusion::Cancelled), Some(0.0)),
            (Unfinished, _) => (Excluded(Exclusion::Unfinished), Some(0.0)),
        };
        Scoring {
            primary,
            sensitivity,
        }
    }
}

/// Classes a Trajectory API ending. `reason` is the recorded termination reason (the
/// trajectory's, else its rollout's); `has_reward` whether a reward was published (valid or not).
///
/// | ending                                   | class                          |
/// |------------------------------------------|--------------------------------|
/// | `ENV_DONE` with a reward                 | graded                         |
/// | `ENV_DONE` without a reward              | ungraded                       |
/// | `TRUNCATION`, `MAX_STEPS`, `LIMIT_REACHED` | cut-off                      |
/// | `TIMEOUT`, `MISSING_SUBMIT`              | model ending                   |
/// | `ERROR`, `STALE`, `SANDBOX_*`            | failed                         |
/// | `CANCELLED`                              | cancelled                      |
/// | any other value (e.g. `GOLDEN_PATCH`)    | other, kept by name            |
///
/// Trajectories with no reason recorded are classed by [`classify_unended`].
pub fn classify_termination(reason: &str, has_reward: bool) -> OutcomeClass {
    match reason {
        "ENV_DONE" if has_reward => OutcomeClass::Graded,
        "ENV_DONE" => OutcomeClass::Ungraded,
        "TRUNCATION" | "MAX_STEPS" | "LIMIT_REACHED" => OutcomeClass::CutOff,
        "TIMEOUT" | "MISSING_SUBMIT" => OutcomeClass::ModelEnding,
        "ERROR" | "STALE" => OutcomeClass::Failed,
        other if other.starts_with("SANDBOX_") => OutcomeClass::Failed,
        "CANCELLED" => OutcomeClass::Cancelled,
        _ => OutcomeClass::Other,
    }
}

/// Classes a trajectory with no termination reason recorded, from its lifecycle.
///
/// - Not terminal (trajectory status `in_progress`, `cancelling` or `finalizing`, or a rollout
///   still in progress) → unfinished.
/// - Terminal, or no status at all → other: the ending is unknown, so it enters the primary
///   analysis only with a reward, and is flagged by its class.
pub fn classify_unended(terminal: bool) -> OutcomeClass {
    if terminal {
        OutcomeClass::Other
    } else {
        OutcomeClass::Unfinished
    }
}

/// Whether a Trajectory API trajectory status (`TrajectoryStatus`) means the trajectory is
/// still going. Unknown values count as terminal, so they are shown as "other" rather than hidden.
pub fn trajectory_status_is_active(status: &str) -> bool {
    matches!(status, "in_progress" | "cancelling" | "finalizing")
}

/// Whether a rollout status (free text such as `IN_PROGRESS` or `FAILED`) means the rollout is
/// still going. Compared case-insensitively; unknown values count as terminal.
pub fn rollout_status_is_active(status: &str) -> bool {
    const ACTIVE: [&str; 8] = [
        "IN_PROGRESS",
        "PENDING",
        "QUEUED",
        "RUNNING",
        "WAITING",
        "SCHEDULED",
        "STARTING",
        "CREATED",
    ];
    ACTIVE
        .iter()
        .any(|active| active.eq_ignore_ascii_case(status))
}

/// Lower and upper bound of a valid effective reward: the platform scales every component to
/// [0, 1] and averages them, so the effective reward lies in [0, 1].
pub const REWARD_BOUNDS: (f64, f64) = (0.0, 1.0);

/// Rounding slack allowed outside [`REWARD_BOUNDS`]: a reward within it is clamped to the
/// bound (a weighted average can land a few ulps outside); beyond it the reward is invalid.
pub const REWARD_BOUND_SLACK: f64 = 1e-9;

/// A trajectory's reward after validation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum RewardState {
    /// No reward was published (null is not zero).
    Missing,
    /// A finite reward within the declared bounds.
    Valid(f64),
    /// NaN, infinite, or outside the declared bounds: never used as a number, counted.
    Invalid,
}

impl RewardState {
    /// Validates a published reward against [`REWARD_BOUNDS`] with [`REWARD_BOUND_SLACK`].
    pub fn from_reward(reward: Option<f64>) -> RewardState {
        let Some(value) = reward else {
            return RewardState::Missing;
        };
        let (low, high) = REWARD_BOUNDS;
        if !value.is_finite()
            || value < low - REWARD_BOUND_SLACK
            || value > high + REWARD_BOUND_SLACK
        {
            return RewardState::Invalid;
        }
        RewardState::Valid(value.clamp(low, high))
    }

    /// Whether a reward was published at all (valid or not).
    pub fn is_present(self) -> bool {
        !matches!(self, RewardState::Missing)
    }

    /// The usable value, if valid.
    pub fn valid(self) -> Option<f64> {
        match self {
            RewardState::Valid(value) => Some(value),
            _ => None,
        }
    }
}

/// Why a trajectory is left out of the primary analysis.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Exclusion {
    /// No reward and no platform rule that scores it.
    NoReward,
    /// The reward is NaN, infinite or outside [0, 1].
    InvalidReward,
    /// The attempt failed.
    Failed,
    /// The attempt was cancelled.
    Cancelled,
    /// The attempt has not ended yet.
    Unfinished,
}

/// A trajectory's value in the primary analysis.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum PrimaryValue {
    /// The published reward.
    Reward(f64),
    /// A cut-off ending without a reward: scored 0 by the platform rule.
    ZeroByPlatformRule,
    /// A model ending (timeout, no submission) without a reward: scored 0.
    ZeroWithoutGrade,
    /// Not part of the primary analysis, for this reason.
    Excluded(Exclusion),
}

impl PrimaryValue {
    /// The number entering the per-task mean, if the trajectory is included.
    pub fn value(self) -> Option<f64> {
        match self {
            PrimaryValue::Reward(value) => Some(value),
            PrimaryValue::ZeroByPlatformRule | PrimaryValue::ZeroWithoutGrade => Some(0.0),
            PrimaryValue::Excluded(_) => None,
        }
    }
}

/// A trajectory's values in both analyses.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Scoring {
    /// Value in the primary paired analysis.
    pub primary: PrimaryValue,
    /// Value in the sensitivity analysis (failed and absent count as 0); `None` when excluded.
    pub sensitivity: Option<f64>,
}
