//! The reviewer's ledger panel: every entry of the view's ledger (task or trajectory, action,
//! reason, note, when, whether it applies) with Edit and Remove, the obvious candidates
//! ("Find candidates…", each group previewed before it is set aside), Undo of the last change, and the
//! ledger as a file (Download ledger, Open ledger file). When the ledger makes the link too
//! long to share safely, the panel says so and offers the file instead.
//!
//! [`entries`] is the table (Edit, Remove), [`candidates`] the one-click candidates with their
//! preview, [`file`] the download and the reading, [`words`] what the panel says (tested
//! natively). The ledger lives in the link ([`crate::state::ledger`]).

pub mod candidates;
pub mod entries;
pub mod file;
pub mod words;

use std::sync::Arc;

use eval_compare_core::model::RunSet;
use eval_compare_core::report::{ledger_intro, Report, LEDGER_HEADING};
use eval_compare_core::view_state::ViewState;
use leptos::html;
use leptos::prelude::*;

use crate::components::button::ActionButton;
use crate::state::ledger::LedgerEdits;
use candidates::LedgerCandidates;
use entries::LedgerEntries;
use file::{download_ledger, open_ledger_file};
use words::{link_length_note, refused_note, EMPTY_LEDGER};

/// The panel: the ledger's introduction (core's), its notices, its entries and its actions.
#[component]
pub fn LedgerPanel(
    /// The report (the ledger as applied).
    #[prop(into)]
    report: Signal<Arc<Report>>,
    /// The view (the link's length, the settings of a preview).
    #[prop(into)]
    view: Signal<ViewState>,
    /// The runs as loaded (the candidates and their preview).
    #[prop(into)]
    run_set: Signal<Arc<RunSet>>,
    /// The view's ledger and its edits.
    edits: LedgerEdits,
) -> impl IntoView {
    let message = RwSignal::new(None::<String>);
    let input = NodeRef::<html::Input>::new();
    let empty = Memo::new(move |_| edits.ledger.with(|ledger| ledger.is_empty()));
    let intro = move || {
        if empty.get() {
            return EMPTY_LEDGER.to_owned();
        }
        report.with(|report| report.ledger.as_ref().map(ledger_intro).unwrap_or_default())
    };
    let length = Memo::new(move |_| view.with(|view| view.to_query().len()));
    let notices = move || {
        let refused = edits.refused.get().map(refused_note);
        let long = (!empty.get())
            .then(|| link_length_note(length.get()))
            .flatten();
        [refused, long, message.get()]
            .into_iter()
            .flatten()
            .map(|text| view! { <p class="notice notice-caution ledger-notice" role="status">{text}</p> })
            .collect_view()
    };
    let download = move |()| {
        let said = download_ledger(&edits.ledger.get_untracked()).err();
        message.set(said.map(|why| format!("The ledger could not be downloaded: {why}")));
    };
    let open = move |_| {
        if let Some(element) = input.get_untracked() {
            open_ledger_file(element, edits, message);
        }
    };
    view! {
        <section class="panel ledger-panel" aria-labelledby="ledger-title">
            <h3 id="ledger-title" class="panel-title">{LEDGER_HEADING}</h3>
            <p class="muted">{intro}</p>
            {notices}
            <Show when=move || !empty.get()>
                <LedgerEntries report edits/>
            </Show>
            <LedgerCandidates report run_set view edits/>
            <div class="button-row ledger-actions">
                <button
                    type="button"
                    class="button button-secondary"
                    disabled=move || !edits.can_undo()
                    on:click=move |_| edits.undo()
                >
                    "Undo"
                </button>
                <Show when=move || !empty.get()>
                    <ActionButton secondary=true on_click=download>"Download ledger"</ActionButton>
                </Show>
                <label class="button button-secondary">
                    "Open ledger file…"
                    <input
                        class="visually-hidden"
                        type="file"
                        accept=".json,application/json"
                        node_ref=input
                        on:change=open
                    />
                </label>
            </div>
        </section>
    }
}
