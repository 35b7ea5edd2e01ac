//! The focused candidate of a report and its paired tasks, as the per-task charts read them,
//! and how those charts name the runs compared.

use eval_compare_core::radix::sort_numbers;
use eval_compare_core::report::{CandidateResult, Report, RunSummary};
use eval_compare_core::stats::WinTieLoss;

use super::common::NoChart;
use super::labels::{file_safe, short_name};

/// Two deltas closer than this (in points) are the same value: the report rounds deltas to
/// 1e-9 reward units, i.e. 1e-7 points.
pub const SAME_VALUE: f64 = 1e-6;

/// The candidate a chart is about, with the runs it is compared against.
#[derive(Debug, Clone, Copy)]
pub struct Focused<'a> {
    /// The whole report.
    pub report: &'a Report,
    /// Index into [`Report::candidates`] and into each [`TaskRow::deltas`](eval_compare_core::report::TaskRow::deltas).
    pub index: usize,
    /// The candidate's result.
    pub candidate: &'a CandidateResult,
    /// The candidate's run.
    pub run: &'a RunSummary,
    /// The baseline's run.
    pub baseline: &'a RunSummary,
}

/// The runs a per-task chart compares, as it names them.
#[derive(Debug, Clone, PartialEq)]
pub struct ComparedRuns {
    /// Baseline name.
    pub baseline: String,
    /// Candidate name.
    pub candidate: String,
    /// Candidate run id (for the file name).
    pub candidate_id: String,
}

impl ComparedRuns {
    /// "candidate − baseline" for a title, `separator` between the names, each cut to `max`
    /// characters.
    pub fn shortened(&self, separator: &str, max: usize) -> String {
        format!(
            "{} {separator} {}",
            short_name(&self.candidate, max),
            short_name(&self.baseline, max)
        )
    }

    /// The downloaded SVG's name: `KIND-<candidate id>.svg`.
    pub fn file_name(&self, kind: &str) -> String {
        format!("{kind}-{}.svg", file_safe(&self.candidate_id))
    }
}

/// One task scored by both the baseline and the focused candidate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PairedTask {
    /// Baseline task mean.
    pub baseline: f64,
    /// Candidate task mean.
    pub candidate: f64,
    /// Candidate − baseline, as the report rounded it.
    pub delta: f64,
}

impl<'a> Focused<'a> {
    /// The candidate at `focus`, or [`NoChart::NoCandidate`] when there is none.
    pub fn of(report: &'a Report, focus: usize) -> Result<Self, NoChart> {
        let candidate = report.candidates.get(focus).ok_or(NoChart::NoCandidate)?;
        let run = report.run_of(candidate).ok_or(NoChart::NoCandidate)?;
        let baseline = report.baseline().ok_or(NoChart::NoCandidate)?;
        Ok(Focused {
            report,
            index: focus,
            candidate,
            run,
            baseline,
        })
    }

    /// The runs compared, as the charts name them.
    pub fn runs(&self) -> ComparedRuns {
        ComparedRuns {
            baseline: self.baseline.name.clone(),
            candidate: self.run.name.clone(),
            candidate_id: self.run.id.clone(),
        }
    }

    /// Δ of the primary analysis in points, when it is finite.
    pub fn delta_points(&self) -> Option<f64> {
        self.candidate
            .primary
            .estimate
            .as_ref()
            .ok()
            .map(|estimate| estimate.delta * 100.0)
            .filter(|delta| delta.is_finite())
    }

    /// Wins, ties and losses of the candidate, as the report counted them.
    pub fn win_tie_loss(&self) -> Option<WinTieLoss> {
        self.candidate.primary.win_tie_loss.as_ref().ok().copied()
    }

    /// The tasks both runs scored (the primary analysis' pairs), in task order; rows with a
    /// value that is not finite are left out.
    pub fn paired(&self) -> impl Iterator<Item = PairedTask> + '_ {
        let column = self.candidate.run;
        self.report.tasks.iter().filter_map(move |row| {
            let baseline = row.cells.first()?.mean?;
            let candidate = row.cells.get(column)?.mean?;
            let delta = (*row.deltas.get(self.index)?)?;
            let finite = baseline.is_finite() && candidate.is_finite() && delta.is_finite();
            finite.then_some(PairedTask {
                baseline,
                candidate,
                delta,
            })
        })
    }
}

/// The focused candidate's paired tasks, read once for all the per-task charts (a pass over
/// 100,000 task rows each is most of a chart's time): each task's means in task order, and the
/// deltas in points sorted ascending.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PairedTasks {
    /// The tasks both runs scored ([`Focused::paired`]), in task order.
    pub tasks: Vec<PairedTask>,
    /// Each of those tasks' Δ in points, ascending.
    pub sorted_points: Vec<f64>,
}

impl PairedTasks {
    /// The paired tasks of `focused`.
    pub fn of(focused: &Focused<'_>) -> Self {
        let tasks: Vec<PairedTask> = focused.paired().collect();
        let mut sorted_points: Vec<f64> = tasks.iter().map(|task| task.delta * 100.0).collect();
        sort_numbers(&mut sorted_points);
        PairedTasks {
            tasks,
            sorted_points,
        }
    }

    /// The smallest and the largest Δ in points, or why the deltas make no distribution: fewer
    /// than two tasks, or every task the same Δ.
    pub fn delta_spread(&self) -> Result<(f64, f64), NoChart> {
        let values = &self.sorted_points;
        let tasks = values.len();
        if tasks < 2 {
            return Err(NoChart::TooFewTasks { tasks });
        }
        let (min, max) = (values[0], values[tasks - 1]);
        if max - min < SAME_VALUE {
            return Err(NoChart::AllDeltasEqual {
                tasks,
                delta: min / 100.0,
            });
        }
        Ok((min, max))
    }

    /// The paired tasks of the candidate at `focus` (none when there is no such candidate).
    pub fn at(report: &Report, focus: usize) -> Self {
        Focused::of(report, focus)
            .map(|focused| Self::of(&focused))
            .unwrap_or_default()
    }
}
