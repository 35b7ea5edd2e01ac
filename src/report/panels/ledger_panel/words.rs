//! What the ledger panel says: plain functions over the ledger, the report and the link,
//! tested natively. The entries' cells are core's (`ledger_cells`), as the reports write them.

use eval_compare_core::ledger::{CandidateGroup, Ledger, LedgerError};
use eval_compare_core::report::{
    ledger_cells, ledger_changes, ledger_verdicts, LedgerLine, LedgerReport, Report,
};
use eval_compare_core::text::{shorten, SHOWN_NAME_CHARS};
use eval_compare_core::view_state::{MAX_QUERY_LEN, SAFE_SHARED_QUERY_LEN};

use crate::components::stat_text::{count, plural};

/// The name "Download ledger" gives the file.
pub const LEDGER_FILE_NAME: &str = "eval-compare-ledger.json";

/// What the panel says when the ledger has no entry.
pub const EMPTY_LEDGER: &str = "No task is set aside. Set one aside from its panel (open a task \
     in the table, then \u{201c}Set aside\u{2026}\u{201d}, for the task or one attempt), the \
     tasks a filter shows (above the table), a group of candidates (\u{201c}Find \
     candidates\u{2026}\u{201d}), or open a ledger file.";

/// The "applies" cell while the report with the latest change is being computed.
pub const APPLIES_PENDING: &str = "…";

/// Each entry's cells (core's `ledger_cells`): whether it applies is the report's when the
/// report was computed with this very ledger, else [`APPLIES_PENDING`].
pub fn entry_rows(ledger: &Ledger, report: Option<&LedgerReport>) -> Vec<[String; 6]> {
    let computed = report.filter(|report| {
        report.entries.len() == ledger.entries.len()
            && report
                .entries
                .iter()
                .zip(&ledger.entries)
                .all(|(line, entry)| &line.entry == entry)
    });
    ledger
        .entries
        .iter()
        .enumerate()
        .map(|(index, entry)| {
            let line = LedgerLine {
                entry: entry.clone(),
                applies: computed.is_some_and(|report| report.entries[index].applies),
            };
            let mut cells = ledger_cells(&line);
            if computed.is_none() {
                cells[5] = APPLIES_PENDING.to_owned();
            }
            cells
        })
        .collect()
}

/// When the link is longer than it is shared safely, what the page says (and offers instead).
pub fn link_length_note(query_len: usize) -> Option<String> {
    (query_len > SAFE_SHARED_QUERY_LEN).then(|| {
        format!(
            "With this ledger the link is {} characters long; some mail and chat tools cut \
             links over {}. To share the ledger safely, download it (Download ledger) and send \
             the file with the link; the reader opens it with Open ledger file, and \
             `eval-compare report --exclusions FILE` reads it too.",
            count(query_len as u64),
            count(SAFE_SHARED_QUERY_LEN as u64)
        )
    })
}

/// Why a change to the ledger was not made: the link would be too long to be read back.
pub fn refused_note(query_len: usize) -> String {
    format!(
        "Not applied: with this ledger the link would be {} characters long, over the {} a \
         link may hold. Use the ledger file with `eval-compare report --exclusions FILE` \
         instead.",
        count(query_len as u64),
        count(MAX_QUERY_LEN as u64)
    )
}

/// Why a ledger file could not be opened: its name and core's error (naming the entry and the
/// field).
pub fn open_error(file_name: &str, error: &LedgerError) -> String {
    format!("{file_name} could not be opened: {error}")
}

/// After a ledger file was opened.
pub fn opened_note(file_name: &str, ledger: &Ledger) -> String {
    let entries = ledger.entries.len() as u64;
    format!(
        "Opened {file_name}: {}; it replaces the ledger this page had (Undo puts that back).",
        plural(entries, "entry", "entries")
    )
}

/// A group of candidates in numbers: "114 tasks — GPT-5: 53, Claude: 61" (per run, the tasks
/// that qualify there; `report` names the runs).
pub fn candidate_counts(group: &CandidateGroup, report: &Report) -> String {
    let runs: Vec<String> = group
        .per_run
        .iter()
        .map(|(run, tasks)| {
            let name = report
                .runs
                .iter()
                .find(|summary| summary.index == *run)
                .map_or("run", |summary| summary.name.as_str());
            format!("{}: {}", shorten(name, SHOWN_NAME_CHARS), count(*tasks))
        })
        .collect();
    format!(
        "{} — {}",
        plural(group.tasks.len() as u64, "task", "tasks"),
        runs.join(", ")
    )
}

/// What a preview (the report with the group's entries added) says: the changed verdicts
/// first (core's sentence), then each candidate's verdict and Δ with and without the ledger.
pub fn preview_lines(preview: &Report) -> Vec<String> {
    let mut lines: Vec<String> = ledger_changes(preview).into_iter().collect();
    for candidate in &preview.candidates {
        let Some(words) = ledger_verdicts(preview, candidate) else {
            continue;
        };
        let name = preview
            .run_of(candidate)
            .map_or("candidate", |run| run.name.as_str());
        lines.push(format!("{}: {words}", shorten(name, SHOWN_NAME_CHARS)));
    }
    lines
}

#[cfg(test)]
mod tests {
    use eval_compare_core::ledger::{Action, Entry, Reason, Target};

    use super::*;

    fn ledger() -> Ledger {
        Ledger {
            entries: vec![Entry {
                target: Target::Task("django-1".into()),
                action: Action::LeaveOut,
                reason: Reason::InfrastructureError,
                note: Some("<i>docker</i>".into()),
                at: Some("2026-12-05T12:00:00Z".into()),
            }],
        }
    }

    #[test]
    fn rows_say_whether_an_entry_applies_once_the_report_has_this_ledger() {
        let ledger = ledger();
        let pending = entry_rows(&ledger, None);
        assert_eq!(
            pending[0],
            [
                "django-1",
                "left out",
                "infrastructure error",
                "<i>docker</i>",
                "2026-12-05T12:00:00Z",
                APPLIES_PENDING
            ]
        );
        let report = LedgerReport {
            entries: vec![LedgerLine {
                entry: ledger.entries[0].clone(),
                applies: false,
            }],
            tasks_set_aside: 0,
        };
        assert_eq!(entry_rows(&ledger, Some(&report))[0][5], "does not apply");
        let older = Ledger::default();
        assert!(entry_rows(&older, Some(&report)).is_empty());
        let mut newer = ledger.clone();
        newer.entries.push(ledger.entries[0].clone());
        assert!(entry_rows(&newer, Some(&report))
            .iter()
            .all(|row| row[5] == APPLIES_PENDING));
    }

    #[test]
    fn a_long_link_is_said_and_a_file_offered() {
        assert_eq!(link_length_note(SAFE_SHARED_QUERY_LEN), None);
        let note = link_length_note(2_345).expect("2,345 characters is long");
        assert!(note.starts_with("With this ledger the link is 2,345 characters long"));
        assert!(note.contains("Download ledger"));
        assert!(refused_note(20_000).contains("20,000 characters long, over the 16,384"));
    }

    #[test]
    fn a_file_that_does_not_read_is_named_with_the_entry_and_field() {
        let error = Ledger::parse(
            br#"{"version": 1, "entries": [{"task_id": "a", "action": "leave_out"}]}"#,
        )
        .expect_err("an entry without a reason is refused");
        assert_eq!(
            open_error("mine.json", &error),
            "mine.json could not be opened: ledger entry 0 (`a`), field `reason`: is missing; \
             one of broken_task, grader_error, infrastructure_error, contamination, duplicate, other"
        );
        assert_eq!(
            opened_note("mine.json", &ledger()),
            "Opened mine.json: 1 entry; it replaces the ledger this page had (Undo puts that back)."
        );
    }
}
