//! The shell both picker pages share: the source settings read from context (a new address or
//! key makes the page again, so everything is read again), the source tabs, the page's heading
//! and introduction, and its content over the settings' client configuration or the panel
//! saying why the address cannot be used.

use eval_compare_core::client::{ApiKey, ClientConfig};
use leptos::prelude::*;

use crate::picker::source_config::config_or_panel;
use crate::picker::source_tabs::SourceTabs;
use crate::route::Route;
use crate::state::source::use_source_settings;

/// A picker page over the source settings in context: `page` made with their address and key,
/// and made again when either changes.
pub fn over_source_settings<V: IntoView + 'static>(
    page: fn(String, Option<ApiKey>) -> V,
) -> impl IntoView {
    let source = use_source_settings();
    move || page(source.base_url(), source.api_key())
}

/// A picker page: the source tabs (`current` marked), the heading, the introduction
/// (`children`) and the page's content over the API at `base_url`.
#[component]
pub fn PickerShell(
    /// The picker shown: [`Route::Picker`] or `/backtests`.
    current: Route,
    /// The page's heading.
    heading: &'static str,
    /// Base URL of the API.
    base_url: String,
    /// The key to send, if any.
    api_key: Option<ApiKey>,
    /// The content over the API: given its client configuration and its base URL (which the
    /// content's failure panels name).
    content: fn(ClientConfig, String) -> AnyView,
    /// The introduction under the heading.
    children: Children,
) -> impl IntoView {
    let body = match config_or_panel(&base_url, api_key) {
        Ok(config) => content(config, base_url),
        Err(panel) => panel,
    };
    view! {
        <SourceTabs current/>
        <h2 class="page-heading">{heading}</h2>
        <p class="page-intro">{children()}</p>
        {body}
    }
}
