//! Paired Δ against the baseline by checkpoint step, with the headline interval of each step
//! as a band and whiskers and the baseline as the zero line, from the report's progression. A
//! step whose verdict is provisional (it or the baseline still runs) is drawn hollow, reached
//! by a dashed segment and labelled "running": its numbers will move.

use eval_compare_core::report::Report;
use eval_compare_core::text::{interval_points, signed_points};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::canvas::Canvas;
use super::checkpoints::{at_least_two, baseline_name, finite_interval, interval_band, step_axes};
use super::common::{Chart, NoChart};
use super::frame::{label_style, Axes, DrawResult, LegendEntry, Swatch};
use super::labels::{file_safe, level_label, points_tick, short_name};
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
                interval: point
                    .delta_interval
                    .as_ref()
                    .ok()
                    .and_then(|interval| finite_interval(interval, 100.0)),
                provisional: point.provisional,
            })
        })
        .collect();
    Some(at_least_two(points).map(|points| ProgressionDeltas {
        training_run: progression.training_run_id.clone(),
        baseline: baseline_name(report),
        level: report.settings.level,
        points,
    }))
}

impl ProgressionDeltas {
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

    fn axes(&self) -> Axes {
        let (y_low, y_high) = self.y_range();
        step_axes(
            self.points.first().map(|point| point.step),
            self.points.last().map(|point| point.step),
            y_low..y_high,
            points_tick,
            "Δ against the baseline (points)",
        )
    }

    fn draw_marks<DB: DrawingBackend>(&self, canvas: &Canvas<'_, DB>) -> DrawResult<(), DB> {
        let theme = canvas.theme;
        let (x_low, x_high) = (canvas.axes.x.start, canvas.axes.x.end);
        canvas.dashed((x_low, 0.0), (x_high, 0.0), theme.baseline.stroke_width(2))?;
        let intervals: Vec<(f64, Option<(f64, f64)>)> = self
            .points
            .iter()
            .map(|point| (point.step as f64, point.interval))
            .collect();
        interval_band(canvas, &intervals, theme.candidate)?;
        // Solid between final steps, dashed into or out of a provisional one.
        for pair in self.points.windows(2) {
            let (from, to) = (
                (pair[0].step as f64, pair[0].delta),
                (pair[1].step as f64, pair[1].delta),
            );
            if pair[0].provisional || pair[1].provisional {
                canvas.dashed(from, to, theme.candidate.stroke_width(2))?;
            } else {
                canvas.line(vec![from, to], theme.candidate.stroke_width(2))?;
            }
        }
        let label = label_style(theme).pos(Pos::new(HPos::Center, VPos::Bottom));
        for point in &self.points {
            let at = (point.step as f64, point.delta);
            if point.provisional {
                canvas.plotting_area().draw(&Circle::new(
                    at,
                    5.0,
                    ShapeStyle {
                        color: theme.background.to_rgba(),
                        filled: true,
                        stroke_width: 0,
                    },
                ))?;
                canvas.plotting_area().draw(&Circle::new(
                    at,
                    5.0,
                    theme.candidate.stroke_width(2),
                ))?;
                let (x, y) = canvas.pixel(at);
                canvas.root.draw_text("running", &label, (x, y - 9))?;
            } else {
                canvas
                    .plotting_area()
                    .draw(&Circle::new(at, 4.0, theme.candidate.filled()))?;
            }
        }
        Ok(())
    }
}
