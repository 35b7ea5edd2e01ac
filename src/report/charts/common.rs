//! What every chart is: the [`Chart`] trait (its words, legend, axes and marks), rendering it
//! to an accessible SVG string, and the reasons a chart is not drawn. The steps every chart
//! draws alike live in [`super::frame`], its marks' shapes in [`super::canvas`], its labels
//! in [`super::labels`].

use std::fmt;

use eval_compare_core::text::html_text;
use plotters::coord::Shift;
use plotters::prelude::*;

use super::canvas::Canvas;
use super::frame::{frame, plot_axes, Axes, DrawResult, LegendEntry};
use super::labels::signed_points;
use super::theme::Theme;

/// One chart: data extracted from the report, drawn over any plotters backend. A chart says
/// what it shows (title, legend, axes) and draws its own marks; the frame and the axes are
/// drawn for every chart alike ([`Chart::draw`], with the steps of [`super::frame`]).
pub trait Chart: Clone + PartialEq + Send + Sync + 'static {
    /// Size of the drawing in pixels (the SVG's viewBox; the page scales it to its column).
    fn size(&self) -> (u32, u32) {
        (640, 440)
    }
    /// The title drawn on the chart.
    fn title(&self) -> String;
    /// A text alternative: what the chart shows, in a sentence or two.
    fn summary(&self) -> String;
    /// The file name of the downloaded SVG, without directories.
    fn file_name(&self) -> String;
    /// The legend under the title.
    fn legend(&self, theme: &Theme) -> Vec<LegendEntry>;
    /// The plot's axes: ranges, tick labels, grids and descriptions.
    fn axes(&self) -> Axes;
    /// Draws the chart's data on the plot its frame and axes laid out.
    fn draw_marks<DB: DrawingBackend>(&self, canvas: &Canvas<'_, DB>) -> DrawResult<(), DB>;
    /// Draws the whole chart on `area`: the frame with its title and legend, the axes, then
    /// the chart's marks on the plot they lay out.
    fn draw<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        theme: &Theme,
    ) -> DrawResult<(), DB> {
        let plot_area = frame(area, &self.title(), &self.legend(theme), theme)?;
        let axes = self.axes();
        let plot = plot_axes(&plot_area, &axes, theme)?;
        let canvas = Canvas {
            root: area,
            plot,
            axes,
            theme,
        };
        self.draw_marks(&canvas)
    }
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

/// Adds `role="img"`, an `aria-label` and `<title>`/`<desc>` children to an SVG document,
/// their text escaped by core's [`html_text`] (names in them are untrusted).
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
    out.push_str(&html_text(&label));
    out.push_str("\">\n<title>");
    out.push_str(&html_text(title));
    out.push_str("</title>\n<desc>");
    out.push_str(&html_text(summary));
    out.push_str("</desc>");
    out.push_str(&svg[close + 1..]);
    out
}
