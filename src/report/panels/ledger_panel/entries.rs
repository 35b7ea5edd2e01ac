//! The ledger's table: one row per entry (task or trajectory, action, reason, note, when,
//! whether it applies), each with Remove. Every cell is text: ids and notes are the reviewer's
//! or another tool's, never markup.

use std::sync::Arc;

use eval_compare_core::report::{target_kind, Report, LEDGER_COLUMNS};
use leptos::prelude::*;

use super::words::entry_rows;
use crate::report::table::fixed::{Column, ScrollTable};
use crate::state::ledger::LedgerEdits;

/// The columns: core's ([`LEDGER_COLUMNS`]), then Remove's (its heading for screen readers).
const COLUMNS: [Column; 7] = [
    Column::text(LEDGER_COLUMNS[0]),
    Column::text(LEDGER_COLUMNS[1]),
    Column::text(LEDGER_COLUMNS[2]),
    Column::text(LEDGER_COLUMNS[3]),
    Column::text(LEDGER_COLUMNS[4]),
    Column::text(LEDGER_COLUMNS[5]),
    Column::text("Remove").hidden(),
];

/// The entries of the view's ledger, with whether each applies once the report has them.
#[component]
pub fn LedgerEntries(
    /// The report (whether each entry applies).
    report: Signal<Arc<Report>>,
    /// The view's ledger and its edits.
    edits: LedgerEdits,
) -> impl IntoView {
    let rows = move || {
        let ledger = edits.ledger.get();
        let rows = report.with(|report| entry_rows(&ledger, report.ledger.as_ref()));
        rows.into_iter()
            .zip(&ledger.entries)
            .enumerate()
            .map(|(index, (cells, entry))| {
                let [id, action, reason, note, at, applies] = cells;
                let idle = applies != "yes";
                view! {
                    <tr class:ledger-idle=idle>
                        <th scope="row">
                            <span class="ledger-kind">{target_kind(&entry.target)}" "</span>
                            <code>{id}</code>
                        </th>
                        <td>{action}</td>
                        <td>{reason}</td>
                        <td class="ledger-note">{note}</td>
                        <td class="ledger-at">{at}</td>
                        <td>{applies}</td>
                        <td>
                            <button
                                type="button"
                                class="button button-secondary"
                                on:click=move |_| edits.remove(index)
                            >
                                "Remove"
                            </button>
                        </td>
                    </tr>
                }
            })
            .collect_view()
    };
    view! {
        <ScrollTable
            class="ledger-table"
            caption="The reviewer's ledger, one entry per row"
            columns=&COLUMNS
        >
            <tbody>{rows}</tbody>
        </ScrollTable>
    }
}
