//! A run's recorded settings that change scores ([`RunOptions`]) and how an evaluation
//! override resolves over the run-wide setting ([`Effective`]).

use serde::{Deserialize, Serialize};

/// Recorded settings that change scores, raw as recorded (`None` = not recorded, so the
/// platform's default applied). Use [`RunOptions::effective`] for the values that applied.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct RunOptions {
    /// `temperature`: sampling temperature (training and, absent an override, evaluation).
    pub temperature: Option<f64>,
    /// `evaluation_temperature`: evaluation override of the temperature.
    pub evaluation_temperature: Option<f64>,
    /// `top_p`: nucleus sampling probability.
    pub top_p: Option<f64>,
    /// `evaluation_top_p`: evaluation override of `top_p`.
    pub evaluation_top_p: Option<f64>,
    /// `top_k`: top-k limit (-1 disables it).
    pub top_k: Option<i64>,
    /// `evaluation_top_k`: evaluation override of `top_k`.
    pub evaluation_top_k: Option<i64>,
    /// `reasoning_effort`, kept by name.
    pub reasoning_effort: Option<String>,
    /// `evaluation_reasoning_effort`: evaluation override of the reasoning effort.
    pub evaluation_reasoning_effort: Option<String>,
    /// `evaluation_samples_per_task`: attempts per task.
    pub samples_per_task: Option<i64>,
    /// `evaluation_max_samples`: cap on distinct tasks.
    pub max_tasks: Option<i64>,
    /// `max_output_tokens_per_step`.
    pub max_output_tokens_per_step: Option<i64>,
    /// `max_total_tokens_per_trajectory`.
    pub max_total_tokens_per_trajectory: Option<i64>,
    /// `max_turns_per_trajectory`.
    pub max_turns_per_trajectory: Option<i64>,
    /// `execution_timeout_seconds`: time limit per rollout.
    pub execution_timeout_seconds: Option<i64>,
    /// `evaluation_collection_timeout_seconds`: total wait for outstanding evaluation rollouts.
    pub evaluation_collection_timeout_seconds: Option<f64>,
}

/// A setting's value as it applied to the evaluation, with where it came from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "from", content = "value", rename_all = "snake_case")]
pub enum Effective<T> {
    /// The evaluation override (`evaluation_*`) was recorded.
    EvaluationOverride(T),
    /// No override; the run-wide setting applied.
    RunSetting(T),
    /// Neither recorded: the platform or model default applied (value unknown here).
    Default,
}

impl<T> Effective<T> {
    /// Resolves an evaluation setting: the `evaluation_*` override when recorded, else the
    /// run-wide setting, else the default. The contract says a null override "preserves the
    /// evaluation default" and a null run setting "preserves the model default"; an evaluation
    /// run without an override samples with its run-wide setting.
    pub fn resolve(evaluation_override: Option<T>, run_setting: Option<T>) -> Self {
        match (evaluation_override, run_setting) {
            (Some(value), _) => Effective::EvaluationOverride(value),
            (None, Some(value)) => Effective::RunSetting(value),
            (None, None) => Effective::Default,
        }
    }

    /// The value, when one was recorded.
    pub fn value(&self) -> Option<&T> {
        match self {
            Effective::EvaluationOverride(value) | Effective::RunSetting(value) => Some(value),
            Effective::Default => None,
        }
    }
}

/// The settings that applied to an evaluation run, overrides resolved.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EffectiveOptions {
    /// Sampling temperature.
    pub temperature: Effective<f64>,
    /// Nucleus sampling probability.
    pub top_p: Effective<f64>,
    /// Top-k limit.
    pub top_k: Effective<i64>,
    /// Reasoning effort.
    pub reasoning_effort: Effective<String>,
}

impl RunOptions {
    /// Resolves `evaluation_*` overrides over run-wide settings (see [`Effective::resolve`]).
    pub fn effective(&self) -> EffectiveOptions {
        EffectiveOptions {
            temperature: Effective::resolve(self.evaluation_temperature, self.temperature),
            top_p: Effective::resolve(self.evaluation_top_p, self.top_p),
            top_k: Effective::resolve(self.evaluation_top_k, self.top_k),
            reasoning_effort: Effective::resolve(
                self.evaluation_reasoning_effort.clone(),
                self.reasoning_effort.clone(),
            ),
        }
    }
}
