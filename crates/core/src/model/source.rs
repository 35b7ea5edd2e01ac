//! Where a run was read from.

use std::fmt;

use serde::{Deserialize, Serialize};

/// The kind of source a run was read from; written `api`, `files` or `chronicle` (in the report
/// JSON too).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SourceKind {
    /// The Trajectory API (or the demo server's simulation of it); the default.
    #[default]
    Api,
    /// Run folders on disk or dropped on the page.
    Files,
    /// Chronicle backtests (jobs and trials).
    Chronicle,
}

impl SourceKind {
    /// The name written in reports: `api`, `files`, `chronicle`.
    pub fn as_str(self) -> &'static str {
        match self {
            SourceKind::Api => "api",
            SourceKind::Files => "files",
            SourceKind::Chronicle => "chronicle",
        }
    }

    /// The source for people ("the Trajectory API", "run folders opened from disk", …).
    pub fn label(self) -> &'static str {
        match self {
            SourceKind::Api => "the Trajectory API",
            SourceKind::Files => "run folders opened from disk",
            SourceKind::Chronicle => "Chronicle backtests",
        }
    }
}

impl fmt::Display for SourceKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
