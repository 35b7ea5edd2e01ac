//! How a run's effective settings read: a value, and where it came from.

use crate::model::{Resolution, SettingValue};

/// A setting's value: whole numbers of a float setting keep one decimal (`1.0`, not `1`) so
/// they read as the float they are.
pub fn setting_value(value: &SettingValue) -> String {
    match value {
        SettingValue::Number(x) if !x.is_finite() => "not a finite number".to_owned(),
        SettingValue::Number(x) if x.fract() == 0.0 && x.abs() < 1e15 => format!("{x:.1}"),
        SettingValue::Number(x) => x.to_string(),
        SettingValue::Integer(n) => n.to_string(),
        SettingValue::Text(text) => text.clone(),
    }
}

/// Where a resolved value came from ("recorded, `temperature`", "training run,
/// `evaluation_temperature`", "evaluation default, `top_k`"), or "could not be resolved".
pub fn setting_source(resolution: &Resolution) -> String {
    match resolution {
        Resolution::Resolved { source, option, .. } => format!("{}, `{option}`", source.label()),
        Resolution::Unresolved { .. } => "could not be resolved".to_owned(),
    }
}

/// A setting as a finding names it: "0.6 (recorded, `temperature`)", "could not be resolved".
pub fn setting_shown(resolution: &Resolution) -> String {
    match resolution {
        Resolution::Resolved { value, .. } => {
            format!("{} ({})", setting_value(value), setting_source(resolution))
        }
        Resolution::Unresolved { .. } => setting_source(resolution),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::SettingSource;

    #[test]
    fn values_and_sources_read_plainly() {
        assert_eq!(setting_value(&SettingValue::Number(1.0)), "1.0");
        assert_eq!(setting_value(&SettingValue::Number(0.95)), "0.95");
        assert_eq!(
            setting_value(&SettingValue::Number(f64::NAN)),
            "not a finite number"
        );
        assert_eq!(setting_value(&SettingValue::Integer(-1)), "-1");
        assert_eq!(setting_value(&SettingValue::Text("high".into())), "high");
        let resolved = Resolution::Resolved {
            value: SettingValue::Number(0.6),
            source: SettingSource::TrainingRun,
            option: "evaluation_temperature".into(),
        };
        assert_eq!(
            setting_shown(&resolved),
            "0.6 (training run, `evaluation_temperature`)"
        );
        let unresolved = Resolution::Unresolved {
            reason: "why".into(),
        };
        assert_eq!(setting_shown(&unresolved), "could not be resolved");
    }
}
