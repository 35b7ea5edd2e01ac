//! How the per-task table is filtered and sorted (`filter`, `sort`): the names the URL uses.

use serde::{Deserialize, Serialize};

/// Which per-task rows the table shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RowFilter {
    /// Every task of the union.
    #[default]
    All,
    /// Paired tasks where the candidate scores lower.
    Regressions,
    /// Paired tasks where the candidate scores higher.
    Improvements,
    /// Tasks without an included sample on one side.
    Unpaired,
    /// Tasks with at least one failed trajectory on either side.
    Failed,
    /// Tasks whose samples disagree in the baseline or the focused candidate (`flaky`).
    Flaky,
    /// Tasks whose state against the baseline changes across the checkpoints (`changing`; the
    /// report's task paths).
    Changing,
    /// Tasks where the focused candidate hit the turn limit at least once (`turn_limit`).
    TurnLimit,
    /// Tasks where the focused candidate timed out at least once (`timeout`).
    Timeout,
}

impl RowFilter {
    /// Every filter, in menu order.
    pub const ALL: [RowFilter; 9] = [
        RowFilter::All,
        RowFilter::Regressions,
        RowFilter::Improvements,
        RowFilter::Unpaired,
        RowFilter::Failed,
        RowFilter::Flaky,
        RowFilter::Changing,
        RowFilter::TurnLimit,
        RowFilter::Timeout,
    ];

    /// The name used in the URL.
    pub fn as_str(self) -> &'static str {
        match self {
            RowFilter::All => "all",
            RowFilter::Regressions => "regressions",
            RowFilter::Improvements => "improvements",
            RowFilter::Unpaired => "unpaired",
            RowFilter::Failed => "failed",
            RowFilter::Flaky => "flaky",
            RowFilter::Changing => "changing",
            RowFilter::TurnLimit => "turn_limit",
            RowFilter::Timeout => "timeout",
        }
    }

    pub(super) fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|f| f.as_str() == s)
    }
}

/// The column the per-task table is sorted by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SortKey {
    /// Paired delta of the focused candidate.
    #[default]
    Delta,
    /// Task label (or id).
    Task,
    /// First task category.
    Category,
    /// Baseline task score.
    Baseline,
    /// Focused candidate's task score.
    Candidate,
    /// Focused candidate's mean turns on the task.
    Turns,
    /// Focused candidate's most frequent ending on the task.
    Ending,
}

impl SortKey {
    /// Every sort key, in menu order.
    pub const ALL: [SortKey; 7] = [
        SortKey::Delta,
        SortKey::Task,
        SortKey::Category,
        SortKey::Baseline,
        SortKey::Candidate,
        SortKey::Turns,
        SortKey::Ending,
    ];

    /// The name used in the URL.
    pub fn as_str(self) -> &'static str {
        match self {
            SortKey::Delta => "delta",
            SortKey::Task => "task",
            SortKey::Category => "category",
            SortKey::Baseline => "baseline",
            SortKey::Candidate => "candidate",
            SortKey::Turns => "turns",
            SortKey::Ending => "ending",
        }
    }

    pub(super) fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.as_str() == s)
    }
}

/// Sort column and direction. In the URL: `sort=delta` (ascending) or `sort=-delta`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sort {
    /// Column.
    pub key: SortKey,
    /// True for descending order.
    pub descending: bool,
}

impl Default for Sort {
    /// Worst regressions first: ascending delta.
    fn default() -> Self {
        Sort {
            key: SortKey::Delta,
            descending: false,
        }
    }
}
