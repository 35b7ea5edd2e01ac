//! A run's effective settings: each sampling and limit setting resolved from what the run
//! recorded, else (for a checkpoint evaluation) its training run's options, else the evaluation
//! defaults of its benchmark version and base model — keeping where each value came from, and
//! why one could not be resolved.
//!
//! The order follows the contract's guide: explicit options win; a checkpoint evaluation
//! inherits its training run's resolved validation settings (its `evaluation_*` overrides, else
//! its run-wide settings); a base-model evaluation uses the evaluation defaults
//! (`GET /api/v1/eval/options`). At every level an `evaluation_*` override comes before the
//! run-wide setting.

use serde::{Deserialize, Serialize};

use crate::api::OptionDefault;

use super::run::RunInfo;
use super::run_options::RunOptions;
use super::setting_inputs::Lookup;

/// The settings resolved for every Trajectory run, in the order they are shown.
pub const SETTINGS: [SettingKey; 10] = [
    SettingKey::Temperature,
    SettingKey::TopP,
    SettingKey::TopK,
    SettingKey::ReasoningEffort,
    SettingKey::SamplesPerTask,
    SettingKey::MaxOutputTokensPerStep,
    SettingKey::MaxTotalTokensPerTrajectory,
    SettingKey::MaxTurnsPerTrajectory,
    SettingKey::ExecutionTimeoutSeconds,
    SettingKey::CollectionTimeoutSeconds,
];

/// A setting that changes what an evaluation scores.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SettingKey {
    /// Sampling temperature.
    Temperature,
    /// Nucleus sampling probability.
    TopP,
    /// Top-k limit (-1 disables it).
    TopK,
    /// Reasoning effort, kept by name.
    ReasoningEffort,
    /// Attempts per task.
    SamplesPerTask,
    /// Output tokens per model call.
    MaxOutputTokensPerStep,
    /// Output tokens across one attempt.
    MaxTotalTokensPerTrajectory,
    /// Agent and environment turns per attempt.
    MaxTurnsPerTrajectory,
    /// Time limit per attempt, seconds.
    ExecutionTimeoutSeconds,
    /// Total wait for outstanding evaluation attempts, seconds.
    CollectionTimeoutSeconds,
}

/// The kind of values a setting takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Number,
    Integer,
    Text,
}

impl SettingKey {
    /// The setting's name for people ("Temperature", "Max turns per trajectory").
    pub fn label(self) -> &'static str {
        match self {
            SettingKey::Temperature => "Temperature",
            SettingKey::TopP => "top_p",
            SettingKey::TopK => "top_k",
            SettingKey::ReasoningEffort => "Reasoning effort",
            SettingKey::SamplesPerTask => "Samples per task",
            SettingKey::MaxOutputTokensPerStep => "Max output tokens per step",
            SettingKey::MaxTotalTokensPerTrajectory => "Max total tokens per trajectory",
            SettingKey::MaxTurnsPerTrajectory => "Max turns per trajectory",
            SettingKey::ExecutionTimeoutSeconds => "Execution timeout (s)",
            SettingKey::CollectionTimeoutSeconds => "Evaluation collection timeout (s)",
        }
    }

    /// The option keys (`TrainingOptionKey`) that set it, the evaluation override first.
    pub fn option_keys(self) -> &'static [&'static str] {
        match self {
            SettingKey::Temperature => &["evaluation_temperature", "temperature"],
            SettingKey::TopP => &["evaluation_top_p", "top_p"],
            SettingKey::TopK => &["evaluation_top_k", "top_k"],
            SettingKey::ReasoningEffort => &["evaluation_reasoning_effort", "reasoning_effort"],
            SettingKey::SamplesPerTask => &["evaluation_samples_per_task"],
            SettingKey::MaxOutputTokensPerStep => &["max_output_tokens_per_step"],
            SettingKey::MaxTotalTokensPerTrajectory => &["max_total_tokens_per_trajectory"],
            SettingKey::MaxTurnsPerTrajectory => &["max_turns_per_trajectory"],
            SettingKey::ExecutionTimeoutSeconds => &["execution_timeout_seconds"],
            SettingKey::CollectionTimeoutSeconds => &["evaluation_collection_timeout_seconds"],
        }
    }

    fn kind(self) -> Kind {
        match self {
            SettingKey::Temperature | SettingKey::TopP | SettingKey::CollectionTimeoutSeconds => {
                Kind::Number
            }
            SettingKey::ReasoningEffort => Kind::Text,
            _ => Kind::Integer,
        }
    }
}

/// A setting's value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum SettingValue {
    /// A whole number (limits, top_k, samples per task).
    Integer(i64),
    /// A number (temperature, top_p, the collection timeout).
    Number(f64),
    /// A name (reasoning effort).
    Text(String),
}

/// Where an effective value came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SettingSource {
    /// The evaluation run recorded it.
    Recorded,
    /// The training run of the evaluated checkpoint recorded it.
    TrainingRun,
    /// The evaluation defaults of the run's benchmark version and base model.
    EvaluationDefault,
}

impl SettingSource {
    /// The source for people.
    pub fn label(self) -> &'static str {
        match self {
            SettingSource::Recorded => "recorded",
            SettingSource::TrainingRun => "training run",
            SettingSource::EvaluationDefault => "evaluation default",
        }
    }
}

/// A setting's effective value and where it came from, or why it is not known.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Resolution {
    /// The value that applied.
    Resolved {
        /// The value.
        value: SettingValue,
        /// Where it came from.
        source: SettingSource,
        /// The option key that gave it (`evaluation_temperature`, `temperature`, …).
        option: String,
    },
    /// The value could not be resolved.
    Unresolved {
        /// Why, in one phrase.
        reason: String,
    },
}

impl Resolution {
    /// The value, when resolved.
    pub fn value(&self) -> Option<&SettingValue> {
        match self {
            Resolution::Resolved { value, .. } => Some(value),
            Resolution::Unresolved { .. } => None,
        }
    }
}

/// One setting of a run, resolved.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EffectiveSetting {
    /// Which setting.
    pub setting: SettingKey,
    /// Its value and provenance, or why it is not known.
    pub resolution: Resolution,
}

impl RunOptions {
    /// The recorded value of an option key, typed as `setting` takes it.
    fn recorded(&self, key: &str) -> Option<SettingValue> {
        let number = |v: Option<f64>| v.map(SettingValue::Number);
        let integer = |v: Option<i64>| v.map(SettingValue::Integer);
        let text = |v: &Option<String>| v.clone().map(SettingValue::Text);
        match key {
            "evaluation_temperature" => number(self.evaluation_temperature),
            "temperature" => number(self.temperature),
            "evaluation_top_p" => number(self.evaluation_top_p),
            "top_p" => number(self.top_p),
            "evaluation_top_k" => integer(self.evaluation_top_k),
            "top_k" => integer(self.top_k),
            "evaluation_reasoning_effort" => text(&self.evaluation_reasoning_effort),
            "reasoning_effort" => text(&self.reasoning_effort),
            "evaluation_samples_per_task" => integer(self.samples_per_task),
            "max_output_tokens_per_step" => integer(self.max_output_tokens_per_step),
            "max_total_tokens_per_trajectory" => integer(self.max_total_tokens_per_trajectory),
            "max_turns_per_trajectory" => integer(self.max_turns_per_trajectory),
            "execution_timeout_seconds" => integer(self.execution_timeout_seconds),
            "evaluation_collection_timeout_seconds" => {
                number(self.evaluation_collection_timeout_seconds)
            }
            _ => None,
        }
    }
}

impl RunInfo {
    /// Every setting of [`SETTINGS`], resolved (see the module doc).
    pub fn effective_settings(&self) -> Vec<EffectiveSetting> {
        SETTINGS
            .iter()
            .map(|&setting| EffectiveSetting {
                setting,
                resolution: resolve(self, setting),
            })
            .collect()
    }
}

/// Resolves one setting of a run: recorded, else its training run's (checkpoint evaluations),
/// else the evaluation default.
pub fn resolve(info: &RunInfo, setting: SettingKey) -> Resolution {
    let keys = setting.option_keys();
    if let Some(found) = first_recorded(&info.options, keys, SettingSource::Recorded) {
        return found;
    }
    if info.checkpoint.is_checkpoint() {
        match &info.settings_inputs.training_run {
            Lookup::Read(options) => {
                if let Some(found) = first_recorded(options, keys, SettingSource::TrainingRun) {
                    return found;
                }
            }
            Lookup::Failed(why) => {
                return unresolved(format!(
                    "not recorded, and the training run's options could not be read: {why}"
                ))
            }
            Lookup::NotRead | Lookup::NotApplicable => {
                return unresolved(
                    "not recorded, and the training run's options were not read".to_owned(),
                )
            }
        }
    }
    let defaults = match &info.settings_inputs.defaults {
        Lookup::Read(defaults) => defaults,
        Lookup::Failed(why) => {
            return unresolved(format!(
                "not recorded, and the evaluation defaults could not be read: {why}"
            ))
        }
        Lookup::NotRead | Lookup::NotApplicable => {
            return unresolved("not recorded, and the evaluation defaults were not read".to_owned())
        }
    };
    for key in keys {
        let Some(listed) = defaults.options.get(*key) else {
            continue;
        };
        if listed.computed {
            return unresolved(format!(
                "not recorded, and the evaluation default of `{key}` is computed by the server at launch"
            ));
        }
        let Some(default) = &listed.default else {
            continue;
        };
        return match typed(default, setting.kind()) {
            Some(value) => Resolution::Resolved {
                value,
                source: SettingSource::EvaluationDefault,
                option: (*key).to_owned(),
            },
            None => unresolved(format!(
                "not recorded, and the evaluation default of `{key}` is not a value it takes"
            )),
        };
    }
    unresolved(format!(
        "not recorded, and the evaluation defaults of {} on {} list none",
        defaults.base_model, defaults.bench_id
    ))
}

fn first_recorded(
    options: &RunOptions,
    keys: &[&str],
    source: SettingSource,
) -> Option<Resolution> {
    keys.iter().find_map(|key| {
        options.recorded(key).map(|value| Resolution::Resolved {
            value,
            source,
            option: (*key).to_owned(),
        })
    })
}

fn unresolved(reason: String) -> Resolution {
    Resolution::Unresolved { reason }
}

/// A listed default as the setting's kind of value: a whole number for an integer setting.
fn typed(default: &OptionDefault, kind: Kind) -> Option<SettingValue> {
    match (default, kind) {
        (OptionDefault::Number(x), Kind::Number) => Some(SettingValue::Number(*x)),
        (OptionDefault::Number(x), Kind::Integer)
            if x.is_finite() && x.fract() == 0.0 && x.abs() < 9.0e15 =>
        {
            Some(SettingValue::Integer(*x as i64))
        }
        (OptionDefault::Text(text), Kind::Text) => Some(SettingValue::Text(text.clone())),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::RunOptionsResponse;
    use crate::model::{CheckpointInfo, EvaluationDefaults, ListedDefault};

    fn defaults(entries: &[(&str, Option<OptionDefault>, bool)]) -> EvaluationDefaults {
        EvaluationDefaults {
            bench_id: "bench".to_owned(),
            base_model: "org/model".to_owned(),
            options: entries
                .iter()
                .map(|(key, default, computed)| {
                    let listed = ListedDefault {
                        default: default.clone(),
                        computed: *computed,
                    };
                    ((*key).to_owned(), listed)
                })
                .collect(),
        }
    }

    fn checkpoint() -> CheckpointInfo {
        CheckpointInfo {
            step: Some(100),
            training_run_id: Some("train".to_owned()),
            parent_checkpoint_id: None,
        }
    }

    fn resolved(value: SettingValue, source: SettingSource, option: &str) -> Resolution {
        Resolution::Resolved {
            value,
            source,
            option: option.to_owned(),
        }
    }

    #[test]
    fn a_recorded_override_wins_over_everything() {
        let mut info = RunInfo {
            checkpoint: checkpoint(),
            ..RunInfo::default()
        };
        info.options.temperature = Some(1.0);
        info.options.evaluation_temperature = Some(0.3);
        info.settings_inputs.training_run = Lookup::Read(RunOptions {
            evaluation_temperature: Some(0.6),
            ..RunOptions::default()
        });
        assert_eq!(
            resolve(&info, SettingKey::Temperature),
            resolved(
                SettingValue::Number(0.3),
                SettingSource::Recorded,
                "evaluation_temperature"
            )
        );
    }

    #[test]
    fn a_checkpoint_inherits_its_training_runs_override_then_its_setting() {
        let mut info = RunInfo {
            checkpoint: checkpoint(),
            ..RunInfo::default()
        };
        info.settings_inputs.training_run = Lookup::Read(RunOptions {
            temperature: Some(1.0),
            evaluation_temperature: Some(0.6),
            top_p: Some(1.0),
            ..RunOptions::default()
        });
        info.settings_inputs.defaults = Lookup::Read(defaults(&[(
            "top_k",
            Some(OptionDefault::Number(-1.0)),
            false,
        )]));
        let settings = info.effective_settings();
        let of = |key| {
            settings
                .iter()
                .find(|s| s.setting == key)
                .map(|s| s.resolution.clone())
                .unwrap()
        };
        let expected = [
            (
                SettingKey::Temperature,
                SettingValue::Number(0.6),
                SettingSource::TrainingRun,
                "evaluation_temperature",
            ),
            (
                SettingKey::TopP,
                SettingValue::Number(1.0),
                SettingSource::TrainingRun,
                "top_p",
            ),
            (
                SettingKey::TopK,
                SettingValue::Integer(-1),
                SettingSource::EvaluationDefault,
                "top_k",
            ),
        ];
        for (key, value, source, option) in expected {
            assert_eq!(of(key), resolved(value, source, option), "{key:?}");
        }
    }

    #[test]
    fn an_unreadable_training_run_leaves_inherited_settings_unresolved() {
        let mut info = RunInfo {
            checkpoint: checkpoint(),
            ..RunInfo::default()
        };
        info.settings_inputs.training_run = Lookup::Failed("404 not found".to_owned());
        info.settings_inputs.defaults = Lookup::Read(defaults(&[(
            "temperature",
            Some(OptionDefault::Number(1.0)),
            false,
        )]));
        // The defaults are not used: the training run may have set the value.
        assert_eq!(
            resolve(&info, SettingKey::Temperature),
            unresolved(
                "not recorded, and the training run's options could not be read: 404 not found"
                    .to_owned()
            )
        );
    }

    #[test]
    fn a_base_model_run_uses_the_evaluation_defaults() {
        let mut info = RunInfo::default();
        info.settings_inputs.defaults = Lookup::Read(defaults(&[
            ("temperature", Some(OptionDefault::Number(1.0)), false),
            (
                "max_turns_per_trajectory",
                Some(OptionDefault::Number(125.0)),
                false,
            ),
            ("max_output_tokens_per_step", None, true),
            (
                "reasoning_effort",
                Some(OptionDefault::Text("medium".into())),
                false,
            ),
            (
                "execution_timeout_seconds",
                Some(OptionDefault::Number(7.5)),
                false,
            ),
            ("evaluation_samples_per_task", None, false),
        ]));
        // A training run's options are never consulted for a base-model run.
        info.settings_inputs.training_run = Lookup::Failed("unused".to_owned());
        let from_defaults = [
            (
                SettingKey::Temperature,
                SettingValue::Number(1.0),
                "temperature",
            ),
            (
                SettingKey::MaxTurnsPerTrajectory,
                SettingValue::Integer(125),
                "max_turns_per_trajectory",
            ),
            (
                SettingKey::ReasoningEffort,
                SettingValue::Text("medium".into()),
                "reasoning_effort",
            ),
        ];
        for (key, value, option) in from_defaults {
            assert_eq!(
                resolve(&info, key),
                resolved(value, SettingSource::EvaluationDefault, option),
                "{key:?}"
            );
        }
        assert_eq!(
            resolve(&info, SettingKey::MaxOutputTokensPerStep),
            unresolved("not recorded, and the evaluation default of `max_output_tokens_per_step` is computed by the server at launch".to_owned())
        );
        assert_eq!(
            resolve(&info, SettingKey::ExecutionTimeoutSeconds),
            unresolved("not recorded, and the evaluation default of `execution_timeout_seconds` is not a value it takes".to_owned())
        );
        assert_eq!(
            resolve(&info, SettingKey::SamplesPerTask),
            unresolved(
                "not recorded, and the evaluation defaults of org/model on bench list none"
                    .to_owned()
            )
        );
    }

    #[test]
    fn defaults_that_were_not_read_or_failed_say_so() {
        let mut info = RunInfo::default();
        assert_eq!(
            resolve(&info, SettingKey::TopP),
            unresolved("not recorded, and the evaluation defaults were not read".to_owned())
        );
        info.settings_inputs.defaults = Lookup::Failed("HTTP 503".to_owned());
        assert_eq!(
            resolve(&info, SettingKey::TopP),
            unresolved(
                "not recorded, and the evaluation defaults could not be read: HTTP 503".to_owned()
            )
        );
    }

    #[test]
    fn the_defaults_of_the_runs_model_are_picked() {
        let body = r#"{"bench_id": "b", "models": [
            {"base_model_slug": "m1", "options": {"temperature": {"type": "number", "default": 0.7, "default_kind": "fixed", "description": "t"}}},
            {"base_model_slug": "m2", "options": {"temperature": {"type": "number", "default": null, "default_kind": "computed", "description": "t"}}}
        ]}"#;
        let response: RunOptionsResponse = serde_json::from_str(body).unwrap();
        let m2 = EvaluationDefaults::from_api(&response, Some("m2")).unwrap();
        assert_eq!(m2.base_model, "m2");
        assert!(m2.options["temperature"].computed);
        assert_eq!(
            EvaluationDefaults::from_api(&response, Some("m3")),
            Err("the evaluation options of b list no model m3".to_owned())
        );
        assert_eq!(
            EvaluationDefaults::from_api(&response, None),
            Err("the run names no base model".to_owned())
        );
    }

    #[test]
    fn values_round_trip_through_json_with_their_type() {
        let settings = vec![
            EffectiveSetting {
                setting: SettingKey::Temperature,
                resolution: resolved(
                    SettingValue::Number(1.0),
                    SettingSource::Recorded,
                    "temperature",
                ),
            },
            EffectiveSetting {
                setting: SettingKey::TopK,
                resolution: resolved(
                    SettingValue::Integer(-1),
                    SettingSource::EvaluationDefault,
                    "top_k",
                ),
            },
            EffectiveSetting {
                setting: SettingKey::TopP,
                resolution: unresolved("why".to_owned()),
            },
        ];
        let json = serde_json::to_string(&settings).unwrap();
        assert!(json.contains(r#""value":1.0"#), "{json}");
        let back: Vec<EffectiveSetting> = serde_json::from_str(&json).unwrap();
        assert_eq!(back, settings);
    }
}
