//! The API key form: a password field whose typed key is never shown again, "remember on this
//! device", the key's status and Forget. A 401 or 403 elsewhere focuses the field.

use leptos::ev::SubmitEvent;
use leptos::html;
use leptos::prelude::*;

use super::message::{FormMessage, FormMessageLine};
use crate::state::source::{use_source_settings, KeyPersistence};

/// Where the key stands, in a sentence: none, kept for the tab, or remembered on the device.
pub fn key_status(has_key: bool, persistence: KeyPersistence) -> &'static str {
    match (has_key, persistence) {
        (false, _) => "No key set: requests carry none (the server's own access applies).",
        (true, KeyPersistence::Tab) => "A key is set, kept for this tab only.",
        (true, KeyPersistence::Device) => "A key is set, remembered on this device.",
    }
}

/// The API key field with Save, Remember and Forget.
#[component]
pub fn KeyForm() -> impl IntoView {
    let source = use_source_settings();
    let key_input = NodeRef::<html::Input>::new();
    let message = RwSignal::new(None::<FormMessage>);

    // A 401/403 elsewhere asks for the key field: focus it once the panel is drawn.
    Effect::new(move |previous: Option<u32>| {
        let requests = source.focus_key_requests();
        if previous.is_some_and(|previous| previous != requests)
            || (previous.is_none() && requests > 0)
        {
            request_animation_frame(move || {
                if let Some(input) = key_input.get_untracked() {
                    let _ = input.focus();
                    input.scroll_into_view();
                }
            });
        }
        requests
    });

    let save = move |event: SubmitEvent| {
        event.prevent_default();
        let Some(input) = key_input.get_untracked() else {
            return;
        };
        let persistence = untrack(|| source.key_persistence());
        let outcome = source.save_key(&input.value(), persistence);
        // The typed key leaves the field either way: it is never shown again.
        input.set_value("");
        message.set(Some(FormMessage::of(outcome, || {
            "Key saved. Pages read the API with it from now on.".to_owned()
        })));
    };
    let toggle_remember = move |event| {
        let persistence = if event_target_checked(&event) {
            KeyPersistence::Device
        } else {
            KeyPersistence::Tab
        };
        message.set(
            source
                .set_persistence(persistence)
                .err()
                .map(|error| FormMessage::refused(&error)),
        );
    };
    let forget = move |_| {
        source.forget_key();
        message.set(Some(FormMessage::saved(
            "Key forgotten: removed from this browser.",
        )));
    };
    let status = move || key_status(source.has_key(), source.key_persistence());

    view! {
        <form class="source-form" on:submit=save>
            <label class="field-label" for="source-key">"API key"</label>
            <div class="input-row">
                <input
                    id="source-key"
                    type="password"
                    autocomplete="off"
                    spellcheck="false"
                    node_ref=key_input
                />
                <button class="button" type="submit">"Save key"</button>
            </div>
            <label class="check">
                <input
                    type="checkbox"
                    prop:checked=move || source.key_persistence() == KeyPersistence::Device
                    on:change=toggle_remember
                />
                "Remember on this device"
            </label>
            <p class="field-help">
                "Kept for this tab unless remembered; sent only as the X-API-Key header, "
                "never in a link."
            </p>
            <p class="key-status" aria-live="polite">{status}</p>
            <button
                class="button button-secondary"
                type="button"
                disabled=move || !source.has_key()
                on:click=forget
            >
                "Forget key"
            </button>
            <FormMessageLine message/>
        </form>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_status_says_whether_and_where_a_key_is_kept() {
        assert!(key_status(false, KeyPersistence::Device).starts_with("No key set"));
        assert_eq!(
            key_status(true, KeyPersistence::Tab),
            "A key is set, kept for this tab only."
        );
        assert_eq!(
            key_status(true, KeyPersistence::Device),
            "A key is set, remembered on this device."
        );
    }
}
