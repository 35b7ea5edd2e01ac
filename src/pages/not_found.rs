//! Shown for any path the router does not know.

use leptos::prelude::*;
use leptos_router::components::A;

/// "Page not found", with a link back to the run list.
#[component]
pub fn NotFoundPage() -> impl IntoView {
    view! {
        <div class="empty-state">
            <h2 class="page-heading">"Page not found"</h2>
            <p>"This address does not name a page of the viewer. "<A href="/">"Go to the eval runs."</A></p>
        </div>
    }
}
