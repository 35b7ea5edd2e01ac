//! Keyboard navigation of the table's rows: which row a key moves to (pure, tested natively),
//! and the roving Tab stop that moves with it.

use leptos::ev;
use leptos::html;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::scroll::TableScroll;

/// What a key pressed on a row asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RowKey {
    /// Enter or Space: select the row's task.
    Select,
    /// An arrow, Page Up/Down, Home or End: move to the row at this position.
    MoveTo(usize),
}

/// What `key` does on the row at `position` of `total` rows, with `page` rows per Page Up/Down;
/// `None` for a key the table leaves to the browser.
pub fn row_key(key: &str, position: usize, total: usize, page: usize) -> Option<RowKey> {
    let last = total.saturating_sub(1);
    let target = match key {
        "Enter" | " " => return Some(RowKey::Select),
        "ArrowDown" => position.saturating_add(1).min(last),
        "ArrowUp" => position.saturating_sub(1),
        "PageDown" => position.saturating_add(page).min(last),
        "PageUp" => position.saturating_sub(page),
        "Home" => 0,
        "End" => last,
        _ => return None,
    };
    Some(RowKey::MoveTo(target))
}

/// What a row needs for keyboard navigation and selection.
#[derive(Clone, Copy)]
pub struct RowKeys {
    /// Position of the row that takes the Tab stop.
    pub active: RwSignal<usize>,
    /// Moves the Tab stop (and focus) to a position, scrolling it into view.
    move_to: Callback<usize>,
    /// Selects a task.
    select: Callback<String>,
    /// Rows per Page Up/Down.
    page: Signal<usize>,
    /// Rows shown.
    total: Signal<usize>,
}

impl RowKeys {
    /// Keys over `total` rows scrolled in `scroll`; a selection goes to `select`.
    pub fn new(
        scroll: TableScroll,
        total: Signal<usize>,
        page: Signal<usize>,
        select: Callback<String>,
    ) -> Self {
        let active = RwSignal::new(0_usize);
        let move_to = Callback::new(move |target: usize| {
            let total = total.get_untracked();
            if total == 0 {
                return;
            }
            let target = target.min(total - 1);
            active.set(target);
            scroll.show(target);
            // The row may only be rendered once the new window is: focus it on the next frame.
            request_animation_frame(move || focus_row(scroll.scroller, target));
        });
        RowKeys {
            active,
            move_to,
            select,
            page,
            total,
        }
    }

    /// The row's `tabindex`: `0` for the row holding the Tab stop, else `-1`.
    pub fn tab_index(self, position: usize) -> &'static str {
        if self.active.get() == position {
            "0"
        } else {
            "-1"
        }
    }

    /// A click on the row at `position`: it takes the Tab stop and its task is selected.
    pub fn click(self, position: usize, task_id: &str) {
        self.active.set(position);
        self.select.run(task_id.to_owned());
    }

    /// A key pressed on the row at `position`, showing `task_id`.
    pub fn keydown(self, event: &ev::KeyboardEvent, position: usize, task_id: &str) {
        let total = self.total.get_untracked();
        let page = self.page.get_untracked();
        let Some(action) = row_key(&event.key(), position, total, page) else {
            return;
        };
        event.prevent_default();
        match action {
            RowKey::Select => self.select.run(task_id.to_owned()),
            RowKey::MoveTo(target) => self.move_to.run(target),
        }
    }
}

/// Focuses the rendered row at `position`, if it is in the DOM.
fn focus_row(scroller: NodeRef<html::Div>, position: usize) {
    let Some(container) = scroller.get_untracked() else {
        return;
    };
    let selector = format!("tr[data-pos=\"{position}\"]");
    if let Ok(Some(row)) = container.query_selector(&selector) {
        if let Ok(row) = row.dyn_into::<web_sys::HtmlElement>() {
            let _ = row.focus();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn enter_and_space_select() {
        assert_eq!(row_key("Enter", 3, 10, 4), Some(RowKey::Select));
        assert_eq!(row_key(" ", 3, 10, 4), Some(RowKey::Select));
    }

    #[test]
    fn arrows_pages_home_and_end_move_within_the_rows() {
        let moves = |key| row_key(key, 3, 10, 4);
        assert_eq!(moves("ArrowDown"), Some(RowKey::MoveTo(4)));
        assert_eq!(moves("ArrowUp"), Some(RowKey::MoveTo(2)));
        assert_eq!(moves("PageDown"), Some(RowKey::MoveTo(7)));
        assert_eq!(moves("PageUp"), Some(RowKey::MoveTo(0)));
        assert_eq!(moves("Home"), Some(RowKey::MoveTo(0)));
        assert_eq!(moves("End"), Some(RowKey::MoveTo(9)));
        // At the edges they stay on the first or last row.
        assert_eq!(row_key("ArrowDown", 9, 10, 4), Some(RowKey::MoveTo(9)));
        assert_eq!(row_key("PageDown", 8, 10, 4), Some(RowKey::MoveTo(9)));
        assert_eq!(row_key("ArrowUp", 0, 10, 4), Some(RowKey::MoveTo(0)));
        assert_eq!(
            row_key("PageDown", usize::MAX, usize::MAX, 4),
            Some(RowKey::MoveTo(usize::MAX - 1))
        );
    }

    #[test]
    fn other_keys_are_left_to_the_browser() {
        for key in ["Tab", "a", "Escape", "ArrowLeft"] {
            assert_eq!(row_key(key, 0, 10, 4), None, "{key}");
        }
    }
}
