//! The report's controls: which candidate the table and per-task charts focus on
//! ([`focus`]), and the statistical settings (seed, B, confidence level, headline analysis,
//! target Δ, K′: [`settings_form`], its checks and status line in [`words`]). Both live in the
//! URL: each change is a view tweak that replaces the history entry.

pub mod focus;
pub mod settings_form;
pub mod words;

pub use focus::FocusSelector;
pub use settings_form::ReportSettingsForm;

use eval_compare_core::view_state::ViewState;
use leptos::prelude::*;

/// A radio button of `group` bound to the view state, in a label of `class` with `children`:
/// checked while `chosen` holds for the view shown; choosing it shows the view `choose` makes
/// of it (a tweak), when that differs.
#[component]
fn ViewChoice(
    /// The radio group's name.
    group: &'static str,
    /// The label's class.
    class: &'static str,
    /// The view state.
    view: Signal<ViewState>,
    /// Called with the view to show.
    on_change: Callback<ViewState>,
    /// Whether a view has this choice.
    chosen: impl Fn(&ViewState) -> bool + Send + Sync + 'static,
    /// Makes a view have this choice.
    choose: impl Fn(&mut ViewState) + 'static,
    /// What the choice says.
    children: Children,
) -> impl IntoView {
    let pick = move |_| {
        let current = view.get_untracked();
        let mut next = current.clone();
        choose(&mut next);
        if next != current {
            on_change.run(next);
        }
    };
    view! {
        <label class=class>
            <input
                type="radio"
                name=group
                prop:checked=move || view.with(|view| chosen(view))
                on:change=pick
            />
            {children()}
        </label>
    }
}
