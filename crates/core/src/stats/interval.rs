//! Confidence intervals.

use serde::{Deserialize, Serialize};

/// A two-sided confidence interval `[lower, upper]` at `level` (e.g. 0.95).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Interval {
    /// Lower bound.
    pub lower: f64,
    /// Upper bound.
    pub upper: f64,
    /// Two-sided confidence level.
    pub level: f64,
}

impl Interval {
    /// `center ± half_width`.
    pub fn around(center: f64, half_width: f64, level: f64) -> Self {
        Self {
            lower: center - half_width,
            upper: center + half_width,
            level,
        }
    }

    /// Whether `value` lies within the closed interval.
    pub fn contains(&self, value: f64) -> bool {
        self.lower <= value && value <= self.upper
    }

    /// `upper − lower`.
    pub fn width(&self) -> f64 {
        self.upper - self.lower
    }
}
