//! A failure shown to the user, with what to do next and a Retry button.

use leptos::prelude::*;

/// An error message with a hint and a Retry button.
#[component]
pub fn ErrorPanel(
    /// One line saying what failed.
    #[prop(into)]
    title: String,
    /// The details (never containing the API key).
    #[prop(into)]
    message: String,
    /// What the user can do about it.
    #[prop(into)]
    hint: String,
    /// Called when the user asks to try again.
    on_retry: Callback<()>,
) -> impl IntoView {
    view! {
        <div class="error-panel" role="alert">
            <h2 class="error-title">{title}</h2>
            <p class="error-message">{message}</p>
            <p class="error-hint">{hint}</p>
            <button class="button" type="button" on:click=move |_| on_retry.run(())>
                "Retry"
            </button>
        </div>
    }
}
