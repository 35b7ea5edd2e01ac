//! Coverage bars: one stacked horizontal bar per compared run, its trajectories split by outcome
//! class (graded, cut-off, model ending, failed, cancelled, unfinished, ungraded, other).

use eval_compare_core::model::{OutcomeClass, SourceKind};
use eval_compare_core::report::Report;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::canvas::Canvas;
use super::common::{Chart, NoChart};
use super::frame::{label_style, text_style, Axes, DrawResult, LegendEntry, Swatch};
use super::labels::{count_label, count_tick, file_safe, short_name};
use super::theme::Theme;

/// The order classes are stacked in: what was scored first, then what was lost.
pub const STACK_ORDER: [OutcomeClass; 8] = [
    OutcomeClass::Graded,
    OutcomeClass::CutOff,
    OutcomeClass::ModelEnding,
    OutcomeClass::Failed,
    OutcomeClass::Cancelled,
    OutcomeClass::Unfinished,
    OutcomeClass::Ungraded,
    OutcomeClass::Other,
];

/// One run's trajectories by outcome class.
#[derive(Debug, Clone, PartialEq)]
pub struct CoverageRun {
    /// Run name.
    pub name: String,
    /// Whether it is the baseline.
    pub baseline: bool,
    /// Trajectories per class, in [`STACK_ORDER`].
    pub counts: [u64; 8],
    /// All its trajectories.
    pub total: u64,
}

/// What the coverage bars draw.
#[derive(Debug, Clone, PartialEq)]
pub struct CoverageBars {
    /// Baseline run id (for the file name).
    pub baseline_id: String,
    /// Runs, the baseline first.
    pub runs: Vec<CoverageRun>,
    /// Classes some run has a trajectory of, in [`STACK_ORDER`] (the legend).
    pub classes: Vec<OutcomeClass>,
    /// What is counted: "trials" for Chronicle runs, else "trajectories".
    pub unit: &'static str,
}

/// The coverage bars of every compared run.
pub fn coverage_bars(report: &Report) -> Result<CoverageBars, NoChart> {
    let runs: Vec<CoverageRun> = report
        .coverage
        .runs
        .iter()
        .enumerate()
        .map(|(i, run)| {
            let mut counts = [0u64; 8];
            for (slot, &class) in counts.iter_mut().zip(STACK_ORDER.iter()) {
                *slot = u64::from(run.samples.get(class));
            }
            CoverageRun {
                name: report
                    .runs
                    .get(i)
                    .filter(|summary| summary.index == run.run)
                    .map_or_else(|| run.name.clone(), |summary| summary.name.clone()),
                baseline: i == 0,
                counts,
                total: run.samples.total(),
            }
        })
        .collect();
    if runs.iter().all(|run| run.total == 0) {
        return Err(NoChart::NoTrajectories);
    }
    let classes = STACK_ORDER
        .iter()
        .enumerate()
        .filter(|(slot, _)| runs.iter().any(|run| run.counts[*slot] > 0))
        .map(|(_, &class)| class)
        .collect();
    let chronicle = report
        .runs
        .iter()
        .any(|run| run.source == SourceKind::Chronicle);
    Ok(CoverageBars {
        unit: if chronicle { "trials" } else { "trajectories" },
        baseline_id: report
            .baseline()
            .map_or_else(|| "runs".to_owned(), |run| run.id.clone()),
        runs,
        classes,
    })
}

impl CoverageRun {
    /// "Step 400 (baseline)" for the baseline, else the name, shortened for the axis.
    fn axis_label(&self) -> String {
        if self.baseline {
            format!("{} (baseline)", short_name(&self.name, 18))
        } else {
            short_name(&self.name, 24)
        }
    }
}

impl Chart for CoverageBars {
    fn size(&self) -> (u32, u32) {
        let rows = u32::try_from(self.runs.len()).unwrap_or(u32::MAX);
        (640, 190u32.saturating_add(rows.saturating_mul(46)).max(280))
    }

    fn title(&self) -> String {
        format!("Coverage: {} by outcome", self.unit)
    }

    fn summary(&self) -> String {
        let runs: Vec<String> = self
            .runs
            .iter()
            .map(|run| {
                let parts: Vec<String> = STACK_ORDER
                    .iter()
                    .zip(run.counts)
                    .filter(|(_, count)| *count > 0)
                    .map(|(class, count)| format!("{} {}", count_label(count), class.label()))
                    .collect();
                let role = if run.baseline { " (baseline)" } else { "" };
                if parts.is_empty() {
                    format!("{}{role}: none", run.name)
                } else {
                    format!(
                        "{}{role}: {} {}, {}",
                        run.name,
                        count_label(run.total),
                        self.unit,
                        parts.join(", ")
                    )
                }
            })
            .collect();
        format!(
            "{} of each compared run by outcome. {}.",
            crate::format::capitalized(self.unit),
            runs.join("; ")
        )
    }

    fn file_name(&self) -> String {
        format!("coverage-{}.svg", file_safe(&self.baseline_id))
    }

    fn legend(&self, theme: &Theme) -> Vec<LegendEntry> {
        self.classes
            .iter()
            .map(|&class| {
                LegendEntry::new(class.label(), Swatch::Fill(theme.outcome_color(class), 1.0))
            })
            .collect()
    }

    fn axes(&self) -> Axes {
        let rows = self.runs.len() as f64;
        let widest = self
            .runs
            .iter()
            .map(|run| run.total)
            .max()
            .unwrap_or(0)
            .max(1) as f64;
        // Room at the right of the longest bar for its total.
        let mut axes = Axes::new(0.0..widest * 1.16, 0.0..rows, count_tick, count_tick);
        axes.y_grid = false;
        axes.y_axis = false;
        axes.y_label_area = 180;
        axes.x_desc = self.unit.to_owned();
        axes
    }

    /// Row `i` (the baseline is 0) spans y from `rows - 1 - i` to `rows - i`, so the runs read
    /// top-down; their names are drawn left of the rows.
    fn draw_marks<DB: DrawingBackend>(&self, canvas: &Canvas<'_, DB>) -> DrawResult<(), DB> {
        let theme = canvas.theme;
        let rows = canvas.axes.y.end;
        let name_style = text_style(15.0, &theme.text).pos(Pos::new(HPos::Right, VPos::Center));
        let total_style = label_style(theme).pos(Pos::new(HPos::Left, VPos::Center));
        for (i, run) in self.runs.iter().enumerate() {
            let bottom = rows - 1.0 - i as f64;
            let centre = bottom + 0.5;
            let mut start = 0u64;
            for (slot, &class) in STACK_ORDER.iter().enumerate() {
                let count = run.counts[slot];
                if count == 0 {
                    continue;
                }
                let end = start + count;
                canvas.rectangle(
                    (start as f64, bottom + 0.22),
                    (end as f64, bottom + 0.78),
                    theme.outcome_color(class).filled(),
                )?;
                start = end;
            }
            canvas.text_at(&run.axis_label(), (0.0, centre), (-10, 0), &name_style)?;
            canvas.text_at(
                &count_label(run.total),
                (run.total as f64, centre),
                (6, 0),
                &total_style,
            )?;
        }
        Ok(())
    }
}
