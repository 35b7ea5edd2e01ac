//! Chronicle jobs: task suite and its frozen version, task subset, extra scorers, environment,
//! and trials listed twice. A job's status is the lifecycle check's (`lifecycle.rs`); a job
//! that succeeded with failing tasks is normal (succeeded means the trials ran).

use std::collections::BTreeSet;

use crate::model::{ChronicleRunInfo, Run, RunIdx};

use super::tasks::task_set_severity;
use super::{Finding, Pair, Severity};

/// Findings about one Chronicle run on its own.
pub(super) fn check_run(index: RunIdx, run: &Run, findings: &mut Vec<Finding>) {
    let Some(job) = &run.info().chronicle else {
        return;
    };
    if job.duplicate_trials > 0 {
        findings.push(Finding {
            severity: Severity::Caution,
            code: "DUPLICATE_TRIALS".to_owned(),
            runs: vec![index],
            message: format!(
                "{} has {} trials listed more than once in job {}: each was counted once (its first listing).",
                run.info().shown_name(),
                job.duplicate_trials,
                job.job_id
            ),
        });
    }
}

/// Findings about a pair of Chronicle runs; `false` when either run is not a Chronicle run
/// (the pair is then checked as Trajectory runs are).
pub(super) fn check_pair(pair: &Pair<'_>, findings: &mut Vec<Finding>) -> bool {
    let (Some(base), Some(cand)) = (&pair.base.1.info().chronicle, &pair.cand.1.info().chronicle)
    else {
        return false;
    };
    pair.recorded_alike(
        findings,
        (base.task_suite_id.as_deref(), cand.task_suite_id.as_deref()),
        |b, c| {
            pair.differs(
                (Severity::Blocking, "TASK_SUITE_DIFFERS"),
                "Task suites differ",
                (format!("ran {b}"), format!("ran {c}")),
                "different tasks and scorers, so pass rates are not comparable.",
            )
        },
        |_| {
            Some(pair.finding(
                Severity::Caution,
                "TASK_SUITE_UNKNOWN",
                "The task suite is not recorded for every job: cannot confirm both ran the same tasks and scorers.".to_owned(),
            ))
        },
    );
    suite_version(pair, base, cand, findings);
    subsets(pair, base, cand, findings);
    let (b_scorers, c_scorers): (BTreeSet<&str>, BTreeSet<&str>) = (
        base.scorers.iter().map(String::as_str).collect(),
        cand.scorers.iter().map(String::as_str).collect(),
    );
    if b_scorers != c_scorers {
        findings.push(pair.differs(
            (Severity::Caution, "EXTRA_SCORERS_DIFFER"),
            "Extra scorers differ",
            (listed(&b_scorers), listed(&c_scorers)),
            "a task passes only when every thresholded scorer met it, so more scorers make passing harder.",
        ));
    }
    if base.environment_version_id != cand.environment_version_id {
        findings.push(pair.differs(
            (Severity::Caution, "ENVIRONMENT_DIFFERS"),
            "Fallback environment differs",
            (
                or_none(base.environment_version_id.as_deref()),
                or_none(cand.environment_version_id.as_deref()),
            ),
            "tasks that name no world ran in different ones.",
        ));
    }
    true
}

fn suite_version(
    pair: &Pair<'_>,
    base: &ChronicleRunInfo,
    cand: &ChronicleRunInfo,
    findings: &mut Vec<Finding>,
) {
    pair.recorded_alike(
        findings,
        (base.task_suite_version.as_deref(), cand.task_suite_version.as_deref()),
        |b, c| {
            pair.differs(
                (Severity::Blocking, "SUITE_VERSION_DIFFERS"),
                "Task suite versions differ",
                (format!("ran version {b}"), format!("version {c}")),
                "tasks and scorers are frozen at launch, so the runs were scored differently.",
            )
        },
        // One job: one frozen version, recorded or not.
        |runs| {
            (base.job_id != cand.job_id).then(|| pair.finding(
                Severity::Caution,
                "SUITE_VERSION_UNKNOWN",
                format!("The task suite version is not recorded for {runs}: cannot confirm both jobs ran the same frozen tasks and scorers."),
            ))
        },
    );
}

/// Different task subsets (`tasks`): only tasks both ran are paired. Two subsets are weighed
/// as the task-set check weighs observed tasks ([`task_set_severity`]); a subset against the
/// whole suite is a Caution.
fn subsets(
    pair: &Pair<'_>,
    base: &ChronicleRunInfo,
    cand: &ChronicleRunInfo,
    findings: &mut Vec<Finding>,
) {
    let (b_name, c_name) = (pair.base_name(), pair.cand_name());
    match (&base.tasks, &cand.tasks) {
        (None, None) => {}
        (Some(b), Some(c)) => {
            let b: BTreeSet<&str> = b.iter().map(String::as_str).collect();
            let c: BTreeSet<&str> = c.iter().map(String::as_str).collect();
            let only_base = b.difference(&c).count();
            let only_cand = c.difference(&b).count();
            if only_base + only_cand == 0 {
                return;
            }
            let union = b.union(&c).count();
            findings.push(pair.finding(
                task_set_severity((only_base + only_cand) as u64, union as u64),
                "TASK_SUBSETS_DIFFER",
                format!(
                    "Task subsets differ: {only_base} tasks only in {b_name}'s, {only_cand} only in {c_name}'s (of {union}) — only tasks both ran are paired."
                ),
            ));
        }
        (Some(subset), None) | (None, Some(subset)) => {
            let (partial, whole) = if base.tasks.is_some() {
                (b_name, c_name)
            } else {
                (c_name, b_name)
            };
            findings.push(pair.finding(
                Severity::Caution,
                "TASK_SUBSETS_DIFFER",
                format!(
                    "{partial} ran a subset of {} tasks, {whole} the whole suite — only tasks both ran are paired.",
                    subset.len()
                ),
            ));
        }
    }
}

fn listed(scorers: &BTreeSet<&str>) -> String {
    if scorers.is_empty() {
        "none".to_owned()
    } else {
        scorers.iter().copied().collect::<Vec<_>>().join(", ")
    }
}

fn or_none(value: Option<&str>) -> String {
    value.unwrap_or("none").to_owned()
}
