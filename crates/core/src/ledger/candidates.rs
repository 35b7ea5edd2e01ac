//! The obvious candidates for the reviewer's ledger, in groups a reviewer takes in one action:
//! tasks whose attempts in one compared run all ended in an execution failure (the coverage
//! ledger's "failed": `ERROR`, `STALE`, `SANDBOX_*`), or all without a submission or out of
//! time (its "model's own ending"), tasks no compared run graded, and tasks a compared run
//! attempted that the benchmark's task list (its version) no longer has (the audit's task-set
//! check). Read from the run set the coverage ledger and the audit count from, so the counts
//! agree with theirs.
//!
//! A task the ledger already sets aside (a task entry that leaves it out or counts it as a
//! failure) is not offered again. A group without a task is not offered.

use serde::{Deserialize, Serialize};

use crate::model::{OutcomeClass, RunIdx, RunSet};

use super::entry::{Action, Entry, Reason, Target};
use super::file::Ledger;

/// What a group of candidates has in common.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CandidateKind {
    /// Every attempt of the task in some compared run ended in an execution failure.
    ExecutionFailures,
    /// Every attempt of the task in some compared run ended without a submission or out of
    /// time.
    NoSubmission,
    /// Compared runs attempted the task, and none has a graded attempt on it.
    NeverGraded,
    /// A compared run attempted the task, and the benchmark's task list does not have it.
    NotListed,
}

impl CandidateKind {
    /// Every kind, in the order offered.
    pub const ALL: [CandidateKind; 4] = [
        CandidateKind::ExecutionFailures,
        CandidateKind::NoSubmission,
        CandidateKind::NeverGraded,
        CandidateKind::NotListed,
    ];

    /// The kind's name, as in JSON: `execution_failures`, `no_submission`, `never_graded`,
    /// `not_listed`.
    pub fn name(self) -> &'static str {
        match self {
            CandidateKind::ExecutionFailures => "execution_failures",
            CandidateKind::NoSubmission => "no_submission",
            CandidateKind::NeverGraded => "never_graded",
            CandidateKind::NotListed => "not_listed",
        }
    }

    /// What the group's tasks have in common, in words (for a heading).
    pub fn label(self) -> &'static str {
        match self {
            CandidateKind::ExecutionFailures => {
                "Every attempt in one run ended in an execution error (error, stale, sandbox)"
            }
            CandidateKind::NoSubmission => {
                "Every attempt in one run ended without a submission or out of time"
            }
            CandidateKind::NeverGraded => "No run graded the task",
            CandidateKind::NotListed => "Not on the benchmark's task list (dropped by its version)",
        }
    }

    /// The reason suggested for the group's entries.
    pub fn reason(self) -> Reason {
        match self {
            CandidateKind::ExecutionFailures => Reason::InfrastructureError,
            CandidateKind::NoSubmission => Reason::Other,
            CandidateKind::NeverGraded => Reason::GraderError,
            CandidateKind::NotListed => Reason::Other,
        }
    }

    /// The note each entry of the group carries, so the ledger says why it was made.
    pub fn note(self) -> &'static str {
        match self {
            CandidateKind::ExecutionFailures => {
                "every attempt in one run ended in an execution error"
            }
            CandidateKind::NoSubmission => {
                "every attempt in one run ended without a submission or out of time"
            }
            CandidateKind::NeverGraded => "no run graded the task",
            CandidateKind::NotListed => "not on the benchmark's task list",
        }
    }
}

/// One group of candidates.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CandidateGroup {
    /// What its tasks have in common.
    pub kind: CandidateKind,
    /// The tasks' ids, in the run set's task order.
    pub tasks: Vec<String>,
    /// Per compared run (in the order given), how many of the tasks qualify there (for the
    /// kinds by run; for the others, how many the run attempted).
    pub per_run: Vec<(RunIdx, u64)>,
}

impl CandidateGroup {
    /// The group as ledger entries: each task with `action` and `reason`, the group's note,
    /// made `at`.
    pub fn entries(&self, action: Action, reason: Reason, at: Option<&str>) -> Vec<Entry> {
        self.tasks
            .iter()
            .map(|task| Entry {
                target: Target::Task(task.clone()),
                action,
                reason,
                note: Some(self.kind.note().to_owned()),
                at: at.map(str::to_owned),
            })
            .collect()
    }
}

/// What one compared run did on one task.
#[derive(Debug, Clone, Copy, Default)]
struct Attempts {
    total: u64,
    failed: u64,
    model_ending: u64,
    graded: u64,
}

/// The candidates among the tasks of the runs `compared` of `set` (the baseline first), the
/// tasks `ledger` already sets aside left out; only groups with a task, in
/// [`CandidateKind::ALL`] order.
pub fn ledger_candidates(
    set: &RunSet,
    compared: &[RunIdx],
    ledger: &Ledger,
) -> Vec<CandidateGroup> {
    let tasks = set.tasks();
    let mut attempts = vec![vec![Attempts::default(); tasks.len()]; compared.len()];
    for (slot, &run) in compared.iter().enumerate() {
        let Ok(run) = set.run(run) else { continue };
        for trajectory in run.trajectories() {
            let Some(task) = trajectory.task else {
                continue;
            };
            let Some(cell) = attempts[slot].get_mut(task as usize) else {
                continue;
            };
            cell.total += 1;
            cell.failed += u64::from(trajectory.class == OutcomeClass::Failed);
            cell.model_ending += u64::from(trajectory.class == OutcomeClass::ModelEnding);
            cell.graded += u64::from(trajectory.scoring().primary.value().is_some());
        }
    }
    let set_aside: std::collections::HashSet<&str> = ledger
        .entries
        .iter()
        .filter(|entry| entry.action.sets_aside())
        .filter_map(|entry| match &entry.target {
            Target::Task(id) => Some(id.as_str()),
            Target::Trajectory(_) => None,
        })
        .collect();
    let has_list = tasks.iter().any(|task| task.listed);
    CandidateKind::ALL
        .into_iter()
        .filter_map(|kind| {
            let qualifies = |a: &Attempts| match kind {
                CandidateKind::ExecutionFailures => a.total > 0 && a.failed == a.total,
                CandidateKind::NoSubmission => a.total > 0 && a.model_ending == a.total,
                CandidateKind::NeverGraded | CandidateKind::NotListed => a.total > 0,
            };
            let mut per_run = vec![0u64; compared.len()];
            let mut chosen = Vec::new();
            for (index, task) in tasks.iter().enumerate() {
                if set_aside.contains(task.id.as_str()) {
                    continue;
                }
                let cells = attempts.iter().map(|run| run[index]);
                let by_run: Vec<bool> = cells.clone().map(|a| qualifies(&a)).collect();
                let wanted = match kind {
                    CandidateKind::ExecutionFailures | CandidateKind::NoSubmission => {
                        by_run.iter().any(|&q| q)
                    }
                    CandidateKind::NeverGraded => {
                        by_run.iter().any(|&q| q) && cells.clone().all(|a| a.graded == 0)
                    }
                    CandidateKind::NotListed => {
                        has_list && !task.listed && by_run.iter().any(|&q| q)
                    }
                };
                if wanted {
                    chosen.push(task.id.clone());
                    for (count, q) in per_run.iter_mut().zip(&by_run) {
                        *count += u64::from(*q);
                    }
                }
            }
            (!chosen.is_empty()).then(|| CandidateGroup {
                kind,
                tasks: chosen,
                per_run: compared.iter().copied().zip(per_run).collect(),
            })
        })
        .collect()
}

/// `ledger` with `entries` added at its end.
pub fn with_entries(ledger: &Ledger, entries: Vec<Entry>) -> Ledger {
    let mut next = ledger.clone();
    next.entries.extend(entries);
    next
}
