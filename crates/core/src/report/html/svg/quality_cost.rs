//! Quality against cost, the page's chart of the cost panel as the HTML report draws it: each
//! run's Δ reward (y, points, its interval as a vertical line) against its Δ cost per attempted
//! task (x, cents), the baseline at the origin; a run no other beats on both drawn filled, the
//! others hollow. The points and the marking are the report's (`cost.quality_cost`), the same
//! the page's chart and the quality–cost table show; a run whose cost or Δ is unavailable is
//! left out (the table says why).

use std::fmt::Write;

use crate::stats::Interval;
use crate::text::html_text;

use super::super::super::Report;
use super::{c, caption, in_points, label, line, open, ticks, x_axis_in, y_axis, Frame};

/// The figure's accessible name (each run's numbers are in the table above it).
const TITLE: &str = "Quality against cost: Δ reward (points) against Δ cost per attempted task \
                     (cents), the baseline at 0, 0";

/// One run on the chart.
#[derive(Debug, Clone, PartialEq)]
struct QualityCostMark {
    /// The run's name (whole).
    pub name: String,
    /// Whether it is the baseline.
    pub baseline: bool,
    /// Δ cost per attempted task, cents.
    pub cost: f64,
    /// Δ reward, points.
    pub reward: f64,
    /// Its interval in points, where there is one.
    pub interval: Option<Interval>,
    /// No other run beats it on both.
    pub unbeaten: bool,
}

/// The runs of `report`'s quality–cost view with both a Δ reward and a Δ cost, the baseline
/// first; empty without a cost section.
fn quality_cost_marks(report: &Report) -> Vec<QualityCostMark> {
    let points = report
        .cost
        .as_ref()
        .map(|cost| cost.quality_cost.as_slice())
        .unwrap_or_default();
    points
        .iter()
        .filter_map(|point| {
            Some(QualityCostMark {
                name: report.runs.get(point.run)?.name.clone(),
                baseline: point.run == 0,
                cost: *point.cost_delta.as_ref().ok()?,
                reward: point.reward_delta.filter(|d| d.is_finite())? * 100.0,
                interval: point.reward_interval.as_ref().map(in_points),
                unbeaten: point.unbeaten,
            })
        })
        .filter(|mark| mark.cost.is_finite())
        .collect()
}

/// `values` widened to hold 0 and padded by an eighth of their span on each side (the span at
/// least `minimum`), then out to round ticks: the ticks and their range.
fn axis(values: impl Iterator<Item = f64>, minimum: f64, wanted: f64) -> (Vec<f64>, f64, f64) {
    let (low, high) = values
        .filter(|v| v.is_finite())
        .fold((0.0f64, 0.0f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
    let pad = (high - low).max(minimum) * 0.125;
    ticks(low - pad, high + pad, wanted)
}

/// The chart as inline SVG; `None` when no candidate has both a Δ reward and a Δ cost.
pub fn quality_cost(report: &Report) -> Option<String> {
    let marks = quality_cost_marks(report);
    if !marks.iter().any(|mark| !mark.baseline) {
        return None;
    }
    let (x_values, x_lo, x_hi) = axis(marks.iter().map(|m| m.cost), 0.2, 6.0);
    let (y_values, y_lo, y_hi) = axis(
        marks.iter().flat_map(|m| {
            let (lo, hi) = m
                .interval
                .map_or((m.reward, m.reward), |i| (i.lower, i.upper));
            [m.reward, lo, hi]
        }),
        2.0,
        5.0,
    );
    let frame = Frame {
        left: 70.0,
        right: 780.0,
        top: 10.0,
        bottom: 320.0,
    };
    let x = frame.x_scale(x_lo, x_hi, 0.0);
    let y = frame.y_scale(y_lo, y_hi);
    let mut out = String::new();
    open(&mut out, frame.bottom + 76.0, TITLE);
    y_axis(&mut out, &y, &y_values, frame.left, frame.right);
    x_axis_in(&mut out, &x, &x_values, (frame.bottom, frame.top), "¢");
    frame.zero_line(&mut out, &y);
    let x0 = x.at(0.0);
    line(&mut out, "zero", (x0, frame.top), (x0, frame.bottom));
    let middle = (frame.left + frame.right) / 2.0;
    for mark in &marks {
        let (px, py) = (x.at(mark.cost), y.at(mark.reward));
        if let Some(i) = mark.interval {
            line(
                &mut out,
                "interval",
                (px, y.at(i.lower)),
                (px, y.at(i.upper)),
            );
        }
        let _ = write!(
            out,
            "<circle class=\"{}\" cx=\"{}\" cy=\"{}\" r=\"6.0\"/>",
            point_class(mark.baseline, mark.unbeaten),
            c(px),
            c(py)
        );
        // A name right of its point, or left of it in the right half (so it stays inside).
        let (dx, anchor) = if px <= middle {
            (10.0, "start")
        } else {
            (-10.0, "end")
        };
        let _ = write!(
            out,
            "<text class=\"label\" x=\"{}\" y=\"{}\" text-anchor=\"{anchor}\">{}</text>",
            c(px + dx),
            c(py + 4.0),
            label(&mark.name)
        );
    }
    caption(
        &mut out,
        middle,
        frame.bottom + 32.0,
        "Δ cost per attempted task (cents)",
    );
    let _ = write!(
        out,
        "<text class=\"caption\" x=\"16.0\" y=\"{y}\" text-anchor=\"middle\" transform=\"rotate(-90 16.0 {y})\">Δ reward (points)</text>",
        y = c((frame.top + frame.bottom) / 2.0)
    );
    legend(&mut out, frame.left, frame.bottom + 58.0);
    out.push_str("</svg>");
    Some(out)
}

/// The classes of a run's point: filled when unbeaten, hollow otherwise; the baseline muted.
fn point_class(baseline: bool, unbeaten: bool) -> &'static str {
    match (baseline, unbeaten) {
        (false, true) => "point",
        (false, false) => "point hollow",
        (true, true) => "point baseline",
        (true, false) => "point baseline hollow",
    }
}

/// The legend row at `y`: the four kinds of mark.
fn legend(out: &mut String, left: f64, y: f64) {
    let mut x = left;
    for (mark, text, width) in [
        ("point", "unbeaten on both", 150.0),
        ("point hollow", "beaten by another run", 180.0),
        ("interval", "Δ reward interval", 150.0),
        ("point baseline", "baseline", 100.0),
    ] {
        if mark == "interval" {
            line(out, "interval", (x + 6.0, y - 7.0), (x + 6.0, y + 7.0));
        } else {
            let _ = write!(
                out,
                "<circle class=\"{mark}\" cx=\"{}\" cy=\"{}\" r=\"6.0\"/>",
                c(x + 6.0),
                c(y)
            );
        }
        let _ = write!(
            out,
            "<text class=\"caption\" x=\"{}\" y=\"{}\">{}</text>",
            c(x + 18.0),
            c(y + 4.0),
            html_text(text)
        );
        x += width;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_axes_hold_zero_and_every_value() {
        let (values, lo, hi) = axis([0.5, 2.0].into_iter(), 0.2, 6.0);
        assert!(lo < 0.0 && hi > 2.0);
        assert!(values.contains(&0.0));
        let (_, lo, hi) = axis(std::iter::empty(), 2.0, 5.0);
        assert!(lo < 0.0 && hi > 0.0);
    }

    #[test]
    fn points_are_filled_only_when_unbeaten() {
        assert_eq!(point_class(false, true), "point");
        assert_eq!(point_class(false, false), "point hollow");
        assert_eq!(point_class(true, false), "point baseline hollow");
    }
}
