//! What every chart shares: the [`Chart`] trait, rendering to an accessible SVG string, the
//! frame (background, title, legend), text styles, number formats and the reasons a chart is
//! not drawn.

use std::fmt;
use std::ops::Range;

use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::theme::Theme;

/// A whole count with thousands separators: 12345 → "12,345".
pub use eval_compare_core::text::count as count_label;
/// A reward difference in points with its sign, as the cards write it ("+4.1", "−2.0").
pub use eval_compare_core::text::signed_points;

/// Font family of all chart text (kept generic so an exported SVG renders anywhere).
pub const FONT: &str = "sans-serif";

/// Plotters font sizes. The SVG backend writes `size / 1.24` as the CSS font size, so these give
/// 16 px titles, 13 px axis descriptions and 12 px tick labels and legend entries.
const TITLE_SIZE: f64 = 20.0;
const DESC_SIZE: f64 = 16.0;
const LABEL_SIZE: f64 = 15.0;

/// Padding around the frame, in pixels.
const PAD: i32 = 14;
/// Height of the title line and of one legend row.
const TITLE_HEIGHT: i32 = 24;
const LEGEND_ROW: i32 = 20;
/// Width of a legend swatch.
const SWATCH: i32 = 18;

/// Error of a drawing backend, as plotters reports it.
pub type DrawResult<T, DB> = Result<T, DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

/// One chart: data extracted from the report, drawn over any plotters backend.
pub trait Chart: Clone + PartialEq + Send + Sync + 'static {
    /// Size of the drawing in pixels (the SVG's viewBox; the page scales it to its column).
    fn size(&self) -> (u32, u32);
    /// The title drawn on the chart.
    fn title(&self) -> String;
    /// A text alternative: what the chart shows, in a sentence or two.
    fn summary(&self) -> String;
    /// The file name of the downloaded SVG, without directories.
    fn file_name(&self) -> String;
    /// Draws the chart on `area`.
    fn draw<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        theme: &Theme,
    ) -> DrawResult<(), DB>;
}

/// Why a chart shows a message instead of a drawing.
#[derive(Debug, Clone, PartialEq)]
pub enum NoChart {
    /// The focus does not name a candidate of the report.
    NoCandidate,
    /// Fewer paired tasks than a chart needs.
    TooFewTasks {
        /// Paired tasks available.
        tasks: usize,
    },
    /// Every paired task has the same Δ, so there is no distribution to show.
    AllDeltasEqual {
        /// Paired tasks.
        tasks: usize,
        /// Their common Δ (reward units).
        delta: f64,
    },
    /// No run has a trajectory.
    NoTrajectories,
    /// Fewer than two checkpoints have a mean.
    TooFewCheckpoints {
        /// Checkpoints with a mean.
        points: usize,
    },
}

impl fmt::Display for NoChart {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NoChart::NoCandidate => write!(f, "Not enough data: no candidate run is selected."),
            NoChart::TooFewTasks { tasks: 0 } => write!(
                f,
                "Not enough data: no task was scored by both the baseline and this candidate."
            ),
            NoChart::TooFewTasks { tasks: 1 } => write!(
                f,
                "Not enough data: only 1 task was scored by both runs; a chart needs at least 2."
            ),
            NoChart::TooFewTasks { tasks } => write!(
                f,
                "Not enough data: only {tasks} tasks were scored by both runs."
            ),
            NoChart::AllDeltasEqual { tasks, delta } => write!(
                f,
                "Not enough data to chart a distribution: all {tasks} paired tasks have the same \
                 Δ ({} points).",
                signed_points(*delta)
            ),
            NoChart::NoTrajectories => {
                write!(f, "Not enough data: no run has a trajectory yet.")
            }
            NoChart::TooFewCheckpoints { points } => write!(
                f,
                "Not enough data: {points} checkpoint(s) have a mean reward; a progression needs \
                 at least 2."
            ),
        }
    }
}

/// Why a drawing failed (plotters' error, as text).
#[derive(Debug, Clone, PartialEq)]
pub struct RenderError(pub String);

impl fmt::Display for RenderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the chart could not be drawn: {}", self.0)
    }
}

/// Renders a chart to a standalone SVG document with `role="img"`, an `aria-label`, `<title>`
/// and `<desc>`: the same string is shown on the page and downloaded.
pub fn render_svg<C: Chart>(chart: &C, theme: &Theme) -> Result<String, RenderError> {
    let mut raw = String::new();
    {
        let backend = SVGBackend::with_string(&mut raw, chart.size());
        let area = backend.into_drawing_area();
        chart
            .draw(&area, theme)
            .map_err(|e| RenderError(e.to_string()))?;
        area.present().map_err(|e| RenderError(e.to_string()))?;
    }
    Ok(accessible_svg(&raw, &chart.title(), &chart.summary()))
}

/// Adds `role="img"`, an `aria-label` and `<title>`/`<desc>` children to an SVG document.
pub fn accessible_svg(svg: &str, title: &str, summary: &str) -> String {
    let Some(open) = svg.find("<svg") else {
        return svg.to_owned();
    };
    let Some(close) = svg[open..].find('>').map(|i| open + i) else {
        return svg.to_owned();
    };
    let label = format!("{title}. {summary}");
    let mut out = String::with_capacity(svg.len() + 2 * label.len() + 96);
    out.push_str(&svg[..close]);
    out.push_str(" role=\"img\" aria-label=\"");
    out.push_str(&escape_xml(&label));
    out.push_str("\">\n<title>");
    out.push_str(&escape_xml(title));
    out.push_str("</title>\n<desc>");
    out.push_str(&escape_xml(summary));
    out.push_str("</desc>");
    out.push_str(&svg[close + 1..]);
    out
}

/// Escapes text for XML content and attribute values.
pub fn escape_xml(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}

/// Text style of chart text.
pub fn text_style(size: f64, color: &RGBColor) -> TextStyle<'static> {
    TextStyle {
        font: (FONT, size).into_font(),
        color: color.to_backend_color(),
        pos: Pos::default(),
    }
}

/// Style of axis descriptions.
pub fn desc_style(theme: &Theme) -> TextStyle<'static> {
    text_style(DESC_SIZE, &theme.text)
}

/// Style of tick labels and legend entries.
pub fn label_style(theme: &Theme) -> TextStyle<'static> {
    text_style(LABEL_SIZE, &theme.muted)
}

/// How a legend entry is drawn.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Swatch {
    /// A solid line.
    Line(RGBColor),
    /// A dashed line.
    Dashed(RGBColor),
    /// A filled box, with opacity.
    Fill(RGBColor, f64),
    /// A filled circle.
    Marker(RGBColor),
}

/// One legend entry.
#[derive(Debug, Clone, PartialEq)]
pub struct LegendEntry {
    /// What the swatch stands for.
    pub label: String,
    /// How it is drawn.
    pub swatch: Swatch,
}

impl LegendEntry {
    /// An entry.
    pub fn new(label: impl Into<String>, swatch: Swatch) -> Self {
        LegendEntry {
            label: label.into(),
            swatch,
        }
    }
}

/// Fills the background, draws the title and the legend (wrapped onto rows) and returns the
/// area left for the plot.
pub fn frame<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    title: &str,
    legend: &[LegendEntry],
    theme: &Theme,
) -> DrawResult<DrawingArea<DB, Shift>, DB> {
    area.fill(&theme.background)?;
    let (width, _) = area.dim_in_pixel();
    let width = i32::try_from(width).unwrap_or(i32::MAX);
    let title_style = TextStyle {
        font: (FONT, TITLE_SIZE, FontStyle::Bold).into_font(),
        color: theme.text.to_backend_color(),
        pos: Pos::new(HPos::Left, VPos::Top),
    };
    area.draw_text(title, &title_style, (PAD, PAD))?;

    let entry_style = label_style(theme).pos(Pos::new(HPos::Left, VPos::Center));
    let mut x = PAD;
    let mut y = PAD + TITLE_HEIGHT + 4;
    for entry in legend {
        let item = SWATCH + 6 + estimated_text_width(&entry.label, LABEL_SIZE) + 18;
        if x > PAD && x + item > width - PAD {
            x = PAD;
            y += LEGEND_ROW;
        }
        let middle = y + LEGEND_ROW / 2;
        draw_swatch(area, entry.swatch, x, middle)?;
        area.draw_text(&entry.label, &entry_style, (x + SWATCH + 6, middle))?;
        x += item;
    }
    let used = if legend.is_empty() { y } else { y + LEGEND_ROW } + 6;
    Ok(area.split_vertically(used).1)
}

/// About how wide `text` is in a sans-serif font of `size` pixels, from widths per kind of
/// character (generous, so entries placed by it do not overlap). Plotters would measure it in
/// the page, which in the browser forces a layout of the whole page per legend entry (tens of
/// milliseconds at 100,000 tasks); the estimate is the same natively and in the browser.
fn estimated_text_width(text: &str, size: f64) -> i32 {
    let ems: f64 = text
        .chars()
        .map(|c| match c {
            ' ' | 'i' | 'j' | 'l' | 'I' | '.' | ',' | ':' | ';' | '\'' | '|' | '!' => 0.3,
            'f' | 't' | 'r' | '(' | ')' | '[' | ']' | '-' | '/' => 0.38,
            'm' | 'w' => 0.85,
            'M' | 'W' => 0.95,
            '0'..='9' | 'a'..='z' | '+' | '=' | '<' | '>' | '≤' | '≥' | '±' | '·' => 0.58,
            'A'..='Z' | '%' | '&' | '@' | '#' => 0.72,
            // CJK, emoji and the like take a whole em; other letters about as much as capitals.
            c if u32::from(c) >= 0x2E80 => 1.0,
            _ => 0.72,
        })
        .sum();
    (ems * size).ceil() as i32
}

fn draw_swatch<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    swatch: Swatch,
    x: i32,
    middle: i32,
) -> DrawResult<(), DB> {
    match swatch {
        Swatch::Line(color) => area.draw(&PathElement::new(
            vec![(x, middle), (x + SWATCH, middle)],
            color.stroke_width(2),
        )),
        Swatch::Dashed(color) => {
            area.draw(&PathElement::new(
                vec![(x, middle), (x + 7, middle)],
                color.stroke_width(2),
            ))?;
            area.draw(&PathElement::new(
                vec![(x + 11, middle), (x + SWATCH, middle)],
                color.stroke_width(2),
            ))
        }
        Swatch::Fill(color, opacity) => area.draw(&Rectangle::new(
            [(x, middle - 6), (x + SWATCH, middle + 6)],
            color.mix(opacity).filled(),
        )),
        Swatch::Marker(color) => area.draw(&Circle::new(
            (x + SWATCH / 2, middle),
            5,
            color.mix(0.6).filled(),
        )),
    }
}

/// A chart's plotting context: both axes are numeric. Every chart uses this one coordinate
/// type (and draws elements straight on its plotting area), so plotters' generic chart code is
/// compiled once for all of them.
pub type Plot<'a, DB> = ChartContext<'a, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// The axes of a chart.
#[derive(Debug, Clone)]
pub struct Axes {
    /// Range of the x axis.
    pub x: Range<f64>,
    /// Range of the y axis.
    pub y: Range<f64>,
    /// Description under the x axis.
    pub x_desc: String,
    /// Description beside the y axis (empty: none).
    pub y_desc: String,
    /// Most tick labels on x.
    pub x_labels: usize,
    /// Most tick labels on y.
    pub y_labels: usize,
    /// Tick label of an x value.
    pub x_format: fn(f64) -> String,
    /// Tick label of a y value.
    pub y_format: fn(f64) -> String,
    /// Vertical grid lines at the x ticks.
    pub x_grid: bool,
    /// Horizontal grid lines at the y ticks.
    pub y_grid: bool,
    /// Whether the y axis is drawn with its ticks (off when the chart labels rows itself).
    pub y_axis: bool,
    /// Width of the area left of the plot for y tick labels and description.
    pub y_label_area: u32,
}

impl Axes {
    /// Axes over `x` and `y` with the usual label areas, grids on both axes.
    pub fn new(
        x: Range<f64>,
        y: Range<f64>,
        x_format: fn(f64) -> String,
        y_format: fn(f64) -> String,
    ) -> Self {
        Axes {
            x,
            y,
            x_desc: String::new(),
            y_desc: String::new(),
            x_labels: 8,
            y_labels: 6,
            x_format,
            y_format,
            x_grid: true,
            y_grid: true,
            y_axis: true,
            y_label_area: 62,
        }
    }
}

/// Lays out the plot in `area` and draws its axes, ticks, grid and axis descriptions.
pub fn plot_axes<'a, DB: DrawingBackend>(
    area: &'a DrawingArea<DB, Shift>,
    axes: &Axes,
    theme: &Theme,
) -> DrawResult<Plot<'a, DB>, DB> {
    let mut chart = ChartBuilder::on(area)
        .margin_left(8)
        .margin_right(24)
        .margin_bottom(8)
        .x_label_area_size(50)
        .y_label_area_size(axes.y_label_area)
        .build_cartesian_2d(axes.x.clone(), axes.y.clone())?;
    let x_format = |value: &f64| (axes.x_format)(*value);
    let y_format = |value: &f64| (axes.y_format)(*value);
    let mut mesh = chart.configure_mesh();
    mesh.max_light_lines(0)
        .bold_line_style(theme.grid)
        .axis_style(theme.axis)
        .label_style(label_style(theme))
        .axis_desc_style(desc_style(theme))
        .x_labels(axes.x_labels)
        .y_labels(axes.y_labels)
        .x_label_formatter(&x_format)
        .y_label_formatter(&y_format)
        .x_desc(axes.x_desc.as_str());
    if !axes.y_desc.is_empty() {
        mesh.y_desc(axes.y_desc.as_str());
    }
    if !axes.x_grid {
        mesh.disable_x_mesh();
    }
    if !axes.y_grid {
        mesh.disable_y_mesh();
    }
    if !axes.y_axis {
        mesh.disable_y_axis();
    }
    mesh.draw()?;
    Ok(chart)
}

/// A straight or broken line through `points` (data coordinates).
pub fn line<DB: DrawingBackend>(
    plot: &Plot<'_, DB>,
    points: Vec<(f64, f64)>,
    style: ShapeStyle,
) -> DrawResult<(), DB> {
    plot.plotting_area().draw(&PathElement::new(points, style))
}

/// A filled rectangle between two corners (data coordinates).
pub fn rectangle<DB: DrawingBackend>(
    plot: &Plot<'_, DB>,
    from: (f64, f64),
    to: (f64, f64),
    style: ShapeStyle,
) -> DrawResult<(), DB> {
    plot.plotting_area()
        .draw(&Rectangle::new([from, to], style))
}

/// A dashed straight line from `from` to `to` (data coordinates), drawn on `root` (the area the
/// chart's frame was drawn on) in pixels.
pub fn dashed<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    plot: &Plot<'_, DB>,
    from: (f64, f64),
    to: (f64, f64),
    style: ShapeStyle,
) -> DrawResult<(), DB> {
    const DASH: f64 = 7.0;
    const GAP: f64 = 5.0;
    let (x0, y0) = pixel(root, plot, from);
    let (x1, y1) = pixel(root, plot, to);
    let (dx, dy) = (f64::from(x1 - x0), f64::from(y1 - y0));
    let length = dx.hypot(dy);
    if length < 1.0 {
        return Ok(());
    }
    let at = |distance: f64| -> (i32, i32) {
        let share = distance.min(length) / length;
        (
            x0 + (dx * share).round() as i32,
            y0 + (dy * share).round() as i32,
        )
    };
    let mut start = 0.0;
    while start < length {
        root.draw(&PathElement::new(vec![at(start), at(start + DASH)], style))?;
        start += DASH + GAP;
    }
    Ok(())
}

/// Text at a point given in data coordinates, offset by `shift` pixels, drawn on `root`.
pub fn text_at<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    plot: &Plot<'_, DB>,
    text: &str,
    at: (f64, f64),
    shift: (i32, i32),
    style: &TextStyle<'_>,
) -> DrawResult<(), DB> {
    let (x, y) = pixel(root, plot, at);
    root.draw_text(text, style, (x + shift.0, y + shift.1))
}

/// The pixel of a data point, relative to `root`.
pub fn pixel<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    plot: &Plot<'_, DB>,
    at: (f64, f64),
) -> (i32, i32) {
    let (x, y) = plot.backend_coord(&at);
    let (left, top) = root.get_base_pixel();
    (x - left, y - top)
}

/// A tick label for a value in points: integers without decimals, others with one.
pub fn points_tick(value: f64) -> String {
    let rounded = (value * 10.0).round() / 10.0;
    if rounded == 0.0 {
        "0".to_owned()
    } else if rounded.fract() == 0.0 {
        format!("{rounded:+.0}")
    } else {
        format!("{rounded:+.1}")
    }
}

/// A tick label for a reward in [0, 1].
pub fn reward_tick(value: f64) -> String {
    let rounded = (value * 100.0).round() / 100.0;
    if rounded == 0.0 {
        "0".to_owned()
    } else if (rounded * 10.0).fract() == 0.0 {
        format!("{rounded:.1}")
    } else {
        format!("{rounded:.2}")
    }
}

/// A count tick label (axis values are whole numbers of tasks or trajectories).
pub fn count_tick(value: f64) -> String {
    if value.fract() == 0.0 && value >= 0.0 {
        count_label(value as u64)
    } else {
        String::new()
    }
}

/// `name` shortened to at most `max` characters, with "…" when cut
/// ([`eval_compare_core::text::shorten`]).
pub fn short_name(name: &str, max: usize) -> String {
    eval_compare_core::text::shorten(name, max).into_owned()
}

/// "1 task" / "12 tasks" / "1,403 tasks".
pub fn tasks_label(count: usize) -> String {
    eval_compare_core::text::plural(count as u64, "task", "tasks")
}

/// A file-name-safe version of a run id or name.
pub fn file_safe(text: &str) -> String {
    let safe: String = text
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '-'
            }
        })
        .collect();
    let trimmed = safe.trim_matches('-');
    if trimmed.is_empty() {
        "run".to_owned()
    } else {
        trimmed.chars().take(60).collect()
    }
}
