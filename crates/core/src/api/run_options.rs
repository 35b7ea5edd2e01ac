//! The options a benchmark supports per model, with their bounds and defaults
//! (`GET /api/v1/eval/options`: `RunOptionsResponse`).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::open_enum::open_enum;

/// Every supported model's options on one benchmark version (`RunOptionsResponse`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunOptionsResponse {
    /// The benchmark version asked about.
    pub bench_id: String,
    /// One entry per supported model (only the one asked for when `base_model_slug` was given).
    pub models: Vec<ModelRunOptions>,
}

impl RunOptionsResponse {
    /// The entry of `base_model_slug`; with no slug, the only entry when there is exactly one.
    pub fn model(&self, base_model_slug: Option<&str>) -> Option<&ModelRunOptions> {
        match base_model_slug {
            Some(slug) => self.models.iter().find(|m| m.base_model_slug == slug),
            None => match self.models.as_slice() {
                [only] => Some(only),
                _ => None,
            },
        }
    }
}

/// One model's supported options (`ModelRunOptions`), by option key (`TrainingOptionKey`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ModelRunOptions {
    /// The model (`BaseModelSlug`, kept as text).
    pub base_model_slug: String,
    /// Supported options by key (`temperature`, `evaluation_samples_per_task`, …).
    pub options: BTreeMap<String, RunOptionMetadata>,
}

open_enum! {
    /// The type of an option's values (`RunOptionMetadata.type`).
    pub enum OptionType keeps Other {
        /// Whole numbers.
        Integer => "integer",
        /// Numbers.
        Number => "number",
        /// `true` or `false`.
        Boolean => "boolean",
        /// Text.
        Text => "string",
    }
}

open_enum! {
    /// How an option's default is set (`RunOptionMetadata.default_kind`).
    pub enum DefaultKind keeps Other {
        /// The listed `default` applies.
        Fixed => "fixed",
        /// The server computes the default at launch (from the model, the benchmark, …).
        Computed => "computed",
    }
}

/// An option's default as listed: a boolean, a number or a string (`default`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum OptionDefault {
    /// A boolean default.
    Bool(bool),
    /// A numeric default.
    Number(f64),
    /// A textual default.
    Text(String),
}

/// One supported option (`RunOptionMetadata`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunOptionMetadata {
    /// The type of its values.
    #[serde(rename = "type")]
    pub option_type: OptionType,
    /// Lowest accepted value.
    #[serde(default)]
    pub min: Option<f64>,
    /// Highest accepted value.
    #[serde(default)]
    pub max: Option<f64>,
    /// The default; null when none is listed (e.g. a computed one).
    pub default: Option<OptionDefault>,
    /// Accepted values of a string option.
    #[serde(default)]
    pub choices: Option<Vec<String>>,
    /// Whether the default is the listed one or computed by the server.
    pub default_kind: DefaultKind,
    /// What the option controls.
    pub description: String,
}
