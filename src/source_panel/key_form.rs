//! The API key form: a password field whose typed key is never shown again, "remember on this
//! device", the key's status and Forget. A saved key is checked at once with the API
//! (`GET /api/v1/organizations/current`), so a wrong key is reported as wrong. A 401 or 403
//! elsewhere focuses the field.

use eval_compare_core::api::Organization;
use eval_compare_core::client::{ApiError, TrajectoryClient};
use eval_compare_core::text::visible;
use leptos::ev::SubmitEvent;
use leptos::html;
use leptos::prelude::*;
use leptos::task::spawn_local;

use super::message::{FormMessage, FormMessageLine};
use crate::failure::explain;
use crate::state::source::{use_source_settings, KeyPersistence};
use crate::transport::FetchTransport;

/// What the check of a just-saved key found: accepted (naming the organization when the API
/// says), refused as wrong (401, 403), or not checkable (the API could not be read: the key
/// stays saved, unverified).
pub fn key_check_message(base_url: &str, outcome: &Result<Organization, ApiError>) -> FormMessage {
    match outcome {
        Ok(organization) => FormMessage::saved(match organization.organization_id() {
            Some(id) => format!(
                "Key saved and accepted by the API at {base_url} (organization {}).",
                visible(id)
            ),
            None => format!("Key saved and accepted by the API at {base_url}."),
        }),
        Err(error) if matches!(error.status(), Some(401 | 403)) => FormMessage::Refused(format!(
            "The API at {base_url} refused this key (HTTP {}): it is wrong, expired or lacks \
             access. It stays saved until you replace or forget it.",
            error.status().unwrap_or_default()
        )),
        Err(error) => {
            let explanation = explain(error, base_url);
            FormMessage::Refused(format!(
                "Key saved, but it could not be checked: {}. {}",
                explanation.title, explanation.hint
            ))
        }
    }
}

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
        let saved = outcome.is_ok();
        let base_url = untrack(|| source.base_url());
        message.set(Some(FormMessage::of(outcome, || {
            format!("Key saved. Checking it with the API at {base_url}…")
        })));
        let config = untrack(|| source.config());
        if let (true, Ok(config)) = (saved, config) {
            spawn_local(async move {
                let client = TrajectoryClient::new(config, FetchTransport::default());
                let checked = client.current_organization().await;
                message.try_set(Some(key_check_message(&base_url, &checked)));
            });
        }
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
    fn a_checked_key_is_accepted_refused_as_wrong_or_left_unverified() {
        use eval_compare_core::client::HttpError;
        let organization = Organization(
            [("organization_id".to_owned(), "org_demo".to_owned())]
                .into_iter()
                .collect(),
        );
        assert_eq!(
            key_check_message("http://api.test", &Ok(organization)),
            FormMessage::saved(
                "Key saved and accepted by the API at http://api.test (organization org_demo)."
            )
        );
        let refused = |status: u16| {
            ApiError::from(HttpError {
                service: Default::default(),
                status,
                code: None,
                error_type: None,
                message: "no".to_owned(),
                param: None,
                request_id: None,
                retry_after_ms: None,
                key_sent: true,
            })
        };
        assert_eq!(
            key_check_message("http://api.test", &Err(refused(401))),
            FormMessage::Refused(
                "The API at http://api.test refused this key (HTTP 401): it is wrong, expired or \
                 lacks access. It stays saved until you replace or forget it."
                    .to_owned()
            )
        );
        let FormMessage::Refused(unverified) =
            key_check_message("http://api.test", &Err(refused(503)))
        else {
            panic!("a failed check is not a confirmation");
        };
        assert!(
            unverified.starts_with(
                "Key saved, but it could not be checked: The server failed (HTTP 503)."
            ),
            "{unverified}"
        );
    }

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
