//! "Copy link": puts the page's address on the clipboard. The address holds the view state and
//! never a key.

use leptos::html;
use leptos::prelude::*;
use wasm_bindgen_futures::JsFuture;

use crate::state::url::current_href;

/// What happened to the last copy.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Copied {
    Nothing,
    Done,
    /// The clipboard refused: the link is shown selected for the user to copy.
    Manual(String),
}

/// A button copying `location.href`; when the clipboard is unavailable it shows the link in a
/// read-only field, selected, to copy by hand.
#[component]
pub fn CopyLinkButton() -> impl IntoView {
    let state = RwSignal::new(Copied::Nothing);
    let field = NodeRef::<html::Input>::new();
    let copy = move |_| {
        let Some(href) = current_href() else {
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
