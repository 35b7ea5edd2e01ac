//! The scorecard of a training run: one row per benchmark version its checkpoints were
//! evaluated on, one column per checkpoint step, each cell exactly the paired comparison of
//! that checkpoint's evaluation against the row's baseline (the report of the two runs, by
//! [`build_report`], with the scorecard's settings), and per column the answer of a decision
//! rule (primary benchmarks better, guardrails not worse by more than a margin) with a
//! family-wise correction, and a recommended checkpoint only when one meets the rule.
//!
//! From listed runs to a scorecard: [`ListedRun`]s → [`plan_scorecard`] (rows and their
//! baselines, columns, the evaluation of each cell; [`ScorecardPlan::run_ids`] is every run to
//! load, once) → for each [`PlannedPair`] a run set of the two runs (baseline first) and its
//! report ([`pair_report`]) → [`ScorecardBuild`] (cells added one at a time, so a page can
//! build one cell per step) → [`Scorecard`] (rows, cells, the rule's answer per column), which
//! [`Scorecard::with_rule`] decides again under another rule without recomputing a cell.
//! From run folders (the CLI's `--folders`, the viewer's Files page), [`ScorecardFolders`]
//! lists the runs, offers each training run, plans one and gives each pair's folders.
//! Renderers: `json` (each cell's `primary`, `verdict` and `coverage` the pair report's own
//! values), `markdown`, `html` (one file, no script, the Δ-by-step chart); their shared
//! sentences in `words`.

mod baseline;
mod cell;
mod chart;
mod folders;
mod html;
mod json;
mod keep;
mod link;
mod markdown;
mod plan;
mod rows;
mod rule;
mod source;
pub mod words;

pub use baseline::{choose_baseline, settings_differ, BaselineChoice, Skipped};
pub use cell::{CellState, Comparison};
pub use chart::{delta_by_step, SERIES_CSS, TITLE as CHART_TITLE};
pub use folders::{FolderOffer, FoldersError, ScorecardFolders, FOLDERS_SCORECARD_PAGE_PATH};
pub use keep::unchanged;
pub use link::{
    baselines_by_hand, scorecard_address, scorecard_address_on, settings_of, SCORECARD_PAGE_PATH,
};
pub use plan::{
    plan_scorecard, CellPlan, OtherEvaluation, PlannedPair, PreviousPair, RowPlan, ScorecardPlan,
};
pub use rows::RowSummary;
pub use rule::{
    decide_column, facts_of, CellFacts, ColumnDecision, Correction, FamilyMember, Guardrail,
    Outcome, Role, Rule,
};
pub use source::ListedRun;

use serde::{Deserialize, Serialize};

use crate::model::{RunIdx, RunSet};
use crate::report::{build_report, Report, ReportError, ReportSettings};

/// Version of the scorecard's JSON shape; bumped on any incompatible change.
pub const SCORECARD_FORMAT_VERSION: u32 = 1;

/// One cell of a scorecard.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScorecardCell {
    /// The row's benchmark version.
    pub bench_id: String,
    /// The column's checkpoint step.
    pub step: i64,
    /// The row's baseline.
    pub baseline_run_id: Option<String>,
    /// The evaluation compared.
    pub candidate_run_id: Option<String>,
    /// Other evaluations of the same checkpoint on this benchmark, named.
    pub others: Vec<OtherEvaluation>,
    /// What stands in it.
    pub state: CellState,
    /// The same checkpoint against the previous evaluated step on this benchmark (none for
    /// the first).
    pub versus_previous: Option<VersusPrevious>,
}

/// A cell's checkpoint against the previous evaluated step: the report of those two runs, the
/// earlier as its baseline (issue 36 §3: "choose step 500 over step 400" in one look).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VersusPrevious {
    /// The earlier step.
    pub step: i64,
    /// Its evaluation.
    pub run_id: String,
    /// The comparison.
    pub state: CellState,
}

/// The checkpoint recommended, and why.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Recommendation {
    /// Its step.
    pub step: i64,
    /// Why, one sentence ([`words::recommended_text`]).
    pub reason: String,
}

/// The whole scorecard.
#[derive(Debug, Clone, PartialEq)]
pub struct Scorecard {
    /// The training run.
    pub training_run_id: String,
    /// The settings every cell's report was computed with.
    pub settings: ReportSettings,
    /// The decision rule.
    pub rule: Rule,
    /// The checkpoint steps, ascending.
    pub steps: Vec<i64>,
    /// One per benchmark version.
    pub rows: Vec<RowSummary>,
    /// Row-major cells: `cells[row * steps.len() + column]`.
    pub cells: Vec<ScorecardCell>,
    /// The rule's answer per step.
    pub columns: Vec<ColumnDecision>,
    /// The recommended checkpoint, only when one meets the rule.
    pub recommended: Option<Recommendation>,
}

/// The report of a cell's two runs: `set` holds the baseline first, then the candidate (as
/// `eval-compare report BASELINE CANDIDATE` reads them).
pub fn pair_report(set: &RunSet, settings: &ReportSettings) -> Result<Report, ReportError> {
    build_report(set, RunIdx(0), &[RunIdx(1)], settings)
}

/// A scorecard built a cell at a time: [`Self::next_pair`] names the next comparison to make,
/// [`Self::add_report`] takes its report; [`Self::scorecard`] gives the scorecard as it
/// stands at any point (cells not made yet hold [`CellState::Pending`]).
#[derive(Debug, Clone)]
pub struct ScorecardBuild {
    plan: ScorecardPlan,
    settings: ReportSettings,
    pairs: Vec<PlannedPair>,
    states: Vec<CellState>,
    previous: Vec<PreviousPair>,
    previous_states: Vec<CellState>,
}

impl ScorecardBuild {
    /// The build of `plan`'s cells with `settings`.
    pub fn new(plan: ScorecardPlan, settings: ReportSettings) -> Self {
        let pairs = plan.pairs();
        let states = plan
            .cells
            .iter()
            .enumerate()
            .map(|(index, cell)| {
                if cell.candidate.is_none() {
                    CellState::Missing
                } else if pairs.iter().any(|pair| pair.cell == index) {
                    CellState::Pending
                } else {
                    CellState::NoBaseline
                }
            })
            .collect();
        let previous = plan.previous_pairs();
        let previous_states = vec![CellState::Pending; previous.len()];
        ScorecardBuild {
            plan,
            settings,
            pairs,
            states,
            previous,
            previous_states,
        }
    }

    /// The plan.
    pub fn plan(&self) -> &ScorecardPlan {
        &self.plan
    }

    /// The settings of every cell's report.
    pub fn settings(&self) -> &ReportSettings {
        &self.settings
    }

    /// Every comparison to make, in row order.
    pub fn pairs(&self) -> &[PlannedPair] {
        &self.pairs
    }

    /// The next comparison still to make.
    pub fn next_pair(&self) -> Option<&PlannedPair> {
        self.pairs
            .iter()
            .find(|pair| matches!(self.states[pair.cell], CellState::Pending))
    }

    /// Each checkpoint against the previous step's, in row order.
    pub fn previous_pairs(&self) -> &[PreviousPair] {
        &self.previous
    }

    /// The next comparison with a previous step still to make, and its index in
    /// [`Self::previous_pairs`] (the rule does not read them: a page may make them last).
    pub fn next_previous_pair(&self) -> Option<(usize, &PreviousPair)> {
        self.previous_states
            .iter()
            .position(|state| matches!(state, CellState::Pending))
            .map(|index| (index, &self.previous[index]))
    }

    /// Comparisons made (or failed), against the baselines and the previous steps, and how
    /// many there are.
    pub fn progress(&self) -> (usize, usize) {
        let done = self
            .pairs
            .iter()
            .filter(|pair| !matches!(self.states[pair.cell], CellState::Pending))
            .count()
            + self
                .previous_states
                .iter()
                .filter(|state| !matches!(state, CellState::Pending))
                .count();
        (done, self.pairs.len() + self.previous.len())
    }

    /// Takes the report of previous pair `index` (see [`Self::next_previous_pair`]).
    pub fn add_previous_report(&mut self, index: usize, report: Result<&Report, String>) {
        if let Some(state) = self.previous_states.get_mut(index) {
            *state = state_of(report);
        }
    }

    /// Takes the report of cell `cell`'s pair (or why it could not be made).
    pub fn add_report(&mut self, cell: usize, report: Result<&Report, String>) {
        let Some(state) = self.states.get_mut(cell) else {
            return;
        };
        *state = state_of(report);
    }

    /// The scorecard as it stands, decided under `rule`.
    pub fn scorecard(&self, rule: &Rule) -> Scorecard {
        let cells: Vec<ScorecardCell> = self
            .plan
            .cells
            .iter()
            .zip(&self.states)
            .enumerate()
            .map(|(index, (cell, state))| ScorecardCell {
                bench_id: cell.bench_id.clone(),
                step: cell.step,
                baseline_run_id: self
                    .plan
                    .rows
                    .get(index / self.plan.steps.len().max(1))
                    .and_then(|row| row.baseline.run_id.clone()),
                candidate_run_id: cell.candidate.clone(),
                others: cell.others.clone(),
                state: state.clone(),
                versus_previous: self
                    .previous
                    .iter()
                    .zip(&self.previous_states)
                    .find(|(previous, _)| previous.pair.cell == index)
                    .map(|(previous, state)| VersusPrevious {
                        step: previous.previous_step,
                        run_id: previous.pair.baseline.clone(),
                        state: state.clone(),
                    }),
            })
            .collect();
        let width = self.plan.steps.len().max(1);
        let rows = self
            .plan
            .rows
            .iter()
            .enumerate()
            .map(|(r, row)| {
                let of_row: Vec<&ScorecardCell> = cells
                    .iter()
                    .skip(r * width)
                    .take(self.plan.steps.len())
                    .collect();
                rows::summarize_row(&row.baseline, &row.bench_id, &of_row)
            })
            .collect();
        let mut scorecard = Scorecard {
            training_run_id: self.plan.training_run_id.clone(),
            settings: self.settings.clone(),
            rule: Rule::default(),
            steps: self.plan.steps.clone(),
            rows,
            cells,
            columns: Vec::new(),
            recommended: None,
        };
        scorecard.decide(rule);
        scorecard
    }
}

/// A cell's state from its pair's report (or why it could not be made).
fn state_of(report: Result<&Report, String>) -> CellState {
    match report {
        Ok(report) => match Comparison::of_report(report) {
            Some(comparison) => CellState::Compared {
                comparison: Box::new(comparison),
            },
            None => CellState::Failed {
                error: "the report holds no candidate".to_owned(),
            },
        },
        Err(error) => CellState::Failed { error },
    }
}

/// The scorecard of `plan` under `rule`: each pair's run set made by `pair_set` (baseline id,
/// candidate id; baseline first, one after another, as a store or folders can give them) and
/// the reports built with `settings` on every core, as many pairs at a time as there are cores.
pub fn build_scorecard(
    plan: ScorecardPlan,
    settings: &ReportSettings,
    rule: &Rule,
    mut pair_set: impl FnMut(&str, &str) -> Result<RunSet, String>,
) -> Scorecard {
    let mut build = ScorecardBuild::new(plan, settings.clone());
    // Every pair: (against the baseline?, index: the cell or the previous pair, the runs).
    let mut work: Vec<(bool, usize, PlannedPair)> = build
        .pairs()
        .iter()
        .map(|pair| (true, pair.cell, pair.clone()))
        .collect();
    work.extend(
        build
            .previous_pairs()
            .iter()
            .enumerate()
            .map(|(index, previous)| (false, index, previous.pair.clone())),
    );
    for group in work.chunks(crate::parallel::cores().max(1)) {
        let sets: Vec<Result<RunSet, String>> = group
            .iter()
            .map(|(_, _, pair)| pair_set(&pair.baseline, &pair.candidate))
            .collect();
        let reports = crate::parallel::map_in_parallel(&sets, |set| {
            set.as_ref()
                .map_err(Clone::clone)
                .and_then(|set| pair_report(set, settings).map_err(|error| error.to_string()))
        });
        for ((to_baseline, index, _), report) in group.iter().zip(reports) {
            let report = report.as_ref().map_err(Clone::clone);
            if *to_baseline {
                build.add_report(*index, report);
            } else {
                build.add_previous_report(*index, report);
            }
        }
    }
    build.scorecard(rule)
}

impl Scorecard {
    /// The same cells decided under another rule (no cell is computed again).
    pub fn with_rule(&self, rule: &Rule) -> Scorecard {
        let mut scorecard = self.clone();
        scorecard.decide(rule);
        scorecard
    }

    /// The cell of `bench_id` at `step`.
    pub fn cell(&self, bench_id: &str, step: i64) -> Option<&ScorecardCell> {
        self.cells
            .iter()
            .find(|cell| cell.bench_id == bench_id && cell.step == step)
    }

    /// The rule's answer at `step`.
    pub fn column(&self, step: i64) -> Option<&ColumnDecision> {
        self.columns.iter().find(|column| column.step == step)
    }

    /// What the rule knows of the cell of `bench_id` at `step`.
    pub fn facts(&self, bench_id: &str, step: i64) -> CellFacts {
        match self.cell(bench_id, step).map(|cell| &cell.state) {
            Some(CellState::Compared { comparison }) => facts_of(comparison),
            Some(CellState::Pending) => CellFacts::HeldBack(words::PENDING_REASON.to_owned()),
            Some(CellState::Failed { error }) => CellFacts::HeldBack(error.clone()),
            Some(CellState::Missing | CellState::NoBaseline) | None => CellFacts::Missing,
        }
    }

    fn decide(&mut self, rule: &Rule) {
        self.rule = rule.clone();
        self.columns = self
            .steps
            .iter()
            .map(|&step| {
                decide_column(step, rule, self.settings.alpha, |bench| {
                    self.facts(bench, step)
                })
            })
            .collect();
        let meeting: Vec<&ColumnDecision> = self
            .columns
            .iter()
            .filter(|column| column.outcome == Outcome::Meets)
            .collect();
        let best = meeting
            .iter()
            .copied()
            .fold(None, |best: Option<&ColumnDecision>, column| match best {
                Some(best)
                    if best.min_primary_delta_points.unwrap_or(f64::NEG_INFINITY)
                        >= column.min_primary_delta_points.unwrap_or(f64::NEG_INFINITY) =>
                {
                    Some(best)
                }
                _ => Some(column),
            });
        self.recommended = best.map(|column| Recommendation {
            step: column.step,
            reason: words::recommended_text(
                column.step,
                meeting.len(),
                column.min_primary_delta_points,
            ),
        });
    }
}
