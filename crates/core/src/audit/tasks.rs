//! Differences in the tasks and samples actually present.

use crate::model::{ModelError, Run, RunSet};

use super::{Finding, Lifecycle, Pair, Severity};

/// A task-set difference under this share of the union is only worth knowing (Info); at or
/// above it, it may move the comparison (Caution).
pub const TASK_SET_CAUTION_SHARE: f64 = 0.01;

pub(super) fn check(
    set: &RunSet,
    pair: &Pair<'_>,
    findings: &mut Vec<Finding>,
) -> Result<(), ModelError> {
    let (base, cand) = (pair.base.1, pair.cand.1);
    let (b_name, c_name) = (pair.base_name(), pair.cand_name());
    let mut union = 0u64;
    let mut only_base = 0u64;
    let mut only_cand = 0u64;
    // A task a run still running has not reached, or one a stopped load did not read, is not
    // a difference of task sets (yet): the coverage ledger and the exclusions count it.
    let (base_pending, cand_pending) = (may_still_have_more(base), may_still_have_more(cand));
    for (b, c) in base.task_stats().iter().zip(cand.task_stats()) {
        match (b.samples() > 0, c.samples() > 0) {
            (true, true) => union += 1,
            (true, false) => {
                union += 1;
                only_base += u64::from(!cand_pending);
            }
            (false, true) => {
                union += 1;
                only_cand += u64::from(!base_pending);
            }
            (false, false) => {}
        }
    }
    let paired = set.paired_count(pair.base.0, pair.cand.0)?;
    if paired == 0 {
        findings.push(pair.finding(
            Severity::Blocking,
            "NO_PAIRED_TASKS",
            format!("{b_name} and {c_name} share no task scored on both sides: there is nothing to compare."),
        ));
    }
    let differing = only_base + only_cand;
    if differing > 0 {
        findings.push(pair.finding(
            task_set_severity(differing, union),
            "TASK_SETS_DIFFER",
            format!(
                "Task sets differ: {only_base} tasks only in {b_name}, {only_cand} only in {c_name} (of {union}) — only shared tasks are paired."
            ),
        ));
    }
    let (b_mode, c_mode) = (typical_samples(base), typical_samples(cand));
    if let (Some(b_mode), Some(c_mode)) = (b_mode, c_mode) {
        if b_mode != c_mode {
            findings.push(pair.finding(
                Severity::Caution,
                "OBSERVED_SAMPLES_DIFFER",
                format!(
                    "Samples per task differ in the data: typically {b_mode} for {b_name}, {c_mode} for {c_name} — per-task means differ in precision."
                ),
            ));
        }
    }
    Ok(())
}

/// How much a difference of `differing` tasks of the `union` of two task sets weighs: Info
/// under [`TASK_SET_CAUTION_SHARE`] of the union, else Caution.
pub(super) fn task_set_severity(differing: u64, union: u64) -> Severity {
    if differing as f64 / union as f64 >= TASK_SET_CAUTION_SHARE {
        Severity::Caution
    } else {
        Severity::Info
    }
}

/// Whether `run` may hold trajectories not seen here: it still runs, or its load stopped early.
fn may_still_have_more(run: &Run) -> bool {
    let info = run.info();
    Lifecycle::of(info.status.as_deref())
        .still_to_come(info.incomplete_load.is_some())
        .is_some()
}

/// The most common number of trajectories per attempted task (the smaller one on ties).
fn typical_samples(run: &Run) -> Option<u32> {
    let mut counts: std::collections::BTreeMap<u32, u64> = std::collections::BTreeMap::new();
    for stats in run.task_stats() {
        let samples = stats.samples();
        if samples > 0 {
            *counts.entry(samples).or_default() += 1;
        }
    }
    let mut best: Option<(u32, u64)> = None;
    for (samples, tasks) in counts {
        if best.is_none_or(|(_, most)| tasks > most) {
            best = Some((samples, tasks));
        }
    }
    best.map(|(samples, _)| samples)
}
