//! The HTML report's figures as inline SVG, drawn by a small deterministic writer with a fixed
//! layout: no text is measured (labels are cut to a fixed number of characters), every
//! coordinate is written with one decimal, and colours come from the document's CSS classes
//! (so the figures follow its light and dark themes). The same report gives the same bytes on
//! every target, which the viewer's plotters charts (measuring text with the browser's fonts)
//! cannot promise.
//!
//! Every text from the data goes through [`html_text`].

use std::fmt::Write;

use crate::audit::Lifecycle;
use crate::stats::Interval;
use crate::text::{count, html_text, interval_points, signed_points};

use super::super::{CandidateResult, Report};

mod quality_cost;

pub use quality_cost::quality_cost;

/// Width of every figure, in SVG units (it scales to the page's width).
const WIDTH: f64 = 800.0;

/// Most bars of the sorted-Δ figure: one per task up to this many, quantile bins beyond (the
/// viewer's chart bins the same way).
pub const BAR_LIMIT: usize = 500;

/// Longest label drawn, in characters.
const LABEL_CHARS: usize = 26;

/// A coordinate with one decimal.
pub(crate) fn c(value: f64) -> String {
    let text = format!("{value:.1}");
    if text == "-0.0" {
        "0.0".to_owned()
    } else {
        text
    }
}

/// A label from the data, cut to [`LABEL_CHARS`] characters (with `…`) and escaped.
pub(crate) fn label(text: &str) -> String {
    let mut chars = text.chars();
    let cut: String = chars.by_ref().take(LABEL_CHARS).collect();
    if chars.next().is_some() {
        let cut: String = cut.chars().take(LABEL_CHARS - 1).collect();
        html_text(&format!("{cut}…"))
    } else {
        html_text(&cut)
    }
}

/// A linear scale from `[lo, hi]` onto `[start, end]`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Scale {
    lo: f64,
    hi: f64,
    start: f64,
    end: f64,
}

impl Scale {
    pub(crate) fn at(&self, value: f64) -> f64 {
        let span = self.hi - self.lo;
        if span <= 0.0 {
            return (self.start + self.end) / 2.0;
        }
        self.start + (value - self.lo) / span * (self.end - self.start)
    }
}

/// The plot area of a figure whose y axis is Δ in points (the sorted Δ, the progression): its
/// edges, the vertical scale and the zero line.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Frame {
    pub(crate) left: f64,
    pub(crate) right: f64,
    pub(crate) top: f64,
    pub(crate) bottom: f64,
}

impl Frame {
    /// The y axis: `[lo, hi]` from the bottom edge up to the top.
    pub(crate) fn y_scale(&self, lo: f64, hi: f64) -> Scale {
        Scale {
            lo,
            hi,
            start: self.bottom,
            end: self.top,
        }
    }

    /// The x axis: `[lo, hi]` across the frame, `inset` in from each side.
    pub(crate) fn x_scale(&self, lo: f64, hi: f64, inset: f64) -> Scale {
        Scale {
            lo,
            hi,
            start: self.left + inset,
            end: self.right - inset,
        }
    }

    /// The line of Δ = 0 across the frame.
    pub(crate) fn zero_line(&self, out: &mut String, y: &Scale) {
        let _ = write!(
            out,
            "<line class=\"zero\" x1=\"{}\" y1=\"{z}\" x2=\"{}\" y2=\"{z}\"/>",
            c(self.left),
            c(self.right),
            z = c(y.at(0.0))
        );
    }
}

/// Round tick positions covering `[lo, hi]` (about `wanted` of them), and the range they span.
pub(crate) fn ticks(lo: f64, hi: f64, wanted: f64) -> (Vec<f64>, f64, f64) {
    let (lo, hi) = if hi - lo < 1e-9 {
        (lo - 1.0, hi + 1.0)
    } else {
        (lo, hi)
    };
    let raw = (hi - lo) / wanted;
    let magnitude = crate::math::powi(
        10.0,
        (crate::math::ln(raw) / std::f64::consts::LN_10).floor() as i32,
    );
    let step = [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * magnitude)
        .find(|step| raw <= *step)
        .unwrap_or(10.0 * magnitude);
    let first = (lo / step).floor();
    let last = (hi / step).ceil();
    let values: Vec<f64> = (0..=((last - first) as i64))
        .map(|i| (first + i as f64) * step)
        .collect();
    (values, first * step, last * step)
}

/// A tick's text: as many decimals as its step needs (points, cents, or a step).
fn tick_text(value: f64, step: f64) -> String {
    let decimals = if step >= 1.0 - 1e-9 {
        0
    } else if step >= 0.1 - 1e-9 {
        1
    } else {
        2
    };
    let text = format!("{value:.decimals$}");
    let text = if text
        .trim_start_matches('-')
        .chars()
        .all(|c| c == '0' || c == '.')
    {
        text.trim_start_matches('-').to_owned()
    } else {
        text
    };
    crate::text::minus_sign(text)
}

/// The opening tag of a figure with its accessible name.
pub(crate) fn open(out: &mut String, height: f64, title: &str) {
    let _ = write!(
        out,
        "<svg class=\"figure\" viewBox=\"0 0 {} {}\" width=\"{}\" height=\"{}\" role=\"img\" aria-label=\"{}\"><title>{}</title>",
        c(WIDTH),
        c(height),
        c(WIDTH),
        c(height),
        html_text(title),
        html_text(title)
    );
}

/// A line of `class` from `(x1, y1)` to `(x2, y2)`.
pub(crate) fn line(out: &mut String, class: &str, (x1, y1): (f64, f64), (x2, y2): (f64, f64)) {
    let _ = write!(
        out,
        "<line class=\"{class}\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>",
        c(x1),
        c(y1),
        c(x2),
        c(y2)
    );
}

/// A caption centred at `x`, its baseline at `y` (escaped).
pub(crate) fn caption(out: &mut String, x: f64, y: f64, text: &str) {
    let _ = write!(
        out,
        "<text class=\"caption\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
        c(x),
        c(y),
        html_text(text)
    );
}

/// An interval of shares as points (× 100).
pub(crate) fn in_points(interval: &Interval) -> Interval {
    Interval {
        lower: interval.lower * 100.0,
        upper: interval.upper * 100.0,
        level: interval.level,
    }
}

/// The range of Δ values and their intervals, always holding 0.
pub(crate) fn delta_range<'a>(
    points: impl IntoIterator<Item = (f64, Option<&'a Interval>)>,
) -> (f64, f64) {
    let (mut lo, mut hi) = (0.0f64, 0.0f64);
    for (delta, interval) in points {
        lo = lo.min(delta);
        hi = hi.max(delta);
        if let Some(i) = interval {
            lo = lo.min(i.lower);
            hi = hi.max(i.upper);
        }
    }
    (lo, hi)
}

/// The frame of a figure of Δ (points, `lo` to `hi`) by checkpoint step (`first` to `last`),
/// its plot `bottom` edge given: opened with `title` at `height`, its axes, grid and zero line
/// drawn; returns the frame and its x and y scales.
pub(crate) fn open_by_step(
    out: &mut String,
    (lo, hi): (f64, f64),
    (first, last): (f64, f64),
    bottom: f64,
    height: f64,
    title: &str,
) -> (Frame, Scale, Scale) {
    let (values, lo, hi) = ticks(lo, hi, 5.0);
    let (step_ticks, first, last) = ticks(first, last, 6.0);
    let frame = Frame {
        left: 60.0,
        right: 780.0,
        top: 10.0,
        bottom,
    };
    let y = frame.y_scale(lo, hi);
    let x = frame.x_scale(first, last, 10.0);
    open(out, height, title);
    y_axis(out, &y, &values, frame.left, frame.right);
    x_axis(out, &x, &step_ticks, frame.bottom, frame.top);
    frame.zero_line(out, &y);
    (frame, x, y)
}

/// A series of Δ by step: its intervals as a band (when two or more have one) and its line,
/// each with `classes` after its own class (`" s0"` for a series colour, or nothing).
pub(crate) fn band_and_line(
    out: &mut String,
    (x, y): (&Scale, &Scale),
    points: &[(i64, f64, Option<Interval>)],
    classes: &str,
) {
    let band: Vec<(f64, f64, f64)> = points
        .iter()
        .filter_map(|(step, _, interval)| {
            interval.map(|i| (x.at(*step as f64), y.at(i.lower), y.at(i.upper)))
        })
        .collect();
    if band.len() >= 2 {
        let mut path = String::new();
        for (i, (px, _, upper)) in band.iter().enumerate() {
            let _ = write!(
                path,
                "{}{},{} ",
                if i == 0 { "M" } else { "L" },
                c(*px),
                c(*upper)
            );
        }
        for (px, lower, _) in band.iter().rev() {
            let _ = write!(path, "L{},{} ", c(*px), c(*lower));
        }
        let _ = write!(out, "<path class=\"band{classes}\" d=\"{path}Z\"/>");
    }
    let line: Vec<String> = points
        .iter()
        .map(|(step, delta, _)| format!("{},{}", c(x.at(*step as f64)), c(y.at(*delta))))
        .collect();
    let _ = write!(
        out,
        "<polyline class=\"series{classes}\" points=\"{}\"/>",
        line.join(" ")
    );
}

/// The spacing of evenly spaced tick `values` (1 for fewer than two), which sets their decimals.
fn tick_step(values: &[f64]) -> f64 {
    values
        .get(1)
        .zip(values.first())
        .map_or(1.0, |(b, a)| b - a)
}

/// A horizontal axis at `y` with ticks and their text.
pub(crate) fn x_axis(out: &mut String, scale: &Scale, values: &[f64], y: f64, top: f64) {
    x_axis_in(out, scale, values, (y, top), "");
}

/// A horizontal axis at `y` with ticks and their text, each followed by `unit` (the report's own
/// text, e.g. `¢`), grid lines up to `top`.
pub(crate) fn x_axis_in(
    out: &mut String,
    scale: &Scale,
    values: &[f64],
    (y, top): (f64, f64),
    unit: &str,
) {
    let step = tick_step(values);
    for &value in values {
        let x = scale.at(value);
        let _ = write!(
            out,
            "<line class=\"grid\" x1=\"{x}\" y1=\"{top}\" x2=\"{x}\" y2=\"{y}\"/><text class=\"tick\" x=\"{x}\" y=\"{}\" text-anchor=\"middle\">{}{unit}</text>",
            c(y + 14.0),
            tick_text(value, step),
            x = c(x),
            top = c(top),
            y = c(y),
        );
    }
}

/// A vertical axis at `x` with ticks and their text, grid lines to `right`.
pub(crate) fn y_axis(out: &mut String, scale: &Scale, values: &[f64], x: f64, right: f64) {
    let step = tick_step(values);
    for &value in values {
        let y = scale.at(value);
        let _ = write!(
            out,
            "<line class=\"grid\" x1=\"{x}\" y1=\"{y}\" x2=\"{right}\" y2=\"{y}\"/><text class=\"tick\" x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>",
            c(x - 4.0),
            c(y + 4.0),
            tick_text(value, step),
            x = c(x),
            y = c(y),
            right = c(right),
        );
    }
}

/// Δ with its headline interval per candidate (a forest plot), in points, with the zero line
/// and the target Δ either side.
pub fn forest(report: &Report) -> String {
    let rows: Vec<(String, Option<f64>, Option<Interval>)> = report
        .candidates
        .iter()
        .map(|candidate| {
            let name = report
                .run_of(candidate)
                .map_or("candidate", |run| run.name.as_str());
            let delta = report
                .headline(candidate)
                .estimate
                .as_ref()
                .ok()
                .map(|e| e.delta * 100.0);
            let interval = candidate.verdict.interval.as_ref().ok().map(in_points);
            (name.to_owned(), delta, interval)
        })
        .collect();
    let target = report.settings.target_delta * 100.0;
    let (mut lo, mut hi) = (-target, target);
    for (_, delta, interval) in &rows {
        for value in delta
            .iter()
            .copied()
            .chain(interval.iter().flat_map(|i| [i.lower, i.upper]))
        {
            if value.is_finite() {
                lo = lo.min(value);
                hi = hi.max(value);
            }
        }
    }
    let (values, lo, hi) = ticks(lo, hi, 8.0);
    let row_height = 30.0;
    let top = 10.0;
    let bottom = top + row_height * rows.len() as f64;
    let height = bottom + 40.0;
    let scale = Scale {
        lo,
        hi,
        start: 210.0,
        end: 640.0,
    };
    let mut out = String::new();
    open(
        &mut out,
        height,
        "Δ against the baseline with its headline interval, per candidate (points)",
    );
    x_axis(&mut out, &scale, &values, bottom, top);
    for (value, class) in [(0.0, "zero"), (-target, "target"), (target, "target")] {
        let x = scale.at(value);
        line(&mut out, class, (x, top), (x, bottom));
    }
    for (i, (name, delta, interval)) in rows.iter().enumerate() {
        let y = top + row_height * (i as f64 + 0.5);
        let _ = write!(
            out,
            "<text class=\"label\" x=\"200.0\" y=\"{}\" text-anchor=\"end\">{}</text>",
            c(y + 4.0),
            label(name)
        );
        if let Some(interval) = interval {
            let (lower, upper) = (scale.at(interval.lower), scale.at(interval.upper));
            line(&mut out, "interval", (lower, y), (upper, y));
        }
        let text = match (delta, interval) {
            (Some(delta), Some(interval)) => {
                let points = Interval {
                    lower: interval.lower / 100.0,
                    upper: interval.upper / 100.0,
                    level: interval.level,
                };
                format!(
                    "{} ({})",
                    signed_points(delta / 100.0),
                    interval_points(&points)
                )
            }
            (Some(delta), None) => signed_points(delta / 100.0),
            _ => "not computable".to_owned(),
        };
        if let Some(delta) = delta {
            let _ = write!(
                out,
                "<circle class=\"point\" cx=\"{}\" cy=\"{}\" r=\"5.0\"/>",
                c(scale.at(*delta)),
                c(y)
            );
        }
        let _ = write!(
            out,
            "<text class=\"value\" x=\"650.0\" y=\"{}\">{}</text>",
            c(y + 4.0),
            html_text(&text)
        );
    }
    caption(
        &mut out,
        (scale.start + scale.end) / 2.0,
        bottom + 32.0,
        &format!(
            "Δ in points; dashed: ± target Δ ({} points)",
            crate::text::points(report.settings.target_delta)
        ),
    );
    out.push_str("</svg>");
    out
}

/// One bar of the sorted-Δ figure over ranks `start..end`, its value in points.
struct Bar {
    start: usize,
    end: usize,
    value: f64,
}

/// The candidate's paired per-task Δ sorted ascending (one bar per task, the mean Δ of each of
/// [`BAR_LIMIT`] quantile bins beyond that many), or `None` when no task is paired.
pub fn sorted_deltas(report: &Report, candidate: &CandidateResult) -> Option<String> {
    let slot = candidate.run.checked_sub(1)?;
    let mut deltas: Vec<f64> = report
        .tasks
        .iter()
        .filter_map(|task| task.deltas.get(slot).copied().flatten())
        .filter(|d| d.is_finite())
        .map(|d| d * 100.0)
        .collect();
    if deltas.is_empty() {
        return None;
    }
    deltas.sort_by(f64::total_cmp);
    let n = deltas.len();
    let bars: Vec<Bar> = if n <= BAR_LIMIT {
        deltas
            .iter()
            .enumerate()
            .map(|(i, &value)| Bar {
                start: i,
                end: i + 1,
                value,
            })
            .collect()
    } else {
        (0..BAR_LIMIT)
            .map(|b| {
                let start = b * n / BAR_LIMIT;
                let end = (b + 1) * n / BAR_LIMIT;
                let slice = &deltas[start..end];
                Bar {
                    start,
                    end,
                    value: slice.iter().sum::<f64>() / slice.len() as f64,
                }
            })
            .collect()
    };
    let lo = deltas[0].min(0.0);
    let hi = deltas[n - 1].max(0.0);
    let (values, lo, hi) = ticks(lo, hi, 5.0);
    let frame = Frame {
        left: 60.0,
        right: 780.0,
        top: 10.0,
        bottom: 200.0,
    };
    let (left, right, bottom) = (frame.left, frame.right, frame.bottom);
    let y = frame.y_scale(lo, hi);
    let x = frame.x_scale(0.0, n as f64, 0.0);
    let name = report
        .run_of(candidate)
        .map_or("candidate", |run| run.name.as_str());
    let mut out = String::new();
    open(
        &mut out,
        bottom + 40.0,
        &format!("Per-task Δ of {name} against the baseline, sorted ascending (points)"),
    );
    y_axis(&mut out, &y, &values, left, right);
    let zero = y.at(0.0);
    for bar in &bars {
        let (x0, x1) = (x.at(bar.start as f64), x.at(bar.end as f64));
        let v = y.at(bar.value);
        let class = if bar.value < 0.0 {
            "neg"
        } else if bar.value > 0.0 {
            "pos"
        } else {
            "tie"
        };
        let (top_y, height) = if v < zero {
            (v, zero - v)
        } else {
            (zero, v - zero)
        };
        // A tie gets a hairline, so every paired task is seen.
        let height = height.max(1.0);
        let _ = write!(
            out,
            "<rect class=\"{class}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>",
            c(x0),
            c(top_y),
            c((x1 - x0).max(0.1)),
            c(height)
        );
    }
    frame.zero_line(&mut out, &y);
    let text = if n > BAR_LIMIT {
        format!(
            "{} paired tasks ranked by Δ (bars: mean Δ of {} quantile bins)",
            count(n as u64),
            count(BAR_LIMIT as u64)
        )
    } else {
        format!("{} paired tasks ranked by Δ", count(n as u64))
    };
    caption(&mut out, (left + right) / 2.0, bottom + 24.0, &text);
    out.push_str("</svg>");
    Some(out)
}

/// Per run, the union's tasks as scored, attempted but not scored, and absent (stacked bars).
pub fn coverage_bars(report: &Report) -> Option<String> {
    let union = report.coverage.union_tasks;
    if union == 0 || report.coverage.runs.is_empty() {
        return None;
    }
    let row_height = 26.0;
    let top = 8.0;
    let rows = report.coverage.runs.len() as f64;
    let bottom = top + row_height * rows;
    let scale = Scale {
        lo: 0.0,
        hi: union as f64,
        start: 210.0,
        end: 640.0,
    };
    let mut out = String::new();
    open(
        &mut out,
        bottom + 34.0,
        "Coverage of the union of tasks per run: scored, attempted but not scored, absent",
    );
    for (i, run) in report.coverage.runs.iter().enumerate() {
        let y = top + row_height * i as f64 + 4.0;
        let scored = run.tasks_scored.min(union);
        let attempted = run.tasks_attempted.clamp(scored, union);
        let _ = write!(
            out,
            "<text class=\"label\" x=\"200.0\" y=\"{}\" text-anchor=\"end\">{}</text>",
            c(y + 13.0),
            label(&run.name)
        );
        for (from, to, class) in [
            (0, scored, "scored"),
            (scored, attempted, "unscored"),
            (attempted, union, "absent"),
        ] {
            if to > from {
                let _ = write!(
                    out,
                    "<rect class=\"{class}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"18.0\"/>",
                    c(scale.at(from as f64)),
                    c(y),
                    c(scale.at(to as f64) - scale.at(from as f64))
                );
            }
        }
        let _ = write!(
            out,
            "<text class=\"value\" x=\"650.0\" y=\"{}\">{} of {} scored</text>",
            c(y + 13.0),
            count(scored),
            count(union)
        );
    }
    let _ = write!(
        out,
        "<rect class=\"scored\" x=\"210.0\" y=\"{y}\" width=\"12.0\" height=\"12.0\"/><text class=\"caption\" x=\"226.0\" y=\"{t}\">scored</text><rect class=\"unscored\" x=\"300.0\" y=\"{y}\" width=\"12.0\" height=\"12.0\"/><text class=\"caption\" x=\"316.0\" y=\"{t}\">attempted, not scored</text><rect class=\"absent\" x=\"470.0\" y=\"{y}\" width=\"12.0\" height=\"12.0\"/><text class=\"caption\" x=\"486.0\" y=\"{t}\">absent</text></svg>",
        y = c(bottom + 10.0),
        t = c(bottom + 20.0)
    );
    Some(out)
}

/// Headline Δ against the baseline by checkpoint step with its interval; a step whose run still
/// runs is drawn hollow and dashed (provisional). `None` without a progression.
pub fn progression(report: &Report) -> Option<String> {
    let progression = report.progression.as_ref()?;
    let mut running: Vec<bool> = Vec::new();
    let points: Vec<(i64, f64, Option<Interval>)> =
        progression
            .points
            .iter()
            .filter_map(|p| {
                let delta = p.delta.filter(|d| d.is_finite())? * 100.0;
                let interval = p.delta_interval.as_ref().ok().map(in_points);
                running.push(report.runs.get(p.run).is_some_and(|run| {
                    Lifecycle::of(run.status.as_deref()) == Lifecycle::NotFinished
                }));
                Some((p.step, delta, interval))
            })
            .collect();
    if points.len() < 2 {
        return None;
    }
    let range = delta_range(points.iter().map(|(_, d, i)| (*d, i.as_ref())));
    let steps = (points[0].0 as f64, points[points.len() - 1].0 as f64);
    let bottom = 220.0;
    let mut out = String::new();
    let (frame, x, y) = open_by_step(
        &mut out,
        range,
        steps,
        bottom,
        bottom + 44.0,
        "Δ against the baseline by checkpoint step, with its headline interval (points)",
    );
    band_and_line(&mut out, (&x, &y), &points, "");
    for ((step, delta, interval), running) in points.iter().zip(&running) {
        let provisional = if *running { " provisional" } else { "" };
        if let Some(i) = interval {
            let px = x.at(*step as f64);
            let class = format!("interval{provisional}");
            line(&mut out, &class, (px, y.at(i.lower)), (px, y.at(i.upper)));
        }
        let px = c(x.at(*step as f64));
        let _ = write!(
            out,
            "<circle class=\"point{provisional}\" cx=\"{px}\" cy=\"{}\" r=\"5.0\"/>",
            c(y.at(*delta))
        );
    }
    let any_running = running.contains(&true);
    caption(
        &mut out,
        (frame.left + frame.right) / 2.0,
        bottom + 34.0,
        if any_running {
            "checkpoint step; hollow, dashed: still running (provisional)"
        } else {
            "checkpoint step"
        },
    );
    out.push_str("</svg>");
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round_and_cover_the_range() {
        let (values, lo, hi) = ticks(-3.2, 7.9, 6.0);
        assert_eq!(values, [-4.0, -2.0, 0.0, 2.0, 4.0, 6.0, 8.0]);
        assert_eq!((lo, hi), (-4.0, 8.0));
        let (values, _, _) = ticks(0.0, 0.0, 5.0);
        assert!(values.first().unwrap() < &0.0 && values.last().unwrap() > &0.0);
    }

    #[test]
    fn tick_text_uses_the_minus_sign_and_no_negative_zero() {
        assert_eq!(tick_text(-2.0, 2.0), "\u{2212}2");
        assert_eq!(tick_text(-0.0, 0.5), "0.0");
        assert_eq!(tick_text(0.5, 0.5), "0.5");
        assert_eq!(tick_text(-0.05, 0.05), "\u{2212}0.05");
    }

    #[test]
    fn labels_are_cut_and_escaped() {
        assert_eq!(label("<b>"), "&lt;b&gt;");
        let long = "x".repeat(40);
        assert_eq!(label(&long).chars().count(), LABEL_CHARS);
        assert!(label(&long).ends_with('…'));
    }
}
