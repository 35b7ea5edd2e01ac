//! The coverage ledger's sentences: how many tasks the union holds, what the task columns
//! count, each candidate's pairing, a run not read completely.

use crate::coverage::{Coverage, PairCoverage};
use crate::text::{count, plural};

use super::super::Report;

/// How many tasks the union holds, and the benchmark's list when one was loaded: "1,310 tasks
/// attempted by at least one run; the benchmark lists 1,400 tasks."
pub fn union_line(coverage: &Coverage) -> String {
    let tasks = |n: u64| plural(n, "task", "tasks");
    let listed = if coverage.listed_tasks > 0 {
        format!("; the benchmark lists {}", tasks(coverage.listed_tasks))
    } else {
        String::new()
    };
    format!(
        "{} attempted by at least one run{listed}.",
        tasks(coverage.union_tasks)
    )
}

/// Under the table of tasks by class, what its task columns count.
pub const TASK_COLUMNS_NOTE: &str =
    "Task columns count tasks with at least one trajectory of that class.";

/// A candidate's pairing with the baseline, after its name: "12,345 paired of 12,400 in the
/// union; 40 only in the baseline, 15 only in the candidate."
pub fn pairing_line(pair: &PairCoverage) -> String {
    format!(
        "{} paired of {} in the union; {} only in the baseline, {} only in the candidate.",
        count(pair.paired),
        count(pair.union),
        count(pair.only_in_baseline.len() as u64),
        count(pair.only_in_candidate.len() as u64)
    )
}

/// Each candidate's pairing line after its name (whole: the renderer cuts it to size), in the
/// ledger's order.
pub fn pairings(report: &Report) -> Vec<(&str, String)> {
    report
        .coverage
        .comparisons
        .iter()
        .map(|pair| {
            let name = report
                .runs
                .iter()
                .find(|run| run.index == pair.candidate)
                .map_or("candidate", |run| run.name.as_str());
            (name, pairing_line(pair))
        })
        .collect()
}

/// One line per compared run whose load stopped early, its id quoted: "Incomplete load of
/// `er_1`: page 3 failed".
pub fn incomplete_loads(report: &Report) -> Vec<String> {
    report
        .runs
        .iter()
        .filter_map(|run| {
            let why = run.incomplete_load.as_deref()?;
            Some(format!("Incomplete load of `{}`: {why}", run.id))
        })
        .collect()
}
