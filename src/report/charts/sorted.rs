//! The focused candidate's per-task deltas sorted ascending (a "waterfall"): where it loses, ties
//! and wins, and by how much.
//!
//! Up to [`BAR_LIMIT`] paired tasks each get a bar. Beyond that the sorted deltas are cut into
//! [`BAR_LIMIT`] quantile bins of equal task counts and each bar is the mean Δ of its bin, so the
//! SVG keeps at most [`BAR_LIMIT`] bars at 100,000 tasks.

use eval_compare_core::report::Report;
use eval_compare_core::stats::WinTieLoss;
use plotters::coord::Shift;
use plotters::prelude::*;

use super::common::{
    count_label, count_tick, dashed, file_safe, frame, line, plot_axes, points_tick, short_name,
    signed_points, tasks_label, Axes, Chart, DrawResult, LegendEntry, NoChart, Swatch,
};
use super::focus::{Focused, PairedTasks};
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
    /// Baseline name.
    pub baseline: String,
    /// Candidate name.
    pub candidate: String,
    /// Candidate run id (for the file name).
    pub candidate_id: String,
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
    let values = &paired.sorted_points;
    let tasks = values.len();
    if tasks < 2 {
        return Err(NoChart::TooFewTasks { tasks });
    }
    let (min, max) = (values[0], values[tasks - 1]);
    if max - min < 1e-6 {
        return Err(NoChart::AllDeltasEqual {
            tasks,
            delta: min / 100.0,
        });
    }
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
        baseline: focused.baseline.name.clone(),
        candidate: focused.run.name.clone(),
        candidate_id: focused.run.id.clone(),
        tasks,
        bars,
        binned,
        min,
        max,
        delta: focused
            .candidate
            .primary
            .estimate
            .as_ref()
            .ok()
            .map(|estimate| estimate.delta * 100.0)
            .filter(|delta| delta.is_finite()),
        win_tie_loss: focused
            .candidate
            .primary
            .win_tie_loss
            .as_ref()
            .ok()
            .copied(),
    })
}

impl SortedDeltas {
    fn legend(&self, theme: &Theme) -> Vec<LegendEntry> {
        let name = short_name(&self.candidate, 24);
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
    fn size(&self) -> (u32, u32) {
        (640, 440)
    }

    fn title(&self) -> String {
        format!(
            "Per-task Δ, sorted: {} − {}",
            short_name(&self.candidate, 28),
            short_name(&self.baseline, 28)
        )
    }

    fn summary(&self) -> String {
        let mut text = format!(
            "The {} scored by both runs, sorted by Δ ({} minus {}) from {} to {} points.",
            tasks_label(self.tasks),
            self.candidate,
            self.baseline,
            signed_points(self.min / 100.0),
            signed_points(self.max / 100.0)
        );
        if let Some(wtl) = self.win_tie_loss {
            text.push_str(&format!(
                " {} higher on {}, the same on {}, lower on {}.",
                self.candidate,
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
        format!("sorted-deltas-{}.svg", file_safe(&self.candidate_id))
    }

    fn draw<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        theme: &Theme,
    ) -> DrawResult<(), DB> {
        draw_sorted_deltas(area, self, theme)
    }
}

/// Draws the sorted deltas on `area`.
pub fn draw_sorted_deltas<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &SortedDeltas,
    theme: &Theme,
) -> DrawResult<(), DB> {
    let plot_area = frame(area, &data.title(), &data.legend(theme), theme)?;
    let (y_low, y_high) = data.y_range();
    let ranks = data.tasks as f64;
    let mut axes = Axes::new(0.0..ranks, y_low..y_high, count_tick, points_tick);
    axes.y_labels = 8;
    axes.x_grid = false;
    axes.x_desc = if data.binned {
        format!(
            "paired tasks ranked by Δ (bars: mean Δ of {} quantile bins)",
            data.bars.len()
        )
    } else {
        "paired tasks ranked by Δ".to_owned()
    };
    axes.y_desc = "Δ (points)".to_owned();
    let plot = plot_axes(&plot_area, &axes, theme)?;
    // The deltas are sorted, so the losses come first and the wins last: each side is drawn as
    // one step-shaped area (no seams between thousands of adjacent bars).
    let lower: Vec<&DeltaBar> = data.bars.iter().filter(|bar| bar.value < 0.0).collect();
    let higher: Vec<&DeltaBar> = data.bars.iter().filter(|bar| bar.value > 0.0).collect();
    for (bars, color) in [(lower, theme.lower), (higher, theme.higher)] {
        if let Some(outline) = step_outline(&bars) {
            plot.plotting_area()
                .draw(&Polygon::new(outline, color.mix(0.85).filled()))?;
        }
    }
    line(
        &plot,
        vec![(0.0, 0.0), (ranks, 0.0)],
        theme.axis.stroke_width(1),
    )?;
    if let Some(delta) = data.delta {
        dashed(
            area,
            &plot,
            (0.0, delta),
            (ranks, delta),
            theme.delta.stroke_width(2),
        )?;
    }
    Ok(())
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
