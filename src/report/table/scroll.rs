//! The table's scroll viewport: its measured heights and scroll offset, from which the window of
//! rendered rows ([`super::window`]) follows; re-measured on mount and when the window resizes.

use leptos::ev;
use leptos::html;
use leptos::prelude::*;

use super::window::{row_window, scroll_to_center, scroll_to_show, RowWindow, ROW_HEIGHT_PX};

/// Before the table is measured: a guess of the scroll viewport and header heights.
const INITIAL_VIEWPORT_PX: f64 = 640.0;
const INITIAL_HEADER_PX: f64 = 52.0;

/// The scroll container and table head, and what was last measured of them.
#[derive(Clone, Copy)]
pub struct TableScroll {
    /// The scroll container (`.task-scroll`).
    pub scroller: NodeRef<html::Div>,
    /// The table head, whose height the body's viewport leaves out.
    pub header: NodeRef<html::Thead>,
    scroll_top: RwSignal<f64>,
    viewport_px: RwSignal<f64>,
    header_px: RwSignal<f64>,
}

impl TableScroll {
    /// A viewport measured once its container is mounted and again on every window resize
    /// (the listener goes with the current owner).
    pub fn measured() -> Self {
        let scroll = TableScroll {
            scroller: NodeRef::new(),
            header: NodeRef::new(),
            scroll_top: RwSignal::new(0.0),
            viewport_px: RwSignal::new(INITIAL_VIEWPORT_PX),
            header_px: RwSignal::new(INITIAL_HEADER_PX),
        };
        Effect::new(move |_| {
            if scroll.scroller.get().is_some() {
                scroll.measure();
            }
        });
        let resize = window_event_listener(ev::resize, move |_| scroll.measure());
        on_cleanup(move || resize.remove());
        scroll
    }

    /// Reads the container's and the head's heights and the scroll offset.
    fn measure(self) {
        if let Some(element) = self.scroller.get_untracked() {
            self.viewport_px.set(f64::from(element.client_height()));
            self.scroll_top.set(f64::from(element.scroll_top()));
        }
        if let Some(element) = self.header.get_untracked() {
            self.header_px.set(f64::from(element.offset_height()));
        }
    }

    /// The height the body rows can be seen in (at least one row); tracked.
    pub fn body_viewport(self) -> f64 {
        (self.viewport_px.get() - self.header_px.get()).max(ROW_HEIGHT_PX)
    }

    /// The height the body rows can be seen in, untracked (for scrolling to a row).
    fn visible_body_px(self) -> f64 {
        (self.viewport_px.get_untracked() - self.header_px.get_untracked()).max(0.0)
    }

    /// The rows to render out of `total`, following the scroll offset and the measured heights.
    pub fn window(self, total: Signal<usize>) -> Memo<RowWindow> {
        Memo::new(move |_| row_window(self.scroll_top.get(), self.body_viewport(), total.get()))
    }

    /// Follows a scroll of the container.
    pub fn on_scroll(self) {
        if let Some(element) = self.scroller.get_untracked() {
            self.scroll_top.set(f64::from(element.scroll_top()));
        }
    }

    /// Whether the container is mounted; tracked, so an effect asking runs again once it is.
    pub fn is_mounted(self) -> bool {
        self.scroller.get().is_some()
    }

    /// Scrolls so the row at `position` is in the middle of the viewport, or to the top when
    /// there is none.
    pub fn center_on(self, position: Option<usize>) {
        if let Some(element) = self.scroller.get_untracked() {
            let top = position.map_or(0.0, |position| {
                scroll_to_center(position, self.visible_body_px())
            });
            element.set_scroll_top(top as i32);
            self.scroll_top.set(f64::from(element.scroll_top()));
        }
    }

    /// Scrolls as little as needed to show the row at `position`.
    pub fn show(self, position: usize) {
        if let Some(element) = self.scroller.get_untracked() {
            let top = scroll_to_show(
                position,
                f64::from(element.scroll_top()),
                self.visible_body_px(),
            );
            element.set_scroll_top(top as i32);
            self.scroll_top.set(f64::from(element.scroll_top()));
        }
    }
}
