//! The reviewer's ledger: its heading and introduction, one entry's cells, each candidate's
//! verdict with and without it, the sentence that opens the report when the ledger changes a
//! verdict, and a run's tasks set aside (the coverage ledger's column).

use crate::ledger::{SetAside, Target};
use crate::text::{count, noun, shorten, signed_points, SHOWN_NAME_CHARS};

use super::super::{CandidateResult, LedgerLine, LedgerReport, Report};

/// The ledger's heading.
pub const LEDGER_HEADING: &str = "Reviewer's ledger";

/// The columns of the ledger's table ([`ledger_cells`]).
pub const LEDGER_COLUMNS: [&str; 6] = [
    "task or trajectory",
    "action",
    "reason",
    "note",
    "when",
    "applies",
];

/// The coverage ledger's column of tasks set aside ([`set_aside_cell`]).
pub const SET_ASIDE_COLUMN: &str = "set aside by reviewer";

/// "12 tasks set aside by the reviewer, in 14 entries; every figure is computed with them set
/// aside. 1 entry does not apply: no compared run has what it names."
pub fn ledger_intro(ledger: &LedgerReport) -> String {
    let entries = ledger.entries.len() as u64;
    let mut text = format!(
        "{} {} set aside by the reviewer, in {} {}; every figure of this report is computed with \
         the ledger applied, and each verdict is shown beside the one without it.",
        count(ledger.tasks_set_aside),
        noun(ledger.tasks_set_aside, "task", "tasks"),
        count(entries),
        noun(entries, "entry", "entries"),
    );
    let notes = ledger
        .entries
        .iter()
        .filter(|line| !line.entry.action.sets_aside())
        .count() as u64;
    if notes > 0 {
        text.push_str(&format!(
            " {} {} only a note (changing no figure).",
            count(notes),
            noun(notes, "entry is", "entries are"),
        ));
    }
    let idle = ledger.entries.iter().filter(|line| !line.applies).count() as u64;
    if idle > 0 {
        text.push_str(&format!(
            " {} {} not apply: no compared run has the task or trajectory {} (kept, changing nothing).",
            count(idle),
            noun(idle, "entry does", "entries do"),
            noun(idle, "it names", "they name"),
        ));
    }
    text
}

/// One entry's cells, in [`LEDGER_COLUMNS`] order; the first is the id, which renderers set as
/// code (with [`target_kind`] before it).
pub fn ledger_cells(line: &LedgerLine) -> [String; 6] {
    let entry = &line.entry;
    [
        entry.target.id().to_owned(),
        entry.action.label().to_owned(),
        entry.reason.label().to_owned(),
        entry.note.clone().unwrap_or_default(),
        entry.at.clone().unwrap_or_default(),
        if line.applies {
            "yes"
        } else {
            "does not apply"
        }
        .to_owned(),
    ]
}

/// "task" or "trajectory": what an entry's id names.
pub fn target_kind(target: &Target) -> &'static str {
    match target {
        Target::Task(_) => "task",
        Target::Trajectory(_) => "trajectory",
    }
}

/// "With 12 tasks set aside: better, +3.1 points; without: inconclusive, +1.8 points.", or
/// `None` when the report has no ledger.
pub fn ledger_verdicts(report: &Report, candidate: &CandidateResult) -> Option<String> {
    let ledger = report.ledger.as_ref()?;
    let without = candidate.without_ledger.as_ref()?;
    let with_delta = report
        .headline(candidate)
        .estimate
        .as_ref()
        .ok()
        .map(|estimate| estimate.delta);
    Some(format!(
        "With {} {} set aside: {}{}; without: {}{}.",
        count(ledger.tasks_set_aside),
        noun(ledger.tasks_set_aside, "task", "tasks"),
        candidate.verdict.headline(),
        delta_words(with_delta),
        without.verdict.headline(),
        delta_words(without.delta.as_ref().ok().copied()),
    ))
}

fn delta_words(delta: Option<f64>) -> String {
    delta.map_or_else(String::new, |delta| {
        format!(", {} points", signed_points(delta))
    })
}

/// The report's first sentence when the ledger changes a verdict: "The reviewer's ledger
/// changes the verdict on Step 400: better with 12 tasks set aside, inconclusive without."
/// (one clause per candidate it changes); `None` when it changes none.
pub fn ledger_changes(report: &Report) -> Option<String> {
    let ledger = report.ledger.as_ref()?;
    let clauses: Vec<String> = report
        .candidates
        .iter()
        .filter_map(|candidate| {
            let without = candidate.without_ledger.as_ref()?;
            if !without.changes_decision(&candidate.verdict) {
                return None;
            }
            let name = report
                .run_of(candidate)
                .map_or("candidate", |run| run.name.as_str());
            Some(format!(
                "{}: {} with {} {} set aside, {} without",
                shorten(name, SHOWN_NAME_CHARS),
                candidate.verdict.headline(),
                count(ledger.tasks_set_aside),
                noun(ledger.tasks_set_aside, "task", "tasks"),
                without.verdict.headline(),
            ))
        })
        .collect();
    if clauses.is_empty() {
        return None;
    }
    Some(format!(
        "The reviewer's ledger changes the {} on {}.",
        noun(clauses.len() as u64, "verdict", "verdicts"),
        clauses.join("; ")
    ))
}

/// A run's tasks set aside: "12 (12 infrastructure error)", "0".
pub fn set_aside_cell(set_aside: Option<&SetAside>) -> String {
    let Some(set_aside) = set_aside.filter(|s| s.tasks > 0) else {
        return count(0);
    };
    let reasons: Vec<String> = set_aside
        .by_reason
        .iter()
        .map(|r| format!("{} {}", count(r.tasks), r.reason.label()))
        .collect();
    format!("{} ({})", count(set_aside.tasks), reasons.join(", "))
}
