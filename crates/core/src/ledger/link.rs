//! The ledger in a link (the view's `ledger` parameter): short, and only characters a URL
//! carries as they are, so a shared link holds the reviewer's judgements.
//!
//! Entries are separated by `,`; an entry is `code~id[~note[~at]]`. The code is three
//! characters: `t` (a task) or `a` (one attempt, a trajectory), `o` (leave out), `f` (count
//! as a failure) or `n` (only a note), and the reason's place in [`Reason::ALL`] (`0` broken task … `5` other). The
//! id and the note are percent-encoded (`~` too). `at` is written as seconds since the epoch
//! when it is in the canonical form `2026-12-05T12:00:00Z`, else as its encoded text, so a
//! ledger read from a file comes back exactly. An empty note before an `at` is written
//! empty (`to2~task-7~~1796472000`). A note or an `at` equal to the entry before's is written
//! `.` (entries added together share both: a hundred of them would otherwise repeat the note a
//! hundred times); a note that is `.` itself is written `%2E`.
//!
//! Reading checks every entry by the file's rules ([`Ledger::parse`]), so a link's ledger and
//! a file's refuse the same things, with errors naming the entry and the field.

use crate::model::{rfc3339_utc, unix_seconds};
use crate::view_state::{decode_component, encode_component, ParsedViewState, QueryIssue};

use super::entry::{Action, Entry, Reason, Target};
use super::file::{Ledger, LedgerError};

impl Ledger {
    /// The ledger in its link form (see the module doc); empty for an empty ledger.
    pub fn to_link_text(&self) -> String {
        self.entries
            .iter()
            .enumerate()
            .map(|(index, entry)| entry_text(entry, index.checked_sub(1).map(|i| &self.entries[i])))
            .collect::<Vec<_>>()
            .join(",")
    }

    /// Reads a link's ledger, still percent-encoded as the link has it. Every entry is
    /// checked by the file's rules; the error names the entry and the field.
    pub fn from_link_text(text: &str) -> Result<Ledger, LedgerError> {
        let mut entries: Vec<Entry> = Vec::new();
        for (index, part) in text.split(',').enumerate() {
            let entry = read_entry(index, part, entries.last())?;
            entries.push(entry);
        }
        // One rule for a link's and a file's entries: the file's reader checks them.
        Ledger::parse(Ledger { entries }.to_json().as_bytes())
    }
}

/// Reads the ledger of a parsed link: when it does not read, it is dropped from the state and
/// an issue says which entry and field are at fault (a link's malformed ledger, like any other
/// malformed value, is ignored with a notice). The ledger that reads, empty without one.
pub fn settle_link_ledger(parsed: &mut ParsedViewState) -> Ledger {
    let Some(text) = &parsed.state.ledger else {
        return Ledger::default();
    };
    match Ledger::from_link_text(text) {
        Ok(ledger) => ledger,
        Err(error) => {
            parsed.issues.push(QueryIssue {
                param: "ledger".into(),
                reason: error.to_string(),
            });
            parsed.state.ledger = None;
            Ledger::default()
        }
    }
}

/// A note or `at` the same as the entry before's.
const SAME: &str = ".";

fn entry_text(entry: &Entry, previous: Option<&Entry>) -> String {
    let kind = match entry.target {
        Target::Task(_) => 't',
        Target::Trajectory(_) => 'a',
    };
    let action = match entry.action {
        Action::LeaveOut => 'o',
        Action::CountAsFailure => 'f',
        Action::Note => 'n',
    };
    let reason = Reason::ALL
        .iter()
        .position(|&r| r == entry.reason)
        .unwrap_or(Reason::ALL.len() - 1);
    let mut fields = vec![format!("{kind}{action}{reason}"), encode(entry.target.id())];
    let same = |mine: &Option<String>, theirs: Option<&Option<String>>| {
        mine.is_some() && theirs == Some(mine)
    };
    let at = if same(&entry.at, previous.map(|p| &p.at)) {
        Some(SAME.to_owned())
    } else {
        entry.at.as_deref().map(at_text)
    };
    let note = if same(&entry.note, previous.map(|p| &p.note)) {
        Some(SAME.to_owned())
    } else {
        entry.note.as_deref().map(|note| match note {
            SAME => "%2E".to_owned(),
            _ => encode(note),
        })
    };
    if note.is_some() || at.is_some() {
        fields.push(note.unwrap_or_default());
    }
    fields.extend(at);
    fields.join("~")
}

/// Percent-encoding that leaves no `~` (the field separator) and no `,`.
fn encode(text: &str) -> String {
    encode_component(text).replace('~', "%7E")
}

/// `at` as seconds when it is in the canonical form, else its encoded text.
fn at_text(at: &str) -> String {
    match unix_seconds(at) {
        Some(seconds) if rfc3339_utc(seconds) == at => seconds.to_string(),
        _ => encode(at),
    }
}

fn read_entry(index: usize, part: &str, previous: Option<&Entry>) -> Result<Entry, LedgerError> {
    let fail = |id: Option<&str>, field: &str, problem: String| LedgerError::Entry {
        index,
        id: id.map(str::to_owned),
        field: field.to_owned(),
        problem,
    };
    let mut fields = part.split('~');
    let code: Vec<char> = fields.next().unwrap_or_default().chars().collect();
    let raw_id = fields.next().ok_or_else(|| {
        fail(
            None,
            "task_id",
            "is missing: an entry is `code~id`, such as `to2~task-7`".into(),
        )
    })?;
    let id = decode_component(raw_id).map_err(|problem| fail(None, "task_id", problem))?;
    let repeated = |field: &str, value: Option<&Option<String>>| {
        value.cloned().flatten().ok_or_else(|| {
            format!(
                "is `{SAME}` (the same as the entry before's), but the entry before has no {field}"
            )
        })
    };
    let note = fields
        .next()
        .filter(|raw| !raw.is_empty())
        .map(|raw| match raw {
            SAME => repeated("note", previous.map(|p| &p.note)),
            _ => decode_component(raw),
        })
        .transpose()
        .map_err(|problem| fail(Some(&id), "note", problem))?;
    let at = fields
        .next()
        .map(|raw| match raw.parse::<i64>() {
            Ok(seconds) => Ok(rfc3339_utc(seconds)),
            Err(_) if raw == SAME => repeated("time", previous.map(|p| &p.at)),
            Err(_) => decode_component(raw),
        })
        .transpose()
        .map_err(|problem| fail(Some(&id), "at", problem))?;
    if fields.next().is_some() {
        return Err(fail(
            Some(&id),
            "",
            "has more than four `~` fields (code, id, note, at)".into(),
        ));
    }
    let [kind, action, reason] = code[..] else {
        return Err(fail(
            Some(&id),
            "code",
            "is not three characters such as `to2` (task, leave out, infrastructure error)".into(),
        ));
    };
    let target = match kind {
        't' => Target::Task(id.clone()),
        'a' => Target::Trajectory(id.clone()),
        _ => {
            return Err(fail(
                Some(&id),
                "code",
                "does not start with `t` (a task) or `a` (an attempt)".into(),
            ))
        }
    };
    let action = match action {
        'o' => Action::LeaveOut,
        'f' => Action::CountAsFailure,
        'n' => Action::Note,
        _ => {
            return Err(fail(
                Some(&id),
                "action",
                "is not `o` (leave out), `f` (count as a failure) or `n` (a note)".into(),
            ))
        }
    };
    let reason = reason
        .to_digit(10)
        .and_then(|digit| Reason::ALL.get(digit as usize).copied())
        .ok_or_else(|| {
            fail(
                Some(&id),
                "reason",
                format!("is not a digit from 0 to {}", Reason::ALL.len() - 1),
            )
        })?;
    Ok(Entry {
        target,
        action,
        reason,
        note,
        at,
    })
}
