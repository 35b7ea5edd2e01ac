//! Per task, across samples: which of each run's samples passed, failed or errored (the flip
//! table), and the pair of samples to show side by side first.

use crate::model::{ModelError, OutcomeClass, RunIdx, RunSet, TaskIdx, Trajectory};

/// What one sample (trajectory) came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SampleOutcome {
    /// Its value in the primary analysis is the full reward, 1.
    Passed,
    /// Its value is between 0 and 1.
    Partial,
    /// Its value is 0 (a graded wrong answer, or an ending scored 0).
    Failed,
    /// It failed to run (outcome class failed: `ERROR`, `STALE`, `SANDBOX_*`).
    Errored,
    /// It has no value in the primary analysis: cancelled, unfinished, ungraded, an invalid
    /// reward, or an unknown ending without a reward.
    NotScored,
}

impl SampleOutcome {
    /// The outcome of a trajectory, from its class and its value in the primary analysis.
    pub fn of(trajectory: &Trajectory<'_>) -> Self {
        if trajectory.class == OutcomeClass::Failed {
            return Self::Errored;
        }
        match trajectory.scoring().primary.value() {
            None => Self::NotScored,
            Some(value) if value >= 1.0 => Self::Passed,
            Some(value) if value <= 0.0 => Self::Failed,
            Some(_) => Self::Partial,
        }
    }

    /// How the outcome reads, e.g. "passed".
    pub fn label(self) -> &'static str {
        match self {
            Self::Passed => "passed",
            Self::Partial => "partial",
            Self::Failed => "failed",
            Self::Errored => "errored",
            Self::NotScored => "not scored",
        }
    }

    /// Whether the sample has a value in the primary analysis (passed, partial or failed).
    pub fn is_scored(self) -> bool {
        matches!(self, Self::Passed | Self::Partial | Self::Failed)
    }
}

/// One sample of a run on the task.
#[derive(Debug, Clone, PartialEq)]
pub struct Sample {
    /// The trajectory.
    pub trajectory_id: String,
    /// What it came to.
    pub outcome: SampleOutcome,
    /// Its outcome class.
    pub class: OutcomeClass,
    /// Its reward as published.
    pub reward: Option<f64>,
    /// How it ended, kept by name.
    pub ending: Option<String>,
}

/// Samples by outcome.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct OutcomeCounts {
    /// Passed.
    pub passed: u32,
    /// Partial.
    pub partial: u32,
    /// Failed.
    pub failed: u32,
    /// Errored.
    pub errored: u32,
    /// Not scored.
    pub not_scored: u32,
}

impl OutcomeCounts {
    fn add(&mut self, outcome: SampleOutcome) {
        let count = match outcome {
            SampleOutcome::Passed => &mut self.passed,
            SampleOutcome::Partial => &mut self.partial,
            SampleOutcome::Failed => &mut self.failed,
            SampleOutcome::Errored => &mut self.errored,
            SampleOutcome::NotScored => &mut self.not_scored,
        };
        *count += 1;
    }

    /// Samples with a value (passed, partial or failed).
    pub fn scored(&self) -> u32 {
        self.passed + self.partial + self.failed
    }
}

/// One run's samples on the task.
#[derive(Debug, Clone, PartialEq)]
pub struct FlipSide {
    /// The run.
    pub run: RunIdx,
    /// Its samples, in the run's order.
    pub samples: Vec<Sample>,
    /// Its samples by outcome.
    pub counts: OutcomeCounts,
}

impl FlipSide {
    /// The position of a trajectory among the samples.
    pub fn position_of(&self, trajectory_id: &str) -> Option<usize> {
        self.samples
            .iter()
            .position(|sample| sample.trajectory_id == trajectory_id)
    }
}

/// A task's samples on each compared run.
#[derive(Debug, Clone, PartialEq)]
pub struct FlipTable {
    /// The task.
    pub task: TaskIdx,
    /// One side per run, in the order asked (the baseline first).
    pub sides: Vec<FlipSide>,
}

/// The flip table of `task` over `runs` (the baseline first); a task the set does not hold has
/// no samples on any side.
pub fn flip_table(set: &RunSet, task: TaskIdx, runs: &[RunIdx]) -> Result<FlipTable, ModelError> {
    let sides = runs
        .iter()
        .map(|&run| {
            let mut counts = OutcomeCounts::default();
            let samples = set
                .run(run)?
                .trajectories_of_task(task)
                .map(|trajectory| {
                    let outcome = SampleOutcome::of(&trajectory);
                    counts.add(outcome);
                    Sample {
                        trajectory_id: trajectory.id.to_owned(),
                        outcome,
                        class: trajectory.class,
                        reward: trajectory.reward,
                        ending: trajectory.ending.map(str::to_owned),
                    }
                })
                .collect();
            Ok(FlipSide {
                run,
                samples,
                counts,
            })
        })
        .collect::<Result<_, ModelError>>()?;
    Ok(FlipTable { task, sides })
}

/// What a candidate's samples say against the baseline's, over the scored samples.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flip {
    /// Every scored baseline sample passed and no scored candidate sample did.
    ConsistentRegression,
    /// No scored baseline sample passed and every scored candidate sample did.
    ConsistentImprovement,
    /// Both sides all passed, or both had no pass.
    Unchanged,
    /// Some passed and some did not, on one side or both.
    Mixed,
    /// A side has no scored sample.
    NotComparable,
}

impl Flip {
    /// The flip between a baseline side and a candidate side.
    pub fn between(baseline: &FlipSide, candidate: &FlipSide) -> Self {
        let all = |side: &FlipSide| side.counts.passed == side.counts.scored();
        let none = |side: &FlipSide| side.counts.passed == 0;
        if baseline.counts.scored() == 0 || candidate.counts.scored() == 0 {
            Self::NotComparable
        } else if all(baseline) && none(candidate) {
            Self::ConsistentRegression
        } else if none(baseline) && all(candidate) {
            Self::ConsistentImprovement
        } else if (all(baseline) && all(candidate)) || (none(baseline) && none(candidate)) {
            Self::Unchanged
        } else {
            Self::Mixed
        }
    }
}

/// Which way the task moved for the candidate (from the report's per-task Δ).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// The candidate scored lower.
    Regression,
    /// The candidate scored higher.
    Improvement,
    /// No change, or not known.
    Neither,
}

impl Direction {
    /// The direction of a candidate − baseline difference (`None`: not known).
    pub fn of_delta(delta: Option<f64>) -> Self {
        match delta {
            Some(delta) if delta < 0.0 => Self::Regression,
            Some(delta) if delta > 0.0 => Self::Improvement,
            _ => Self::Neither,
        }
    }
}

/// Why a pair was chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PairReason {
    /// On a regression: a baseline sample that passed beside a candidate sample that did not.
    PassedBesideFailed,
    /// On an improvement: a baseline sample that did not pass beside a candidate sample that did.
    FailedBesidePassed,
    /// The first pair whose outcomes differ.
    DifferentOutcomes,
    /// Every sample came to the same: the first of each side.
    FirstSamples,
}

/// The samples to show side by side, as positions in their sides.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SamplePair {
    /// Position in the baseline's samples.
    pub baseline: usize,
    /// Position in the candidate's samples.
    pub candidate: usize,
    /// Why this pair.
    pub reason: PairReason,
}

/// The most telling pair of samples, `None` when a side has none:
/// - on a regression, the first baseline sample that passed beside the candidate's first that
///   failed (else partial, else errored);
/// - on an improvement, the other way round;
/// - otherwise, or when there is no such pair: the first pair with different outcomes (the
///   baseline's samples in order, each against the candidate's in order);
/// - else the first sample of each side.
pub fn default_pair(
    baseline: &FlipSide,
    candidate: &FlipSide,
    direction: Direction,
) -> Option<SamplePair> {
    if baseline.samples.is_empty() || candidate.samples.is_empty() {
        return None;
    }
    let passed = |side: &FlipSide| first_of(side, &[SampleOutcome::Passed]);
    let not_passed = |side: &FlipSide| {
        first_of(
            side,
            &[
                SampleOutcome::Failed,
                SampleOutcome::Partial,
                SampleOutcome::Errored,
            ],
        )
    };
    let telling = match direction {
        Direction::Regression => passed(baseline)
            .zip(not_passed(candidate))
            .map(|pair| (pair, PairReason::PassedBesideFailed)),
        Direction::Improvement => not_passed(baseline)
            .zip(passed(candidate))
            .map(|pair| (pair, PairReason::FailedBesidePassed)),
        Direction::Neither => None,
    };
    let ((b, c), reason) = telling
        .or_else(|| {
            first_different(baseline, candidate).map(|p| (p, PairReason::DifferentOutcomes))
        })
        .unwrap_or(((0, 0), PairReason::FirstSamples));
    Some(SamplePair {
        baseline: b,
        candidate: c,
        reason,
    })
}

/// The first sample whose outcome is the first of `preferred` any sample has.
fn first_of(side: &FlipSide, preferred: &[SampleOutcome]) -> Option<usize> {
    preferred
        .iter()
        .find_map(|&outcome| side.samples.iter().position(|s| s.outcome == outcome))
}

/// The first `(i, j)` in lexicographic order with different outcomes, in O(n + m): against the
/// baseline's first sample, the candidate's first different one; when every candidate sample
/// came to the same, the baseline's first sample that differs from it, with the candidate's
/// first.
fn first_different(baseline: &FlipSide, candidate: &FlipSide) -> Option<(usize, usize)> {
    let first = baseline.samples.first()?.outcome;
    if let Some(j) = candidate.samples.iter().position(|s| s.outcome != first) {
        return Some((0, j));
    }
    let common = candidate.samples.first()?.outcome;
    let i = baseline.samples.iter().position(|s| s.outcome != common)?;
    Some((i, 0))
}
