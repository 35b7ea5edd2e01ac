//! What the two progression charts (reward by step, Δ by step) share: the checkpoints read from
//! the report's progression, the x axis of training steps, and each checkpoint's interval drawn
//! as a band joining consecutive checkpoints with a whisker per checkpoint.

use std::ops::Range;

use eval_compare_core::report::Report;
use eval_compare_core::stats::Interval;
use plotters::prelude::*;

use super::canvas::Canvas;
use super::common::NoChart;
use super::frame::{Axes, DrawResult};
use super::labels::step_tick;

/// The baseline's name, "baseline" when the report has none.
pub fn baseline_name(report: &Report) -> String {
    report
        .baseline()
        .map_or_else(|| "baseline".to_owned(), |run| run.name.clone())
}

/// The checkpoints of a progression, or why fewer than two cannot be drawn as one.
pub fn at_least_two<T>(points: Vec<T>) -> Result<Vec<T>, NoChart> {
    if points.len() < 2 {
        return Err(NoChart::TooFewCheckpoints {
            points: points.len(),
        });
    }
    Ok(points)
}

/// The ends of `interval` times `scale` (1 for rewards, 100 for points), when both are finite.
pub fn finite_interval(interval: &Interval, scale: f64) -> Option<(f64, f64)> {
    (interval.lower.is_finite() && interval.upper.is_finite())
        .then_some((interval.lower * scale, interval.upper * scale))
}

/// Axes with training steps on x, from the `first` to the `last` checkpoint's step padded by 6%
/// (at least one step), and `y` described by `y_desc`.
pub fn step_axes(
    first: Option<i64>,
    last: Option<i64>,
    y: Range<f64>,
    y_format: fn(f64) -> String,
    y_desc: &str,
) -> Axes {
    let first = first.unwrap_or(0) as f64;
    let last = last.unwrap_or(1) as f64;
    let pad = ((last - first) * 0.06).max(1.0);
    let mut axes = Axes::new(first - pad..last + pad, y, step_tick, y_format);
    axes.x_desc = "training step".to_owned();
    axes.y_desc = y_desc.to_owned();
    axes
}

/// Draws the intervals of checkpoints given as (step, interval): a band in `color` joining
/// consecutive checkpoints that have one, then each checkpoint's own interval as a whisker with
/// 10 px caps.
pub fn interval_band<DB: DrawingBackend>(
    canvas: &Canvas<'_, DB>,
    intervals: &[(f64, Option<(f64, f64)>)],
    color: RGBColor,
) -> DrawResult<(), DB> {
    let mut run: Vec<(f64, f64, f64)> = Vec::new();
    let mut bands: Vec<Vec<(f64, f64, f64)>> = Vec::new();
    for &(step, interval) in intervals {
        match interval {
            Some((lower, upper)) => run.push((step, lower, upper)),
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
        canvas
            .plotting_area()
            .draw(&Polygon::new(outline, color.mix(0.2).filled()))?;
    }
    let whisker = color.stroke_width(1);
    for &(step, interval) in intervals {
        let Some((lower, upper)) = interval else {
            continue;
        };
        canvas.line(vec![(step, lower), (step, upper)], whisker)?;
        for end in [lower, upper] {
            let (x, y) = canvas.pixel((step, end));
            canvas
                .root
                .draw(&PathElement::new(vec![(x - 5, y), (x + 5, y)], whisker))?;
        }
    }
    Ok(())
}
