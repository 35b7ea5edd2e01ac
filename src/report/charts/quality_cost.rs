//! Quality against cost: each candidate's Δ reward (y, points, with its interval as a bar)
//! against its Δ cost per attempted task (x, cents), the baseline at the origin; the runs no
//! other beats on both filled, the others hollow. The points and the marking are the core's
//! (`report.cost.quality_cost`); a run whose cost or Δ is unavailable is left out (the cost
//! panel's table says why).

use eval_compare_core::report::{signed_cents, Report};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::canvas::Canvas;
use super::common::{Chart, NoChart};
use super::frame::{label_style, Axes, DrawResult, LegendEntry, Swatch};
use super::labels::{points_tick, short_name, signed_points};
use super::theme::Theme;

/// One run on the chart.
#[derive(Debug, Clone, PartialEq)]
pub struct QualityCostMark {
    /// Shown name.
    pub name: String,
    /// Whether it is the baseline.
    pub baseline: bool,
    /// Δ cost per attempted task, cents.
    pub cost: f64,
    /// Δ reward, points.
    pub reward: f64,
    /// Its interval in points, where there is one.
    pub interval: Option<(f64, f64)>,
    /// No other run beats it on both.
    pub unbeaten: bool,
}

/// What the chart draws.
#[derive(Debug, Clone, PartialEq)]
pub struct QualityCostChart {
    /// The runs with both coordinates: the baseline first.
    pub marks: Vec<QualityCostMark>,
}

/// The chart of `report`'s quality–cost view; [`NoChart::NoCandidate`] when no candidate has
/// both a Δ reward and a Δ cost.
pub fn quality_cost_chart(report: &Report) -> Result<QualityCostChart, NoChart> {
    let points = report
        .cost
        .as_ref()
        .map(|c| c.quality_cost.as_slice())
        .unwrap_or_default();
    let marks: Vec<QualityCostMark> = points
        .iter()
        .filter_map(|point| {
            Some(QualityCostMark {
                name: report.runs.get(point.run)?.name.clone(),
                baseline: point.run == 0,
                cost: *point.cost_delta.as_ref().ok()?,
                reward: point.reward_delta? * 100.0,
                interval: point
                    .reward_interval
                    .as_ref()
                    .map(|i| (i.lower * 100.0, i.upper * 100.0)),
                unbeaten: point.unbeaten,
            })
        })
        .collect();
    if !marks.iter().any(|mark| !mark.baseline) {
        return Err(NoChart::NoCandidate);
    }
    Ok(QualityCostChart { marks })
}

/// A tick of the cost axis: `+0.4¢`, `0¢`.
fn cents_tick(value: f64) -> String {
    let rounded = (value * 100.0).round() / 100.0;
    if rounded == 0.0 {
        "0¢".to_owned()
    } else {
        format!("{rounded:+}¢").replace('-', "\u{2212}")
    }
}

/// `range` widened to hold 0 and padded by a tenth on each side (at least `minimum` wide).
fn padded(values: impl Iterator<Item = f64>, minimum: f64) -> std::ops::Range<f64> {
    let (low, high) = values.fold((0.0f64, 0.0f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
    let span = (high - low).max(minimum);
    (low - span * 0.12)..(high + span * 0.12)
}

impl Chart for QualityCostChart {
    fn size(&self) -> (u32, u32) {
        (640, 440)
    }

    fn title(&self) -> String {
        "Quality against cost".to_owned()
    }

    fn summary(&self) -> String {
        let each: Vec<String> = self
            .marks
            .iter()
            .filter(|mark| !mark.baseline)
            .map(|mark| {
                format!(
                    "{}: {} points for {} per task{}",
                    mark.name,
                    signed_points(mark.reward / 100.0),
                    signed_cents(mark.cost),
                    if mark.unbeaten { ", unbeaten" } else { "" }
                )
            })
            .collect();
        format!(
            "Δ reward (points, y) against Δ cost per attempted task (cents, x), the baseline at \
             0, 0. {}.",
            each.join("; ")
        )
    }

    fn file_name(&self) -> String {
        "quality-cost.svg".to_owned()
    }

    fn legend(&self, theme: &Theme) -> Vec<LegendEntry> {
        vec![
            LegendEntry::new("unbeaten on both", Swatch::Marker(theme.candidate)),
            LegendEntry::new("beaten by another run", Swatch::Line(theme.candidate)),
            LegendEntry::new("Δ reward interval", Swatch::Line(theme.muted)),
            LegendEntry::new("baseline", Swatch::Marker(theme.baseline)),
        ]
    }

    fn axes(&self) -> Axes {
        let x = padded(self.marks.iter().map(|m| m.cost), 0.2);
        let y = padded(
            self.marks.iter().flat_map(|m| {
                let (lo, hi) = m.interval.unwrap_or((m.reward, m.reward));
                [m.reward, lo, hi]
            }),
            2.0,
        );
        let mut axes = Axes::new(x, y, cents_tick, points_tick);
        axes.x_desc = "Δ cost per attempted task (cents)".to_owned();
        axes.y_desc = "Δ reward (points)".to_owned();
        axes
    }

    fn draw_marks<DB: DrawingBackend>(&self, canvas: &Canvas<'_, DB>) -> DrawResult<(), DB> {
        let theme = canvas.theme;
        let (x, y) = (canvas.axes.x.clone(), canvas.axes.y.clone());
        canvas.dashed((x.start, 0.0), (x.end, 0.0), theme.axis.stroke_width(1))?;
        canvas.dashed((0.0, y.start), (0.0, y.end), theme.axis.stroke_width(1))?;
        let name_style = label_style(theme).pos(Pos::new(HPos::Left, VPos::Center));
        let drawing = canvas.plotting_area();
        for mark in &self.marks {
            let colour = if mark.baseline {
                theme.baseline
            } else {
                theme.candidate
            };
            if let Some((lower, upper)) = mark.interval {
                canvas.line(
                    vec![(mark.cost, lower), (mark.cost, upper)],
                    theme.muted.stroke_width(2),
                )?;
            }
            let at = (mark.cost, mark.reward);
            if mark.unbeaten {
                drawing.draw(&Circle::new(at, 6.0, colour.filled()))?;
            } else {
                drawing.draw(&Circle::new(at, 6.0, colour.stroke_width(2)))?;
            }
            canvas.text_at(&short_name(&mark.name, 24), at, (10, 0), &name_style)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cost_ticks_carry_the_sign_and_the_cent_sign() {
        assert_eq!(cents_tick(0.0), "0¢");
        assert_eq!(cents_tick(0.4), "+0.4¢");
        assert_eq!(cents_tick(-1.25), "\u{2212}1.25¢");
    }

    #[test]
    fn the_axes_hold_zero_and_every_mark() {
        let range = padded([0.5, 2.0].into_iter(), 0.2);
        assert!(range.start < 0.0 && range.end > 2.0);
        let flat = padded(std::iter::empty(), 2.0);
        assert!(flat.start < 0.0 && flat.end > 0.0);
    }
}
