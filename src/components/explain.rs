//! The "?" beside a number: a button that opens a short plain explanation of the statistic
//! (the core's [`explain`] text for the report's settings) in a popover. The popover is the
//! browser's own (`popover` / `popovertarget`): it closes on Escape or a click outside and
//! needs no script of ours.

use std::cell::Cell;

use eval_compare_core::report::{explain, ReportSettings, Topic};
use leptos::prelude::*;

thread_local! {
    /// Numbers the popovers' element ids, so two buttons for one topic open their own.
    static NEXT_ID: Cell<u64> = const { Cell::new(0) };
}

/// A fresh element id for the popover of `topic`.
fn popover_id(topic: Topic) -> String {
    let n = NEXT_ID.with(|next| {
        let n = next.get();
        next.set(n.wrapping_add(1));
        n
    });
    format!("explain-{}-{n}", topic.slug())
}

/// The question the button asks, e.g. "What is the pooled mean?"; also the popover's heading.
pub fn question(topic: Topic) -> String {
    topic.question()
}

/// The "?" button and its popover explaining `topic` under `settings`.
pub fn explain_button(topic: Topic, settings: &ReportSettings) -> impl IntoView {
    let id = popover_id(topic);
    let text = explain(topic, settings);
    let question = question(topic);
    view! {
        <button
            type="button"
            class="explain"
            popovertarget=id.clone()
            aria-label=question.clone()
            title=question.clone()
            data-topic=topic.slug()
        >
            "?"
        </button>
        <div popover="auto" id=id class="explain-pop" role="note">
            <p class="explain-title">{question}</p>
            <p class="explain-text">{text}</p>
        </div>
    }
}
