//! The plan of a scorecard: its rows (the benchmark versions the training run's checkpoints
//! were evaluated on, each with its baseline), its columns (the checkpoint steps) and, per
//! cell, which evaluation stands for that checkpoint on that benchmark. The plan names every
//! run to load once ([`ScorecardPlan::run_ids`]: a baseline shared by cells is one run) and the
//! pairs to compare ([`ScorecardPlan::pairs`]).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::audit::Lifecycle;
use crate::model::RunInfo;

use super::baseline::{choose_baseline, BaselineChoice};
use super::source::ListedRun;
use super::words;

/// One row: a benchmark version and its baseline.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RowPlan {
    /// The benchmark version.
    pub bench_id: String,
    /// The baseline and how it was chosen.
    pub baseline: BaselineChoice,
}

/// Another evaluation of the same checkpoint on the same benchmark, not the one shown.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OtherEvaluation {
    /// Its run id.
    pub run_id: String,
    /// Why it is not the one shown.
    pub why: String,
}

/// One cell: which evaluation of the checkpoint at `step` on `bench_id` is compared.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CellPlan {
    /// The row's benchmark version.
    pub bench_id: String,
    /// The column's checkpoint step.
    pub step: i64,
    /// The evaluation compared (the newest finished one), or `None`: not evaluated.
    pub candidate: Option<String>,
    /// Its lifecycle status, as recorded.
    pub status: Option<String>,
    /// The other evaluations of this checkpoint on this benchmark, named.
    pub others: Vec<OtherEvaluation>,
}

/// Rows × steps, and the evaluation of each cell.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScorecardPlan {
    /// The training run whose checkpoints are the columns.
    pub training_run_id: String,
    /// One per benchmark version, ordered by id.
    pub rows: Vec<RowPlan>,
    /// The checkpoint steps, ascending.
    pub steps: Vec<i64>,
    /// Row-major: `cells[row * steps.len() + column]`.
    pub cells: Vec<CellPlan>,
}

/// One comparison to make: the cell's index, the baseline's and the candidate's run ids.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlannedPair {
    /// Index into [`ScorecardPlan::cells`].
    pub cell: usize,
    /// The row's baseline.
    pub baseline: String,
    /// The cell's evaluation.
    pub candidate: String,
}

/// A checkpoint's evaluation against the previous evaluated step's on the same benchmark.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PreviousPair {
    /// The later step's cell, the earlier evaluation as `baseline`, the later as `candidate`.
    pub pair: PlannedPair,
    /// The earlier step.
    pub previous_step: i64,
}

/// The plan of `training_run_id`'s scorecard from the listed runs (its checkpoint evaluations
/// and the base-model evaluations of their benchmark versions), with the baselines chosen by
/// hand (`bench_id` → run id).
pub fn plan_scorecard(
    training_run_id: &str,
    listed: &[ListedRun],
    by_hand: &BTreeMap<String, String>,
) -> ScorecardPlan {
    let checkpoints: Vec<&ListedRun> = listed
        .iter()
        .filter(|run| run.is_checkpoint_of(training_run_id))
        .collect();
    let mut benches: Vec<String> = checkpoints
        .iter()
        .filter_map(|run| run.info.bench_id.clone())
        .collect();
    benches.sort();
    benches.dedup();
    let mut steps: Vec<i64> = checkpoints
        .iter()
        .filter_map(|run| run.info.checkpoint.step)
        .collect();
    steps.sort_unstable();
    steps.dedup();
    let mut rows = Vec::with_capacity(benches.len());
    let mut cells = Vec::with_capacity(benches.len() * steps.len());
    for bench_id in benches {
        let of_bench: Vec<&ListedRun> = checkpoints
            .iter()
            .copied()
            .filter(|run| run.info.bench_id.as_deref() == Some(bench_id.as_str()))
            .collect();
        let infos: Vec<&RunInfo> = of_bench
            .iter()
            .filter(|run| run.lifecycle() == Lifecycle::Finished)
            .map(|run| &run.info)
            .collect();
        let baseline = choose_baseline(
            &bench_id,
            &infos,
            listed,
            by_hand.get(&bench_id).map(String::as_str),
        );
        for &step in &steps {
            let evaluations: Vec<&ListedRun> = of_bench
                .iter()
                .copied()
                .filter(|run| run.info.checkpoint.step == Some(step))
                .collect();
            cells.push(cell_plan(&bench_id, step, evaluations));
        }
        rows.push(RowPlan { bench_id, baseline });
    }
    ScorecardPlan {
        training_run_id: training_run_id.to_owned(),
        rows,
        steps,
        cells,
    }
}

/// The cell of the evaluations of one checkpoint on one benchmark: finished ones first, then
/// running ones, then the rest; newest first within each.
fn cell_plan(bench_id: &str, step: i64, mut evaluations: Vec<&ListedRun>) -> CellPlan {
    let rank = |run: &ListedRun| match run.lifecycle() {
        Lifecycle::Finished => 0,
        Lifecycle::NotFinished => 1,
        _ => 2,
    };
    evaluations
        .sort_by(|a, b| (rank(a), a.newest_first_key()).cmp(&(rank(b), b.newest_first_key())));
    let mut iter = evaluations.into_iter();
    let chosen = iter.next();
    let others = iter
        .map(|other| OtherEvaluation {
            run_id: other.id().to_owned(),
            why: words::other_evaluation(other.lifecycle()),
        })
        .collect();
    CellPlan {
        bench_id: bench_id.to_owned(),
        step,
        candidate: chosen.map(|run| run.id().to_owned()),
        status: chosen.and_then(|run| run.info.status.clone()),
        others,
    }
}

impl ScorecardPlan {
    /// The cell of row `row` and column `column`.
    pub fn cell(&self, row: usize, column: usize) -> Option<&CellPlan> {
        self.cells.get(row * self.steps.len() + column)
    }

    /// The comparisons to make, row by row: every cell with an evaluation and a baseline.
    pub fn pairs(&self) -> Vec<PlannedPair> {
        let mut pairs = Vec::new();
        for (index, cell) in self.cells.iter().enumerate() {
            let row = &self.rows[index / self.steps.len().max(1)];
            if let (Some(baseline), Some(candidate)) = (&row.baseline.run_id, &cell.candidate) {
                pairs.push(PlannedPair {
                    cell: index,
                    baseline: baseline.clone(),
                    candidate: candidate.clone(),
                });
            }
        }
        pairs
    }

    /// Each evaluated checkpoint against the previous evaluated step on its benchmark, row by
    /// row (the runs are the cells' own: nothing more to load).
    pub fn previous_pairs(&self) -> Vec<PreviousPair> {
        let width = self.steps.len();
        let mut pairs = Vec::new();
        for row in 0..self.rows.len() {
            let mut previous: Option<(i64, &str)> = None;
            for column in 0..width {
                let index = row * width + column;
                let Some(candidate) = self.cells[index].candidate.as_deref() else {
                    continue;
                };
                if let Some((step, earlier)) = previous {
                    pairs.push(PreviousPair {
                        pair: PlannedPair {
                            cell: index,
                            baseline: earlier.to_owned(),
                            candidate: candidate.to_owned(),
                        },
                        previous_step: step,
                    });
                }
                previous = Some((self.cells[index].step, candidate));
            }
        }
        pairs
    }

    /// Every run the pairs compare, each once (a baseline shared by a row's cells, or by
    /// rows, is one run), in first use order.
    pub fn run_ids(&self) -> Vec<String> {
        let mut ids: Vec<String> = Vec::new();
        for pair in self.pairs() {
            for id in [pair.baseline, pair.candidate] {
                if !ids.contains(&id) {
                    ids.push(id);
                }
            }
        }
        ids
    }
}
