//! Saving a chart's SVG as a file: a Blob, an object URL and a temporary `<a download>`.

use gloo_timers::callback::Timeout;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Blob, BlobPropertyBag, HtmlAnchorElement, Url};

/// MIME type of the downloaded file.
pub const SVG_MIME: &str = "image/svg+xml";

/// How long the object URL stays valid after the click started the download. Revoking it at
/// once can cancel the download in some browsers, which read the Blob asynchronously.
const REVOKE_AFTER_MS: u32 = 10_000;

/// The SVG document as a Blob of type [`SVG_MIME`].
pub fn svg_blob(svg: &str) -> Result<Blob, JsValue> {
    let parts = js_sys::Array::of1(&JsValue::from_str(svg));
    let options = BlobPropertyBag::new();
    options.set_type(SVG_MIME);
    Blob::new_with_str_sequence_and_options(&parts, &options)
}

/// Starts the download of `svg` as `file_name`; the object URL is revoked afterwards.
pub fn download_svg(svg: &str, file_name: &str) -> Result<(), JsValue> {
    let document = web_sys::window()
        .and_then(|window| window.document())
        .ok_or_else(|| JsValue::from_str("no document"))?;
    let body = document
        .body()
        .ok_or_else(|| JsValue::from_str("no document body"))?;
    let anchor = document
        .create_element("a")?
        .dyn_into::<HtmlAnchorElement>()
        .map_err(|_| JsValue::from_str("an <a> element is not an HtmlAnchorElement"))?;
    let url = Url::create_object_url_with_blob(&svg_blob(svg)?)?;
    anchor.set_href(&url);
    anchor.set_download(file_name);
    anchor.set_hidden(true);
    let clicked = body.append_child(&anchor).map(|_| anchor.click());
    anchor.remove();
    Timeout::new(REVOKE_AFTER_MS, move || {
        let _ = Url::revoke_object_url(&url);
    })
    .forget();
    clicked
}
