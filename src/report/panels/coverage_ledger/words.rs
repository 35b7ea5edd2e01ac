//! The ledger's sentences, made from the core's coverage figures: plain functions, tested
//! natively.

use eval_compare_core::coverage::{
    Coverage, FailureRateCheck, MissingnessCheck, PairCoverage, RunCoverage, Side,
};
use eval_compare_core::model::{OutcomeClass, RunIdx};
use eval_compare_core::report::{pairing_line, ExclusionReason, Report, RunSummary, TaskCell};
use eval_compare_core::text::{shorten, SHOWN_NAME_CHARS};

use crate::components::stat_text::{count, mean, plural};

/// The name the report gives a run of the loaded set.
pub fn run_name(report: &Report, run: RunIdx) -> String {
    report
        .runs
        .iter()
        .find(|summary| summary.index == run)
        .map_or_else(
            || format!("run {}", run.0),
            |summary| shorten(&summary.name, SHOWN_NAME_CHARS).into_owned(),
        )
}

/// Each run's coverage with its name, in the report's order (baseline first).
pub fn named_runs(report: &Report) -> Vec<(RunCoverage, String)> {
    report
        .coverage
        .runs
        .iter()
        .map(|run| (run.clone(), run_name(report, run.run)))
        .collect()
}

/// How many tasks the union holds, and the benchmark's list when one was loaded.
pub fn union_summary(coverage: &Coverage) -> String {
    let listed = if coverage.listed_tasks > 0 {
        format!(
            "; the benchmark lists {}",
            plural(coverage.listed_tasks, "task", "tasks")
        )
    } else {
        String::new()
    };
    format!(
        "{} attempted by at least one run{listed}.",
        plural(coverage.union_tasks, "task", "tasks")
    )
}

/// A candidate's pairing after its name: paired of the union, and the tasks only one side has.
pub fn pair_headline(pair: &PairCoverage) -> String {
    format!(": {}", pairing_line(pair))
}

/// The trajectories each side left out, and whether the rates differ enough to bias Δ.
pub fn failure_line(rates: &FailureRateCheck) -> String {
    let percent =
        |rate: Option<f64>| rate.map_or_else(|| "—".to_owned(), |r| format!("{:.1}%", r * 100.0));
    format!(
        "Trajectories left out: baseline {} ({} of {}), candidate {} ({} of {}){}.",
        percent(rates.base_rate),
        count(rates.base_unscored),
        count(rates.base_total),
        percent(rates.cand_rate),
        count(rates.cand_unscored),
        count(rates.cand_total),
        rates.z.map(|z| format!(", z = {z:.2}")).unwrap_or_default()
    ) + if rates.flagged {
        " The runs lose trajectories at different rates: Δ may be biased."
    } else {
        ""
    }
}

/// A missingness check in words, and whether it is flagged.
pub fn missingness_line(check: &MissingnessCheck) -> (String, bool) {
    let (lost_by, other) = match check.excluded_from {
        Side::Candidate => ("the candidate", "baseline"),
        Side::Baseline => ("the baseline", "candidate"),
    };
    let means = match (check.excluded_mean, check.paired_mean) {
        (Some(excluded), Some(paired)) => format!(
            ": the {other} scores {} there against {} on the paired tasks",
            mean(excluded),
            mean(paired)
        ),
        _ => String::new(),
    };
    let z = check
        .z
        .map(|z| format!(" (z = {z:.2})"))
        .unwrap_or_default();
    let text = format!(
        "{} lost by {lost_by}{means}{z}{}",
        plural(check.excluded_tasks, "task", "tasks"),
        if check.flagged {
            "; the lost tasks differ, so Δ may be biased"
        } else {
            ""
        }
    );
    (text, check.flagged)
}

/// A task of the union that a candidate does not pair with the baseline.
#[derive(Debug, Clone, PartialEq)]
pub struct UnpairedTask {
    /// Task id.
    pub task_id: String,
    /// Human label, when known.
    pub label: Option<String>,
    /// The baseline's state on it.
    pub baseline: String,
    /// The candidate's state on it.
    pub candidate: String,
}

/// The tasks candidate `slot` (its position among the candidates) attempted with the baseline
/// in the union but does not pair: one side has no included sample. From the report's rows.
pub fn unpaired_tasks(report: &Report, slot: usize) -> Vec<UnpairedTask> {
    // What the baseline and this candidate are on a task they have no trajectory on.
    let missing = |run: Option<&RunSummary>| {
        run.map_or("absent", |run| {
            ExclusionReason::missing_side_word(run.status.as_deref(), run.incomplete_load.is_some())
        })
    };
    let base_missing = missing(report.baseline());
    let cand_missing = missing(
        report
            .candidates
            .get(slot)
            .and_then(|candidate| report.run_of(candidate)),
    );
    report
        .tasks
        .iter()
        .filter_map(|row| {
            let delta = row.deltas.get(slot)?;
            let base = row.cells.first()?;
            let cand = row.cells.get(slot + 1)?;
            (delta.is_none() && (base.samples > 0 || cand.samples > 0)).then(|| UnpairedTask {
                task_id: row.task_id.clone(),
                label: row.label.clone(),
                baseline: side_state(base, base_missing),
                candidate: side_state(cand, cand_missing),
            })
        })
        .collect()
}

/// What one run did on a task, in words; `missing` when it has no trajectory there ("absent",
/// "not yet attempted" while it runs, "not read yet" while its load is incomplete).
pub fn side_state(cell: &TaskCell, missing: &str) -> String {
    if cell.samples == 0 {
        return missing.to_owned();
    }
    match cell.mean {
        Some(value) => format!(
            "scored {} ({} of {} included)",
            mean(value),
            cell.included,
            cell.samples
        ),
        None => {
            let lost: Vec<String> = OutcomeClass::ALL
                .into_iter()
                .map(|class| (class, cell.classes.get(class)))
                .filter(|(_, n)| *n > 0)
                .map(|(class, n)| format!("{n} {}", class.label()))
                .collect();
            format!("nothing included ({})", lost.join(", "))
        }
    }
}

/// A cell of the table's failed, unfinished and cancelled columns: the run's trajectories of
/// that class and how many tasks they touch (the tasks are what the CLI's ledger counts).
pub fn left_out_cell(trajectories: u64, tasks: u64) -> String {
    if trajectories == 0 {
        "0".to_owned()
    } else {
        format!(
            "{} on {}",
            count(trajectories),
            plural(tasks, "task", "tasks")
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::table::cells::never_run_cell;
    use eval_compare_core::model::ClassCounts;

    fn coverage(union_tasks: u64, listed_tasks: u64) -> Coverage {
        Coverage {
            runs: Vec::new(),
            union_tasks,
            listed_tasks,
            comparisons: Vec::new(),
            partial_tasks: Vec::new(),
            warnings: Vec::new(),
        }
    }

    #[test]
    fn a_left_out_cell_counts_trajectories_and_their_tasks() {
        assert_eq!(left_out_cell(0, 0), "0");
        assert_eq!(left_out_cell(1, 1), "1 on 1 task");
        assert_eq!(left_out_cell(1_250, 403), "1,250 on 403 tasks");
    }

    #[test]
    fn the_summary_names_the_union_and_the_benchmark_list_when_loaded() {
        assert_eq!(
            union_summary(&coverage(1, 0)),
            "1 task attempted by at least one run."
        );
        assert_eq!(
            union_summary(&coverage(1_200, 1_500)),
            "1,200 tasks attempted by at least one run; the benchmark lists 1,500 tasks."
        );
    }

    #[test]
    fn the_pair_headline_counts_paired_and_one_sided_tasks() {
        let pair = PairCoverage {
            baseline: RunIdx(0),
            candidate: RunIdx(1),
            paired: 4,
            union: 7,
            only_in_baseline: vec![5, 6],
            only_in_candidate: vec![4],
            unscored_in_baseline: 0,
            unscored_in_candidate: 0,
            failure_rates: FailureRateCheck::new(0, 4, 0, 4),
            missing_from_candidate: MissingnessCheck::new(Side::Candidate, &[], &[]),
            missing_from_baseline: MissingnessCheck::new(Side::Baseline, &[], &[]),
        };
        assert_eq!(
            pair_headline(&pair),
            ": 4 paired of 7 in the union; 2 only in the baseline, 1 only in the candidate."
        );
    }

    #[test]
    fn the_failure_line_gives_both_rates_and_warns_when_they_differ() {
        let even = FailureRateCheck::new(1, 10, 1, 10);
        assert_eq!(
            failure_line(&even),
            "Trajectories left out: baseline 10.0% (1 of 10), candidate 10.0% (1 of 10), z = 0.00."
        );
        let none = FailureRateCheck::new(0, 0, 0, 0);
        assert_eq!(
            failure_line(&none),
            "Trajectories left out: baseline — (0 of 0), candidate — (0 of 0)."
        );
        let lopsided = FailureRateCheck::new(0, 100, 60, 100);
        assert!(lopsided.flagged);
        assert!(failure_line(&lopsided)
            .ends_with(" The runs lose trajectories at different rates: Δ may be biased."));
    }

    #[test]
    fn a_missingness_check_names_the_side_and_the_means() {
        let check = MissingnessCheck::new(Side::Candidate, &[0.1, 0.2], &[0.8, 0.9, 0.85]);
        let (text, flagged) = missingness_line(&check);
        assert!(
            text.starts_with(
                "2 tasks lost by the candidate: the baseline scores 0.150 there against 0.850 on \
                 the paired tasks (z = "
            ),
            "{text}"
        );
        assert_eq!(flagged, check.flagged);
        assert_eq!(
            text.ends_with("; the lost tasks differ, so Δ may be biased"),
            flagged
        );
        let (text, _) = missingness_line(&MissingnessCheck::new(Side::Baseline, &[0.5], &[]));
        assert_eq!(text, "1 task lost by the baseline");
    }

    #[test]
    fn a_side_is_absent_scored_or_says_what_it_lost() {
        let absent = never_run_cell();
        assert_eq!(side_state(&absent, "absent"), "absent");
        assert_eq!(
            side_state(&absent, "not yet attempted"),
            "not yet attempted"
        );
        let scored = TaskCell {
            mean: Some(0.5),
            included: 2,
            samples: 3,
            ..absent.clone()
        };
        assert_eq!(
            side_state(&scored, "absent"),
            "scored 0.500 (2 of 3 included)"
        );
        let lost = TaskCell {
            samples: 3,
            classes: ClassCounts {
                failed: 2,
                cancelled: 1,
                ..ClassCounts::default()
            },
            ..absent
        };
        assert_eq!(
            side_state(&lost, "absent"),
            "nothing included (2 failed, 1 cancelled)"
        );
    }
}
