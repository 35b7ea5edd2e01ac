//! Reward components (Trajectory) and scorers (Chronicle), in one shape.

use serde::{Deserialize, Serialize};

/// One part of a trajectory's reward: a Trajectory reward component or a Chronicle scorer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RewardComponent {
    /// Component or scorer name.
    pub name: String,
    /// Raw value as logged; `None` when the scorer produced none (null is not zero).
    pub value: Option<f64>,
    /// Value scaled to [0, 1] by the declared bounds, when the source reports it.
    pub scaled_value: Option<f64>,
    /// Weight in the effective reward; 0 = informative only; `None` when the source has none.
    pub weight: Option<f64>,
    /// Declared bounds `(min, max)` of the raw value, when known.
    pub score_range: Option<(f64, f64)>,
    /// Pass threshold (Chronicle scorers).
    pub threshold: Option<f64>,
    /// Whether the threshold was met (Chronicle scorers).
    pub passed: Option<bool>,
    /// Grader's explanation.
    pub explanation: Option<String>,
}

/// The platform's effective reward from components: Σ wⱼ·clamp((xⱼ − loⱼ)/(hiⱼ − loⱼ), 0, 1) / Σ wⱼ
/// over components with weight > 0 (statistics.md §1).
///
/// `None` when no component has a positive weight, or a weighted component lacks a finite value,
/// weight or bounds with hi > lo: the number cannot be recomputed then.
pub fn effective_reward(components: &[RewardComponent]) -> Option<f64> {
    let mut weighted = 0.0;
    let mut total_weight = 0.0;
    for component in components {
        let weight = component.weight?;
        if !weight.is_finite() || weight < 0.0 {
            return None;
        }
        if weight == 0.0 {
            continue;
        }
        let value = component.value.filter(|value| value.is_finite())?;
        let (low, high) = component.score_range?;
        if !(low.is_finite() && high.is_finite() && high > low) {
            return None;
        }
        weighted += weight * ((value - low) / (high - low)).clamp(0.0, 1.0);
        total_weight += weight;
    }
    (total_weight > 0.0).then(|| weighted / total_weight)
}
