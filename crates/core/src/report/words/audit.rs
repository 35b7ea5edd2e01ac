//! The comparability audit's words: its verdict and the table of effective settings.

use crate::audit::Severity;
use crate::model::{EffectiveSetting, Resolution};
use crate::text::{setting_source, setting_value, MISSING};

/// The audit's verdict after "Comparability: ".
pub fn comparability_words(verdict: Severity) -> &'static str {
    match verdict {
        Severity::Blocking => "not comparable (blocking findings)",
        Severity::Caution => "comparable with cautions",
        Severity::Info => "comparable",
    }
}

/// The heading of the effective settings the audit compared.
pub const EFFECTIVE_SETTINGS: &str = "Effective settings";

/// One run's cell in the table of effective settings, written by the renderer's own escaping:
/// `value` escapes the value (data, always text), `quoted` the source with its option key set
/// as code: "0.2 (recorded, `temperature`)", "not resolved", or "—" when the run has no such
/// row.
pub fn setting_cell(
    setting: Option<&EffectiveSetting>,
    value: impl Fn(&str) -> String,
    quoted: impl Fn(&str) -> String,
) -> String {
    let Some(setting) = setting else {
        return MISSING.to_owned();
    };
    match &setting.resolution {
        Resolution::Resolved { value: v, .. } => format!(
            "{} ({})",
            value(&setting_value(v)),
            quoted(&setting_source(&setting.resolution))
        ),
        Resolution::Unresolved { .. } => "not resolved".to_owned(),
    }
}
