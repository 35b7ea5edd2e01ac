//! The reviewer's ledger: tasks (or single attempts) a reviewer set aside, each with what to
//! do with it (leave it out, or count it as a failure), a reason from a fixed list, a note and
//! when it was made; the file other tools write; and the ledger applied to a comparison.
//!
//! An entry whose action is `note` sets nothing aside: it is the reviewer's note on a task or
//! attempt, shown wherever the ledger is, changing no figure.
//!
//! The file, version 1:
//! `{"version": 1, "entries": [{"task_id": "…", "action": "leave_out", "reason":
//! "infrastructure_error", "note": "…", "at": "2026-12-05T12:00:00Z"}]}`, with `trajectory_id`
//! instead of `task_id` for one attempt. It is untrusted input: at most [`MAX_LEDGER_BYTES`]
//! (16 MiB) and [`MAX_LEDGER_ENTRIES`] (100,000) entries, a note at most [`MAX_NOTE_BYTES`]
//! (4 KiB), ids by the rule of [`check_id`](crate::view_state::check_id), `at` an RFC 3339
//! time ([`unix_seconds`](crate::model::unix_seconds)); unknown fields, versions, actions and
//! reasons are refused, every error naming the entry (index and id) and the field, malformed
//! JSON its line and column. Reading never panics.
//!
//! In a link (the view's `ledger` parameter) the ledger has a short form ([`Ledger::to_link_text`],
//! `link.rs`), read by the same rules as the file.
//!
//! [`apply`] rebuilds the run set with the ledger's actions (the rules in `apply.rs`'s module
//! doc); `report::build_report_with_ledger` builds the report from it, with the verdicts
//! without it beside. [`ledger_candidates`] (`candidates.rs`) finds the obvious candidates
//! for it, in groups taken in one action.

mod apply;
mod candidates;
mod entry;
mod file;
mod link;

pub use apply::{
    apply, failure_trajectory_id, AppliedLedger, LedgerEffects, ReasonCount, SetAside,
};
pub use candidates::{ledger_candidates, with_entries, CandidateGroup, CandidateKind};
pub use entry::{Action, Entry, Reason, Target};
pub use file::{
    Ledger, LedgerError, LEDGER_VERSION, MAX_LEDGER_BYTES, MAX_LEDGER_ENTRIES, MAX_NOTE_BYTES,
};
pub use link::settle_link_ledger;
