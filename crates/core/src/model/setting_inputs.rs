//! What is read, besides a run's record, to resolve its settings: its training run's recorded
//! options and the evaluation defaults ([`SettingInputs`]), each with how its read went.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::run_options::RunOptions;
use crate::api::{DefaultKind, OptionDefault, RunOptionsResponse};

/// Something read to resolve a run's settings, and how that went.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(tag = "state", content = "value", rename_all = "snake_case")]
pub enum Lookup<T> {
    /// Not needed (a base-model run has no training run).
    NotApplicable,
    /// Not read (a run folder holds only its run).
    #[default]
    NotRead,
    /// Read.
    Read(T),
    /// Reading it failed: why.
    Failed(String),
}

/// One option's default, as the evaluation defaults list it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ListedDefault {
    /// The default; `None` when none is listed.
    pub default: Option<OptionDefault>,
    /// Whether the server computes it at launch (so its value is not known beforehand).
    pub computed: bool,
}

/// The evaluation defaults of one benchmark version and model (`GET /api/v1/eval/options`).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct EvaluationDefaults {
    /// The benchmark version.
    pub bench_id: String,
    /// The model.
    pub base_model: String,
    /// Each supported option's default, by option key.
    pub options: BTreeMap<String, ListedDefault>,
}

impl EvaluationDefaults {
    /// The defaults of `base_model` (or of the only model, when the run names none) in an
    /// options response; `Err` says why there are none.
    pub fn from_api(
        response: &RunOptionsResponse,
        base_model: Option<&str>,
    ) -> Result<Self, String> {
        let model = response.model(base_model).ok_or_else(|| match base_model {
            Some(model) => format!(
                "the evaluation options of {} list no model {model}",
                response.bench_id
            ),
            None => "the run names no base model".to_owned(),
        })?;
        Ok(EvaluationDefaults {
            bench_id: response.bench_id.clone(),
            base_model: model.base_model_slug.clone(),
            options: model
                .options
                .iter()
                .map(|(key, option)| {
                    let listed = ListedDefault {
                        default: option.default.clone(),
                        computed: option.default_kind == DefaultKind::Computed,
                    };
                    (key.clone(), listed)
                })
                .collect(),
        })
    }
}

/// What was read, besides the run record, to resolve a run's settings.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct SettingInputs {
    /// The recorded options of the training run whose checkpoint the run evaluated.
    pub training_run: Lookup<RunOptions>,
    /// The evaluation defaults of the run's benchmark version and base model.
    pub defaults: Lookup<EvaluationDefaults>,
}
