//! One list of a run in the load panel: its bar and its line.

use eval_compare_core::load::ListProgress;
use leptos::prelude::*;

use super::words::{list_line, ListBar};

/// One list: a bar (items of the known total, full once complete) and "N pages · M items".
#[component]
pub fn ListLoadView(
    /// The list's progress.
    list: ListProgress,
) -> impl IntoView {
    let (text, bar) = list_line(&list);
    let label = format!("{}: {text}", list.kind.label());
    view! {
        <li class="load-list">
            <span class="load-list-name">{list.kind.label()}</span>
            {match bar {
                ListBar::Measured { value, max } => {
                    view! { <progress max=max value=value aria-label=label.clone()></progress> }
                        .into_any()
                }
                ListBar::Indeterminate => {
                    view! { <progress aria-label=label.clone()></progress> }.into_any()
                }
                ListBar::Hidden => view! { <span class="load-list-bar-none"></span> }.into_any(),
            }}
            <span class="load-list-text">{text}</span>
        </li>
    }
}
