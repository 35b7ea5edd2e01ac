//! The platform form: the organization key and the platform's web address, both optional and
//! used only for links to the platform's pages (never to this server's own).

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
    let platform = RwSignal::new(untrack(|| source.platform_url()).unwrap_or_default());
    let save = move |event: SubmitEvent| {
        event.prevent_default();
        let outcome = source
            .set_platform_url(&platform.get_untracked())
            .and_then(|()| source.set_org_key(&org.get_untracked()));
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
                    bind:value=org
                />
                <button class="button" type="submit">"Save"</button>
            </div>
            <label class="field-label" for="source-platform">"Platform address (optional)"</label>
            <div class="input-row">
                <input
                    id="source-platform"
                    type="url"
                    autocomplete="off"
                    placeholder="https://…"
                    bind:value=platform
                />
            </div>
            <p class="field-help">
                "With both, the task panel links to the platform's page of a run's attempts. "
                "Neither is a secret; the address must be another server than this one."
            </p>
            <FormMessageLine message/>
        </form>
    }
}
