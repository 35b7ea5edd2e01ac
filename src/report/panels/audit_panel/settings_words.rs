//! What the effective-settings table says: a value and its source per run, whether a row
//! differs, which rows it shows (those that differ, the rest on demand) and the line and button
//! that say so. Plain functions, tested natively.

use eval_compare_core::audit::RunSettings;
use eval_compare_core::model::{EffectiveSetting, Resolution};
use eval_compare_core::text::{noun, plural, setting_value};

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

/// Row `row` of the table: each run's value of that setting (runs without it left out).
pub fn settings_row(runs: &[RunSettings], row: usize) -> Vec<&EffectiveSetting> {
    runs.iter()
        .filter_map(|run| run.settings.get(row))
        .collect()
}

/// The table's rows, the baseline's settings in order, and whether each [differs](row_differs).
pub fn rows_differing(runs: &[RunSettings]) -> Vec<bool> {
    let rows = runs.first().map_or(0, |first| first.settings.len());
    (0..rows)
        .map(|row| row_differs(&settings_row(runs, row)))
        .collect()
}

/// The line above the table: "2 of 10 settings differ between the runs; the other 8 are the
/// same in every run.", "All 10 settings are the same in every run.", or "Every setting (10)
/// differs between the runs."
pub fn difference_line(total: usize, differing: usize) -> String {
    let same = total - differing.min(total);
    match (differing, same) {
        (0, _) => format!(
            "All {} the same in every run.",
            plural(total as u64, "setting is", "settings are")
        ),
        (_, 0) => format!("Every setting ({total}) differs between the runs."),
        _ => format!(
            "{differing} of {total} settings {} between the runs; the other {same} {} the same \
             in every run.",
            noun(differing as u64, "differs", "differ"),
            noun(same as u64, "is", "are"),
        ),
    }
}

/// The button that shows the rest of the table or hides it again: "Show all 10 settings",
/// "Show only the 2 that differ", "Hide the settings"; `None` when every row differs (there is
/// nothing to show or hide).
pub fn toggle_label(total: usize, differing: usize, showing_all: bool) -> Option<String> {
    if total == 0 || differing >= total {
        return None;
    }
    Some(match (showing_all, differing) {
        (false, _) => format!("Show all {}", plural(total as u64, "setting", "settings")),
        (true, 0) => "Hide the settings".to_owned(),
        (true, _) => format!(
            "Show only the {differing} that {}",
            noun(differing as u64, "differs", "differ")
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use eval_compare_core::model::{RunIdx, SettingKey, SettingSource, SettingValue};

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

    fn run(index: usize, values: &[f64]) -> RunSettings {
        RunSettings {
            run: RunIdx(index),
            settings: values
                .iter()
                .map(|&v| {
                    resolved(
                        SettingValue::Number(v),
                        SettingSource::Recorded,
                        "temperature",
                    )
                })
                .collect(),
        }
    }

    #[test]
    fn only_the_rows_whose_runs_differ_are_marked() {
        let runs = [
            run(0, &[0.6, 1.0, 0.9]),
            run(1, &[0.6, 0.5, 0.9]),
            run(2, &[0.6, 1.0, 0.8]),
        ];
        assert_eq!(rows_differing(&runs), vec![false, true, true]);
        assert_eq!(settings_row(&runs, 1).len(), 3);
        assert_eq!(rows_differing(&runs[..1]), vec![false, false, false]);
        assert_eq!(rows_differing(&[]), Vec::<bool>::new());
        // A run with fewer rows: the rows it lacks compare the others only.
        let short = [run(0, &[0.6, 1.0]), run(1, &[0.6])];
        assert_eq!(rows_differing(&short), vec![false, false]);
    }

    #[test]
    fn the_line_counts_the_settings_that_differ_and_those_that_do_not() {
        assert_eq!(
            difference_line(10, 0),
            "All 10 settings are the same in every run."
        );
        assert_eq!(
            difference_line(1, 0),
            "All 1 setting is the same in every run."
        );
        assert_eq!(
            difference_line(10, 2),
            "2 of 10 settings differ between the runs; the other 8 are the same in every run."
        );
        assert_eq!(
            difference_line(10, 9),
            "9 of 10 settings differ between the runs; the other 1 is the same in every run."
        );
        assert_eq!(
            difference_line(10, 1),
            "1 of 10 settings differs between the runs; the other 9 are the same in every run."
        );
        assert_eq!(
            difference_line(3, 3),
            "Every setting (3) differs between the runs."
        );
    }

    #[test]
    fn the_button_shows_the_rest_or_only_what_differs() {
        assert_eq!(
            toggle_label(10, 2, false).as_deref(),
            Some("Show all 10 settings")
        );
        assert_eq!(
            toggle_label(10, 2, true).as_deref(),
            Some("Show only the 2 that differ")
        );
        assert_eq!(
            toggle_label(10, 1, true).as_deref(),
            Some("Show only the 1 that differs")
        );
        assert_eq!(
            toggle_label(10, 0, false).as_deref(),
            Some("Show all 10 settings")
        );
        assert_eq!(
            toggle_label(10, 0, true).as_deref(),
            Some("Hide the settings")
        );
        assert_eq!(
            toggle_label(3, 3, false),
            None,
            "every row is already shown"
        );
        assert_eq!(toggle_label(0, 0, false), None);
    }
}
