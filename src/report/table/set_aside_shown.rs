//! "Set aside the N shown tasks…": the table's current filter, category or search as a
//! selection for the reviewer's ledger. The form (the task panel's: action, reason, note) is
//! asked once; every shown task gets the entry, those with the same one already are not
//! added twice, and the whole is one change (one Undo in the ledger panel). Offered only when
//! the rows shown are fewer than all (a filter or search chose them) and a ledger is at hand.

use std::sync::Arc;

use eval_compare_core::report::Report;
use eval_compare_core::text::{count, noun};
use leptos::prelude::*;

use crate::components::button::ActionButton;
use crate::report::task_panel::set_aside::{Judgement, JudgementForm};
use crate::state::ledger::{entries_for_tasks, now_rfc3339, LedgerEdits};

/// "Set aside the 12 shown tasks…".
pub fn shown_label(shown: usize) -> String {
    format!(
        "Set aside the {} shown {}…",
        count(shown as u64),
        noun(shown as u64, "task", "tasks")
    )
}

/// The button and, once pressed, the form.
#[component]
pub fn SetAsideShown(
    /// The report whose tasks the rows are.
    report: Signal<Arc<Report>>,
    /// The shown rows: indices into the report's tasks.
    rows: Memo<Arc<Vec<usize>>>,
) -> impl IntoView {
    let edits = use_context::<LedgerEdits>()?;
    let open = RwSignal::new(false);
    let said = RwSignal::new(None::<String>);
    let shown = Memo::new(move |_| rows.with(|rows| rows.len()));
    let offered = move || {
        let total = report.with(|report| report.tasks.len());
        let shown = shown.get();
        shown > 0 && shown < total
    };
    let confirm = Callback::new(move |judgement: Judgement| {
        let ids: Vec<String> = report.with_untracked(|report| {
            rows.with_untracked(|rows| {
                rows.iter()
                    .filter_map(|&index| report.tasks.get(index))
                    .map(|row| row.task_id.clone())
                    .collect()
            })
        });
        let template = judgement.entry(
            eval_compare_core::ledger::Target::Task(String::new()),
            Some(now_rfc3339()),
        );
        let entries = entries_for_tasks(&edits.ledger.get_untracked(), &ids, &template);
        let added = entries.len() as u64;
        // Refused (the link would be too long), the form stays; the ledger panel says why.
        if edits.add_all(entries) {
            open.set(false);
            said.set(Some(format!(
                "{} {} added to the reviewer's ledger (Undo in its panel).",
                count(added),
                noun(added, "entry", "entries")
            )));
        }
    });
    Some(move || {
        if !offered() {
            return None;
        }
        let body = if open.get() {
            view! {
                <JudgementForm
                    label=shown_label(shown.get_untracked())
                    initial=Judgement::default()
                    confirm="Set aside"
                    on_confirm=confirm
                    on_cancel=move |()| open.set(false)
                />
            }
            .into_any()
        } else {
            view! {
                <ActionButton secondary=true on_click=move |()| {
                    said.set(None);
                    open.set(true);
                }>{move || shown_label(shown.get())}</ActionButton>
                {move || said.get().map(|text| view! { <span class="muted" role="status">{text}</span> })}
            }
            .into_any()
        };
        Some(view! { <div class="set-aside-shown">{body}</div> })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_button_counts_the_shown_tasks() {
        assert_eq!(shown_label(1), "Set aside the 1 shown task…");
        assert_eq!(shown_label(1_140), "Set aside the 1,140 shown tasks…");
    }
}
