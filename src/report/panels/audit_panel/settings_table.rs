//! The effective settings the audit compared: one row per setting, one column per run, each
//! value with where it came from (recorded, the training run, the evaluation defaults) or why
//! it could not be resolved. Rows whose runs differ are marked.

use std::sync::Arc;

use eval_compare_core::audit::RunSettings;
use eval_compare_core::model::EffectiveSetting;
use eval_compare_core::report::Report;
use leptos::prelude::*;

use super::settings_words::{row_differs, setting_cell};
use crate::report::panels::coverage_ledger::words::run_name;
use crate::report::table::fixed::{Column, ScrollTable};

/// The first column, before one per run.
const COLUMNS: [Column; 1] = [Column::text("Setting")];

/// The table, hidden when no run has settings (Chronicle jobs).
#[component]
pub fn SettingsTable(
    /// The report.
    report: Signal<Arc<Report>>,
) -> impl IntoView {
    move || {
        report.with(|report| {
            let runs: &[RunSettings] = &report.audit.settings;
            let first = runs.first()?;
            let names = runs.iter().map(|run| run_name(report, run.run)).collect();
            let rows = first
                .settings
                .iter()
                .enumerate()
                .map(|(row, setting)| {
                    let cells: Vec<&EffectiveSetting> = runs
                        .iter()
                        .filter_map(|run| run.settings.get(row))
                        .collect();
                    let class = if row_differs(&cells) {
                        "setting-row setting-differs"
                    } else {
                        "setting-row"
                    };
                    let tds = cells
                        .iter()
                        .map(|setting| view! { <SettingCellView setting=(*setting).clone()/> })
                        .collect_view();
                    view! {
                        <tr class=class>
                            <th scope="row">{setting.setting.label()}</th>
                            {tds}
                        </tr>
                    }
                })
                .collect_view();
            Some(view! {
                <h4 class="subheading">"Effective settings"</h4>
                <p class="muted">
                    "Each value as it applied: recorded by the run, else inherited from the "
                    "training run of a checkpoint, else the evaluation default of the benchmark "
                    "version and model. Marked rows differ between the runs."
                </p>
                <ScrollTable
                    class="settings-table"
                    caption="Effective settings per run"
                    columns=&COLUMNS
                    after=names
                >
                    <tbody>{rows}</tbody>
                </ScrollTable>
            })
        })
    }
}

/// One run's value of one setting.
#[component]
fn SettingCellView(setting: EffectiveSetting) -> impl IntoView {
    let cell = setting_cell(&setting);
    match cell.reason {
        Some(reason) => view! {
            <td class="setting-unresolved">
                <span class="setting-value">{cell.value}</span>
                <span class="run-detail">{reason}</span>
            </td>
        }
        .into_any(),
        None => view! {
            <td>
                <span class="setting-value">{cell.value}</span>
                <span class="setting-source">{cell.source}</span>
                <code class="setting-option">{cell.option}</code>
            </td>
        }
        .into_any(),
    }
}
