//! A failed API call explained to the user, with Retry, and for a refused key a way to the key
//! field.

use eval_compare_core::client::ApiError;
use leptos::prelude::*;

use super::button::ActionButton;
use crate::failure::explain;
use crate::state::source::use_source_settings;

/// Whether the API refused the caller's credentials.
pub fn is_access_refused(error: &ApiError) -> bool {
    matches!(error.status(), Some(401 | 403))
}

/// "Enter API key": opens the source settings at the key field (for a refused key).
#[component]
pub fn EnterKeyButton() -> impl IntoView {
    let source = use_source_settings();
    view! {
        <ActionButton secondary=true on_click=move |()| source.open_key_field()>
            "Enter API key"
        </ActionButton>
    }
}

/// The error panel of one failed API call: what failed, the details, what to do, and Retry.
///
/// On 401 or 403 it says whether a key was sent ([`explain`]) and offers a button that opens
/// the source settings at the key field.
#[component]
pub fn ApiErrorPanel(
    /// The failure.
    error: ApiError,
    /// The API address, named in connection failures.
    #[prop(into)]
    base_url: String,
    /// Called when the user asks to try again.
    on_retry: Callback<()>,
    /// What was being read, e.g. "Run eval_ckpt_s300 — trajectory rewards"; shown above the title.
    #[prop(optional, into)]
    context: Option<String>,
) -> impl IntoView {
    let explanation = explain(&error, &base_url);
    let refused = is_access_refused(&error);
    let hint = explanation.hint;
    view! {
        <div class="error-panel" role="alert">
            {context.map(|context| view! { <p class="error-context">{context}</p> })}
            <h2 class="error-title">{explanation.title}</h2>
            <p class="error-message">{explanation.message}</p>
            <p class="error-hint">{hint}</p>
            <div class="button-row">
                {refused.then(|| view! { <EnterKeyButton/> })}
                <ActionButton on_click=on_retry>"Retry"</ActionButton>
            </div>
        </div>
    }
}
