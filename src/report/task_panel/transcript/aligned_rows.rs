//! The aligned rows of two transcripts side by side (baseline left), paged, the first divergence
//! marked, with keyboard moves between rows.

use std::sync::Arc;

use eval_compare_core::transcript::{align, AlignedRow, SideBySide, Transcript, Unit};
use leptos::html;
use leptos::prelude::*;

use super::lines::{divergence_text, row_after_key, KEYBOARD_HINT, TURN_PAGE};
use super::view::TurnView;
use crate::report::task_panel::rows::ShowMore;

/// Where the focus waits while the rows of another pair are read: the side-by-side view.
const WAITING_FOR_ROWS: &str = "section.task-comparison";

/// The aligned rows of two transcripts (baseline left), paged, the divergence marked, with
/// keyboard moves between rows.
#[component]
pub fn AlignedRows(left: Arc<Transcript>, right: Arc<Transcript>) -> impl IntoView {
    let sbs: Arc<SideBySide> = Arc::new(align(&left, &right));
    let total = sbs.rows.len();
    let divergence_row = sbs.divergence_row;
    let shown = RwSignal::new(
        TURN_PAGE
            .max(divergence_row.map_or(0, |r| r + 1))
            .min(total),
    );
    let current = RwSignal::new(None::<usize>);
    let container = NodeRef::<html::Div>::new();
    let go_to = move |row: usize| {
        if row >= shown.get_untracked() {
            shown.set((row + 1).min(total));
        }
        current.set(Some(row));
        request_animation_frame(move || {
            let Some(container) = container.get_untracked() else {
                return;
            };
            if let Ok(Some(element)) = container.query_selector(&format!("[data-row=\"{row}\"]")) {
                element.scroll_into_view();
            }
        });
    };
    let mark = sbs.divergence.zip(divergence_row).map(|(found, row)| {
        view! {
            <p class="sbs-divergence-note" role="note">
                {divergence_text(found.kind)}
                {format!(" (exchange {})", found.exchange + 1)}
                <button type="button" class="link-button" on:click=move |_| go_to(row)>
                    "Go to divergence"
                </button>
            </p>
        }
    });
    let no_divergence = sbs.divergence.is_none().then(
        || view! { <p class="muted sbs-divergence-note">"The two attempts do not diverge."</p> },
    );
    let rows = move || {
        (0..shown.get().min(total))
            .map(|index| {
                let (left, right, sbs) = (Arc::clone(&left), Arc::clone(&right), Arc::clone(&sbs));
                view! { <RowView sbs left right index current/> }
            })
            .collect_view()
    };
    // Rows replacing those of another pair take the focus that waited on the view for them.
    Effect::new(move |_| {
        let Some(container) = container.get() else {
            return;
        };
        let waiting = document()
            .active_element()
            .is_some_and(|active| active.matches(WAITING_FOR_ROWS).unwrap_or(false));
        if waiting {
            let _ = container.focus();
        }
    });
    let on_key = move |event: web_sys::KeyboardEvent| {
        if event.alt_key() || event.ctrl_key() || event.meta_key() {
            return;
        }
        if let Some(row) =
            row_after_key(&event.key(), current.get_untracked(), total, divergence_row)
        {
            event.prevent_default();
            go_to(row);
        }
    };
    view! {
        <p class="muted sbs-hint">{KEYBOARD_HINT}</p>
        {mark}
        {no_divergence}
        <div class="sbs-rows" tabindex="0" node_ref=container on:keydown=on_key
            aria-label="Aligned turns, baseline left, candidate right">
            {rows}
        </div>
        <ShowMore shown total page=TURN_PAGE label=|left| format!("Show more rows ({left} left)")/>
    }
}

/// One aligned row: the turns of each side's unit, marked when the sides agree, when it is the
/// divergence and when it is the current row.
#[component]
fn RowView(
    sbs: Arc<SideBySide>,
    left: Arc<Transcript>,
    right: Arc<Transcript>,
    /// The row's position.
    index: usize,
    /// The row the keys moved to.
    current: RwSignal<Option<usize>>,
) -> impl IntoView {
    let row: AlignedRow = sbs.rows[index];
    let is_divergence = sbs.divergence_row == Some(index);
    let class = move || {
        let mut class = String::from("sbs-row");
        if row.same {
            class.push_str(" sbs-same");
        }
        if is_divergence {
            class.push_str(" sbs-divergence");
        }
        if current.get() == Some(index) {
            class.push_str(" sbs-current");
        }
        class
    };
    let mark = is_divergence.then(|| view! { <p class="sbs-row-mark">"▼ first divergence"</p> });
    view! {
        <div class=class data-row=index>
            {mark}
            {cell(&left, row.left, &sbs.left_units)}
            {cell(&right, row.right, &sbs.right_units)}
        </div>
    }
}

/// One side of a row: the turns of its unit, if it has one.
fn cell(transcript: &Arc<Transcript>, unit: Option<usize>, units: &[Unit]) -> impl IntoView {
    let turns = unit
        .and_then(|u| units.get(u))
        .map(|u| u.turns.clone())
        .unwrap_or(0..0)
        .map(|turn| view! { <TurnView transcript=Arc::clone(transcript) index=turn/> })
        .collect_view();
    view! { <ol class="sbs-cell transcript-turns">{turns}</ol> }
}
