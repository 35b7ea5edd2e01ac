//! Where a chart draws its marks: the laid-out plot (data coordinates) over the whole drawing
//! (pixels) and the theme, with the shapes every chart uses — lines, rectangles, dashed lines,
//! text at a data point.

use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;

use super::frame::{Axes, DrawResult, Plot};
use super::theme::Theme;

/// Length of a dash and of the gap after it, in pixels.
const DASH: f64 = 7.0;
const GAP: f64 = 5.0;

/// A chart's plot after [`Chart::draw`](super::common::Chart::draw) drew its frame and axes.
pub struct Canvas<'a, DB: DrawingBackend> {
    /// The whole drawing, the frame included (pixel coordinates).
    pub root: &'a DrawingArea<DB, Shift>,
    /// The plot inside the axes (data coordinates).
    pub plot: Plot<'a, DB>,
    /// The axes the plot was laid out with (their ranges are the plot's).
    pub axes: Axes,
    /// The colours.
    pub theme: &'a Theme,
}

impl<DB: DrawingBackend> Canvas<'_, DB> {
    /// The plot's drawing area, for elements placed in data coordinates.
    pub fn plotting_area(&self) -> &DrawingArea<DB, Cartesian2d<RangedCoordf64, RangedCoordf64>> {
        self.plot.plotting_area()
    }

    /// A straight or broken line through `points` (data coordinates).
    pub fn line(&self, points: Vec<(f64, f64)>, style: ShapeStyle) -> DrawResult<(), DB> {
        self.plotting_area().draw(&PathElement::new(points, style))
    }

    /// A filled rectangle between two corners (data coordinates).
    pub fn rectangle(
        &self,
        from: (f64, f64),
        to: (f64, f64),
        style: ShapeStyle,
    ) -> DrawResult<(), DB> {
        self.plotting_area()
            .draw(&Rectangle::new([from, to], style))
    }

    /// A dashed straight line from `from` to `to` (data coordinates), drawn on the root in
    /// pixels.
    pub fn dashed(
        &self,
        from: (f64, f64),
        to: (f64, f64),
        style: ShapeStyle,
    ) -> DrawResult<(), DB> {
        let (x0, y0) = self.pixel(from);
        let (x1, y1) = self.pixel(to);
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
            self.root
                .draw(&PathElement::new(vec![at(start), at(start + DASH)], style))?;
            start += DASH + GAP;
        }
        Ok(())
    }

    /// Text at a point given in data coordinates, offset by `shift` pixels, drawn on the root.
    pub fn text_at(
        &self,
        text: &str,
        at: (f64, f64),
        shift: (i32, i32),
        style: &TextStyle<'_>,
    ) -> DrawResult<(), DB> {
        let (x, y) = self.pixel(at);
        self.root.draw_text(text, style, (x + shift.0, y + shift.1))
    }

    /// The pixel of a data point, relative to the root.
    pub fn pixel(&self, at: (f64, f64)) -> (i32, i32) {
        let (x, y) = self.plot.backend_coord(&at);
        let (left, top) = self.root.get_base_pixel();
        (x - left, y - top)
    }
}
