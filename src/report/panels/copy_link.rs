//! "Copy link": puts the link of the view on the clipboard. The link holds the view state and
//! never a key. [`share_href`] builds it, for this button and for the HTML report's export.

use eval_compare_core::share_link::share_link;
use leptos::html;
use leptos::prelude::*;
use wasm_bindgen_futures::JsFuture;

use crate::state::url::{use_url_state, UrlState};

/// The link of the view shown: the page's origin, its path and the view's query, made by the
/// core's [`share_link`] as `eval-compare report --format html --link-base ORIGIN` makes it.
/// For a page whose address the viewer wrote, this is `location.href`.
pub fn share_href(url: &UrlState) -> Option<String> {
    let origin = web_sys::window()?.location().origin().ok()?;
    Some(share_link(
        &origin,
        &url.path_untracked(),
        &url.view_untracked(),
    ))
}

/// What happened to the last copy.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Copied {
    Nothing,
    Done,
    /// The clipboard refused: the link is shown selected for the user to copy.
    Manual(String),
}

/// A button copying [`share_href`]; when the clipboard is unavailable it shows the link in a
/// read-only field, selected, to copy by hand.
#[component]
pub fn CopyLinkButton() -> impl IntoView {
    let url = use_url_state();
    let state = RwSignal::new(Copied::Nothing);
    let field = NodeRef::<html::Input>::new();
    let copy = move |_| {
        let Some(href) = share_href(&url) else {
            return;
        };
        let clipboard = web_sys::window().map(|window| window.navigator().clipboard());
        leptos::task::spawn_local(async move {
            let written = match clipboard {
                Some(clipboard) => JsFuture::from(clipboard.write_text(&href)).await.is_ok(),
                None => false,
            };
            state.try_set(if written {
                Copied::Done
            } else {
                Copied::Manual(href)
            });
        });
    };
    // Select the fallback field's text once it is shown.
    Effect::new(move |_| {
        if matches!(state.get(), Copied::Manual(_)) {
            request_animation_frame(move || {
                if let Some(input) = field.get_untracked() {
                    let _ = input.focus();
                    input.select();
                }
            });
        }
    });
    view! {
        <div class="copy-link">
            <button class="button button-secondary" type="button" on:click=copy>
                "Copy link"
            </button>
            {move || match state.get() {
                Copied::Nothing => ().into_any(),
                Copied::Done => {
                    view! { <span class="form-ok" role="status">"Link copied"</span> }.into_any()
                }
                Copied::Manual(href) => {
                    view! {
                        <label class="copy-fallback">
                            <span class="field-help">"Copy this link (Ctrl+C / ⌘C):"</span>
                            <input type="text" readonly node_ref=field prop:value=href/>
                        </label>
                    }
                        .into_any()
                }
            }}
        </div>
    }
}
