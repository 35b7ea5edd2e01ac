//! The coverage ledger: what each run attempted, scored and lost, and where the gaps could bias
//! a comparison. Read it before believing a mean.

mod checks;
mod warning_groups;
mod warnings;

use serde::{Deserialize, Serialize};

use crate::ledger::SetAside;
use crate::model::{
    ClassCounts, JoinReport, ModelError, OutcomeClass, RunIdx, RunSet, SideCoverage, TaskIdx,
};

pub use checks::{
    FailureRateCheck, MissingnessCheck, Side, MIN_MEAN_DIFFERENCE, MIN_RATE_DIFFERENCE, Z_CRITICAL,
};
pub use warning_groups::{group_warnings, rank_of, WarningGroup};
pub use warnings::CoverageWarning;

/// Coverage of a baseline and its candidates.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Coverage {
    /// Per run, the baseline first, then the candidates in the order given.
    pub runs: Vec<RunCoverage>,
    /// Tasks attempted by at least one of these runs.
    pub union_tasks: u64,
    /// Tasks in the benchmark task list, when one was loaded (0 otherwise).
    pub listed_tasks: u64,
    /// Each candidate against the baseline.
    pub comparisons: Vec<PairCoverage>,
    /// Tasks of the union that some run did not score, with every run's state on them
    /// (aligned with `runs`).
    pub partial_tasks: Vec<PartialTask>,
    /// What a reader must know before believing the numbers.
    pub warnings: Vec<CoverageWarning>,
}

/// What one run attempted, scored and lost.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunCoverage {
    /// The run.
    pub run: RunIdx,
    /// Its identifier.
    pub run_id: String,
    /// Its display name.
    pub name: String,
    /// Tasks selected at launch (`task_selection.selected_task_count`), when recorded.
    pub tasks_selected: Option<u64>,
    /// Tasks with at least one trajectory.
    pub tasks_attempted: u64,
    /// Tasks with at least one sample in the primary analysis.
    pub tasks_scored: u64,
    /// Tasks with at least one trajectory of each class (a task can count in several).
    pub tasks_by_class: ClassCounts,
    /// Tasks of the union this run has no trajectory on.
    pub tasks_absent: u64,
    /// Trajectories by class.
    pub samples: ClassCounts,
    /// Trajectories loaded.
    pub samples_total: u64,
    /// Trajectories with a value in the primary analysis.
    pub samples_valid: u64,
    /// Rollouts planned at launch, when recorded.
    pub samples_expected: Option<u64>,
    /// Rewards that were NaN, infinite or outside [0, 1] (excluded).
    pub invalid_rewards: u64,
    /// Cut-off trajectories without a reward, scored 0 by the platform rule.
    pub zero_by_platform_rule: u64,
    /// Model endings without a reward, scored 0.
    pub zero_without_grade: u64,
    /// Trajectories without a task (counted, never paired).
    pub without_task: u64,
    /// What joining rewards with metadata found, for API and file sources.
    pub join: Option<JoinReport>,
    /// What is missing when loading stopped early.
    pub incomplete_load: Option<String>,
    /// Tasks the reviewer's ledger set aside in this run, by reason, when the report has a
    /// ledger (absent from the JSON otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub set_aside: Option<SetAside>,
}

/// Coverage of one candidate against the baseline.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PairCoverage {
    /// The baseline.
    pub baseline: RunIdx,
    /// The candidate.
    pub candidate: RunIdx,
    /// Tasks in the primary paired analysis (scored on both sides).
    pub paired: u64,
    /// Tasks attempted by either (the sensitivity analysis' n).
    pub union: u64,
    /// Tasks only the baseline attempted.
    pub only_in_baseline: Vec<TaskIdx>,
    /// Tasks only the candidate attempted.
    pub only_in_candidate: Vec<TaskIdx>,
    /// Tasks the baseline attempted without any included sample.
    pub unscored_in_baseline: u64,
    /// Tasks the candidate attempted without any included sample.
    pub unscored_in_candidate: u64,
    /// Do the runs lose trajectories at different rates?
    pub failure_rates: FailureRateCheck,
    /// Tasks lost by the candidate, scored by the baseline: baseline mean there vs paired.
    pub missing_from_candidate: MissingnessCheck,
    /// Tasks lost by the baseline, scored by the candidate: candidate mean there vs paired.
    pub missing_from_baseline: MissingnessCheck,
}

/// A task some run did not score.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PartialTask {
    /// The task.
    pub task: TaskIdx,
    /// Each run's state on it, aligned with [`Coverage::runs`].
    pub per_run: Vec<SideCoverage>,
}

/// Builds the coverage ledger of `baseline` and `candidates`.
pub fn coverage(
    set: &RunSet,
    baseline: RunIdx,
    candidates: &[RunIdx],
) -> Result<Coverage, ModelError> {
    let mut members = vec![baseline];
    members.extend(candidates.iter().copied().filter(|&run| run != baseline));
    let runs = members
        .iter()
        .map(|&run| set.run(run))
        .collect::<Result<Vec<_>, _>>()?;
    let task_count = set.tasks().len();
    let mut union_tasks = 0u64;
    let mut partial_tasks = Vec::new();
    for task in 0..task_count {
        let states: Vec<SideCoverage> = runs
            .iter()
            .map(|run| side_of(run.stats_of(task as TaskIdx)))
            .collect();
        if states
            .iter()
            .all(|state| matches!(state, SideCoverage::Absent))
        {
            continue;
        }
        union_tasks += 1;
        if !states
            .iter()
            .all(|state| matches!(state, SideCoverage::Scored { .. }))
        {
            partial_tasks.push(PartialTask {
                task: task as TaskIdx,
                per_run: states,
            });
        }
    }
    let run_coverages: Vec<RunCoverage> = members
        .iter()
        .zip(&runs)
        .map(|(&index, run)| run_coverage(index, run, union_tasks))
        .collect();
    let comparisons = members
        .iter()
        .skip(1)
        .map(|&candidate| pair_coverage(set, baseline, candidate))
        .collect::<Result<Vec<_>, _>>()?;
    let listed_tasks = set.tasks().iter().filter(|task| task.listed).count() as u64;
    let mut ledger = Coverage {
        runs: run_coverages,
        union_tasks,
        listed_tasks,
        comparisons,
        partial_tasks,
        warnings: Vec::new(),
    };
    ledger.warnings = warnings::collect(set, &ledger);
    Ok(ledger)
}

fn side_of(stats: Option<&crate::model::TaskStats>) -> SideCoverage {
    stats.map_or(SideCoverage::Absent, SideCoverage::of)
}

fn run_coverage(index: RunIdx, run: &crate::model::Run, union_tasks: u64) -> RunCoverage {
    let totals = run.totals();
    let mut tasks_by_class = ClassCounts::default();
    for stats in run.task_stats() {
        for class in OutcomeClass::ALL {
            if stats.by_class.get(class) > 0 {
                tasks_by_class.add(class, 1);
            }
        }
    }
    let info = run.info();
    RunCoverage {
        run: index,
        run_id: info.id.clone(),
        name: info.name().to_owned(),
        tasks_selected: info
            .task_selection
            .as_ref()
            .map(|selection| selection.selected),
        tasks_attempted: totals.tasks_attempted,
        tasks_scored: totals.tasks_scored,
        tasks_by_class,
        tasks_absent: union_tasks.saturating_sub(totals.tasks_attempted),
        samples: totals.by_class,
        samples_total: totals.trajectories,
        samples_valid: totals.included,
        samples_expected: info.total_rollouts,
        invalid_rewards: totals.invalid_rewards,
        zero_by_platform_rule: totals.zero_by_platform_rule,
        zero_without_grade: totals.zero_without_grade,
        without_task: totals.without_task,
        join: run.join().cloned(),
        set_aside: None,
        incomplete_load: info.incomplete_load.clone(),
    }
}

fn pair_coverage(
    set: &RunSet,
    baseline: RunIdx,
    candidate: RunIdx,
) -> Result<PairCoverage, ModelError> {
    let base = set.run(baseline)?;
    let cand = set.run(candidate)?;
    let mut pair = PairCoverage {
        baseline,
        candidate,
        paired: 0,
        union: 0,
        only_in_baseline: Vec::new(),
        only_in_candidate: Vec::new(),
        unscored_in_baseline: 0,
        unscored_in_candidate: 0,
        failure_rates: FailureRateCheck::new(
            base.totals().trajectories - base.totals().included,
            base.totals().trajectories,
            cand.totals().trajectories - cand.totals().included,
            cand.totals().trajectories,
        ),
        missing_from_candidate: MissingnessCheck::new(Side::Candidate, &[], &[]),
        missing_from_baseline: MissingnessCheck::new(Side::Baseline, &[], &[]),
    };
    let mut base_on_paired = Vec::new();
    let mut cand_on_paired = Vec::new();
    let mut base_where_cand_lost = Vec::new();
    let mut cand_where_base_lost = Vec::new();
    for (index, (b, c)) in base.task_stats().iter().zip(cand.task_stats()).enumerate() {
        let task = index as TaskIdx;
        let (b_samples, c_samples) = (b.samples(), c.samples());
        if b_samples == 0 && c_samples == 0 {
            continue;
        }
        pair.union += 1;
        if c_samples == 0 {
            pair.only_in_baseline.push(task);
        }
        if b_samples == 0 {
            pair.only_in_candidate.push(task);
        }
        if b_samples > 0 && b.primary.count() == 0 {
            pair.unscored_in_baseline += 1;
        }
        if c_samples > 0 && c.primary.count() == 0 {
            pair.unscored_in_candidate += 1;
        }
        match (b.primary.mean(), c.primary.mean()) {
            (Some(b_mean), Some(c_mean)) => {
                pair.paired += 1;
                base_on_paired.push(b_mean);
                cand_on_paired.push(c_mean);
            }
            (Some(b_mean), None) => base_where_cand_lost.push(b_mean),
            (None, Some(c_mean)) => cand_where_base_lost.push(c_mean),
            (None, None) => {}
        }
    }
    pair.missing_from_candidate =
        MissingnessCheck::new(Side::Candidate, &base_where_cand_lost, &base_on_paired);
    pair.missing_from_baseline =
        MissingnessCheck::new(Side::Baseline, &cand_where_base_lost, &cand_on_paired);
    Ok(pair)
}
