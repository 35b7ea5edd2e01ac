//! Reward against checkpoint step: each checkpoint's task-weighted mean with its confidence band,
//! and the baseline's mean with its band, from the report's progression.

use eval_compare_core::report::Report;
use eval_compare_core::text::mean;
use plotters::prelude::*;

use super::canvas::Canvas;
use super::checkpoints::{at_least_two, baseline_name, finite_interval, interval_band, step_axes};
use super::common::{Chart, NoChart};
use super::frame::{Axes, DrawResult, LegendEntry, Swatch};
use super::labels::{file_safe, level_label, reward_tick, short_name};
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
    let finite = |interval: &eval_compare_core::stats::Interval| finite_interval(interval, 1.0);
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
    Some(at_least_two(points).map(|points| ProgressionSeries {
        training_run: progression.training_run_id.clone(),
        baseline: baseline_name(report),
        baseline_mean: progression.baseline_mean.filter(|mean| mean.is_finite()),
        baseline_interval: progression.baseline_interval.as_ref().ok().and_then(finite),
        level: report.settings.level,
        points,
    }))
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

    fn axes(&self) -> Axes {
        step_axes(
            self.points.first().map(|point| point.step),
            self.points.last().map(|point| point.step),
            0.0..1.0,
            reward_tick,
            "task-weighted mean reward",
        )
    }

    /// The reward axis spans 0 to 1; interval ends beyond it are drawn at its edge.
    fn draw_marks<DB: DrawingBackend>(&self, canvas: &Canvas<'_, DB>) -> DrawResult<(), DB> {
        let theme = canvas.theme;
        let (x_low, x_high) = (canvas.axes.x.start, canvas.axes.x.end);
        let clamp = |value: f64| value.clamp(0.0, 1.0);
        if let Some((lower, upper)) = self.baseline_interval {
            canvas.rectangle(
                (x_low, clamp(lower)),
                (x_high, clamp(upper)),
                theme.baseline.mix(0.18).filled(),
            )?;
        }
        if let Some(mean) = self.baseline_mean {
            canvas.dashed(
                (x_low, clamp(mean)),
                (x_high, clamp(mean)),
                theme.baseline.stroke_width(2),
            )?;
        }
        let intervals: Vec<(f64, Option<(f64, f64)>)> = self
            .points
            .iter()
            .map(|point| {
                let interval = point
                    .interval
                    .map(|(lower, upper)| (clamp(lower), clamp(upper)));
                (point.step as f64, interval)
            })
            .collect();
        interval_band(canvas, &intervals, theme.candidate)?;
        canvas.line(
            self.points
                .iter()
                .map(|point| (point.step as f64, clamp(point.mean)))
                .collect(),
            theme.candidate.stroke_width(2),
        )?;
        for point in &self.points {
            canvas.plotting_area().draw(&Circle::new(
                (point.step as f64, clamp(point.mean)),
                4.0,
                theme.candidate.filled(),
            ))?;
        }
        Ok(())
    }
}
