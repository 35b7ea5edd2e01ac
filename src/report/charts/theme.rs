//! Chart colours for the light and dark schemes, and the hook that follows the system's choice.
//!
//! The colours mirror the CSS variables of `style/main.css` (surface, text, muted text, accent,
//! ok, bad) so a chart sits on its card like the rest of the page; the outcome classes use a
//! palette after Okabe and Ito that stays distinguishable for the common colour-vision
//! deficiencies.

use eval_compare_core::model::OutcomeClass;
use leptos::prelude::*;
use plotters::style::RGBColor;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

/// The media query that selects the dark theme.
pub const DARK_QUERY: &str = "(prefers-color-scheme: dark)";

/// Every colour a chart uses.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Theme {
    /// Whether this is the dark theme.
    pub dark: bool,
    /// Chart background (the card's surface colour).
    pub background: RGBColor,
    /// Titles and axis descriptions.
    pub text: RGBColor,
    /// Tick labels and secondary text.
    pub muted: RGBColor,
    /// Grid lines.
    pub grid: RGBColor,
    /// Axis lines and reference lines (zero, y = x).
    pub axis: RGBColor,
    /// The focused candidate's series.
    pub candidate: RGBColor,
    /// The baseline's series.
    pub baseline: RGBColor,
    /// The Δ estimate and its interval.
    pub delta: RGBColor,
    /// Tasks where the candidate scores higher.
    pub higher: RGBColor,
    /// Tasks where the candidate scores lower.
    pub lower: RGBColor,
    /// One colour per outcome class, in [`OutcomeClass::ALL`] order.
    pub outcome: [RGBColor; 8],
}

impl Theme {
    /// The light theme.
    pub const LIGHT: Theme = Theme {
        dark: false,
        background: RGBColor(0xff, 0xff, 0xff),
        text: RGBColor(0x1b, 0x1f, 0x24),
        muted: RGBColor(0x55, 0x5e, 0x6b),
        grid: RGBColor(0xe4, 0xe7, 0xeb),
        axis: RGBColor(0x7a, 0x83, 0x8f),
        candidate: RGBColor(0x1f, 0x5f, 0xbf),
        baseline: RGBColor(0x8a, 0x5a, 0x00),
        delta: RGBColor(0xc2, 0x41, 0x0c),
        higher: RGBColor(0x1d, 0x7a, 0x3d),
        lower: RGBColor(0xb4, 0x23, 0x18),
        outcome: [
            RGBColor(0x00, 0x72, 0xb2), // graded
            RGBColor(0x56, 0xb4, 0xe9), // ungraded
            RGBColor(0xe6, 0x9f, 0x00), // cut-off
            RGBColor(0xcc, 0x79, 0xa7), // model ending
            RGBColor(0xd5, 0x5e, 0x00), // failed
            RGBColor(0x6e, 0x6e, 0x6e), // cancelled
            RGBColor(0xb8, 0xbc, 0xc2), // unfinished
            RGBColor(0x00, 0x9e, 0x73), // other
        ],
    };

    /// The dark theme.
    pub const DARK: Theme = Theme {
        dark: true,
        background: RGBColor(0x19, 0x1d, 0x23),
        text: RGBColor(0xe6, 0xe9, 0xee),
        muted: RGBColor(0xa4, 0xad, 0xb9),
        grid: RGBColor(0x2c, 0x33, 0x3c),
        axis: RGBColor(0x7d, 0x86, 0x92),
        candidate: RGBColor(0x6e, 0xa4, 0xf5),
        baseline: RGBColor(0xf0, 0xc0, 0x60),
        delta: RGBColor(0xfb, 0x92, 0x3c),
        higher: RGBColor(0x6f, 0xd0, 0x8f),
        lower: RGBColor(0xff, 0x8a, 0x80),
        outcome: [
            RGBColor(0x4a, 0xa3, 0xe0), // graded
            RGBColor(0x9f, 0xd8, 0xf7), // ungraded
            RGBColor(0xf0, 0xb0, 0x40), // cut-off
            RGBColor(0xe0, 0xa0, 0xc8), // model ending
            RGBColor(0xff, 0x7a, 0x45), // failed
            RGBColor(0x9a, 0x9a, 0x9a), // cancelled
            RGBColor(0x5e, 0x65, 0x6e), // unfinished
            RGBColor(0x35, 0xc7, 0x9a), // other
        ],
    };

    /// The theme of a colour scheme.
    pub fn for_scheme(dark: bool) -> Theme {
        if dark {
            Theme::DARK
        } else {
            Theme::LIGHT
        }
    }

    /// The colour of an outcome class.
    pub fn outcome_color(&self, class: OutcomeClass) -> RGBColor {
        self.outcome[class.index()]
    }
}

/// The chart theme following `prefers-color-scheme`, updated when the system scheme changes.
///
/// Falls back to the light theme where `matchMedia` is unavailable. The listener is removed when
/// the calling component's owner is cleaned up.
pub fn use_theme() -> Signal<Theme> {
    let query = web_sys::window().and_then(|window| window.match_media(DARK_QUERY).ok().flatten());
    let dark = RwSignal::new(query.as_ref().is_some_and(|query| query.matches()));
    if let Some(query) = query {
        let watched = query.clone();
        let on_change = Closure::<dyn Fn(web_sys::Event)>::new(move |_event: web_sys::Event| {
            dark.set(watched.matches());
        });
        let added = query
            .add_event_listener_with_callback("change", on_change.as_ref().unchecked_ref())
            .is_ok();
        if added {
            // The listener and its closure are browser objects (not Send): keep them in local
            // storage of this owner, and detach the listener before the closure is dropped.
            let listener = StoredValue::new_local((query, on_change));
            on_cleanup(move || {
                listener.try_with_value(|(query, on_change)| {
                    let _ = query.remove_event_listener_with_callback(
                        "change",
                        on_change.as_ref().unchecked_ref(),
                    );
                });
            });
        }
    }
    Signal::derive(move || Theme::for_scheme(dark.get()))
}
