//! Reward against checkpoint step: each checkpoint's task-weighted mean with its confidence band,
//! and the baseline's mean with its band, from the report's progression.

use eval_compare_core::report::Report;
use eval_compare_core::text::mean;
use plotters::coord::Shift;
use plotters::prelude::*;

use super::common::{
    dashed, file_safe, frame, line, pixel, plot_axes, rectangle, reward_tick, short_name, Axes,
    Chart, DrawResult, LegendEntry, NoChart, Swatch,
};
use super::histogram::level_label;
use super::theme::Theme;

/// One checkpoint.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckpointMean {
    /// Training step.
    pub step: i64,
    /// Task-weighted mean reward.
    pub mean: f64,
    /// Its confidence interval, when computable.
    pub interval: Option<(f64, f64)>,
}

/// What the progression chart draws.
#[derive(Debug, Clone, PartialEq)]
pub struct ProgressionSeries {
    /// The training run the checkpoints belong to.
    pub training_run: String,
    /// Baseline name.
    pub baseline: String,
    /// The baseline's task-weighted mean.
    pub baseline_mean: Option<f64>,
    /// Its confidence interval.
    pub baseline_interval: Option<(f64, f64)>,
    /// Confidence level of the intervals.
    pub level: f64,
    /// Checkpoints with a mean, by step.
    pub points: Vec<CheckpointMean>,
}

/// The progression chart's data: `None` when the report has no progression (the candidates are
/// not checkpoints of one training run), else the series or why it cannot be drawn.
pub fn progression_series(report: &Report) -> Option<Result<ProgressionSeries, NoChart>> {
    let progression = report.progression.as_ref()?;
    let finite = |interval: &eval_compare_core::stats::Interval| {
        (interval.lower.is_finite() && interval.upper.is_finite())
            .then_some((interval.lower, interval.upper))
    };
    let points: Vec<CheckpointMean> = progression
        .points
        .iter()
        .filter_map(|point| {
            let mean = point.mean.filter(|mean| mean.is_finite())?;
            Some(CheckpointMean {
                step: point.step,
                mean,
                interval: point.interval.as_ref().ok().and_then(finite),
            })
        })
        .collect();
    if points.len() < 2 {
        return Some(Err(NoChart::TooFewCheckpoints {
            points: points.len(),
        }));
    }
    Some(Ok(ProgressionSeries {
        training_run: progression.training_run_id.clone(),
        baseline: report
            .baseline()
            .map_or_else(|| "baseline".to_owned(), |run| run.name.clone()),
        baseline_mean: progression.baseline_mean.filter(|mean| mean.is_finite()),
        baseline_interval: progression.baseline_interval.as_ref().ok().and_then(finite),
        level: report.settings.level,
        points,
    }))
}

impl ProgressionSeries {
    fn legend(&self, theme: &Theme) -> Vec<LegendEntry> {
        let level = level_label(self.level);
        let mut legend = vec![
            LegendEntry::new("checkpoint mean", Swatch::Line(theme.candidate)),
            LegendEntry::new(
                format!("checkpoint {level} CI"),
                Swatch::Fill(theme.candidate, 0.2),
            ),
        ];
        if self.baseline_mean.is_some() {
            legend.push(LegendEntry::new(
                format!("baseline: {}", short_name(&self.baseline, 24)),
                Swatch::Dashed(theme.baseline),
            ));
        }
        if self.baseline_interval.is_some() {
            legend.push(LegendEntry::new(
                format!("baseline {level} CI"),
                Swatch::Fill(theme.baseline, 0.18),
            ));
        }
        legend
    }

    fn x_range(&self) -> (f64, f64) {
        let first = self.points.first().map_or(0, |point| point.step) as f64;
        let last = self.points.last().map_or(1, |point| point.step) as f64;
        let pad = ((last - first) * 0.06).max(1.0);
        (first - pad, last + pad)
    }
}

/// A mean with its interval for the text alternative, e.g. `0.500 (95% CI −0.075 to 1.075)`:
/// the core's mean format, negatives with the minus sign as on the rest of the page.
fn mean_label(value: f64, interval: Option<(f64, f64)>, level: f64) -> String {
    let text = mean;
    match interval {
        Some((lower, upper)) => format!(
            "{} ({} CI {} to {})",
            text(value),
            level_label(level),
            text(lower),
            text(upper)
        ),
        None => text(value),
    }
}

impl Chart for ProgressionSeries {
    fn size(&self) -> (u32, u32) {
        (640, 440)
    }

    fn title(&self) -> String {
        format!(
            "Reward by checkpoint step: {}",
            short_name(&self.training_run, 36)
        )
    }

    fn summary(&self) -> String {
        let points: Vec<String> = self
            .points
            .iter()
            .map(|point| {
                format!(
                    "step {}: {}",
                    point.step,
                    mean_label(point.mean, point.interval, self.level)
                )
            })
            .collect();
        let mut text = format!(
            "Task-weighted mean reward (0 to 1) of {} checkpoints of training run {}: {}.",
            self.points.len(),
            self.training_run,
            points.join("; ")
        );
        if let Some(mean) = self.baseline_mean {
            text.push_str(&format!(
                " Baseline {}: {}.",
                self.baseline,
                mean_label(mean, self.baseline_interval, self.level)
            ));
        }
        text
    }

    fn file_name(&self) -> String {
        format!("progression-{}.svg", file_safe(&self.training_run))
    }

    fn draw<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        theme: &Theme,
    ) -> DrawResult<(), DB> {
        draw_progression(area, self, theme)
    }
}

/// Draws the progression on `area`. The reward axis spans 0 to 1; interval ends beyond it are
/// drawn at its edge.
pub fn draw_progression<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &ProgressionSeries,
    theme: &Theme,
) -> DrawResult<(), DB> {
    let plot_area = frame(area, &data.title(), &data.legend(theme), theme)?;
    let (x_low, x_high) = data.x_range();
    let clamp = |value: f64| value.clamp(0.0, 1.0);
    let mut axes = Axes::new(x_low..x_high, 0.0..1.0, step_tick, reward_tick);
    axes.x_desc = "training step".to_owned();
    axes.y_desc = "task-weighted mean reward".to_owned();
    let plot = plot_axes(&plot_area, &axes, theme)?;

    if let Some((lower, upper)) = data.baseline_interval {
        rectangle(
            &plot,
            (x_low, clamp(lower)),
            (x_high, clamp(upper)),
            theme.baseline.mix(0.18).filled(),
        )?;
    }
    if let Some(mean) = data.baseline_mean {
        dashed(
            area,
            &plot,
            (x_low, clamp(mean)),
            (x_high, clamp(mean)),
            theme.baseline.stroke_width(2),
        )?;
    }

    // The checkpoint band joins consecutive checkpoints that have an interval.
    let mut run: Vec<(f64, f64, f64)> = Vec::new();
    let mut bands: Vec<Vec<(f64, f64, f64)>> = Vec::new();
    for point in &data.points {
        match point.interval {
            Some((lower, upper)) => run.push((point.step as f64, clamp(lower), clamp(upper))),
            None => bands.push(std::mem::take(&mut run)),
        }
    }
    bands.push(run);
    for band in bands.iter().filter(|band| band.len() >= 2) {
        let outline: Vec<(f64, f64)> = band
            .iter()
            .map(|&(step, _, upper)| (step, upper))
            .chain(band.iter().rev().map(|&(step, lower, _)| (step, lower)))
            .collect();
        plot.plotting_area()
            .draw(&Polygon::new(outline, theme.candidate.mix(0.2).filled()))?;
    }
    // Whiskers show each checkpoint's own interval, with 10 px caps.
    let whisker = theme.candidate.stroke_width(1);
    for point in &data.points {
        let Some((lower, upper)) = point.interval else {
            continue;
        };
        let step = point.step as f64;
        line(
            &plot,
            vec![(step, clamp(lower)), (step, clamp(upper))],
            whisker,
        )?;
        for end in [lower, upper] {
            let (x, y) = pixel(area, &plot, (step, clamp(end)));
            area.draw(&PathElement::new(vec![(x - 5, y), (x + 5, y)], whisker))?;
        }
    }
    line(
        &plot,
        data.points
            .iter()
            .map(|point| (point.step as f64, clamp(point.mean)))
            .collect(),
        theme.candidate.stroke_width(2),
    )?;
    for point in &data.points {
        plot.plotting_area().draw(&Circle::new(
            (point.step as f64, clamp(point.mean)),
            4.0,
            theme.candidate.filled(),
        ))?;
    }
    Ok(())
}

/// A tick label of a training step: whole steps only.
fn step_tick(value: f64) -> String {
    if value.fract() == 0.0 {
        format!("{value:.0}")
    } else {
        String::new()
    }
}
