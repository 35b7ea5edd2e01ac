//! One entry of the reviewer's ledger: what it names (a task or one trajectory), what to do
//! with it, why, and the reviewer's note and time.

use serde::{Deserialize, Serialize};

/// What an entry names.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Target {
    /// A task, in every run of the comparison (`task_id`).
    Task(String),
    /// One attempt of one run (`trajectory_id`).
    Trajectory(String),
}

impl Target {
    /// The id named, task or trajectory.
    pub fn id(&self) -> &str {
        match self {
            Target::Task(id) | Target::Trajectory(id) => id,
        }
    }

    /// The field the id is written in: `task_id` or `trajectory_id`.
    pub fn field(&self) -> &'static str {
        match self {
            Target::Task(_) => "task_id",
            Target::Trajectory(_) => "trajectory_id",
        }
    }
}

/// What to do with what an entry names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Leave it out of every run (a task) or of its run (a trajectory).
    LeaveOut,
    /// Count it as a failure, reward 0, where it was missing or has no reward.
    CountAsFailure,
    /// Only a note: the entry changes no figure (`note`).
    Note,
}

impl Action {
    /// Every action, in file order.
    pub const ALL: [Action; 3] = [Action::LeaveOut, Action::CountAsFailure, Action::Note];

    /// The actions that set what an entry names aside (all but [`Action::Note`]).
    pub const SET_ASIDE: [Action; 2] = [Action::LeaveOut, Action::CountAsFailure];

    /// The name in the file, e.g. `leave_out`.
    pub fn name(self) -> &'static str {
        match self {
            Action::LeaveOut => "leave_out",
            Action::CountAsFailure => "count_as_failure",
            Action::Note => "note",
        }
    }

    /// Plain words, e.g. "left out".
    pub fn label(self) -> &'static str {
        match self {
            Action::LeaveOut => "left out",
            Action::CountAsFailure => "counted as a failure",
            Action::Note => "note only",
        }
    }

    /// Whether the entry sets what it names aside (changes figures): not for a note.
    pub fn sets_aside(self) -> bool {
        self != Action::Note
    }
}

/// Why the reviewer set it aside (a fixed list).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reason {
    /// The task itself is broken.
    BrokenTask,
    /// The grader failed or graded wrongly.
    GraderError,
    /// The infrastructure failed the attempt.
    InfrastructureError,
    /// The task leaked into training data.
    Contamination,
    /// The task repeats another.
    Duplicate,
    /// Any other reason (the note says which).
    Other,
}

impl Reason {
    /// Every reason, in file order.
    pub const ALL: [Reason; 6] = [
        Reason::BrokenTask,
        Reason::GraderError,
        Reason::InfrastructureError,
        Reason::Contamination,
        Reason::Duplicate,
        Reason::Other,
    ];

    /// The name in the file, e.g. `infrastructure_error`.
    pub fn name(self) -> &'static str {
        match self {
            Reason::BrokenTask => "broken_task",
            Reason::GraderError => "grader_error",
            Reason::InfrastructureError => "infrastructure_error",
            Reason::Contamination => "contamination",
            Reason::Duplicate => "duplicate",
            Reason::Other => "other",
        }
    }

    /// Plain words, e.g. "infrastructure error".
    pub fn label(self) -> &'static str {
        match self {
            Reason::BrokenTask => "broken task",
            Reason::GraderError => "grader error",
            Reason::InfrastructureError => "infrastructure error",
            Reason::Contamination => "contamination",
            Reason::Duplicate => "duplicate",
            Reason::Other => "other",
        }
    }
}

/// One judgement of the reviewer. In JSON it is the file's form (`task_id` or
/// `trajectory_id`, `action`, `reason`, `note` and `at` when given).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "EntryForm", into = "EntryForm")]
pub struct Entry {
    /// The task or trajectory.
    pub target: Target,
    /// What to do with it.
    pub action: Action,
    /// Why.
    pub reason: Reason,
    /// The reviewer's note, when given.
    pub note: Option<String>,
    /// When the entry was made, RFC 3339 text as given (checked when read).
    pub at: Option<String>,
}

/// [`Entry`] as the file writes it.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct EntryForm {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    task_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    trajectory_id: Option<String>,
    action: Action,
    reason: Reason,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    note: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    at: Option<String>,
}

impl From<Entry> for EntryForm {
    fn from(entry: Entry) -> Self {
        let (task_id, trajectory_id) = match entry.target {
            Target::Task(id) => (Some(id), None),
            Target::Trajectory(id) => (None, Some(id)),
        };
        EntryForm {
            task_id,
            trajectory_id,
            action: entry.action,
            reason: entry.reason,
            note: entry.note,
            at: entry.at,
        }
    }
}

impl TryFrom<EntryForm> for Entry {
    type Error = String;

    fn try_from(form: EntryForm) -> Result<Self, Self::Error> {
        let target = match (form.task_id, form.trajectory_id) {
            (Some(id), None) => Target::Task(id),
            (None, Some(id)) => Target::Trajectory(id),
            _ => return Err("an entry names either a task_id or a trajectory_id".to_owned()),
        };
        Ok(Entry {
            target,
            action: form.action,
            reason: form.reason,
            note: form.note,
            at: form.at,
        })
    }
}
