//! Distribution of the focused candidate's per-task deltas, with Δ and its confidence interval.
//!
//! Deltas of binary or few-valued rewards sit on a lattice (multiples of 1/k for k samples per
//! task): when they take at most [`MAX_DISCRETE_VALUES`] values spaced by a common step, each
//! value gets its own bar. Otherwise the deltas are counted in about [`TARGET_BINS`] bins of a
//! round width. Deltas are shown in points (reward × 100), like the report's sentences.

use eval_compare_core::report::{headline_interval, Report};
use plotters::coord::Shift;
use plotters::prelude::*;

use super::common::{
    count_tick, dashed, file_safe, frame, line, plot_axes, points_tick, rectangle, short_name,
    signed_points, tasks_label, Axes, Chart, DrawResult, LegendEntry, NoChart, Swatch,
};
use super::focus::{Focused, PairedTasks};
use super::theme::Theme;

/// Most distinct delta values drawn one bar each.
pub const MAX_DISCRETE_VALUES: usize = 60;
/// Number of bins aimed at for continuous deltas.
pub const TARGET_BINS: usize = 30;
/// Two deltas closer than this (in points) are the same value: the report rounds deltas to
/// 1e-9 reward units, i.e. 1e-7 points.
const SAME_VALUE: f64 = 1e-6;

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

/// A confidence level as a percentage: 0.95 → "95%", 0.995 → "99.5%".
pub fn level_label(level: f64) -> String {
    let percent = (level * 1000.0).round() / 10.0;
    if percent.fract() == 0.0 {
        format!("{percent:.0}%")
    } else {
        format!("{percent:.1}%")
    }
}

/// What the histogram draws.
#[derive(Debug, Clone, PartialEq)]
pub struct DeltaHistogram {
    /// Baseline name.
    pub baseline: String,
    /// Candidate name.
    pub candidate: String,
    /// Candidate run id (for the file name).
    pub candidate_id: String,
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
    let values = &paired.sorted_points;
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
    let (bins, discrete) = match lattice_step(values) {
        Some(step) => (lattice_bins(values, step), true),
        None => (range_bins(values), false),
    };
    let max_count = bins.iter().map(|bin| bin.count).max().unwrap_or(0);
    let primary = &focused.candidate.primary;
    Ok(DeltaHistogram {
        baseline: focused.baseline.name.clone(),
        candidate: focused.run.name.clone(),
        candidate_id: focused.run.id.clone(),
        tasks,
        bins,
        discrete,
        min,
        max,
        delta: primary
            .estimate
            .as_ref()
            .ok()
            .map(|estimate| estimate.delta * 100.0)
            .filter(|delta| delta.is_finite()),
        interval: headline_interval(primary)
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
    fn size(&self) -> (u32, u32) {
        (640, 440)
    }

    fn title(&self) -> String {
        format!(
            "Distribution of per-task Δ: {} − {}",
            short_name(&self.candidate, 26),
            short_name(&self.baseline, 26)
        )
    }

    fn summary(&self) -> String {
        let mut text = format!(
            "Histogram of the per-task Δ ({} minus {}, in points) over {} scored by both runs, \
             from {} to {} points, in {} {}.",
            self.candidate,
            self.baseline,
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
        format!("delta-histogram-{}.svg", file_safe(&self.candidate_id))
    }

    fn draw<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        theme: &Theme,
    ) -> DrawResult<(), DB> {
        draw_histogram(area, self, theme)
    }
}

/// Draws the histogram on `area`.
pub fn draw_histogram<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &DeltaHistogram,
    theme: &Theme,
) -> DrawResult<(), DB> {
    let plot_area = frame(area, &data.title(), &data.legend(theme), theme)?;
    let (x_low, x_high) = data.x_range();
    let y_high = (f64::from(data.max_count) * 1.1).max(1.0);
    let mut axes = Axes::new(x_low..x_high, 0.0..y_high, points_tick, count_tick);
    axes.x_labels = 10;
    axes.x_grid = false;
    axes.x_desc = "per-task Δ = candidate − baseline (points)".to_owned();
    axes.y_desc = "tasks".to_owned();
    let plot = plot_axes(&plot_area, &axes, theme)?;
    if let Some(interval) = data.interval {
        rectangle(
            &plot,
            (interval.lower, 0.0),
            (interval.upper, y_high),
            theme.delta.mix(0.2).filled(),
        )?;
    }
    for bin in data.bins.iter().filter(|bin| bin.count > 0) {
        // Lattice values are drawn as separate bars; ranges as adjacent ones, 1 px apart.
        let inset = if data.discrete {
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
        if !data.discrete {
            bar.set_margin(0, 0, 1, 0);
        }
        plot.plotting_area().draw(&bar)?;
    }
    dashed(
        area,
        &plot,
        (0.0, 0.0),
        (0.0, y_high),
        theme.axis.stroke_width(1),
    )?;
    if let Some(delta) = data.delta {
        line(
            &plot,
            vec![(delta, 0.0), (delta, y_high)],
            theme.delta.stroke_width(2),
        )?;
    }
    Ok(())
}
