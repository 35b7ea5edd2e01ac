//! Shown for any path the router does not know.

use leptos::prelude::*;

use crate::route::Route;

/// "Page not found", with a link back to the run list.
#[component]
pub fn NotFoundPage() -> impl IntoView {
    view! {
        <div class="empty-state">
            <h2 class="page-heading">"Page not found"</h2>
            <p>"This address does not name a page of the viewer. "<a href=Route::Picker.path()>"Go to the eval runs."</a></p>
        </div>
    }
}
