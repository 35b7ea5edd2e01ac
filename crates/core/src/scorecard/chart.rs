//! The scorecard's figure: Δ against the baseline by checkpoint step, one line per benchmark
//! with its interval as a band, all on one axis (points), drawn by the HTML report's own SVG
//! writer (`report::html::svg`): fixed layout, one decimal per coordinate, colours from
//! classes, every label escaped.

use std::fmt::Write;

use crate::report::html::svg::{
    band_and_line, c, caption, delta_range, in_points, label, open_by_step,
};
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
                        let interval = comparison.interval().as_ref().map(in_points);
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
    let range = delta_range(
        series
            .iter()
            .flat_map(|s| &s.points)
            .map(|(_, delta, interval)| (*delta, interval.as_ref())),
    );
    let steps = (
        *scorecard.steps.first()? as f64,
        *scorecard.steps.last()? as f64,
    );
    let bottom = 240.0;
    let legend_top = bottom + 44.0;
    let height = legend_top + 18.0 * series.len() as f64 + 6.0;
    let mut out = String::new();
    let (frame, x, y) = open_by_step(&mut out, range, steps, bottom, height, TITLE);
    for (i, s) in series.iter().enumerate() {
        let class = i % SERIES_CLASSES;
        band_and_line(&mut out, (&x, &y), &s.points, &format!(" s{class}"));
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
    caption(
        &mut out,
        (frame.left + frame.right) / 2.0,
        frame.bottom + 34.0,
        "checkpoint step",
    );
    out.push_str("</svg>");
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
