//! The ledger's table: one row per entry (task or trajectory, action, reason, note, when,
//! whether it applies), each with Edit (the task panel's form under the row: action, reason,
//! note) and Remove. Every cell is text: ids and notes are the reviewer's or another tool's,
//! never markup.

use std::sync::Arc;

use eval_compare_core::report::{target_kind, Report, LEDGER_COLUMNS};
use leptos::prelude::*;

use super::words::entry_rows;
use crate::report::table::fixed::{Column, ScrollTable};
use crate::report::task_panel::set_aside::{Judgement, JudgementForm};
use crate::state::ledger::{now_rfc3339, LedgerEdits};

/// The columns: core's ([`LEDGER_COLUMNS`]), then Remove's (its heading for screen readers).
const COLUMNS: [Column; 7] = [
    Column::text(LEDGER_COLUMNS[0]),
    Column::text(LEDGER_COLUMNS[1]),
    Column::text(LEDGER_COLUMNS[2]),
    Column::text(LEDGER_COLUMNS[3]),
    Column::text(LEDGER_COLUMNS[4]),
    Column::text(LEDGER_COLUMNS[5]),
    Column::text("Edit or remove").hidden(),
];

/// The entries of the view's ledger, with whether each applies once the report has them.
#[component]
pub fn LedgerEntries(
    /// The report (whether each entry applies).
    report: Signal<Arc<Report>>,
    /// The view's ledger and its edits.
    edits: LedgerEdits,
) -> impl IntoView {
    // The entry being edited, by index (its form shows under its row).
    let editing = RwSignal::new(None::<usize>);
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
                            <div class="ledger-row-actions">
                                <button
                                    type="button"
                                    class="button button-secondary"
                                    aria-expanded=move || (editing.get() == Some(index)).to_string()
                                    on:click=move |_| editing.update(|e| {
                                        *e = if *e == Some(index) { None } else { Some(index) }
                                    })
                                >
                                    "Edit"
                                </button>
                                <button
                                    type="button"
                                    class="button button-secondary"
                                    on:click=move |_| {
                                        editing.set(None);
                                        edits.remove(index);
                                    }
                                >
                                    "Remove"
                                </button>
                            </div>
                        </td>
                    </tr>
                    <EditRow index entry=entry.clone() editing edits/>
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

/// The form editing entry `index` (its action, reason and note), while it is the one edited.
#[component]
fn EditRow(
    index: usize,
    entry: eval_compare_core::ledger::Entry,
    editing: RwSignal<Option<usize>>,
    edits: LedgerEdits,
) -> impl IntoView {
    move || {
        (editing.get() == Some(index)).then(|| {
            let target = entry.target.clone();
            let attempt = matches!(target, eval_compare_core::ledger::Target::Trajectory(_));
            let save = Callback::new(move |judgement: Judgement| {
                // An edit is made now; refused (the link would be too long), the form stays.
                if edits.replace(index, judgement.entry(target.clone(), Some(now_rfc3339()))) {
                    editing.set(None);
                }
            });
            view! {
                <tr class="ledger-edit-row">
                    <td colspan=COLUMNS.len().to_string()>
                        <JudgementForm
                            label=format!("Edit the entry on {}", entry.target.id())
                            attempt
                            initial=Judgement::of(&entry)
                            confirm="Save"
                            on_confirm=save
                            on_cancel=move |()| editing.set(None)
                        />
                    </td>
                </tr>
            }
        })
    }
}
