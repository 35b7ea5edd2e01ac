//! The effective settings the audit compared: one row per setting, one column per run, each
//! value with where it came from (recorded, the training run, the evaluation defaults) or why
//! it could not be resolved. Only the rows whose runs differ are shown, marked, with a line
//! that counts them; the others on demand ("Show all 10 settings").

use std::sync::Arc;

use eval_compare_core::audit::RunSettings;
use eval_compare_core::model::EffectiveSetting;
use eval_compare_core::report::Report;
use leptos::prelude::*;

use super::settings_words::{
    difference_line, rows_differing, setting_cell, settings_row, toggle_label,
};
use crate::report::panels::coverage_ledger::words::run_name;
use crate::report::table::fixed::{Column, ScrollTable};

/// The first column, before one per run.
const COLUMNS: [Column; 1] = [Column::text("Setting")];

/// The heading, the line, the button and the table, hidden when no run has settings
/// (Chronicle jobs); the table left out while no row is shown.
#[component]
pub fn SettingsTable(
    /// The report.
    report: Signal<Arc<Report>>,
) -> impl IntoView {
    let show_all = RwSignal::new(false);
    move || {
        let showing_all = show_all.get();
        report.with(|report| {
            let runs: &[RunSettings] = &report.audit.settings;
            let first = runs.first()?;
            let differing = rows_differing(runs);
            let total = differing.len();
            let count = differing.iter().filter(|differs| **differs).count();
            let names = runs.iter().map(|run| run_name(report, run.run)).collect();
            let rows = first
                .settings
                .iter()
                .zip(&differing)
                .enumerate()
                .filter(|(_, (_, differs))| showing_all || **differs)
                .map(|(row, (setting, differs))| {
                    let tds = settings_row(runs, row)
                        .into_iter()
                        .map(|setting| view! { <SettingCellView setting=setting.clone()/> })
                        .collect_view();
                    view! {
                        <tr class="setting-row" class:setting-differs=*differs>
                            <th scope="row">{setting.setting.label()}</th>
                            {tds}
                        </tr>
                    }
                })
                .collect_view();
            let table = (showing_all || count > 0).then(|| {
                view! {
                    <ScrollTable
                        class="settings-table"
                        caption="Effective settings per run"
                        columns=&COLUMNS
                        after=names
                    >
                        <tbody>{rows}</tbody>
                    </ScrollTable>
                }
            });
            let toggle = toggle_label(total, count, showing_all).map(|label| {
                view! {
                    <button
                        type="button"
                        class="button button-secondary settings-toggle"
                        aria-expanded=showing_all.to_string()
                        on:click=move |_| show_all.update(|all| *all = !*all)
                    >
                        {label}
                    </button>
                }
            });
            Some(view! {
                <h4 class="subheading">"Effective settings"</h4>
                <p class="muted settings-intro">
                    "Each value as it applied: recorded by the run, else inherited from the "
                    "training run of a checkpoint, else the evaluation default of the benchmark "
                    "version and model. "
                    <span class="settings-difference">{difference_line(total, count)}</span>
                </p>
                {table}
                {toggle}
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
