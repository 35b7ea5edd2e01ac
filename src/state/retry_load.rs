//! The page's way to read again what a stopped load did not read: provided as context by the
//! report page that loads from the API, so a panel far from the load panel (a headline card of
//! a partial verdict) can offer the same Retry. Pages whose runs come from files provide none.

use leptos::prelude::*;

/// Resumes every list that stopped, from where it stopped (the load panel's Retry).
#[derive(Clone, Copy)]
pub struct RetryLoad(pub Callback<()>);

impl RetryLoad {
    /// The page's Retry, when this page loads from an API.
    pub fn from_context() -> Option<RetryLoad> {
        use_context::<RetryLoad>()
    }

    /// Reads the rest.
    pub fn run(self) {
        self.0.run(());
    }
}
