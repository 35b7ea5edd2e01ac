//! The row shapes the panel's stacks (trajectories, trials, transcripts) share: a failed request
//! with what to do next, a recorded error under its label, a row across the whole table and the
//! "show more" of a paged list.

use leptos::prelude::*;

use crate::failure::Explanation;

/// A failed request: what failed, the client's message, what to do next (or `note` in its
/// place) and, when given, Retry.
#[component]
pub fn ErrorNotice(
    /// What failed.
    explanation: Explanation,
    /// Classes beside `details-error`.
    #[prop(optional)]
    class: Option<&'static str>,
    /// Said in place of the explanation's hint.
    #[prop(optional, into)]
    note: Option<String>,
    /// Called by Retry; no Retry without.
    #[prop(optional, into)]
    on_retry: Option<Callback<()>>,
) -> impl IntoView {
    let class = class.map_or_else(
        || "details-error".to_owned(),
        |class| format!("details-error {class}"),
    );
    let retry = on_retry.map(|retry| {
        view! {
            <button type="button" class="link-button" on:click=move |_| retry.run(())>
                "Retry"
            </button>
        }
    });
    view! {
        <div class=class role="alert">
            <strong>{explanation.title}</strong>
            <span>{explanation.message}</span>
            <span class="muted">{note.unwrap_or(explanation.hint)}</span>
            {retry}
        </div>
    }
}

/// The action asking for an item's details: `action` is its label ("Load details", "Loading…",
/// "Retry") and whether it waits on a request; `what` names the item for screen readers.
#[component]
pub fn LoadAction(
    /// The button's class.
    class: &'static str,
    /// Its label, and whether it is disabled while a request is in flight.
    action: (&'static str, bool),
    /// The item, e.g. `trajectory tr_1`.
    what: String,
    /// Called on a click.
    on_load: Callback<()>,
) -> impl IntoView {
    let (label, busy) = action;
    view! {
        <button
            type="button"
            class=class
            disabled=busy
            aria-label=format!("{label}: {what}")
            on:click=move |_| on_load.run(())
        >
            {label}
        </button>
    }
}

/// An error recorded with a trajectory or trial: "Error" and its text, preformatted.
#[component]
pub fn RecordedError(
    /// The block's class.
    class: &'static str,
    /// The error as recorded (untrusted; a text node).
    text: String,
) -> impl IntoView {
    view! {
        <div class=class>
            <span class="details-label">"Error"</span>
            <pre class="details-error-text">{text}</pre>
        </div>
    }
}

/// A row whose one cell spans the table (`columns` wide), under the row it belongs to.
#[component]
pub fn WideRow(
    /// The row's class.
    class: &'static str,
    /// How many columns the table has.
    columns: u32,
    children: Children,
) -> impl IntoView {
    view! {
        <tr class=class>
            <td colspan=columns>{children()}</td>
        </tr>
    }
}

/// "Show more" under a paged list while some of its `total` items are not shown: each click
/// shows `page` more; `label` says what, given how many are left.
#[component]
pub fn ShowMore(
    /// How many items are shown.
    shown: RwSignal<usize>,
    /// How many there are.
    total: usize,
    /// How many each click adds.
    page: usize,
    /// The button's text for the number left.
    label: fn(usize) -> String,
) -> impl IntoView {
    move || {
        let left = total.saturating_sub(shown.get());
        (left > 0).then(|| {
            view! {
                <button
                    type="button"
                    class="button button-quiet transcript-more"
                    on:click=move |_| shown.update(|n| *n = (*n + page).min(total))
                >
                    {label(left)}
                </button>
            }
        })
    }
}
