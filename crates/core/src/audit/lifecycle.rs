//! Run status: runs still going, failed or cancelled. A Chronicle job that succeeded with
//! failing tasks is finished like any other (succeeded means the trials ran): no finding.

use crate::model::{Run, RunIdx};

use super::{Finding, Severity};

/// Status names (Trajectory `EvalRunLifecycleStatus` and Chronicle job status) by meaning.
const FINISHED: [&str; 2] = ["completed", "succeeded"];
const NOT_FINISHED: [&str; 4] = ["pending", "registered", "running", "queued"];

/// Where a run is in its life, by the meaning of its recorded status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lifecycle {
    /// Completed (Trajectory) or succeeded (Chronicle).
    Finished,
    /// Pending, registered, running or queued: its scores can still change.
    NotFinished,
    /// Failed: it holds only part of what it was meant to.
    Failed,
    /// Cancelled: its tasks may be only partly run.
    Cancelled,
    /// A status this project does not know.
    Unknown,
    /// No status recorded (a legacy run, a file without it).
    NotRecorded,
}

/// Why a run may hold trajectories not seen here ([`Lifecycle::still_to_come`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StillToCome {
    /// It still runs: it may not have attempted the task yet.
    NotYetAttempted,
    /// Its load stopped early: the task's trajectories may not have been read.
    NotRead,
}

impl Lifecycle {
    /// The lifecycle of a recorded status name.
    pub fn of(status: Option<&str>) -> Lifecycle {
        match status {
            None => Lifecycle::NotRecorded,
            Some(status) if FINISHED.contains(&status) => Lifecycle::Finished,
            Some(status) if NOT_FINISHED.contains(&status) => Lifecycle::NotFinished,
            Some("failed") => Lifecycle::Failed,
            Some("cancelled") => Lifecycle::Cancelled,
            Some(_) => Lifecycle::Unknown,
        }
    }

    /// Why a run in this lifecycle, whose load was `incomplete` or not, may hold trajectories
    /// not seen here (still running outweighs a stopped load); `None` when a task it has none
    /// on is simply absent from it. The report's exclusions and the audit's task sets both
    /// ask this.
    pub fn still_to_come(self, incomplete: bool) -> Option<StillToCome> {
        if self == Lifecycle::NotFinished {
            Some(StillToCome::NotYetAttempted)
        } else if incomplete {
            Some(StillToCome::NotRead)
        } else {
            None
        }
    }

    /// Whether the run ended without everything it was meant to run (failed or cancelled), or
    /// has not ended yet: what the CLI's regression gate refuses to judge.
    pub fn is_unfinished(self) -> bool {
        matches!(
            self,
            Lifecycle::NotFinished | Lifecycle::Failed | Lifecycle::Cancelled
        )
    }
}

pub(super) fn check(index: RunIdx, run: &Run, findings: &mut Vec<Finding>) {
    let info = run.info();
    // A Chronicle run's status is its job's: say which job.
    let name = match &info.chronicle {
        Some(job) => format!("{} (job {})", info.shown_name(), job.job_id),
        None => info.shown_name().into_owned(),
    };
    let chronicle = info.chronicle.is_some();
    let finding = |severity, code: &str, message: String| Finding {
        severity,
        code: code.to_owned(),
        runs: vec![index],
        message,
    };
    let Some(status) = info.status.as_deref() else {
        findings.push(finding(
            Severity::Info,
            "STATUS_UNKNOWN",
            format!("{name} has no recorded status (a legacy run or a file without it)."),
        ));
        return;
    };
    if FINISHED.contains(&status) {
        return;
    }
    let found = if NOT_FINISHED.contains(&status) {
        finding(
            Severity::Caution,
            "RUN_NOT_FINISHED",
            format!(
                "{name} is still {status}: its scores can change as {} finish.",
                if chronicle { "trials" } else { "trajectories" }
            ),
        )
    } else if status == "failed" {
        let why = info
            .failure
            .as_deref()
            .map_or_else(String::new, |failure| format!(" ({failure})"));
        let holds = if chronicle {
            "its finished trials keep their results, but not every trial ran"
        } else {
            "it may hold graded attempts, but not all it was meant to"
        };
        finding(
            Severity::Caution,
            "RUN_FAILED",
            format!("{name} failed{why}: {holds}."),
        )
    } else if status == "cancelled" {
        let holds = if chronicle {
            "its finished trials keep their results, the others did not run"
        } else {
            "its tasks may be only partly run"
        };
        finding(
            Severity::Caution,
            "RUN_CANCELLED",
            format!("{name} was cancelled: {holds}."),
        )
    } else {
        finding(
            Severity::Caution,
            "UNKNOWN_STATUS",
            format!("{name} has status `{status}`, which this project does not know."),
        )
    };
    findings.push(found);
}
