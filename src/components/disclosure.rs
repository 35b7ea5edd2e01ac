//! Open/closed state of `<details>` elements kept in signals, so a section re-rendered with a
//! newer report (the bootstrap arrived, a running run was refreshed) stays as the reader left it.

use leptos::ev::Event;
use wasm_bindgen::JsValue;

/// Whether the `<details>` element that fired a `toggle` event is now open.
pub fn toggled_open(event: &Event) -> bool {
    event
        .target()
        .and_then(|target| js_sys::Reflect::get(&target, &JsValue::from_str("open")).ok())
        .and_then(|open| open.as_bool())
        .unwrap_or(false)
}
