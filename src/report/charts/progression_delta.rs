//! Paired Δ against the baseline by checkpoint step, with the headline interval of each step
//! as a band and whiskers and the baseline as the zero line, from the report's progression. A
//! step whose verdict is provisional (it or the baseline still runs) is drawn hollow, reached
//! by a dashed segment and labelled "running": its numbers will move.

use eval_compare_core::report::Report;
use eval_compare_core::text::{interval_points, signed_points};
use plotters::coord::Shift;
use plotters::prelude::*;

use super::common::{
    dashed, file_safe, frame, label_style, line, pixel, plot_axes, points_tick, short_name, Axes,
    Chart, DrawResult, LegendEntry, NoChart, Swatch,
};
use super::histogram::level_label;
use super::theme::Theme;

/// One checkpoint's Δ.
#[derive(Debug, Clone, PartialEq)]
pub struct DeltaPoint {
    /// Training step.
    pub step: i64,
    /// Headline Δ against the baseline, in points.
    pub delta: f64,
    /// Its headline interval in points, when computable.
    pub interval: Option<(f64, f64)>,
    /// A compared run still runs: drawn hollow and dashed.
    pub provisional: bool,
}

/// What the Δ progression chart draws.
#[derive(Debug, Clone, PartialEq)]
pub struct ProgressionDeltas {
    /// The training run the checkpoints belong to.
    pub training_run: String,
    /// Baseline name.
    pub baseline: String,
    /// Confidence level of the intervals.
    pub level: f64,
    /// Checkpoints with a Δ, by step.
    pub points: Vec<DeltaPoint>,
}

/// The chart's data: `None` without a progression, else the series or why it cannot be drawn.
pub fn progression_deltas(report: &Report) -> Option<Result<ProgressionDeltas, NoChart>> {
    let progression = report.progression.as_ref()?;
    let points: Vec<DeltaPoint> = progression
        .points
        .iter()
        .filter_map(|point| {
            let delta = point.delta.filter(|delta| delta.is_finite())?;
            Some(DeltaPoint {
                step: point.step,
                delta: delta * 100.0,
                interval: point.delta_interval.as_ref().ok().and_then(|interval| {
                    (interval.lower.is_finite() && interval.upper.is_finite())
                        .then_some((interval.lower * 100.0, interval.upper * 100.0))
                }),
                provisional: point.provisional,
            })
        })
        .collect();
    if points.len() < 2 {
        return Some(Err(NoChart::TooFewCheckpoints {
            points: points.len(),
        }));
    }
    Some(Ok(ProgressionDeltas {
        training_run: progression.training_run_id.clone(),
        baseline: report
            .baseline()
            .map_or_else(|| "baseline".to_owned(), |run| run.name.clone()),
        level: report.settings.level,
        points,
    }))
}

impl ProgressionDeltas {
    fn legend(&self, theme: &Theme) -> Vec<LegendEntry> {
        let mut legend = vec![
            LegendEntry::new("Δ vs baseline", Swatch::Line(theme.candidate)),
            LegendEntry::new(
                format!("{} interval", level_label(self.level)),
                Swatch::Fill(theme.candidate, 0.2),
            ),
            LegendEntry::new(
                format!("0 = {}", short_name(&self.baseline, 20)),
                Swatch::Dashed(theme.baseline),
            ),
        ];
        if self.points.iter().any(|point| point.provisional) {
            legend.push(LegendEntry::new(
                "provisional (running)",
                Swatch::Dashed(theme.candidate),
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

    /// From the lowest to the highest of 0, every Δ and every interval end, padded by 10%
    /// (at least ±1 point).
    fn y_range(&self) -> (f64, f64) {
        let (mut low, mut high) = (0.0_f64, 0.0_f64);
        for point in &self.points {
            low = low.min(point.delta);
            high = high.max(point.delta);
            if let Some((lower, upper)) = point.interval {
                low = low.min(lower);
                high = high.max(upper);
            }
        }
        let pad = ((high - low) * 0.1).max(1.0);
        (low - pad, high + pad)
    }
}

impl Chart for ProgressionDeltas {
    fn size(&self) -> (u32, u32) {
        (640, 440)
    }

    fn title(&self) -> String {
        format!(
            "Δ against the baseline by step: {}",
            short_name(&self.training_run, 36)
        )
    }

    fn summary(&self) -> String {
        let level = level_label(self.level);
        let points: Vec<String> = self
            .points
            .iter()
            .map(|point| {
                let interval = point.interval.map_or_else(String::new, |(lower, upper)| {
                    format!(
                        " ({level} interval {})",
                        interval_points(&eval_compare_core::stats::Interval {
                            lower: lower / 100.0,
                            upper: upper / 100.0,
                            level: self.level,
                        })
                    )
                });
                let mark = if point.provisional {
                    ", provisional: still running"
                } else {
                    ""
                };
                format!(
                    "step {}: {} points{interval}{mark}",
                    point.step,
                    signed_points(point.delta / 100.0)
                )
            })
            .collect();
        format!(
            "Paired Δ of {} checkpoints of training run {} against {} (0): {}.",
            self.points.len(),
            self.training_run,
            self.baseline,
            points.join("; ")
        )
    }

    fn file_name(&self) -> String {
        format!("progression-delta-{}.svg", file_safe(&self.training_run))
    }

    fn draw<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        theme: &Theme,
    ) -> DrawResult<(), DB> {
        draw_progression_deltas(area, self, theme)
    }
}

/// Draws the Δ progression on `area`.
pub fn draw_progression_deltas<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &ProgressionDeltas,
    theme: &Theme,
) -> DrawResult<(), DB> {
    let plot_area = frame(area, &data.title(), &data.legend(theme), theme)?;
    let (x_low, x_high) = data.x_range();
    let (y_low, y_high) = data.y_range();
    let mut axes = Axes::new(x_low..x_high, y_low..y_high, step_tick, points_tick);
    axes.x_desc = "training step".to_owned();
    axes.y_desc = "Δ against the baseline (points)".to_owned();
    let plot = plot_axes(&plot_area, &axes, theme)?;

    dashed(
        area,
        &plot,
        (x_low, 0.0),
        (x_high, 0.0),
        theme.baseline.stroke_width(2),
    )?;
    // The band joins consecutive steps that have an interval.
    let mut run: Vec<(f64, f64, f64)> = Vec::new();
    let mut bands: Vec<Vec<(f64, f64, f64)>> = Vec::new();
    for point in &data.points {
        match point.interval {
            Some((lower, upper)) => run.push((point.step as f64, lower, upper)),
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
    let whisker = theme.candidate.stroke_width(1);
    for point in &data.points {
        let Some((lower, upper)) = point.interval else {
            continue;
        };
        let step = point.step as f64;
        line(&plot, vec![(step, lower), (step, upper)], whisker)?;
        for end in [lower, upper] {
            let (x, y) = pixel(area, &plot, (step, end));
            area.draw(&PathElement::new(vec![(x - 5, y), (x + 5, y)], whisker))?;
        }
    }
    // Solid between final steps, dashed into or out of a provisional one.
    for pair in data.points.windows(2) {
        let (from, to) = (
            (pair[0].step as f64, pair[0].delta),
            (pair[1].step as f64, pair[1].delta),
        );
        if pair[0].provisional || pair[1].provisional {
            dashed(area, &plot, from, to, theme.candidate.stroke_width(2))?;
        } else {
            line(&plot, vec![from, to], theme.candidate.stroke_width(2))?;
        }
    }
    let label = label_style(theme).pos(plotters::style::text_anchor::Pos::new(
        plotters::style::text_anchor::HPos::Center,
        plotters::style::text_anchor::VPos::Bottom,
    ));
    for point in &data.points {
        let at = (point.step as f64, point.delta);
        if point.provisional {
            plot.plotting_area().draw(&Circle::new(
                at,
                5.0,
                ShapeStyle {
                    color: theme.background.to_rgba(),
                    filled: true,
                    stroke_width: 0,
                },
            ))?;
            plot.plotting_area()
                .draw(&Circle::new(at, 5.0, theme.candidate.stroke_width(2)))?;
            let (x, y) = pixel(area, &plot, at);
            area.draw_text("running", &label, (x, y - 9))?;
        } else {
            plot.plotting_area()
                .draw(&Circle::new(at, 4.0, theme.candidate.filled()))?;
        }
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
