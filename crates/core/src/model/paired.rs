//! Per-task scores of two runs, aligned on the tasks they share, for the statistics engine.

use serde::{Deserialize, Serialize};

use super::aggregate::{SampleStats, TaskStats};
use super::error::ModelError;
use super::run::RunIdx;
use super::run_set::RunSet;
use super::task::{CategoryIdx, TaskIdx};

/// Which analysis the per-task scores are for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Analysis {
    /// Tasks with at least one included sample in both runs; each task's mean of its included
    /// samples (see [`OutcomeClass::score`](super::OutcomeClass::score)).
    Primary,
    /// Every task either run attempted; failed, ungraded, cancelled and unfinished samples
    /// count 0, and a run without a scored sample on a task scores 0 there.
    Sensitivity,
}

/// Per-task scores of a baseline and a candidate over their paired tasks, as plain aligned
/// vectors: entry `i` of every vector is about task `task_idx[i]`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct PairedScores {
    /// Paired tasks, ascending.
    pub task_idx: Vec<TaskIdx>,
    /// Baseline per-task mean.
    pub base: Vec<f64>,
    /// Candidate per-task mean.
    pub cand: Vec<f64>,
    /// Baseline samples behind each mean (0 in the sensitivity analysis = absent, scored 0).
    pub base_k: Vec<u32>,
    /// Candidate samples behind each mean.
    pub cand_k: Vec<u32>,
    /// Baseline within-task variance (ddof 1); `None` with fewer than two samples.
    pub base_var: Vec<Option<f64>>,
    /// Candidate within-task variance (ddof 1).
    pub cand_var: Vec<Option<f64>>,
    /// Baseline samples scoring exactly 1 (pass@k on binary rewards).
    pub base_passes: Vec<u32>,
    /// Candidate samples scoring exactly 1.
    pub cand_passes: Vec<u32>,
    /// Each task's cluster (its first category), for clustered errors and bootstrap.
    pub cluster: Vec<Option<CategoryIdx>>,
    /// Whether every baseline value used is 0 or 1.
    pub base_binary: bool,
    /// Whether every candidate value used is 0 or 1.
    pub cand_binary: bool,
    /// Tasks attempted by either run but not paired, with why (always empty for sensitivity).
    pub left_out: Vec<LeftOutTask>,
}

/// A task one of the two runs attempted that is not in the paired set.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct LeftOutTask {
    /// The task.
    pub task: TaskIdx,
    /// The baseline's side.
    pub base: SideCoverage,
    /// The candidate's side.
    pub cand: SideCoverage,
}

/// What one run has on a task.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum SideCoverage {
    /// At least one included sample.
    Scored {
        /// The task's score: the mean of the included samples (or the task's one outcome
        /// under [`TaskScoring::AllSamplesPass`](super::TaskScoring::AllSamplesPass)).
        mean: f64,
        /// Included samples.
        k: u32,
    },
    /// Trajectories, none of them included (failed, ungraded, unfinished, …).
    NotScored {
        /// Trajectories on the task.
        samples: u32,
    },
    /// No trajectory on the task.
    Absent,
}

impl SideCoverage {
    /// One run's state on a task, from its aggregate.
    pub fn of(stats: &TaskStats) -> SideCoverage {
        match stats.primary.mean() {
            Some(mean) => SideCoverage::Scored {
                mean,
                k: stats.included_samples,
            },
            None if stats.samples() > 0 => SideCoverage::NotScored {
                samples: stats.samples(),
            },
            None => SideCoverage::Absent,
        }
    }

    /// The mean, when the side is scored.
    pub fn mean(&self) -> Option<f64> {
        match self {
            SideCoverage::Scored { mean, .. } => Some(*mean),
            _ => None,
        }
    }
}

impl PairedScores {
    /// Number of paired tasks.
    pub fn len(&self) -> usize {
        self.task_idx.len()
    }

    /// Whether no task is paired.
    pub fn is_empty(&self) -> bool {
        self.task_idx.is_empty()
    }

    /// No task yet (both sides vacuously binary), with room for `tasks` paired tasks.
    fn with_capacity(tasks: usize) -> PairedScores {
        PairedScores {
            task_idx: Vec::with_capacity(tasks),
            base: Vec::with_capacity(tasks),
            cand: Vec::with_capacity(tasks),
            base_k: Vec::with_capacity(tasks),
            cand_k: Vec::with_capacity(tasks),
            base_var: Vec::with_capacity(tasks),
            cand_var: Vec::with_capacity(tasks),
            base_passes: Vec::with_capacity(tasks),
            cand_passes: Vec::with_capacity(tasks),
            cluster: Vec::with_capacity(tasks),
            base_binary: true,
            cand_binary: true,
            left_out: Vec::new(),
        }
    }

    fn push(&mut self, task: TaskIdx, cluster: Option<CategoryIdx>, base: Side, cand: Side) {
        self.task_idx.push(task);
        self.cluster.push(cluster);
        self.base.push(base.mean);
        self.cand.push(cand.mean);
        self.base_k.push(base.k);
        self.cand_k.push(cand.k);
        self.base_var.push(base.variance);
        self.cand_var.push(cand.variance);
        self.base_passes.push(base.passes);
        self.cand_passes.push(cand.passes);
    }
}

/// One side of a paired task.
struct Side {
    mean: f64,
    k: u32,
    variance: Option<f64>,
    passes: u32,
}

impl Side {
    /// `None` when the side has no value in this analysis.
    fn primary(stats: &TaskStats) -> Option<Side> {
        Side::from_values(&stats.primary, stats.primary_passes)
    }

    /// A side with no value scores 0 (absent = 0).
    fn sensitivity(stats: &TaskStats) -> Side {
        Side::from_values(&stats.sensitivity, stats.sensitivity_passes).unwrap_or(Side {
            mean: 0.0,
            k: 0,
            variance: None,
            passes: 0,
        })
    }

    fn from_values(values: &SampleStats, passes: u32) -> Option<Side> {
        Some(Side {
            mean: values.mean()?,
            k: values.count(),
            variance: values.variance(),
            passes,
        })
    }
}

impl RunSet {
    /// How many tasks the primary analysis of `cand` against `base` pairs: the length of
    /// [`RunSet::paired`]'s primary scores, counted without building them.
    pub fn paired_count(&self, base: RunIdx, cand: RunIdx) -> Result<usize, ModelError> {
        let (base_run, cand_run) = (self.run(base)?, self.run(cand)?);
        Ok(base_run
            .task_stats
            .iter()
            .zip(&cand_run.task_stats)
            .filter(|(base_stats, cand_stats)| {
                Side::primary(base_stats).is_some() && Side::primary(cand_stats).is_some()
            })
            .count())
    }

    /// Per-task scores of `cand` against `base` for one analysis, over the tasks either run
    /// attempted (trajectories without a task never enter).
    pub fn paired(
        &self,
        base: RunIdx,
        cand: RunIdx,
        analysis: Analysis,
    ) -> Result<PairedScores, ModelError> {
        let base_run = self.run(base)?;
        let cand_run = self.run(cand)?;
        // At most the tasks either run attempted.
        let attempted = base_run.totals.tasks_attempted + cand_run.totals.tasks_attempted;
        let tasks = usize::try_from(attempted)
            .unwrap_or(usize::MAX)
            .min(base_run.task_stats.len());
        let mut scores = PairedScores::with_capacity(tasks);
        let pairs = base_run.task_stats.iter().zip(&cand_run.task_stats);
        for (index, (base_stats, cand_stats)) in pairs.enumerate() {
            if base_stats.samples() == 0 && cand_stats.samples() == 0 {
                continue;
            }
            let task = index as TaskIdx;
            let cluster = self.task(task).and_then(|task| task.cluster());
            match analysis {
                Analysis::Primary => match (Side::primary(base_stats), Side::primary(cand_stats)) {
                    (Some(base_side), Some(cand_side)) => {
                        scores.base_binary &= base_stats.primary_binary;
                        scores.cand_binary &= cand_stats.primary_binary;
                        scores.push(task, cluster, base_side, cand_side);
                    }
                    _ => scores.left_out.push(LeftOutTask {
                        task,
                        base: SideCoverage::of(base_stats),
                        cand: SideCoverage::of(cand_stats),
                    }),
                },
                Analysis::Sensitivity => {
                    let base_side = Side::sensitivity(base_stats);
                    let cand_side = Side::sensitivity(cand_stats);
                    scores.base_binary &= base_stats.sensitivity_binary;
                    scores.cand_binary &= cand_stats.sensitivity_binary;
                    scores.push(task, cluster, base_side, cand_side);
                }
            }
        }
        Ok(scores)
    }
}
