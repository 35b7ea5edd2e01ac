//! The reviewer's ledger of the view on screen: read from the link's `ledger` parameter
//! (core's `Ledger::from_link_text`), changed by writing it back there (so Copy link carries
//! it), with the ledgers before each change kept for Undo. A ledger that would make the link
//! longer than a link may be ([`MAX_QUERY_LEN`]) is refused, and the length kept for the
//! panel to say so.

use eval_compare_core::ledger::{Action, Entry, Ledger, Target};
use eval_compare_core::model::rfc3339_utc;
use eval_compare_core::view_state::{ViewState, MAX_QUERY_LEN};
use leptos::prelude::*;

/// The ledger of a view: empty without one (a link's ledger that does not read is dropped
/// when the link is read, with a notice).
pub fn view_ledger(view: &ViewState) -> Ledger {
    view.ledger
        .as_deref()
        .and_then(|text| Ledger::from_link_text(text).ok())
        .unwrap_or_default()
}

/// `view` with `ledger` in its link (none when the ledger is empty).
pub fn with_ledger(view: &ViewState, ledger: &Ledger) -> ViewState {
    ViewState {
        ledger: (!ledger.is_empty()).then(|| ledger.to_link_text()),
        ..view.clone()
    }
}

/// `ledger` without the entries naming task `task_id`.
pub fn without_task(ledger: &Ledger, task_id: &str) -> Ledger {
    without_target(ledger, &Target::Task(task_id.to_owned()))
}

/// `ledger` without the entries naming `target`.
pub fn without_target(ledger: &Ledger, target: &Target) -> Ledger {
    Ledger {
        entries: ledger
            .entries
            .iter()
            .filter(|entry| &entry.target != target)
            .cloned()
            .collect(),
    }
}

/// The entries of `ledger` naming task `task_id`.
pub fn task_entries(ledger: &Ledger, task_id: &str) -> Vec<Entry> {
    target_entries(ledger, &Target::Task(task_id.to_owned()))
}

/// The entries of `ledger` naming `target`.
pub fn target_entries(ledger: &Ledger, target: &Target) -> Vec<Entry> {
    ledger
        .entries
        .iter()
        .filter(|entry| &entry.target == target)
        .cloned()
        .collect()
}

/// The entries for `task_ids` with one judgement (action, reason, note), made `at`: those the
/// ledger has already (the same task, action and reason) are not added twice.
pub fn entries_for_tasks(ledger: &Ledger, task_ids: &[String], template: &Entry) -> Vec<Entry> {
    task_ids
        .iter()
        .filter(|task| {
            !ledger.entries.iter().any(|entry| {
                entry.target == Target::Task((*task).clone())
                    && entry.action == template.action
                    && entry.reason == template.reason
            })
        })
        .map(|task| Entry {
            target: Target::Task(task.clone()),
            ..template.clone()
        })
        .collect()
}

/// Now by the browser's clock, as the ledger writes times (`2026-12-05T12:00:00Z`); only in
/// the browser (an event handler), never in the core.
pub fn now_rfc3339() -> String {
    rfc3339_utc((js_sys::Date::now() / 1000.0).floor() as i64)
}

/// The view's ledger and the way to change it, with Undo.
#[derive(Debug, Clone, Copy)]
pub struct LedgerEdits {
    /// The ledger of the view on screen.
    pub ledger: Signal<Ledger>,
    view: Signal<ViewState>,
    on_change: Callback<ViewState>,
    undo: RwSignal<Vec<Ledger>>,
    /// The length of the link the last refused ledger would have made.
    pub refused: RwSignal<Option<usize>>,
}

impl LedgerEdits {
    /// The ledger of `view`, changed through `on_change` (the view's replace).
    pub fn new(view: Signal<ViewState>, on_change: Callback<ViewState>) -> Self {
        let ledger = Memo::new(move |_| view.with(view_ledger)).into();
        Self {
            ledger,
            view,
            on_change,
            undo: RwSignal::new(Vec::new()),
            refused: RwSignal::new(None),
        }
    }

    /// Makes `next` the view's ledger, the one before kept for Undo; false (and
    /// [`Self::refused`] set) when the link would be too long to be read back.
    pub fn set(&self, next: Ledger) -> bool {
        let view = self.view.get_untracked();
        let before = view_ledger(&view);
        if before == next {
            return true;
        }
        let next_view = with_ledger(&view, &next);
        let length = next_view.to_query().len();
        if length > MAX_QUERY_LEN {
            self.refused.set(Some(length));
            return false;
        }
        self.refused.set(None);
        self.undo.update(|undo| undo.push(before));
        self.on_change.run(next_view);
        true
    }

    /// Adds `entry` at the end of the ledger (false when refused, see [`Self::set`]).
    pub fn add(&self, entry: Entry) -> bool {
        let mut next = self.ledger.get_untracked();
        next.entries.push(entry);
        self.set(next)
    }

    /// Adds `entries` at the end of the ledger in one change (one Undo); false when refused.
    pub fn add_all(&self, entries: Vec<Entry>) -> bool {
        let mut next = self.ledger.get_untracked();
        next.entries.extend(entries);
        self.set(next)
    }

    /// Puts `entry` in the place of the entry at `index` (an edit; Undo puts the old back);
    /// false when refused.
    pub fn replace(&self, index: usize, entry: Entry) -> bool {
        let mut next = self.ledger.get_untracked();
        match next.entries.get_mut(index) {
            Some(slot) => *slot = entry,
            None => return false,
        }
        self.set(next)
    }

    /// Removes the entry at `index`.
    pub fn remove(&self, index: usize) {
        let mut next = self.ledger.get_untracked();
        if index < next.entries.len() {
            next.entries.remove(index);
            self.set(next);
        }
    }

    /// Whether the ledger leaves task `task_id` out (tracked).
    pub fn leaves_out(&self, task_id: &str) -> bool {
        self.ledger.with(|ledger| {
            task_entries(ledger, task_id)
                .iter()
                .any(|entry| entry.action == Action::LeaveOut)
        })
    }

    /// Whether there is a change to undo (tracked).
    pub fn can_undo(&self) -> bool {
        self.undo.with(|undo| !undo.is_empty())
    }

    /// Puts back the ledger before the last change.
    pub fn undo(&self) {
        let Some(before) = self.undo.try_update(Vec::pop).flatten() else {
            return;
        };
        let view = self.view.get_untracked();
        self.refused.set(None);
        self.on_change.run(with_ledger(&view, &before));
    }
}

#[cfg(test)]
mod tests {
    use eval_compare_core::ledger::Reason;

    use super::*;

    fn entry(id: &str) -> Entry {
        Entry {
            target: Target::Task(id.to_owned()),
            action: Action::LeaveOut,
            reason: Reason::Other,
            note: Some("a, b ~ c".to_owned()),
            at: None,
        }
    }

    #[test]
    fn a_ledger_goes_into_the_view_and_back() {
        let ledger = Ledger {
            entries: vec![entry("a"), entry("b"), entry("a")],
        };
        let view = with_ledger(&ViewState::default(), &ledger);
        assert_eq!(view_ledger(&view), ledger);
        let parsed = ViewState::from_query(&view.to_query());
        assert_eq!(view_ledger(&parsed.state), ledger);
        assert_eq!(task_entries(&ledger, "a").len(), 2);
        let left = without_task(&ledger, "a");
        assert_eq!(left.entries, vec![entry("b")]);
        assert_eq!(with_ledger(&view, &Ledger::default()).ledger, None);
        let attempt = Target::Trajectory("a".to_owned());
        let mixed = Ledger {
            entries: vec![
                entry("a"),
                Entry {
                    target: attempt.clone(),
                    ..entry("a")
                },
            ],
        };
        assert_eq!(target_entries(&mixed, &attempt).len(), 1);
        assert_eq!(without_target(&mixed, &attempt).entries, vec![entry("a")]);
    }

    #[test]
    fn a_judgement_for_many_tasks_adds_only_what_is_new() {
        let ledger = Ledger {
            entries: vec![entry("a")],
        };
        let tasks = ["a".to_owned(), "b".to_owned(), "c".to_owned()];
        let added = entries_for_tasks(&ledger, &tasks, &entry("template"));
        let ids: Vec<&str> = added.iter().map(|e| e.target.id()).collect();
        assert_eq!(ids, ["b", "c"]);
        assert!(added.iter().all(|e| e.note.as_deref() == Some("a, b ~ c")));
        let other = Entry {
            action: Action::Note,
            ..entry("template")
        };
        assert_eq!(entries_for_tasks(&ledger, &tasks, &other).len(), 3);
    }
}
