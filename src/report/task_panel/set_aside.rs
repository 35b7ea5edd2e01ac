//! "Set aside…" on a task: the reviewer leaves the task out or counts it as a failure, with a
//! reason from the fixed list and an optional note; the entry (its time by the browser's
//! clock) goes into the view's ledger, so Copy link carries it. A task set aside shows its
//! entries here, with Remove.

use eval_compare_core::ledger::{Action, Entry, Reason, Target, MAX_NOTE_BYTES};
use leptos::prelude::*;

use crate::components::button::ActionButton;
use crate::state::ledger::{now_rfc3339, task_entries, without_task, LedgerEdits};

/// One entry of the task, in words: "Left out: infrastructure error — the note".
pub fn entry_words(entry: &Entry) -> String {
    let mut text = format!(
        "{}: {}",
        capitalized(entry.action.label()),
        entry.reason.label()
    );
    if let Some(note) = entry.note.as_deref().filter(|note| !note.is_empty()) {
        text.push_str(" — ");
        text.push_str(note);
    }
    text
}

fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

/// The task's place in the ledger: its entries with Remove, or "Set aside…" and its form.
#[component]
pub fn SetAside(
    /// The task.
    task: String,
    /// The view's ledger and its edits.
    edits: LedgerEdits,
) -> impl IntoView {
    let open = RwSignal::new(false);
    let entries = {
        let task = task.clone();
        Memo::new(move |_| edits.ledger.with(|ledger| task_entries(ledger, &task)))
    };
    let remove = {
        let task = task.clone();
        move |()| {
            edits.set(without_task(&edits.ledger.get_untracked(), &task));
        }
    };
    let add = Callback::new(move |entry: Entry| {
        // Refused (the link would be too long), the form stays open; the ledger panel says why.
        if edits.add(entry) {
            open.set(false);
        }
    });
    move || {
        let shown = entries.get();
        if !shown.is_empty() {
            let lines = shown
                .iter()
                .map(|entry| view! { <li>{entry_words(entry)}</li> })
                .collect_view();
            let remove = remove.clone();
            return view! {
                <section class="set-aside set-aside-done" aria-label="Set aside by the reviewer">
                    <p class="set-aside-title">"Set aside by the reviewer"</p>
                    <ul class="set-aside-entries">{lines}</ul>
                    <ActionButton secondary=true on_click=remove>"Remove from the ledger"</ActionButton>
                </section>
            }
            .into_any();
        }
        if open.get() {
            let cancel = move |()| open.set(false);
            return view! { <SetAsideForm task=task.clone() on_add=add on_cancel=cancel/> }
                .into_any();
        }
        view! {
            <section class="set-aside">
                <ActionButton secondary=true on_click=move |()| open.set(true)>
                    "Set aside…"
                </ActionButton>
            </section>
        }
        .into_any()
    }
}

/// The form: action, reason, note; "Set aside" adds the entry.
#[component]
fn SetAsideForm(
    task: String,
    on_add: Callback<Entry>,
    #[prop(into)] on_cancel: Callback<()>,
) -> impl IntoView {
    let action = RwSignal::new(Action::LeaveOut);
    let reason = RwSignal::new(Reason::InfrastructureError);
    let note = RwSignal::new(String::new());
    let confirm = move |()| {
        let text = note.get_untracked().trim().to_owned();
        on_add.run(Entry {
            target: Target::Task(task.clone()),
            action: action.get_untracked(),
            reason: reason.get_untracked(),
            note: (!text.is_empty()).then_some(text),
            at: Some(now_rfc3339()),
        });
    };
    let actions = Action::ALL
        .into_iter()
        .map(|a| {
            view! {
                <label class="check">
                    <input
                        type="radio"
                        name="set-aside-action"
                        prop:checked=move || action.get() == a
                        on:change=move |_| action.set(a)
                    />
                    {match a {
                        Action::LeaveOut => "Leave out of every run",
                        Action::CountAsFailure => "Count as a failure where missing",
                    }}
                </label>
            }
        })
        .collect_view();
    let reasons = Reason::ALL
        .into_iter()
        .map(|r| view! { <option value=r.name() selected=r == reason.get_untracked()>{r.label()}</option> })
        .collect_view();
    view! {
        <section class="set-aside set-aside-form" aria-label="Set this task aside">
            <fieldset class="field">
                <legend class="field-label">"Set aside"</legend>
                {actions}
            </fieldset>
            <label class="field">
                <span class="field-label">"Reason"</span>
                <select on:change=move |event| {
                    let name = event_target_value(&event);
                    if let Some(r) = Reason::ALL.into_iter().find(|r| r.name() == name) {
                        reason.set(r);
                    }
                }>{reasons}</select>
            </label>
            <label class="field">
                <span class="field-label">"Note (optional)"</span>
                <textarea
                    rows="2"
                    maxlength=MAX_NOTE_BYTES.to_string()
                    prop:value=move || note.get()
                    on:input=move |event| note.set(event_target_value(&event))
                ></textarea>
            </label>
            <div class="set-aside-actions">
                <ActionButton on_click=confirm>"Set aside"</ActionButton>
                <ActionButton secondary=true on_click=on_cancel>"Cancel"</ActionButton>
            </div>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_reads_as_its_action_reason_and_note() {
        let entry = Entry {
            target: Target::Task("t".into()),
            action: Action::CountAsFailure,
            reason: Reason::GraderError,
            note: Some("<b>crashed</b>".into()),
            at: None,
        };
        assert_eq!(
            entry_words(&entry),
            "Counted as a failure: grader error — <b>crashed</b>"
        );
        let plain = Entry {
            note: None,
            action: Action::LeaveOut,
            ..entry
        };
        assert_eq!(entry_words(&plain), "Left out: grader error");
    }
}
