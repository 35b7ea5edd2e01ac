//! The ledger file: `{"version": 1, "entries": [...]}`, read with errors that name the entry
//! (its index and id) and the field, and written back in the same form.

use serde::Serialize;
use serde_json::{Map, Value};

use crate::model::unix_seconds;
use crate::text::{shorten, visible, MAX_SHOWN_FIELD_BYTES, SHOWN_NAME_CHARS};
use crate::view_state::check_id;

use super::entry::{Action, Entry, Reason, Target};

/// The only version of the file this code reads and writes.
pub const LEDGER_VERSION: u64 = 1;

/// The largest ledger file read, in bytes.
pub const MAX_LEDGER_BYTES: usize = 16 * 1024 * 1024;

/// The most entries a ledger holds.
pub const MAX_LEDGER_ENTRIES: usize = 100_000;

/// The longest note, in bytes.
pub const MAX_NOTE_BYTES: usize = MAX_SHOWN_FIELD_BYTES;

/// The reviewer's judgements on a comparison, in the order they were made.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Ledger {
    /// The entries; several may name the same task.
    pub entries: Vec<Entry>,
}

/// Why a ledger file was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LedgerError {
    /// The file is over [`MAX_LEDGER_BYTES`].
    #[error("the ledger is {bytes} bytes; at most {MAX_LEDGER_BYTES} are read")]
    TooLarge {
        /// Its size.
        bytes: usize,
    },
    /// The file is not JSON.
    #[error("the ledger is not valid JSON at line {line}, column {column}: {message}")]
    Json {
        /// Line of the error (1-based).
        line: usize,
        /// Column of the error (1-based).
        column: usize,
        /// What serde_json found.
        message: String,
    },
    /// The top level is wrong: not an object, no or an unknown `version`, no `entries` list.
    #[error("the ledger's `{field}` {problem}")]
    Shape {
        /// The top-level field.
        field: String,
        /// What is wrong with it.
        problem: String,
    },
    /// More than [`MAX_LEDGER_ENTRIES`] entries.
    #[error("the ledger has {count} entries; at most {MAX_LEDGER_ENTRIES} are read")]
    TooManyEntries {
        /// How many it has.
        count: usize,
    },
    /// One entry is wrong.
    #[error("{}", entry_message(*index, id.as_deref(), field, problem))]
    Entry {
        /// Its index in `entries` (0-based).
        index: usize,
        /// Its task or trajectory id, when it has one that is text.
        id: Option<String>,
        /// The field at fault (empty when the entry itself is).
        field: String,
        /// What is wrong.
        problem: String,
    },
}

fn entry_message(index: usize, id: Option<&str>, field: &str, problem: &str) -> String {
    let mut text = format!("ledger entry {index}");
    if let Some(id) = id {
        text.push_str(&format!(" (`{}`)", visible(&shorten(id, SHOWN_NAME_CHARS))));
    }
    if field.is_empty() {
        format!("{text}: {problem}")
    } else {
        format!(
            "{text}, field `{}`: {problem}",
            visible(&shorten(field, 64))
        )
    }
}

impl Ledger {
    /// Reads a ledger file. Never panics; see [`LedgerError`] for what is refused.
    pub fn parse(bytes: &[u8]) -> Result<Ledger, LedgerError> {
        if bytes.len() > MAX_LEDGER_BYTES {
            return Err(LedgerError::TooLarge { bytes: bytes.len() });
        }
        let value: Value = serde_json::from_slice(bytes).map_err(|error| LedgerError::Json {
            line: error.line(),
            column: error.column(),
            message: error.to_string(),
        })?;
        let Value::Object(top) = value else {
            return Err(shape(
                "version",
                "is missing: the ledger is not a JSON object",
            ));
        };
        for key in top.keys() {
            if key != "version" && key != "entries" {
                return Err(LedgerError::Shape {
                    field: visible(&shorten(key, 64)).into_owned(),
                    problem: "is not a field of a ledger (it has `version` and `entries`)".into(),
                });
            }
        }
        match top.get("version") {
            None => return Err(shape("version", "is missing")),
            Some(version) if version.as_u64() == Some(LEDGER_VERSION) => {}
            Some(version) => {
                return Err(shape(
                    "version",
                    &format!(
                        "is {}; this reader knows version {LEDGER_VERSION}",
                        shorten(&version.to_string(), 64)
                    ),
                ))
            }
        }
        let entries = match top.get("entries") {
            Some(Value::Array(entries)) => entries,
            Some(_) => return Err(shape("entries", "is not a list")),
            None => return Err(shape("entries", "is missing")),
        };
        if entries.len() > MAX_LEDGER_ENTRIES {
            return Err(LedgerError::TooManyEntries {
                count: entries.len(),
            });
        }
        let entries = entries
            .iter()
            .enumerate()
            .map(|(index, entry)| read_entry(index, entry))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Ledger { entries })
    }

    /// The ledger as the file's pretty JSON; [`Ledger::parse`] reads it back to the same
    /// ledger.
    pub fn to_json(&self) -> String {
        #[derive(Serialize)]
        struct Form<'a> {
            version: u64,
            entries: &'a [Entry],
        }
        let form = Form {
            version: LEDGER_VERSION,
            entries: &self.entries,
        };
        // Plain data with string keys: serializing cannot fail.
        serde_json::to_string_pretty(&form).unwrap_or_default()
    }

    /// Whether the ledger has no entry.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

fn shape(field: &str, problem: &str) -> LedgerError {
    LedgerError::Shape {
        field: field.to_owned(),
        problem: problem.to_owned(),
    }
}

/// The fields an entry may have.
const FIELDS: [&str; 6] = ["task_id", "trajectory_id", "action", "reason", "note", "at"];

fn read_entry(index: usize, value: &Value) -> Result<Entry, LedgerError> {
    let Value::Object(fields) = value else {
        return Err(entry_error(index, None, "", "is not a JSON object"));
    };
    let id = fields
        .get("task_id")
        .or_else(|| fields.get("trajectory_id"))
        .and_then(Value::as_str)
        .map(str::to_owned);
    let fail = |field: &str, problem: String| entry_error(index, id.clone(), field, &problem);
    if let Some(unknown) = fields.keys().find(|key| !FIELDS.contains(&key.as_str())) {
        return Err(fail(
            unknown,
            format!("unknown field; an entry has {}", FIELDS.join(", ")),
        ));
    }
    let target = match (text(fields, "task_id"), text(fields, "trajectory_id")) {
        (Ok(Some(task)), Ok(None)) => ("task_id", Target::Task(task)),
        (Ok(None), Ok(Some(trajectory))) => ("trajectory_id", Target::Trajectory(trajectory)),
        (Ok(Some(_)), Ok(Some(_))) => {
            return Err(fail(
                "trajectory_id",
                "stands beside task_id; an entry names one of them".into(),
            ))
        }
        (Ok(None), Ok(None)) => {
            return Err(fail(
                "task_id",
                "is missing: an entry names a task_id or a trajectory_id".into(),
            ))
        }
        (Err(problem), _) => return Err(fail("task_id", problem)),
        (_, Err(problem)) => return Err(fail("trajectory_id", problem)),
    };
    let (id_field, target) = target;
    check_id(target.id()).map_err(|problem| fail(id_field, problem))?;
    let action =
        one_of(fields, "action", &Action::ALL, |a| a.name()).map_err(|p| fail("action", p))?;
    let reason =
        one_of(fields, "reason", &Reason::ALL, |r| r.name()).map_err(|p| fail("reason", p))?;
    let note = text(fields, "note").map_err(|problem| fail("note", problem))?;
    if let Some(note) = &note {
        if note.len() > MAX_NOTE_BYTES {
            return Err(fail(
                "note",
                format!("is {} bytes; at most {MAX_NOTE_BYTES}", note.len()),
            ));
        }
    }
    let at = text(fields, "at").map_err(|problem| fail("at", problem))?;
    if let Some(at) = &at {
        if !is_rfc3339(at) {
            return Err(fail(
                "at",
                format!(
                    "`{}` is not an RFC 3339 time such as 2026-12-05T12:00:00Z",
                    visible(&shorten(at, 64))
                ),
            ));
        }
    }
    Ok(Entry {
        target,
        action,
        reason,
        note,
        at,
    })
}

/// An RFC 3339 time: what [`unix_seconds`] reads, with `T` between date and time, an offset
/// (`Z` or `±hh:mm`) and nothing around it.
fn is_rfc3339(text: &str) -> bool {
    let bytes = text.as_bytes();
    let offset =
        text.ends_with(['Z', 'z']) || text.get(19..).is_some_and(|rest| rest.contains(['+', '-']));
    text.trim() == text
        && matches!(bytes.get(10), Some(b'T' | b't'))
        && offset
        && unix_seconds(text).is_some()
}

fn entry_error(index: usize, id: Option<String>, field: &str, problem: &str) -> LedgerError {
    LedgerError::Entry {
        index,
        id,
        field: field.to_owned(),
        problem: problem.to_owned(),
    }
}

/// A text field: `None` when absent or null.
fn text(fields: &Map<String, Value>, field: &str) -> Result<Option<String>, String> {
    match fields.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(value)) => Ok(Some(value.clone())),
        Some(other) => Err(format!("is {}, not text", kind(other))),
    }
}

/// A required field naming one of `choices`.
fn one_of<T: Copy>(
    fields: &Map<String, Value>,
    field: &str,
    choices: &[T],
    name: impl Fn(T) -> &'static str,
) -> Result<T, String> {
    let names = || {
        choices
            .iter()
            .map(|&choice| name(choice))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let value = text(fields, field)?.ok_or_else(|| format!("is missing; one of {}", names()))?;
    choices
        .iter()
        .copied()
        .find(|&choice| name(choice) == value)
        .ok_or_else(|| {
            format!(
                "`{}` is not one of {}",
                visible(&shorten(&value, 64)),
                names()
            )
        })
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "text",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}
