//! The loading indicator.

use leptos::prelude::*;

/// A spinner with a short description of what is loading.
#[component]
pub fn Loading(
    /// What is being loaded, e.g. "Loading eval runs…".
    #[prop(into)]
    label: String,
) -> impl IntoView {
    view! {
        <div class="loading" role="status" aria-live="polite">
            <span class="spinner" aria-hidden="true"></span>
            <span>{label}</span>
        </div>
    }
}
