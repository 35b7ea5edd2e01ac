//! The source settings: which API to read, the API key, and the organization key.
//!
//! [`SourceButton`] in the header opens [`SourcePanel`], which holds one form per setting:
//! [`address_form`], [`key_form`] and [`org_key_form`]; each shows its outcome with
//! [`message`].
//!
//! May import: the core, `state`, `format`.

pub mod address_form;
pub mod key_form;
pub mod message;
pub mod org_key_form;

use leptos::prelude::*;

use crate::state::source::{use_source_settings, KeyPersistence};
use address_form::AddressForm;
use key_form::KeyForm;
use org_key_form::OrgKeyForm;

/// The source button's text: the server read (`None`: this server) and where the key stands.
pub fn source_label(server: Option<&str>, has_key: bool, persistence: KeyPersistence) -> String {
    let server = server.unwrap_or("this server");
    let key = match (has_key, persistence) {
        (false, _) => "no API key",
        (true, KeyPersistence::Tab) => "key set for this tab",
        (true, KeyPersistence::Device) => "key remembered",
    };
    format!("Source: {server} · {key}")
}

/// The header button that shows where data comes from and opens the settings.
#[component]
pub fn SourceButton() -> impl IntoView {
    let source = use_source_settings();
    let label = move || {
        let server = (!source.is_same_origin()).then(|| source.base_url());
        source_label(
            server.as_deref(),
            source.has_key(),
            source.key_persistence(),
        )
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
            <section id="source-panel" class="source-panel" aria-labelledby="source-panel-title">
                <div class="source-panel-head">
                    <h2 id="source-panel-title" class="source-title">"Source"</h2>
                    <button class="button button-secondary" type="button" on:click=move |_| source.set_panel_open(false)>
                        "Close"
                    </button>
                </div>
                <div class="source-grid">
                    <AddressForm/>
                    <KeyForm/>
                    <OrgKeyForm/>
                </div>
            </section>
        </Show>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_button_names_the_server_and_where_the_key_is() {
        assert_eq!(
            source_label(None, false, KeyPersistence::Device),
            "Source: this server · no API key"
        );
        assert_eq!(
            source_label(Some("https://api.example.com"), true, KeyPersistence::Tab),
            "Source: https://api.example.com · key set for this tab"
        );
        assert_eq!(
            source_label(None, true, KeyPersistence::Device),
            "Source: this server · key remembered"
        );
    }
}
