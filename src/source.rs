//! Where the viewer reads the Trajectory API: its own origin, served by eval-compare-server
//! (which simulates the API or proxies it), so no CORS is needed and no key is in a URL.

/// The API base URL the pages read from, provided as context by the app.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiSource {
    /// Base URL without a trailing slash, e.g. `http://127.0.0.1:8080`.
    pub base_url: String,
}

impl ApiSource {
    /// The page's own origin; empty (a same-origin relative base) when it cannot be read.
    pub fn page_origin() -> Self {
        let base_url = web_sys::window()
            .and_then(|window| window.location().origin().ok())
            .unwrap_or_default();
        Self { base_url }
    }
}
