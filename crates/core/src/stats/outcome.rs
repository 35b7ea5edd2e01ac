//! The result type shared by every statistic: a value, or the explicit reason there is none.

use serde::{Deserialize, Serialize};

/// A statistic's outcome: `Ok(value)` or the documented reason it cannot be computed.
///
/// Serialized as `{"Ok": value}` or `{"Err": {"kind": ..., ...}}`; never holds NaN.
pub type Stat<T> = Result<T, NotComputable>;

/// Why a statistic has no value for the given input.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum NotComputable {
    /// Fewer observations (tasks, clusters, non-zero deltas, ...) than the statistic needs.
    #[error("needs at least {needed} observations, got {got}")]
    NotEnoughData {
        /// Minimum number of observations required.
        needed: usize,
        /// Number of observations available.
        got: usize,
    },
    /// The spread is exactly zero (e.g. all deltas equal), so a ratio to it is undefined.
    #[error("zero variance: every value is identical, so the statistic is undefined")]
    ZeroVariance,
    /// An input value is NaN or infinite.
    #[error("input value at index {index} is not a finite number")]
    NonFinite {
        /// Position of the first offending value.
        index: usize,
    },
    /// An input value's magnitude exceeds 1e100 (see `validate::MAX_MAGNITUDE`).
    #[error("input value at index {index} is too large in magnitude (limit 1e100)")]
    OutOfRange {
        /// Position of the first offending value.
        index: usize,
    },
    /// Two inputs that must pair up element by element have different lengths.
    #[error("paired inputs differ in length: {left} vs {right}")]
    LengthMismatch {
        /// Length of the first input.
        left: usize,
        /// Length of the second input.
        right: usize,
    },
    /// A parameter (level, k, probability, ...) is outside its domain.
    #[error("parameter `{name}` is invalid: {reason}")]
    InvalidParameter {
        /// Name of the parameter.
        name: String,
        /// What the parameter must satisfy.
        reason: String,
    },
    /// Every bootstrap resample lies on one side of the estimate, so BCa's bias correction
    /// is infinite.
    #[error("BCa undefined: all bootstrap resamples fall on one side of the estimate")]
    BiasCorrectionUnbounded,
    /// The jackknife acceleration is so large that BCa's adjusted level is undefined
    /// (`1 − a·(z₀ + z) ≤ 0`); for the mean |a| ≤ ⅙ or so, so this needs extreme bias and level.
    #[error("BCa undefined: the jackknife acceleration is too large for this level")]
    AccelerationOutOfRange,
}

impl NotComputable {
    /// Shorthand for [`NotComputable::InvalidParameter`].
    pub fn invalid(name: &str, reason: &str) -> Self {
        Self::InvalidParameter {
            name: name.to_owned(),
            reason: reason.to_owned(),
        }
    }
}
