//! The focused candidate's per-task deltas sorted ascending (a "waterfall"): where it loses, ties
//! and wins, and by how much.
//!
//! Up to [`BAR_LIMIT`] paired tasks each get a bar. Beyond that the sorted deltas are cut into
//! [`BAR_LIMIT`] quantile bins of equal task counts and each bar is the mean Δ of its bin, so the
//! SVG keeps at most [`BAR_LIMIT`] bars at 100,000 tasks.

use eval_compare_core::report::Report;
use eval_compare_core::stats::WinTieLoss;
use plotters::prelude::*;

use super::canvas::Canvas;
use super::common::{Chart, NoChart};
use super::focus::{ComparedRuns, Focused, PairedTasks};
use super::frame::{Axes, DrawResult, LegendEntry, Swatch};
use super::labels::{count_label, count_tick, points_tick, short_name, signed_points, tasks_label};
use super::theme::Theme;

/// Most bars drawn: one per task up to this many tasks, quantile bins beyond.
pub const BAR_LIMIT: usize = 500;

/// One bar over the tasks ranked `start..end` (ascending Δ).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DeltaBar {
    /// First rank covered.
    pub start: usize,
    /// One past the last rank covered.
    pub end: usize,
    /// Δ of the task, or the mean Δ of the bin, in points.
    pub value: f64,
}

/// What the sorted-delta chart draws.
#[derive(Debug, Clone, PartialEq)]
pub struct SortedDeltas {
    /// The runs compared.
    pub runs: ComparedRuns,
    /// Paired tasks ranked.
    pub tasks: usize,
    /// Bars in rank order, covering ranks `0..tasks` without gaps.
    pub bars: Vec<DeltaBar>,
    /// Whether bars are quantile bins (more tasks than [`BAR_LIMIT`]).
    pub binned: bool,
    /// Smallest Δ, in points.
    pub min: f64,
    /// Largest Δ, in points.
    pub max: f64,
    /// Δ of the primary analysis, in points.
    pub delta: Option<f64>,
    /// Wins, ties and losses of the candidate, as the report counted them.
    pub win_tie_loss: Option<WinTieLoss>,
}

/// The sorted per-task deltas of the candidate at `focus`.
pub fn sorted_deltas(report: &Report, focus: usize) -> Result<SortedDeltas, NoChart> {
    sorted_deltas_of(report, focus, &PairedTasks::at(report, focus))
}

/// [`sorted_deltas`] from the candidate's paired tasks, read already.
pub fn sorted_deltas_of(
    report: &Report,
    focus: usize,
    paired: &PairedTasks,
) -> Result<SortedDeltas, NoChart> {
    let focused = Focused::of(report, focus)?;
    let (min, max) = paired.delta_spread()?;
    let values = &paired.sorted_points;
    let tasks = values.len();
    let binned = tasks > BAR_LIMIT;
    let bars = if binned {
        (0..BAR_LIMIT)
            .map(|bin| {
                let start = bin * tasks / BAR_LIMIT;
                let end = (bin + 1) * tasks / BAR_LIMIT;
                let slice = &values[start..end];
                DeltaBar {
                    start,
                    end,
                    value: slice.iter().sum::<f64>() / slice.len() as f64,
                }
            })
            .collect()
    } else {
        values
            .iter()
            .enumerate()
            .map(|(rank, &value)| DeltaBar {
                start: rank,
                end: rank + 1,
                value,
            })
            .collect()
    };
    Ok(SortedDeltas {
        runs: focused.runs(),
        tasks,
        bars,
        binned,
        min,
        max,
        delta: focused.delta_points(),
        win_tie_loss: focused.win_tie_loss(),
    })
}

impl SortedDeltas {
    /// The y range drawn: every bar and 0, with a margin.
    fn y_range(&self) -> (f64, f64) {
        let low = self
            .bars
            .iter()
            .map(|bar| bar.value)
            .fold(0.0f64, f64::min)
            .min(self.delta.unwrap_or(0.0));
        let high = self
            .bars
            .iter()
            .map(|bar| bar.value)
            .fold(0.0f64, f64::max)
            .max(self.delta.unwrap_or(0.0));
        let pad = ((high - low) * 0.06).max(0.5);
        (low - pad, high + pad)
    }
}

impl Chart for SortedDeltas {
    fn title(&self) -> String {
        format!("Per-task Δ, sorted: {}", self.runs.shortened("−", 28))
    }

    fn summary(&self) -> String {
        let mut text = format!(
            "The {} scored by both runs, sorted by Δ ({} minus {}) from {} to {} points.",
            tasks_label(self.tasks),
            self.runs.candidate,
            self.runs.baseline,
            signed_points(self.min / 100.0),
            signed_points(self.max / 100.0)
        );
        if let Some(wtl) = self.win_tie_loss {
            text.push_str(&format!(
                " {} higher on {}, the same on {}, lower on {}.",
                self.runs.candidate,
                tasks_label(wtl.wins),
                tasks_label(wtl.ties),
                tasks_label(wtl.losses)
            ));
        }
        if self.binned {
            text.push_str(&format!(
                " Each of the {} bars is the mean Δ of about {} consecutive tasks.",
                self.bars.len(),
                count_label((self.tasks / self.bars.len().max(1)) as u64)
            ));
        }
        text
    }

    fn file_name(&self) -> String {
        self.runs.file_name("sorted-deltas")
    }

    fn legend(&self, theme: &Theme) -> Vec<LegendEntry> {
        let name = short_name(&self.runs.candidate, 24);
        let (higher, lower) = match self.win_tie_loss {
            Some(wtl) => (
                format!("{name} higher ({})", tasks_label(wtl.wins)),
                format!("{name} lower ({})", tasks_label(wtl.losses)),
            ),
            None => (format!("{name} higher"), format!("{name} lower")),
        };
        let mut legend = vec![
            LegendEntry::new(higher, Swatch::Fill(theme.higher, 0.85)),
            LegendEntry::new(lower, Swatch::Fill(theme.lower, 0.85)),
        ];
        if let Some(delta) = self.delta {
            legend.push(LegendEntry::new(
                format!("Δ = {} points (mean)", signed_points(delta / 100.0)),
                Swatch::Dashed(theme.delta),
            ));
        }
        legend
    }

    fn axes(&self) -> Axes {
        let (y_low, y_high) = self.y_range();
        let mut axes = Axes::new(
            0.0..self.tasks as f64,
            y_low..y_high,
            count_tick,
            points_tick,
        );
        axes.y_labels = 8;
        axes.x_grid = false;
        axes.x_desc = if self.binned {
            format!(
                "paired tasks ranked by Δ (bars: mean Δ of {} quantile bins)",
                self.bars.len()
            )
        } else {
            "paired tasks ranked by Δ".to_owned()
        };
        axes.y_desc = "Δ (points)".to_owned();
        axes
    }

    fn draw_marks<DB: DrawingBackend>(&self, canvas: &Canvas<'_, DB>) -> DrawResult<(), DB> {
        let theme = canvas.theme;
        let ranks = canvas.axes.x.end;
        // The deltas are sorted, so the losses come first and the wins last: each side is drawn
        // as one step-shaped area (no seams between thousands of adjacent bars).
        let lower: Vec<&DeltaBar> = self.bars.iter().filter(|bar| bar.value < 0.0).collect();
        let higher: Vec<&DeltaBar> = self.bars.iter().filter(|bar| bar.value > 0.0).collect();
        for (bars, color) in [(lower, theme.lower), (higher, theme.higher)] {
            if let Some(outline) = step_outline(&bars) {
                canvas
                    .plotting_area()
                    .draw(&Polygon::new(outline, color.mix(0.85).filled()))?;
            }
        }
        canvas.line(vec![(0.0, 0.0), (ranks, 0.0)], theme.axis.stroke_width(1))?;
        if let Some(delta) = self.delta {
            canvas.dashed((0.0, delta), (ranks, delta), theme.delta.stroke_width(2))?;
        }
        Ok(())
    }
}

/// The outline of consecutive bars as one polygon: along the zero line, up each bar's top, and
/// back; `None` when there is no bar.
fn step_outline(bars: &[&DeltaBar]) -> Option<Vec<(f64, f64)>> {
    let first = bars.first()?;
    let last = bars.last()?;
    let mut outline = Vec::with_capacity(bars.len() * 2 + 2);
    outline.push((first.start as f64, 0.0));
    for bar in bars {
        outline.push((bar.start as f64, bar.value));
        outline.push((bar.end as f64, bar.value));
    }
    outline.push((last.end as f64, 0.0));
    Some(outline)
}
