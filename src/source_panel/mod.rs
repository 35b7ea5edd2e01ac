//! The source settings: which API to read, the API key, and the organization key.

use leptos::ev::SubmitEvent;
use leptos::html;
use leptos::prelude::*;

use crate::format::capitalized;
use crate::state::source::{use_source_settings, KeyPersistence};

/// The header button that shows where data comes from and opens the settings.
#[component]
pub fn SourceButton() -> impl IntoView {
    let source = use_source_settings();
    let label = move || {
        let server = if source.is_same_origin() {
            "this server".to_owned()
        } else {
            source.base_url()
        };
        let key = match (source.has_key(), source.key_persistence()) {
            (false, _) => "no API key",
            (true, KeyPersistence::Tab) => "key set for this tab",
            (true, KeyPersistence::Device) => "key remembered",
        };
        format!("Source: {server} · {key}")
    };
    view! {
        <button
            class="source-button"
            type="button"
            aria-controls="source-panel"
            aria-expanded=move || source.panel_open().to_string()
            on:click=move |_| source.set_panel_open(!untrack(|| source.panel_open()))
        >
            {label}
        </button>
    }
}

/// The settings panel, shown while open: API address, API key (password field, "remember on
/// this device", Forget) and the optional organization key.
#[component]
pub fn SourcePanel() -> impl IntoView {
    let source = use_source_settings();
    view! {
        <Show when=move || source.panel_open()>
            <SourceForm/>
        </Show>
    }
}

/// The three forms of the panel.
#[component]
fn SourceForm() -> impl IntoView {
    let source = use_source_settings();
    let key_input = NodeRef::<html::Input>::new();
    let key_message = RwSignal::new(None::<(bool, String)>);
    let address_message = RwSignal::new(None::<(bool, String)>);
    let org_message = RwSignal::new(None::<(bool, String)>);
    let address = RwSignal::new(if untrack(|| source.is_same_origin()) {
        String::new()
    } else {
        untrack(|| source.base_url())
    });
    let org = RwSignal::new(untrack(|| source.org_key()).unwrap_or_default());

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

    let save_key = move |event: SubmitEvent| {
        event.prevent_default();
        let Some(input) = key_input.get_untracked() else {
            return;
        };
        let persistence = untrack(|| source.key_persistence());
        let outcome = source.save_key(&input.value(), persistence);
        // The typed key leaves the field either way: it is never shown again.
        input.set_value("");
        key_message.set(Some(match outcome {
            Ok(()) => (
                false,
                "Key saved. Pages read the API with it from now on.".to_owned(),
            ),
            Err(error) => (true, capitalized(&error.to_string())),
        }));
    };
    let toggle_remember = move |event| {
        let persistence = if event_target_checked(&event) {
            KeyPersistence::Device
        } else {
            KeyPersistence::Tab
        };
        key_message.set(match source.set_persistence(persistence) {
            Ok(()) => None,
            Err(error) => Some((true, capitalized(&error.to_string()))),
        });
    };
    let forget = move |_| {
        source.forget_key();
        key_message.set(Some((
            false,
            "Key forgotten: removed from this browser.".to_owned(),
        )));
    };
    let save_address = move |event: SubmitEvent| {
        event.prevent_default();
        let typed = address.get_untracked();
        address_message.set(Some(match source.set_base_url(&typed) {
            Ok(()) if typed.trim().is_empty() => (false, "Reading this server's API.".to_owned()),
            Ok(()) => (
                false,
                format!("Reading the API at {}.", untrack(|| source.base_url())),
            ),
            Err(error) => (true, capitalized(&error.to_string())),
        }));
    };
    let save_org = move |event: SubmitEvent| {
        event.prevent_default();
        org_message.set(Some(match source.set_org_key(&org.get_untracked()) {
            Ok(()) => (false, "Saved.".to_owned()),
            Err(error) => (true, capitalized(&error.to_string())),
        }));
    };
    let key_status = move || match (source.has_key(), source.key_persistence()) {
        (false, _) => "No key set: requests carry none (the server's own access applies).",
        (true, KeyPersistence::Tab) => "A key is set, kept for this tab only.",
        (true, KeyPersistence::Device) => "A key is set, remembered on this device.",
    };

    view! {
        <section id="source-panel" class="source-panel" aria-labelledby="source-panel-title">
            <div class="source-panel-head">
                <h2 id="source-panel-title" class="source-title">"Source"</h2>
                <button class="button button-secondary" type="button" on:click=move |_| source.set_panel_open(false)>
                    "Close"
                </button>
            </div>
            <div class="source-grid">
                <form class="source-form" on:submit=save_address>
                    <label class="field-label" for="source-address">"API address"</label>
                    <div class="input-row">
                        <input
                            id="source-address"
                            type="url"
                            inputmode="url"
                            placeholder=move || source.origin()
                            prop:value=move || address.get()
                            on:input=move |event| address.set(event_target_value(&event))
                        />
                        <button class="button" type="submit">"Use"</button>
                    </div>
                    <p class="field-help">
                        "Empty: this server, which serves the demo API or proxies the real one (no "
                        "cross-origin requests needed)."
                    </p>
                    <FormMessage message=address_message/>
                </form>
                <form class="source-form" on:submit=save_key>
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
                    <p class="key-status" aria-live="polite">{key_status}</p>
                    <button
                        class="button button-secondary"
                        type="button"
                        disabled=move || !source.has_key()
                        on:click=forget
                    >
                        "Forget key"
                    </button>
                    <FormMessage message=key_message/>
                </form>
                <form class="source-form" on:submit=save_org>
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
                    <FormMessage message=org_message/>
                </form>
            </div>
        </section>
    }
}

/// The outcome line under a form: an error (announced) or a confirmation.
#[component]
fn FormMessage(message: RwSignal<Option<(bool, String)>>) -> impl IntoView {
    move || {
        message.get().map(|(is_error, text)| {
            if is_error {
                view! { <p class="form-error" role="alert">{text}</p> }.into_any()
            } else {
                view! { <p class="form-ok" role="status">{text}</p> }.into_any()
            }
        })
    }
}
