//! Warnings of the coverage ledger: one line each, with the runs concerned.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::model::{JoinReport, OutcomeClass, RunIdx, RunSet};
use crate::text::{byte_size, noun, shorten, MAX_SHOWN_FIELD_BYTES, SHOWN_NAME_CHARS};

use super::{Coverage, MissingnessCheck, PairCoverage, RunCoverage};

/// Something about coverage a reader must know before believing a number.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CoverageWarning {
    /// Stable code, e.g. `FAILURE_RATES_DIFFER`.
    pub code: String,
    /// Runs concerned.
    pub runs: Vec<RunIdx>,
    /// One line a reviewer understands.
    pub message: String,
}

impl CoverageWarning {
    fn new(code: &str, runs: Vec<RunIdx>, message: String) -> Self {
        CoverageWarning {
            code: code.to_owned(),
            runs,
            message,
        }
    }
}

/// How many unknown ending names a warning lists.
const LISTED_ENDINGS: usize = 5;
/// How many repeated trajectory ids with another reward a warning names.
const LISTED_DUPLICATES: usize = 3;

pub(super) fn collect(set: &RunSet, ledger: &Coverage) -> Vec<CoverageWarning> {
    let mut warnings = Vec::new();
    for run in &ledger.runs {
        per_run(set, run, &mut warnings);
    }
    let name = |index: RunIdx| {
        ledger.runs.iter().find(|run| run.run == index).map_or_else(
            || format!("run {}", index.0),
            |run| shorten(&run.name, SHOWN_NAME_CHARS).into_owned(),
        )
    };
    task_list(set, ledger, &mut warnings);
    cut_labels(set, ledger, &mut warnings);
    for pair in &ledger.comparisons {
        per_pair(
            pair,
            &name(pair.baseline),
            &name(pair.candidate),
            &mut warnings,
        );
    }
    warnings
}

fn per_run(set: &RunSet, run: &RunCoverage, warnings: &mut Vec<CoverageWarning>) {
    let runs = vec![run.run];
    let name = shorten(&run.name, SHOWN_NAME_CHARS);
    if let Ok(stored) = set.run(run.run) {
        for cut in &stored.info().cut_texts {
            warnings.push(CoverageWarning::new(
                "TEXT_CUT",
                runs.clone(),
                format!(
                    "{name}: its {} was {}, over the {} any shown name or label may hold; it is cut to that.",
                    cut.field,
                    byte_size(cut.bytes),
                    byte_size(MAX_SHOWN_FIELD_BYTES as u64)
                ),
            ));
        }
    }
    if let Some(missing) = &run.incomplete_load {
        warnings.push(CoverageWarning::new(
            "INCOMPLETE_LOAD",
            runs.clone(),
            format!("{name}: loading stopped early ({missing}); counts below are partial."),
        ));
    }
    if let Some(selected) = run.tasks_selected {
        if run.tasks_attempted < selected {
            warnings.push(CoverageWarning::new(
                "TASKS_NOT_ATTEMPTED",
                runs.clone(),
                format!(
                    "{name} has trajectories on {} of the {selected} tasks selected at launch.",
                    run.tasks_attempted
                ),
            ));
        }
    }
    if run.samples.unfinished > 0 {
        warnings.push(CoverageWarning::new(
            "UNFINISHED_TRAJECTORIES",
            runs.clone(),
            format!(
                "{name} has {} unfinished trajectories: results may still change.",
                run.samples.unfinished
            ),
        ));
    }
    if run.invalid_rewards > 0 {
        warnings.push(CoverageWarning::new(
            "INVALID_REWARDS",
            runs.clone(),
            format!(
                "{name} has {} rewards that are not numbers in [0, 1]; they are left out and counted.",
                run.invalid_rewards
            ),
        ));
    }
    let positive_cut_offs = positive_cut_offs(set, run);
    if positive_cut_offs > 0 {
        warnings.push(CoverageWarning::new(
            "CUT_OFF_WITH_POSITIVE_REWARD",
            runs.clone(),
            format!(
                "{name}: {positive_cut_offs} cut-off trajectories carry a positive reward, which the platform caps at 0 in evaluation; they are used as reported."
            ),
        ));
    }
    if run.zero_by_platform_rule > 0 {
        warnings.push(CoverageWarning::new(
            "SCORED_ZERO_BY_PLATFORM_RULE",
            runs.clone(),
            format!(
                "{name}: {} cut-off trajectories had no reward and are scored 0 by the platform rule.",
                run.zero_by_platform_rule
            ),
        ));
    }
    if run.zero_without_grade > 0 {
        warnings.push(CoverageWarning::new(
            "SCORED_ZERO_WITHOUT_GRADE",
            runs.clone(),
            format!(
                "{name}: {} timed-out or unsubmitted trajectories had no reward and are scored 0.",
                run.zero_without_grade
            ),
        ));
    }
    if run.samples.other > 0 {
        warnings.push(CoverageWarning::new(
            "UNKNOWN_ENDINGS",
            runs.clone(),
            format!(
                "{name}: {} trajectories ended in a way this project does not class ({}); those with a reward are included.",
                run.samples.other,
                unknown_endings(set, run.run)
            ),
        ));
    }
    if run.without_task > 0 {
        warnings.push(CoverageWarning::new(
            "TRAJECTORIES_WITHOUT_TASK",
            runs.clone(),
            format!(
                "{name} has {} trajectories without a task: counted, never paired.",
                run.without_task
            ),
        ));
    }
    if let Some(join) = run
        .join
        .as_ref()
        .filter(|join| join.conflicting_duplicates > 0)
    {
        warnings.push(CoverageWarning::new(
            "DUPLICATE_TRAJECTORY_CONFLICTS",
            runs.clone(),
            format!(
                "{name}: {} {} another reward than its first item (the first is used): {}.",
                join.conflicting_duplicates,
                noun(
                    join.conflicting_duplicates,
                    "repeated trajectory id carries",
                    "repeated trajectory ids carry"
                ),
                duplicate_examples(join)
            ),
        ));
    }
    if let Some(join) = run.join.as_ref().filter(|join| !join.is_clean()) {
        warnings.push(CoverageWarning::new(
            "JOIN_ISSUES",
            runs,
            format!(
                "{name}: rewards and trajectory listings disagree ({} rewards without metadata, \
                 {} rewards taken from metadata, {} task conflicts, {} reward mismatches, {} duplicates).",
                join.rewards_without_metadata,
                join.reward_from_metadata,
                join.task_conflicts,
                join.reward_mismatches,
                join.duplicate_reward_items + join.duplicate_metadata_items
            ),
        ));
    }
}

/// How many task ids a task-list conflict warning names.
const LISTED_TASKS: usize = 5;

/// Tasks listed twice with another split or categories (which changes clusters).
fn task_list(set: &RunSet, ledger: &Coverage, warnings: &mut Vec<CoverageWarning>) {
    let conflicts = set.task_list_conflicts();
    if conflicts.count == 0 {
        return;
    }
    let mut named: Vec<&str> = conflicts
        .examples
        .iter()
        .take(LISTED_TASKS)
        .map(String::as_str)
        .collect();
    let more = conflicts.examples.len() > LISTED_TASKS;
    if more {
        named.push("…");
    }
    warnings.push(CoverageWarning::new(
        "TASK_LIST_CONFLICTS",
        ledger.runs.iter().map(|run| run.run).collect(),
        format!(
            "{} {} a task id with another split or categories ({}); each task keeps its \
             first listing.",
            conflicts.count,
            noun(
                conflicts.count,
                "task listing repeats",
                "task listings repeat"
            ),
            named.join(", ")
        ),
    ));
}

/// Task and category labels cut for their size when the set was built.
fn cut_labels(set: &RunSet, ledger: &Coverage, warnings: &mut Vec<CoverageWarning>) {
    let cut = set.cut_labels();
    if cut.count == 0 {
        return;
    }
    let mut named: Vec<String> = cut
        .examples
        .iter()
        .map(|text| format!("the {} ({})", text.field, byte_size(text.bytes)))
        .collect();
    let listed = named.len() as u64;
    if cut.count > listed {
        named.push(format!("{} more", cut.count - listed));
    }
    warnings.push(CoverageWarning::new(
        "TEXT_CUT",
        ledger.runs.iter().map(|run| run.run).collect(),
        format!(
            "{} {} over the {} any shown name or label may hold and cut to that: {}.",
            cut.count,
            noun(cut.count, "label was", "labels were"),
            byte_size(MAX_SHOWN_FIELD_BYTES as u64),
            named.join(", ")
        ),
    ));
}

/// The first repeated trajectory ids with another reward, e.g. `t1 in trajectory-rewards
/// (1 kept, 0 ignored)`.
fn duplicate_examples(join: &JoinReport) -> String {
    let reward = |value: Option<f64>| value.map_or_else(|| "none".to_owned(), |v| v.to_string());
    let mut parts: Vec<String> = join
        .conflicting_duplicate_examples
        .iter()
        .take(LISTED_DUPLICATES)
        .map(|example| {
            format!(
                "{} in {} ({} kept, {} ignored)",
                example.trajectory_id,
                example.listing,
                reward(example.kept),
                reward(example.ignored)
            )
        })
        .collect();
    let listed = parts.len() as u64;
    if join.conflicting_duplicates > listed {
        parts.push(format!("{} more", join.conflicting_duplicates - listed));
    }
    parts.join(", ")
}

/// Cut-off trajectories whose published reward is above 0 (scanned only when there are any).
fn positive_cut_offs(set: &RunSet, run: &RunCoverage) -> u64 {
    if run.samples.cut_off == 0 {
        return 0;
    }
    set.run(run.run).map_or(0, |stored| {
        stored
            .trajectories()
            .filter(|t| t.class == OutcomeClass::CutOff)
            .filter(|t| t.reward_state().valid().is_some_and(|reward| reward > 0.0))
            .count() as u64
    })
}

fn unknown_endings(set: &RunSet, run: RunIdx) -> String {
    let mut counts: BTreeMap<&str, u64> = BTreeMap::new();
    if let Ok(stored) = set.run(run) {
        for trajectory in stored.trajectories() {
            if trajectory.class == OutcomeClass::Other {
                *counts
                    .entry(trajectory.ending.unwrap_or("no ending recorded"))
                    .or_default() += 1;
            }
        }
    }
    let mut listed: Vec<(&str, u64)> = counts.into_iter().collect();
    listed.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    let mut parts: Vec<String> = listed
        .iter()
        .take(LISTED_ENDINGS)
        .map(|(name, count)| format!("{name} ×{count}"))
        .collect();
    if listed.len() > LISTED_ENDINGS {
        parts.push(format!("{} more", listed.len() - LISTED_ENDINGS));
    }
    parts.join(", ")
}

fn per_pair(pair: &PairCoverage, base: &str, cand: &str, warnings: &mut Vec<CoverageWarning>) {
    let runs = vec![pair.baseline, pair.candidate];
    if pair.paired == 0 {
        warnings.push(CoverageWarning::new(
            "NO_PAIRED_TASKS",
            runs.clone(),
            format!("{cand} and {base} share no task scored on both sides: nothing to compare."),
        ));
    }
    let rates = &pair.failure_rates;
    if rates.flagged {
        if let (Some(base_rate), Some(cand_rate)) = (rates.base_rate, rates.cand_rate) {
            warnings.push(CoverageWarning::new(
                "FAILURE_RATES_DIFFER",
                runs.clone(),
                format!(
                    "Trajectories left unscored: {base} {} ({}/{}), {cand} {} ({}/{}) — \
                     a paired mean hides what the runs failed to finish.",
                    percent(base_rate),
                    rates.base_unscored,
                    rates.base_total,
                    percent(cand_rate),
                    rates.cand_unscored,
                    rates.cand_total
                ),
            ));
        }
    }
    missingness(&pair.missing_from_candidate, cand, base, &runs, warnings);
    missingness(&pair.missing_from_baseline, base, cand, &runs, warnings);
}

fn missingness(
    check: &MissingnessCheck,
    lost_by: &str,
    scored_by: &str,
    runs: &[RunIdx],
    warnings: &mut Vec<CoverageWarning>,
) {
    if !check.flagged {
        return;
    }
    if let (Some(excluded), Some(paired)) = (check.excluded_mean, check.paired_mean) {
        let direction = if excluded < paired {
            "harder"
        } else {
            "easier"
        };
        warnings.push(CoverageWarning::new(
            "INFORMATIVE_MISSINGNESS",
            runs.to_vec(),
            format!(
                "The {} tasks {lost_by} did not score had a {scored_by} mean of {excluded:.3} \
                 vs {paired:.3} on the {} paired tasks: the missing tasks look {direction}, \
                 so the paired comparison may be biased.",
                check.excluded_tasks, check.paired_tasks
            ),
        ));
    }
}

fn percent(rate: f64) -> String {
    format!("{:.1}%", rate * 100.0)
}
