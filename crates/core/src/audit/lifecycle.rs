//! Run status: runs still going, failed or cancelled.

use crate::model::{Run, RunIdx};

use super::{Finding, Severity};

/// Status names (Trajectory `EvalRunLifecycleStatus` and Chronicle job status) by meaning.
const FINISHED: [&str; 2] = ["completed", "succeeded"];
const NOT_FINISHED: [&str; 4] = ["pending", "registered", "running", "queued"];

pub(super) fn check(index: RunIdx, run: &Run, findings: &mut Vec<Finding>) {
    let info = run.info();
    let name = info.name();
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
            format!("{name} is still {status}: its scores can change as trajectories finish."),
        )
    } else if status == "failed" {
        let why = info
            .failure
            .as_deref()
            .map_or_else(String::new, |failure| format!(" ({failure})"));
        finding(
            Severity::Caution,
            "RUN_FAILED",
            format!(
                "{name} failed{why}: it may hold graded attempts, but not all it was meant to."
            ),
        )
    } else if status == "cancelled" {
        finding(
            Severity::Caution,
            "RUN_CANCELLED",
            format!("{name} was cancelled: its tasks may be only partly run."),
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
