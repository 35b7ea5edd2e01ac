//! Why a trajectory or rollout ended.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Recorded reason a trajectory ended (docs/guides/termination-reasons.mdx).
///
/// The contract types the field as a plain string; values this build does not know are kept by
/// name and written back unchanged.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TerminationReason {
    /// `ENV_DONE`: finished normally, including a graded wrong answer.
    EnvDone,
    /// `ERROR`: a model, environment or grader failure prevented a valid attempt.
    Error,
    /// `TIMEOUT`: the harness stopped the actor at its time limit.
    Timeout,
    /// `TRUNCATION`: the final reply hit its token limit or the context no longer fit.
    Truncation,
    /// `MISSING_SUBMIT`: the task required a submission and the actor stopped without one.
    MissingSubmit,
    /// `MAX_STEPS`: stopped at the turn or step limit.
    MaxSteps,
    /// `LIMIT_REACHED`: the platform stopped it at a token or context limit.
    LimitReached,
    /// `STALE`: the platform gave up on it.
    Stale,
    /// `CANCELLED`: the platform cancelled it.
    Cancelled,
    /// `GOLDEN_PATCH`: reserved.
    GoldenPatch,
    /// A `SANDBOX_*` execution failure; holds the full value, e.g. `SANDBOX_TIMEOUT`.
    Sandbox(String),
    /// A value this build does not know, kept by name.
    Other(String),
}

const SANDBOX_PREFIX: &str = "SANDBOX_";

impl TerminationReason {
    /// The exact wire string.
    pub fn as_str(&self) -> &str {
        match self {
            Self::EnvDone => "ENV_DONE",
            Self::Error => "ERROR",
            Self::Timeout => "TIMEOUT",
            Self::Truncation => "TRUNCATION",
            Self::MissingSubmit => "MISSING_SUBMIT",
            Self::MaxSteps => "MAX_STEPS",
            Self::LimitReached => "LIMIT_REACHED",
            Self::Stale => "STALE",
            Self::Cancelled => "CANCELLED",
            Self::GoldenPatch => "GOLDEN_PATCH",
            Self::Sandbox(value) | Self::Other(value) => value,
        }
    }

    /// Whether the value is one the contract names (including any `SANDBOX_*`).
    pub fn is_known(&self) -> bool {
        !matches!(self, Self::Other(_))
    }
}

impl From<String> for TerminationReason {
    fn from(value: String) -> Self {
        match value.as_str() {
            "ENV_DONE" => Self::EnvDone,
            "ERROR" => Self::Error,
            "TIMEOUT" => Self::Timeout,
            "TRUNCATION" => Self::Truncation,
            "MISSING_SUBMIT" => Self::MissingSubmit,
            "MAX_STEPS" => Self::MaxSteps,
            "LIMIT_REACHED" => Self::LimitReached,
            "STALE" => Self::Stale,
            "CANCELLED" => Self::Cancelled,
            "GOLDEN_PATCH" => Self::GoldenPatch,
            sandbox if sandbox.starts_with(SANDBOX_PREFIX) => Self::Sandbox(value),
            _ => Self::Other(value),
        }
    }
}

impl From<&str> for TerminationReason {
    fn from(value: &str) -> Self {
        Self::from(value.to_owned())
    }
}

impl fmt::Display for TerminationReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for TerminationReason {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for TerminationReason {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        String::deserialize(deserializer).map(Self::from)
    }
}
