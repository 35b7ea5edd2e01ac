//! The API address form: which server's API the pages read (empty: this server's).

use leptos::ev::SubmitEvent;
use leptos::prelude::*;

use super::message::{FormMessage, FormMessageLine};
use crate::state::source::use_source_settings;

/// What saving the address `typed` says once applied, now reading `base_url`.
pub fn address_saved(typed: &str, base_url: &str) -> String {
    if typed.trim().is_empty() {
        "Reading this server's API.".to_owned()
    } else {
        format!("Reading the API at {base_url}.")
    }
}

/// The API address field with its Use button.
#[component]
pub fn AddressForm() -> impl IntoView {
    let source = use_source_settings();
    let message = RwSignal::new(None::<FormMessage>);
    let address = RwSignal::new(if untrack(|| source.is_same_origin()) {
        String::new()
    } else {
        untrack(|| source.base_url())
    });
    let save = move |event: SubmitEvent| {
        event.prevent_default();
        let typed = address.get_untracked();
        let outcome = source.set_base_url(&typed);
        message.set(Some(FormMessage::of(outcome, || {
            address_saved(&typed, &untrack(|| source.base_url()))
        })));
    };
    view! {
        <form class="source-form" on:submit=save>
            <label class="field-label" for="source-address">"API address"</label>
            <div class="input-row">
                <input
                    id="source-address"
                    type="url"
                    inputmode="url"
                    placeholder=move || source.origin()
                    bind:value=address
                />
                <button class="button" type="submit">"Use"</button>
            </div>
            <p class="field-help">
                "Empty: this server, which serves the demo API or proxies the real one (no "
                "cross-origin requests needed)."
            </p>
            <FormMessageLine message/>
        </form>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_address_reads_this_server_and_another_names_it() {
        assert_eq!(address_saved("  ", ""), "Reading this server's API.");
        assert_eq!(
            address_saved("api.example.com/", "https://api.example.com"),
            "Reading the API at https://api.example.com."
        );
    }
}
