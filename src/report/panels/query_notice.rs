//! The notice listing what a link's query asked for that the viewer ignored.

use eval_compare_core::view_state::QueryIssue;
use leptos::prelude::*;

use crate::components::button::ActionButton;

/// A dismissible notice, one line per ignored parameter ("ignored `x`: …"). Dismissed, it stays
/// hidden until the issues change (another link).
#[component]
pub fn QueryIssuesNotice(
    /// What the current query could not use.
    #[prop(into)]
    issues: Signal<Vec<QueryIssue>>,
) -> impl IntoView {
    let dismissed = RwSignal::new(None::<Vec<QueryIssue>>);
    move || {
        let current = issues.get();
        let hidden = current.is_empty() || dismissed.with(|d| d.as_ref() == Some(&current));
        (!hidden).then(|| {
            let lines = current
                .iter()
                .map(|issue| view! { <li>{issue.to_string()}</li> })
                .collect_view();
            let dismiss = {
                let current = current.clone();
                move |()| dismissed.set(Some(current.clone()))
            };
            view! {
                <div class="notice notice-caution" role="status">
                    <div class="notice-body">
                        <p class="notice-title">"Part of this link was ignored"</p>
                        <ul class="notice-list">{lines}</ul>
                    </div>
                    <ActionButton secondary=true on_click=dismiss>
                        "Dismiss"
                    </ActionButton>
                </div>
            }
        })
    }
}
