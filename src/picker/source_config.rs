//! The source settings' address and key as a client configuration for a picker page, or the
//! panel saying why the address cannot be used: one place for both pickers.

use eval_compare_core::client::{ApiKey, ClientConfig};
use leptos::prelude::*;

use crate::failure::explain;

/// The configuration of the API at `base_url` with `api_key`, or the error panel to show
/// instead.
pub fn config_or_panel(base_url: &str, api_key: Option<ApiKey>) -> Result<ClientConfig, AnyView> {
    match ClientConfig::new(base_url) {
        Ok(config) => Ok(match api_key {
            Some(key) => config.with_api_key(key),
            None => config,
        }),
        Err(error) => {
            let explanation = explain(&error, base_url);
            Err(view! {
                <div class="error-panel" role="alert">
                    <h2 class="error-title">{explanation.title}</h2>
                    <p class="error-message">{explanation.message}</p>
                </div>
            }
            .into_any())
        }
    }
}
