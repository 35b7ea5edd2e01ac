//! The scorecard's figure: Δ against the baseline by checkpoint step, one line per benchmark
//! with its interval as a band, all on one axis (points), drawn by the HTML report's own SVG
//! writer (`report::html::svg`): fixed layout, one decimal per coordinate, colours from
//! classes, every label escaped.

use std::fmt::Write;

use crate::report::html::svg::{c, label, open, ticks, x_axis, y_axis, Frame};
use crate::stats::Interval;

use super::cell::CellState;
use super::Scorecard;

/// Series drawn in distinct colours; further ones repeat them.
pub const SERIES_CLASSES: usize = 6;

/// The figure's title (its accessible name).
pub const TITLE: &str =
    "Δ against each benchmark's baseline by checkpoint step, with its headline interval (points)";

struct Series<'a> {
    bench_id: &'a str,
    points: Vec<(i64, f64, Option<Interval>)>,
}

/// The figure as inline SVG; `None` when no benchmark has a Δ at two steps or more.
pub fn delta_by_step(scorecard: &Scorecard) -> Option<String> {
    let width = scorecard.steps.len();
    let series: Vec<Series<'_>> = scorecard
        .rows
        .iter()
        .enumerate()
        .map(|(r, row)| Series {
            bench_id: &row.bench_id,
            points: scorecard
                .cells
                .iter()
                .skip(r * width)
                .take(width)
                .filter_map(|cell| match &cell.state {
                    CellState::Compared { comparison } => {
                        let delta = comparison.delta? * 100.0;
                        let interval = comparison.interval().map(|i| Interval {
                            lower: i.lower * 100.0,
                            upper: i.upper * 100.0,
                            level: i.level,
                        });
                        Some((cell.step, delta, interval))
                    }
                    _ => None,
                })
                .collect(),
        })
        .collect();
    if !series.iter().any(|s| s.points.len() >= 2) {
        return None;
    }
    let (mut lo, mut hi) = (0.0f64, 0.0f64);
    for (_, delta, interval) in series.iter().flat_map(|s| &s.points) {
        lo = lo.min(*delta);
        hi = hi.max(*delta);
        if let Some(i) = interval {
            lo = lo.min(i.lower);
            hi = hi.max(i.upper);
        }
    }
    let (values, lo, hi) = ticks(lo, hi, 5.0);
    let first = *scorecard.steps.first()? as f64;
    let last = *scorecard.steps.last()? as f64;
    let (step_ticks, first, last) = ticks(first, last, 6.0);
    let frame = Frame {
        left: 60.0,
        right: 780.0,
        top: 10.0,
        bottom: 240.0,
    };
    let y = frame.y_scale(lo, hi);
    let x = frame.x_scale(first, last, 10.0);
    let legend_top = frame.bottom + 44.0;
    let height = legend_top + 18.0 * series.len() as f64 + 6.0;
    let mut out = String::new();
    open(&mut out, height, TITLE);
    y_axis(&mut out, &y, &values, frame.left, frame.right);
    x_axis(&mut out, &x, &step_ticks, frame.bottom, frame.top);
    frame.zero_line(&mut out, &y);
    for (i, s) in series.iter().enumerate() {
        let class = i % SERIES_CLASSES;
        let band: Vec<(f64, f64, f64)> = s
            .points
            .iter()
            .filter_map(|(step, _, interval)| {
                interval.map(|i| (x.at(*step as f64), y.at(i.lower), y.at(i.upper)))
            })
            .collect();
        if band.len() >= 2 {
            let mut path = String::new();
            for (j, (px, _, upper)) in band.iter().enumerate() {
                let _ = write!(
                    path,
                    "{}{},{} ",
                    if j == 0 { "M" } else { "L" },
                    c(*px),
                    c(*upper)
                );
            }
            for (px, lower, _) in band.iter().rev() {
                let _ = write!(path, "L{},{} ", c(*px), c(*lower));
            }
            let _ = write!(out, "<path class=\"band s{class}\" d=\"{path}Z\"/>");
        }
        let line: Vec<String> = s
            .points
            .iter()
            .map(|(step, delta, _)| format!("{},{}", c(x.at(*step as f64)), c(y.at(*delta))))
            .collect();
        let _ = write!(
            out,
            "<polyline class=\"series s{class}\" points=\"{}\"/>",
            line.join(" ")
        );
        for (step, delta, _) in &s.points {
            let _ = write!(
                out,
                "<circle class=\"point s{class}\" cx=\"{}\" cy=\"{}\" r=\"4.0\"/>",
                c(x.at(*step as f64)),
                c(y.at(*delta))
            );
        }
        let ly = legend_top + 18.0 * i as f64;
        let _ = write!(
            out,
            "<line class=\"series s{class}\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/><text class=\"tick\" x=\"{}\" y=\"{}\">{}</text>",
            c(frame.left),
            c(ly),
            c(frame.left + 24.0),
            c(ly),
            c(frame.left + 30.0),
            c(ly + 4.0),
            label(s.bench_id)
        );
    }
    let _ = write!(
        out,
        "<text class=\"caption\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">checkpoint step</text></svg>",
        c((frame.left + frame.right) / 2.0),
        c(frame.bottom + 34.0)
    );
    Some(out)
}

/// The colours of the series classes, light and dark (added to the report's style).
pub const SERIES_CSS: &str = "svg.figure .s0 { stroke: #1f77b4; fill: #1f77b4; }
svg.figure .s1 { stroke: #d62728; fill: #d62728; }
svg.figure .s2 { stroke: #2ca02c; fill: #2ca02c; }
svg.figure .s3 { stroke: #9467bd; fill: #9467bd; }
svg.figure .s4 { stroke: #ff7f0e; fill: #ff7f0e; }
svg.figure .s5 { stroke: #8c564b; fill: #8c564b; }
svg.figure polyline.series { fill: none; }
svg.figure path.band { stroke: none; fill-opacity: 0.12; }
";
