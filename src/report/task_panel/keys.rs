//! The panel's keyboard: whether a key event comes from a text field, where keys have their
//! own meaning.

use wasm_bindgen::JsCast;

/// Whether a key event comes from a field where Escape has its own meaning.
pub fn in_text_field(event: &web_sys::KeyboardEvent) -> bool {
    event
        .target()
        .and_then(|target| target.dyn_into::<web_sys::Element>().ok())
        .is_some_and(|element| {
            matches!(
                element.tag_name().to_ascii_uppercase().as_str(),
                "INPUT" | "SELECT" | "TEXTAREA"
            )
        })
}
