//! Distribution of the focused candidate's per-task deltas, with Δ and its confidence interval.
//!
//! Deltas of binary or few-valued rewards sit on a lattice (multiples of 1/k for k samples per
//! task): when they take at most [`MAX_DISCRETE_VALUES`] values spaced by a common step, each
//! value gets its own bar. Otherwise the deltas are counted in about [`TARGET_BINS`] bins of a
//! round width. Deltas are shown in points (reward × 100), like the report's sentences.

use eval_compare_core::report::{headline_interval, Report};
use plotters::prelude::*;

use super::canvas::Canvas;
use super::common::{Chart, NoChart};
use super::focus::{ComparedRuns, Focused, PairedTasks, SAME_VALUE};
use super::frame::{Axes, DrawResult, LegendEntry, Swatch};
use super::labels::{count_tick, level_label, points_tick, signed_points, tasks_label};
use super::theme::Theme;

/// Most distinct delta values drawn one bar each.
pub const MAX_DISCRETE_VALUES: usize = 60;
/// Number of bins aimed at for continuous deltas.
pub const TARGET_BINS: usize = 30;

/// One bar: deltas in `[lower, upper)` (points).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HistogramBin {
    /// Lower edge, in points.
    pub lower: f64,
    /// Upper edge, in points.
    pub upper: f64,
    /// Tasks in the bin.
    pub count: u32,
}

/// A confidence interval in points.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PointsInterval {
    /// Lower bound, in points.
    pub lower: f64,
    /// Upper bound, in points.
    pub upper: f64,
    /// Confidence level, e.g. 0.95.
    pub level: f64,
}

impl PointsInterval {
    /// "95% CI +2.0 to +6.2".
    pub fn label(&self) -> String {
        format!(
            "{} CI {} to {}",
            level_label(self.level),
            signed_points(self.lower / 100.0),
            signed_points(self.upper / 100.0)
        )
    }
}

/// What the histogram draws.
#[derive(Debug, Clone, PartialEq)]
pub struct DeltaHistogram {
    /// The runs compared.
    pub runs: ComparedRuns,
    /// Paired tasks counted.
    pub tasks: usize,
    /// Bars in ascending order, adjacent, covering every delta.
    pub bins: Vec<HistogramBin>,
    /// Whether each bar is one delta value (a lattice of values) rather than a range.
    pub discrete: bool,
    /// Smallest and largest delta, in points.
    pub min: f64,
    /// Largest delta, in points.
    pub max: f64,
    /// Δ of the primary analysis (the mean of these deltas), in points.
    pub delta: Option<f64>,
    /// Its t interval, in points.
    pub interval: Option<PointsInterval>,
    /// The largest bin count.
    pub max_count: u32,
}

/// The histogram of the per-task deltas of the candidate at `focus`.
pub fn delta_histogram(report: &Report, focus: usize) -> Result<DeltaHistogram, NoChart> {
    delta_histogram_of(report, focus, &PairedTasks::at(report, focus))
}

/// [`delta_histogram`] from the candidate's paired tasks, read already.
pub fn delta_histogram_of(
    report: &Report,
    focus: usize,
    paired: &PairedTasks,
) -> Result<DeltaHistogram, NoChart> {
    let focused = Focused::of(report, focus)?;
    let (min, max) = paired.delta_spread()?;
    let values = &paired.sorted_points;
    let tasks = values.len();
    let (bins, discrete) = match lattice_step(values) {
        Some(step) => (lattice_bins(values, step), true),
        None => (range_bins(values), false),
    };
    let max_count = bins.iter().map(|bin| bin.count).max().unwrap_or(0);
    Ok(DeltaHistogram {
        runs: focused.runs(),
        tasks,
        bins,
        discrete,
        min,
        max,
        delta: focused.delta_points(),
        interval: headline_interval(&focused.candidate.primary)
            .ok()
            .filter(|ci| ci.lower.is_finite() && ci.upper.is_finite())
            .map(|ci| PointsInterval {
                lower: ci.lower * 100.0,
                upper: ci.upper * 100.0,
                level: ci.level,
            }),
        max_count,
    })
}

/// The common step of sorted `values` when they take few distinct values, all on one lattice.
fn lattice_step(values: &[f64]) -> Option<f64> {
    let mut distinct: Vec<f64> = Vec::new();
    for &value in values {
        match distinct.last() {
            Some(&last) if value - last < SAME_VALUE => {}
            _ => {
                if distinct.len() == MAX_DISCRETE_VALUES {
                    return None;
                }
                distinct.push(value);
            }
        }
    }
    let step = distinct
        .windows(2)
        .map(|pair| pair[1] - pair[0])
        .fold(f64::INFINITY, f64::min);
    let first = *distinct.first()?;
    let span = distinct.last()? - first;
    if !step.is_finite() || step <= 0.0 || span / step > 400.0 {
        return None;
    }
    let on_lattice = distinct.iter().all(|&value| {
        let k = (value - first) / step;
        (k - k.round()).abs() < 1e-4
    });
    on_lattice.then_some(step)
}

/// One bar per lattice value from the smallest to the largest, empty values included.
fn lattice_bins(values: &[f64], step: f64) -> Vec<HistogramBin> {
    let first = values[0];
    let last_index = ((values[values.len() - 1] - first) / step).round() as usize;
    let mut bins: Vec<HistogramBin> = (0..=last_index)
        .map(|k| {
            let centre = first + k as f64 * step;
            HistogramBin {
                lower: centre - step / 2.0,
                upper: centre + step / 2.0,
                count: 0,
            }
        })
        .collect();
    for &value in values {
        let k = ((value - first) / step).round() as usize;
        if let Some(bin) = bins.get_mut(k.min(last_index)) {
            bin.count += 1;
        }
    }
    bins
}

/// About [`TARGET_BINS`] bins of a round width (1, 2, 2.5 or 5 × 10ⁿ points) with edges on its
/// multiples.
fn range_bins(values: &[f64]) -> Vec<HistogramBin> {
    let (min, max) = (values[0], values[values.len() - 1]);
    let width = nice_step((max - min) / TARGET_BINS as f64);
    let start = (min / width).floor() * width;
    let count = (((max - start) / width).floor() as usize + 1).max(1);
    let mut bins: Vec<HistogramBin> = (0..count)
        .map(|i| HistogramBin {
            lower: start + i as f64 * width,
            upper: start + (i + 1) as f64 * width,
            count: 0,
        })
        .collect();
    for &value in values {
        let index = (((value - start) / width).floor().max(0.0) as usize).min(count - 1);
        bins[index].count += 1;
    }
    bins
}

/// The smallest of 1, 2, 2.5, 5 × 10ⁿ at least `raw`.
pub fn nice_step(raw: f64) -> f64 {
    if !(raw.is_finite() && raw > 0.0) {
        return 1.0;
    }
    let magnitude = 10f64.powf(raw.log10().floor());
    let fraction = raw / magnitude;
    let nice = [1.0, 2.0, 2.5, 5.0, 10.0]
        .into_iter()
        .find(|&candidate| candidate >= fraction - 1e-9)
        .unwrap_or(10.0);
    nice * magnitude
}

impl DeltaHistogram {
    /// The x range drawn: every bin, 0, Δ and its interval, with a margin.
    fn x_range(&self) -> (f64, f64) {
        let mut low = self.bins.first().map_or(self.min, |bin| bin.lower).min(0.0);
        let mut high = self.bins.last().map_or(self.max, |bin| bin.upper).max(0.0);
        if let Some(interval) = self.interval {
            low = low.min(interval.lower);
            high = high.max(interval.upper);
        }
        let pad = (high - low) * 0.03;
        (low - pad, high + pad)
    }
}

impl Chart for DeltaHistogram {
    fn title(&self) -> String {
        format!(
            "Distribution of per-task Δ: {}",
            self.runs.shortened("−", 26)
        )
    }

    fn summary(&self) -> String {
        let mut text = format!(
            "Histogram of the per-task Δ ({} minus {}, in points) over {} scored by both runs, \
             from {} to {} points, in {} {}.",
            self.runs.candidate,
            self.runs.baseline,
            tasks_label(self.tasks),
            signed_points(self.min / 100.0),
            signed_points(self.max / 100.0),
            self.bins.len(),
            if self.discrete {
                "bars, one per value"
            } else {
                "bins"
            }
        );
        if let Some(delta) = self.delta {
            text.push_str(&format!(" Δ = {} points", signed_points(delta / 100.0)));
            if let Some(interval) = self.interval {
                text.push_str(&format!(" ({})", interval.label()));
            }
            text.push('.');
        }
        text
    }

    fn file_name(&self) -> String {
        self.runs.file_name("delta-histogram")
    }

    fn legend(&self, theme: &Theme) -> Vec<LegendEntry> {
        let mut legend = vec![LegendEntry::new(
            if self.discrete {
                "tasks per Δ value"
            } else {
                "tasks per bin"
            },
            Swatch::Fill(theme.candidate, 0.75),
        )];
        if let Some(delta) = self.delta {
            legend.push(LegendEntry::new(
                format!("Δ = {} points (mean)", signed_points(delta / 100.0)),
                Swatch::Line(theme.delta),
            ));
        }
        if let Some(interval) = self.interval {
            legend.push(LegendEntry::new(
                interval.label(),
                Swatch::Fill(theme.delta, 0.2),
            ));
        }
        legend.push(LegendEntry::new("0: no change", Swatch::Dashed(theme.axis)));
        legend
    }

    fn axes(&self) -> Axes {
        let (x_low, x_high) = self.x_range();
        let y_high = (f64::from(self.max_count) * 1.1).max(1.0);
        let mut axes = Axes::new(x_low..x_high, 0.0..y_high, points_tick, count_tick);
        axes.x_labels = 10;
        axes.x_grid = false;
        axes.x_desc = "per-task Δ = candidate − baseline (points)".to_owned();
        axes.y_desc = "tasks".to_owned();
        axes
    }

    fn draw_marks<DB: DrawingBackend>(&self, canvas: &Canvas<'_, DB>) -> DrawResult<(), DB> {
        let theme = canvas.theme;
        let y_high = canvas.axes.y.end;
        if let Some(interval) = self.interval {
            canvas.rectangle(
                (interval.lower, 0.0),
                (interval.upper, y_high),
                theme.delta.mix(0.2).filled(),
            )?;
        }
        for bin in self.bins.iter().filter(|bin| bin.count > 0) {
            // Lattice values are drawn as separate bars; ranges as adjacent ones, 1 px apart.
            let inset = if self.discrete {
                (bin.upper - bin.lower) * 0.12
            } else {
                0.0
            };
            let mut bar = Rectangle::new(
                [
                    (bin.lower + inset, 0.0),
                    (bin.upper - inset, f64::from(bin.count)),
                ],
                theme.candidate.mix(0.75).filled(),
            );
            if !self.discrete {
                bar.set_margin(0, 0, 1, 0);
            }
            canvas.plotting_area().draw(&bar)?;
        }
        canvas.dashed((0.0, 0.0), (0.0, y_high), theme.axis.stroke_width(1))?;
        if let Some(delta) = self.delta {
            canvas.line(
                vec![(delta, 0.0), (delta, y_high)],
                theme.delta.stroke_width(2),
            )?;
        }
        Ok(())
    }
}
