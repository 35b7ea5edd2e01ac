//! The browser's address and history, as signals: the app's own small router.
//!
//! The viewer has a handful of pages ([`Route`]) and reads everything else from the query, so it needs no
//! routing library: [`BrowserHistory`] follows `location.pathname`/`location.search`, writes with
//! `history.pushState`/`replaceState`, listens to `popstate` (Back and Forward), and turns clicks
//! on links to the app's own pages into client-side navigations. (Leptos' router, with the `url`
//! crate and its IDNA tables, made up about a tenth of the wasm.)

use leptos::ev;
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{HtmlAnchorElement, MouseEvent};

use crate::route::Route;

/// The current path and query (with its `?`, or empty), following the browser's history.
#[derive(Debug, Clone, Copy)]
pub struct BrowserHistory {
    location: RwSignal<(String, String)>,
    path: Memo<String>,
    search: Memo<String>,
}

impl BrowserHistory {
    /// Starts following the browser: `popstate`, and clicks on links to the app's pages.
    pub fn start() -> Self {
        let location = RwSignal::new(read_location());
        let this = Self {
            location,
            path: Memo::new(move |_| location.with(|(path, _)| path.clone())),
            search: Memo::new(move |_| location.with(|(_, search)| search.clone())),
        };
        let popstate = window_event_listener(ev::popstate, move |_| {
            this.location.set(read_location());
        });
        let click = window_event_listener(ev::click, move |event| this.on_click(&event));
        on_cleanup(move || {
            popstate.remove();
            click.remove();
        });
        this
    }

    /// The current path, e.g. `/compare`: changes only when the path does.
    pub fn path(&self) -> Memo<String> {
        self.path
    }

    /// The current query, e.g. `?base=a&cand=b` or empty.
    pub fn search(&self) -> Memo<String> {
        self.search
    }

    /// Goes to `href` (a path and query of this app): a new history entry, or in place of the
    /// current one with `replace`. A new entry starts at the top of the page.
    pub fn navigate(&self, href: &str, replace: bool) {
        let Some(window) = web_sys::window() else {
            return;
        };
        let Ok(history) = window.history() else {
            return;
        };
        let written = if replace {
            history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(href))
        } else {
            history.push_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(href))
        };
        if written.is_err() {
            // The browser refused (e.g. another origin): let it load the address itself.
            let _ = window.location().set_href(href);
            return;
        }
        if !replace {
            window.scroll_to_with_x_and_y(0.0, 0.0);
        }
        self.location.set(read_location());
    }

    /// A plain left click on a link to one of the app's pages ([`Route::parse`] knows its path)
    /// navigates in place; the browser loads any other address itself.
    fn on_click(&self, event: &MouseEvent) {
        let plain = event.button() == 0
            && !(event.meta_key() || event.ctrl_key() || event.shift_key() || event.alt_key());
        if event.default_prevented() || !plain {
            return;
        }
        let Some(anchor) = clicked_anchor(event) else {
            return;
        };
        let own_window = anchor.target().is_empty() || anchor.target() == "_self";
        let same_origin = web_sys::window()
            .and_then(|window| window.location().origin().ok())
            .is_some_and(|origin| origin == anchor.origin());
        let web = matches!(anchor.protocol().as_str(), "http:" | "https:");
        let path = anchor.pathname();
        if own_window
            && same_origin
            && web
            && !anchor.has_attribute("download")
            && Route::parse(&path).is_some()
        {
            event.prevent_default();
            self.navigate(&format!("{path}{}", anchor.search()), false);
        }
    }
}

/// The link a click landed in, if any.
fn clicked_anchor(event: &MouseEvent) -> Option<HtmlAnchorElement> {
    let target = event.target()?.dyn_into::<web_sys::Element>().ok()?;
    target
        .closest("a[href]")
        .ok()
        .flatten()?
        .dyn_into::<HtmlAnchorElement>()
        .ok()
}

/// `location.pathname` and `location.search` now.
fn read_location() -> (String, String) {
    let location = web_sys::window().map(|window| window.location());
    let path = location
        .as_ref()
        .and_then(|location| location.pathname().ok())
        .unwrap_or_else(|| Route::Picker.path().to_owned());
    let search = location
        .and_then(|location| location.search().ok())
        .unwrap_or_default();
    (path, search)
}
