//! The steps every chart draws the same way, in one place: the frame (background, title and
//! the legend wrapped onto rows), the axes (ticks, grid, descriptions) and the text styles.
//! [`Chart::draw`](super::common::Chart::draw) runs them in order and hands the laid-out plot
//! to the chart's own marks.

use std::ops::Range;

use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::theme::Theme;

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

/// Text style of chart text.
pub fn text_style(size: f64, color: &RGBColor) -> TextStyle<'static> {
    TextStyle {
        font: (FONT, size).into_font(),
        color: color.to_backend_color(),
        pos: Pos::default(),
    }
}

/// Style of axis descriptions.
fn desc_style(theme: &Theme) -> TextStyle<'static> {
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
