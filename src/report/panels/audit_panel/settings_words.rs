//! What the effective-settings table says: a value and its source per run, and whether a row
//! differs. Plain functions, tested natively.

use eval_compare_core::model::{EffectiveSetting, Resolution};
use eval_compare_core::text::setting_value;

/// One cell of the table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SettingCell {
    /// The value, or "not resolved".
    pub value: String,
    /// Where the value came from ("recorded", "training run", "evaluation default").
    pub source: Option<&'static str>,
    /// The option key that gave it.
    pub option: Option<String>,
    /// Why it could not be resolved.
    pub reason: Option<String>,
}

/// The cell of one setting of one run.
pub fn setting_cell(setting: &EffectiveSetting) -> SettingCell {
    match &setting.resolution {
        Resolution::Resolved {
            value,
            source,
            option,
        } => SettingCell {
            value: setting_value(value),
            source: Some(source.label()),
            option: Some(option.clone()),
            reason: None,
        },
        Resolution::Unresolved { reason } => SettingCell {
            value: "not resolved".to_owned(),
            source: None,
            option: None,
            reason: Some(reason.clone()),
        },
    }
}

/// Whether a row needs a second look: its runs resolved different values, or some could not be
/// resolved while others were.
pub fn row_differs(row: &[&EffectiveSetting]) -> bool {
    let values: Vec<_> = row.iter().map(|s| s.resolution.value()).collect();
    values.windows(2).any(|pair| pair[0] != pair[1])
}

#[cfg(test)]
mod tests {
    use super::*;
    use eval_compare_core::model::{SettingKey, SettingSource, SettingValue};

    fn resolved(value: SettingValue, source: SettingSource, option: &str) -> EffectiveSetting {
        EffectiveSetting {
            setting: SettingKey::Temperature,
            resolution: Resolution::Resolved {
                value,
                source,
                option: option.to_owned(),
            },
        }
    }

    #[test]
    fn a_cell_shows_the_value_and_its_source_or_why_it_is_missing() {
        let cell = setting_cell(&resolved(
            SettingValue::Number(0.6),
            SettingSource::TrainingRun,
            "evaluation_temperature",
        ));
        assert_eq!(
            cell,
            SettingCell {
                value: "0.6".to_owned(),
                source: Some("training run"),
                option: Some("evaluation_temperature".to_owned()),
                reason: None,
            }
        );
        let cell = setting_cell(&resolved(
            SettingValue::Number(1.0),
            SettingSource::EvaluationDefault,
            "temperature",
        ));
        assert_eq!(
            (cell.value.as_str(), cell.source),
            ("1.0", Some("evaluation default"))
        );
        let unresolved = EffectiveSetting {
            setting: SettingKey::TopK,
            resolution: Resolution::Unresolved {
                reason: "not recorded, and the evaluation defaults were not read".to_owned(),
            },
        };
        let cell = setting_cell(&unresolved);
        assert_eq!(cell.value, "not resolved");
        assert_eq!(
            cell.reason.as_deref(),
            Some("not recorded, and the evaluation defaults were not read")
        );
        assert_eq!((cell.source, cell.option), (None, None));
    }

    #[test]
    fn a_row_differs_when_values_differ_or_only_some_are_known() {
        let recorded = resolved(
            SettingValue::Number(0.6),
            SettingSource::Recorded,
            "temperature",
        );
        let inherited = resolved(
            SettingValue::Number(0.6),
            SettingSource::TrainingRun,
            "evaluation_temperature",
        );
        let hotter = resolved(
            SettingValue::Number(1.0),
            SettingSource::EvaluationDefault,
            "temperature",
        );
        let unknown = EffectiveSetting {
            setting: SettingKey::Temperature,
            resolution: Resolution::Unresolved {
                reason: "why".to_owned(),
            },
        };
        assert!(
            !row_differs(&[&recorded, &inherited]),
            "same value, other source"
        );
        assert!(row_differs(&[&recorded, &inherited, &hotter]));
        assert!(row_differs(&[&recorded, &unknown]));
        assert!(!row_differs(&[&unknown, &unknown]));
        assert!(!row_differs(&[&recorded]));
    }
}
