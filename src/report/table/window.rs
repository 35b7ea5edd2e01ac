//! Which rows of a long table to render: the ones in the scroll viewport plus some overscan.
//! Pure arithmetic, so it is tested natively.

/// Height of one body row in CSS pixels; the stylesheet fixes rows at exactly this height.
pub const ROW_HEIGHT_PX: f64 = 48.0;

/// Rows rendered beyond each edge of the viewport, so fast scrolling shows no gaps.
pub const OVERSCAN_ROWS: usize = 8;

/// A range of row positions `start..end` to render, out of `total`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RowWindow {
    /// First rendered position.
    pub start: usize,
    /// One past the last rendered position.
    pub end: usize,
    /// All rows.
    pub total: usize,
}

impl RowWindow {
    /// Height of the spacer standing in for the rows above the window.
    pub fn top_spacer_px(&self) -> f64 {
        self.start as f64 * ROW_HEIGHT_PX
    }

    /// Height of the spacer standing in for the rows below the window.
    pub fn bottom_spacer_px(&self) -> f64 {
        self.total.saturating_sub(self.end) as f64 * ROW_HEIGHT_PX
    }

    /// Number of rendered rows.
    pub fn len(&self) -> usize {
        self.end - self.start
    }

    /// Whether no row is rendered.
    pub fn is_empty(&self) -> bool {
        self.start == self.end
    }
}

/// The rows to render when the body is scrolled `scrolled_px` past its first row (the scroll
/// offset minus the header height; may be negative) and `viewport_px` of it can be seen.
pub fn row_window(scrolled_px: f64, viewport_px: f64, total: usize) -> RowWindow {
    let scrolled = if scrolled_px.is_finite() {
        scrolled_px.max(0.0)
    } else {
        0.0
    };
    let viewport = if viewport_px.is_finite() {
        viewport_px.max(0.0)
    } else {
        0.0
    };
    let first_seen = (scrolled / ROW_HEIGHT_PX).floor() as usize;
    let past_last_seen = ((scrolled + viewport) / ROW_HEIGHT_PX).ceil() as usize;
    let start = first_seen.saturating_sub(OVERSCAN_ROWS).min(total);
    let end = past_last_seen
        .saturating_add(OVERSCAN_ROWS)
        .max(start)
        .min(total);
    RowWindow { start, end, total }
}

/// The scroll offset of the body (same frame as [`row_window`]) that brings row `position`
/// into a viewport of `viewport_px` currently scrolled `scrolled_px`: unchanged when it is
/// already fully visible, else the smallest move that shows it.
pub fn scroll_to_show(position: usize, scrolled_px: f64, viewport_px: f64) -> f64 {
    let top = position as f64 * ROW_HEIGHT_PX;
    let bottom = top + ROW_HEIGHT_PX;
    if top < scrolled_px {
        top
    } else if bottom > scrolled_px + viewport_px {
        (bottom - viewport_px).max(0.0)
    } else {
        scrolled_px
    }
}

/// The scroll offset of the body (same frame as [`row_window`]) that puts row `position` in the
/// middle of a viewport of `viewport_px`, or as near as the top allows.
pub fn scroll_to_center(position: usize, viewport_px: f64) -> f64 {
    (position as f64 * ROW_HEIGHT_PX - viewport_px / 2.0).max(0.0)
}

/// How many rows one Page Up / Page Down moves in a viewport of `viewport_px`.
pub fn page_rows(viewport_px: f64) -> usize {
    ((viewport_px / ROW_HEIGHT_PX).floor() as usize)
        .saturating_sub(1)
        .max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_top_of_a_long_table_renders_the_viewport_and_overscan_below() {
        let window = row_window(0.0, 480.0, 100_000);
        assert_eq!((window.start, window.end), (0, 10 + OVERSCAN_ROWS));
        assert_eq!(window.top_spacer_px(), 0.0);
        assert_eq!(
            window.bottom_spacer_px(),
            (100_000 - 10 - OVERSCAN_ROWS) as f64 * ROW_HEIGHT_PX
        );
    }

    #[test]
    fn the_spacers_and_rows_always_add_up_to_the_full_height() {
        for scrolled in [0.0, 1.0, 47.9, 48.0, 5_000.5, 4_799_000.0, 9e9] {
            let window = row_window(scrolled, 600.0, 100_000);
            let total = window.top_spacer_px()
                + window.len() as f64 * ROW_HEIGHT_PX
                + window.bottom_spacer_px();
            assert_eq!(total, 100_000.0 * ROW_HEIGHT_PX, "at {scrolled}");
            assert!(window.len() <= 600 / 48 + 2 + 2 * OVERSCAN_ROWS);
        }
    }

    #[test]
    fn a_middle_window_covers_every_visible_row() {
        let window = row_window(48.0 * 1_000.0 + 10.0, 480.0, 100_000);
        assert_eq!(window.start, 1_000 - OVERSCAN_ROWS);
        assert_eq!(window.end, 1_011 + OVERSCAN_ROWS);
    }

    #[test]
    fn short_empty_and_hostile_inputs_stay_in_range() {
        assert_eq!(row_window(0.0, 600.0, 3).end, 3);
        assert!(row_window(0.0, 600.0, 0).is_empty());
        assert_eq!(row_window(-200.0, 600.0, 100).start, 0);
        let nan = row_window(f64::NAN, f64::INFINITY, 50);
        assert_eq!((nan.start, nan.end), (0, OVERSCAN_ROWS.min(50)));
        let past_end = row_window(1e12, 600.0, 10);
        assert_eq!((past_end.start, past_end.end), (10, 10));
    }

    #[test]
    fn scrolling_to_a_row_moves_only_as_far_as_needed() {
        // Already visible: no move.
        assert_eq!(scroll_to_show(3, 0.0, 480.0), 0.0);
        // Below: its bottom edge meets the viewport's.
        assert_eq!(scroll_to_show(20, 0.0, 480.0), 21.0 * 48.0 - 480.0);
        // Above: its top edge meets the viewport's.
        assert_eq!(scroll_to_show(2, 1_000.0, 480.0), 96.0);
    }

    #[test]
    fn centering_a_row_puts_it_mid_viewport_but_never_above_the_top() {
        assert_eq!(scroll_to_center(100, 480.0), 100.0 * 48.0 - 240.0);
        assert_eq!(scroll_to_center(2, 480.0), 0.0);
        assert_eq!(scroll_to_center(0, 0.0), 0.0);
    }

    #[test]
    fn a_page_is_one_row_less_than_a_screen() {
        assert_eq!(page_rows(480.0), 9);
        assert_eq!(page_rows(10.0), 1);
    }
}
