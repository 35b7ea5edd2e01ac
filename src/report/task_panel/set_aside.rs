//! "Set aside…" on a task or on one attempt (a trajectory row): the reviewer leaves it out,
//! counts it as a failure, or only writes a note, with a reason from the fixed list and an
//! optional note; the entry (its time by the browser's clock) goes into the view's ledger, so
//! Copy link carries it. What the ledger says of the task or attempt shows here, with Remove.
//!
//! [`JudgementForm`] (action, reason, note) is the one form for every way of adding or editing
//! entries: here, the ledger panel's Edit, and the task table's "Set aside the shown tasks".

use std::sync::atomic::{AtomicUsize, Ordering};

use eval_compare_core::ledger::{Action, Entry, Reason, Target, MAX_NOTE_BYTES};
use leptos::prelude::*;

use crate::components::button::ActionButton;
use crate::state::ledger::{now_rfc3339, target_entries, without_target, LedgerEdits};

/// What the reviewer decides about a task or attempt: an entry without its target and time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Judgement {
    /// Leave out, count as a failure, or only a note.
    pub action: Action,
    /// Why.
    pub reason: Reason,
    /// The note, when one was written.
    pub note: Option<String>,
}

impl Default for Judgement {
    fn default() -> Self {
        Self {
            action: Action::LeaveOut,
            reason: Reason::InfrastructureError,
            note: None,
        }
    }
}

impl Judgement {
    /// The judgement of `entry`.
    pub fn of(entry: &Entry) -> Self {
        Self {
            action: entry.action,
            reason: entry.reason,
            note: entry.note.clone(),
        }
    }

    /// The entry naming `target`, made `at`.
    pub fn entry(&self, target: Target, at: Option<String>) -> Entry {
        Entry {
            target,
            action: self.action,
            reason: self.reason,
            note: self.note.clone(),
            at,
        }
    }
}

/// One entry in words: "Left out: infrastructure error — the note".
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

/// An action as the form offers it, for a task or for one attempt.
pub fn action_choice(action: Action, attempt: bool) -> &'static str {
    match (action, attempt) {
        (Action::LeaveOut, false) => "Leave out of every run",
        (Action::LeaveOut, true) => "Leave this attempt out",
        (Action::CountAsFailure, false) => "Count as a failure where missing",
        (Action::CountAsFailure, true) => "Count this attempt as a failure if it has no reward",
        (Action::Note, _) => "Only a note (changes no figure)",
    }
}

fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

/// The task's place in the ledger: its entries with Remove, and "Set aside…" with its form.
#[component]
pub fn SetAside(
    /// The task.
    task: String,
    /// The view's ledger and its edits.
    edits: LedgerEdits,
) -> impl IntoView {
    let open = RwSignal::new(false);
    view! { <TargetAside target=Target::Task(task) edits open/> }
}

/// A trajectory row's "Set aside…" (or "In the ledger"), which opens [`AttemptAsideRow`].
#[component]
pub fn AttemptAsideButton(
    /// The trajectory.
    id: String,
    /// Whether its row is open.
    open: RwSignal<bool>,
) -> impl IntoView {
    let edits = use_context::<LedgerEdits>()?;
    let target = Target::Trajectory(id.clone());
    let noted = Memo::new(move |_| {
        edits
            .ledger
            .with(|ledger| !target_entries(ledger, &target).is_empty())
    });
    Some(view! {
        <button
            type="button"
            class="link-button attempt-aside-action"
            class:attempt-in-ledger=move || noted.get()
            aria-expanded=move || open.get().to_string()
            aria-label=format!("Set aside: trajectory {id}")
            on:click=move |_| open.update(|open| *open = !*open)
        >
            {move || if noted.get() { "In the ledger…" } else { "Set aside…" }}
        </button>
    })
}

/// The row under a trajectory with what the ledger says of it and the form, while open.
#[component]
pub fn AttemptAsideRow(
    /// The trajectory.
    id: String,
    /// Whether the row is open.
    open: RwSignal<bool>,
    /// The table's columns.
    columns: usize,
) -> impl IntoView {
    let edits = use_context::<LedgerEdits>()?;
    Some(move || {
        open.get().then(|| {
            let target = Target::Trajectory(id.clone());
            view! {
                <tr class="attempt-aside-row">
                    <td colspan=columns.to_string()>
                        <TargetAside target edits open/>
                    </td>
                </tr>
            }
        })
    })
}

/// What the ledger says of `target` (with Remove) and "Set aside…" or, while `open`, the form.
#[component]
fn TargetAside(target: Target, edits: LedgerEdits, open: RwSignal<bool>) -> impl IntoView {
    let attempt = matches!(target, Target::Trajectory(_));
    let entries = {
        let target = target.clone();
        Memo::new(move |_| edits.ledger.with(|ledger| target_entries(ledger, &target)))
    };
    let remove = {
        let target = target.clone();
        move |()| {
            edits.set(without_target(&edits.ledger.get_untracked(), &target));
        }
    };
    let add = {
        let target = target.clone();
        Callback::new(move |judgement: Judgement| {
            // Refused (the link would be too long), the form stays open; the ledger panel says why.
            if edits.add(judgement.entry(target.clone(), Some(now_rfc3339()))) {
                open.set(false);
            }
        })
    };
    let what = if attempt { "this attempt" } else { "this task" };
    let shown = move || {
        let shown = entries.get();
        (!shown.is_empty()).then(|| {
            let lines = shown
                .iter()
                .map(|entry| view! { <li>{entry_words(entry)}</li> })
                .collect_view();
            let remove = remove.clone();
            view! {
                <div class="set-aside-done">
                    <p class="set-aside-title">"In the reviewer's ledger"</p>
                    <ul class="set-aside-entries">{lines}</ul>
                    <ActionButton secondary=true on_click=remove>"Remove from the ledger"</ActionButton>
                </div>
            }
        })
    };
    let form = move || {
        if open.get() {
            let cancel = move |()| open.set(false);
            view! {
                <JudgementForm
                    label=format!("Set {what} aside")
                    attempt
                    initial=Judgement::default()
                    confirm="Set aside"
                    on_confirm=add
                    on_cancel=cancel
                />
            }
            .into_any()
        } else {
            view! {
                <ActionButton secondary=true on_click=move |()| open.set(true)>
                    "Set aside…"
                </ActionButton>
            }
            .into_any()
        }
    };
    view! {
        <section class="set-aside" aria-label=format!("The reviewer's ledger on {what}")>
            {shown}
            {form}
        </section>
    }
}

/// Gives each form its own radio group.
static FORMS: AtomicUsize = AtomicUsize::new(0);

/// The form: action, reason, note; its confirm button hands the judgement over.
#[component]
pub fn JudgementForm(
    /// The form's accessible name.
    label: String,
    /// Whether it is about one attempt (the actions' words).
    #[prop(optional)]
    attempt: bool,
    /// The judgement it starts from.
    initial: Judgement,
    /// The confirm button's words.
    confirm: &'static str,
    /// Receives the judgement.
    on_confirm: Callback<Judgement>,
    /// Cancel.
    #[prop(into)]
    on_cancel: Callback<()>,
) -> impl IntoView {
    let group = format!("set-aside-action-{}", FORMS.fetch_add(1, Ordering::Relaxed));
    let action = RwSignal::new(initial.action);
    let reason = RwSignal::new(initial.reason);
    let note = RwSignal::new(initial.note.unwrap_or_default());
    let done = move |()| {
        let text = note.get_untracked().trim().to_owned();
        on_confirm.run(Judgement {
            action: action.get_untracked(),
            reason: reason.get_untracked(),
            note: (!text.is_empty()).then_some(text),
        });
    };
    let actions = Action::ALL
        .into_iter()
        .map(|a| {
            view! {
                <label class="check">
                    <input
                        type="radio"
                        name=group.clone()
                        value=a.name()
                        prop:checked=move || action.get() == a
                        on:change=move |_| action.set(a)
                    />
                    {action_choice(a, attempt)}
                </label>
            }
        })
        .collect_view();
    let reasons = Reason::ALL
        .into_iter()
        .map(|r| view! { <option value=r.name() selected=r == reason.get_untracked()>{r.label()}</option> })
        .collect_view();
    view! {
        <section class="set-aside-form" aria-label=label>
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
                <ActionButton on_click=done>{confirm}</ActionButton>
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
            ..entry.clone()
        };
        assert_eq!(entry_words(&plain), "Left out: grader error");
        let noted = Entry {
            action: Action::Note,
            ..entry.clone()
        };
        assert_eq!(
            entry_words(&noted),
            "Note only: grader error — <b>crashed</b>"
        );
        let judgement = Judgement::of(&entry);
        let attempt = Target::Trajectory("tr-1".into());
        let again = judgement.entry(attempt.clone(), Some("2026-12-05T12:00:00Z".into()));
        assert_eq!(again.target, attempt);
        assert_eq!(Judgement::of(&again), judgement);
    }

    #[test]
    fn the_actions_are_worded_for_a_task_or_an_attempt() {
        assert_eq!(
            action_choice(Action::LeaveOut, true),
            "Leave this attempt out"
        );
        assert_eq!(
            action_choice(Action::LeaveOut, false),
            "Leave out of every run"
        );
        assert_eq!(
            action_choice(Action::Note, false),
            action_choice(Action::Note, true)
        );
    }
}
