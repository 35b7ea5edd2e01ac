//! The organization key form: optional, used only for links to the platform's pages.

use leptos::ev::SubmitEvent;
use leptos::prelude::*;

use super::message::{FormMessage, FormMessageLine};
use crate::state::source::use_source_settings;

/// The organization key field with its Save button.
#[component]
pub fn OrgKeyForm() -> impl IntoView {
    let source = use_source_settings();
    let message = RwSignal::new(None::<FormMessage>);
    let org = RwSignal::new(untrack(|| source.org_key()).unwrap_or_default());
    let save = move |event: SubmitEvent| {
        event.prevent_default();
        let outcome = source.set_org_key(&org.get_untracked());
        message.set(Some(FormMessage::of(outcome, || "Saved.".to_owned())));
    };
    view! {
        <form class="source-form" on:submit=save>
            <label class="field-label" for="source-org">"Organization key (optional)"</label>
            <div class="input-row">
                <input
                    id="source-org"
                    type="text"
                    autocomplete="off"
                    prop:value=move || org.get()
                    on:input=move |event| org.set(event_target_value(&event))
                />
                <button class="button" type="submit">"Save"</button>
            </div>
            <p class="field-help">"Used for links to the platform's pages. Not a secret."</p>
            <FormMessageLine message/>
        </form>
    }
}
