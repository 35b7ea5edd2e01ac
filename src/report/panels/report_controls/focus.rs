//! Which candidate the table and the per-task charts show.

use std::sync::Arc;

use eval_compare_core::report::Report;
use eval_compare_core::view_state::ViewState;
use leptos::prelude::*;

use super::ViewChoice;

/// Radio buttons naming each candidate; the chosen one is `focus` in the URL.
#[component]
pub fn FocusSelector(
    /// The report (for the candidates' names).
    #[prop(into)]
    report: Signal<Arc<Report>>,
    /// The view state.
    #[prop(into)]
    view: Signal<ViewState>,
    /// Called with the view to show (a tweak: replace the history entry).
    on_change: Callback<ViewState>,
) -> impl IntoView {
    let names = move || {
        report.with(|report| {
            report
                .candidates
                .iter()
                .filter_map(|candidate| report.run_of(candidate).map(|run| run.name.clone()))
                .collect::<Vec<_>>()
        })
    };
    move || {
        let names = names();
        (names.len() > 1).then(|| {
            let choices = names
                .into_iter()
                .enumerate()
                .map(|(index, name)| {
                    let chosen = move |view: &ViewState| view.focus == index;
                    let choose = move |next: &mut ViewState| next.focus = index;
                    view! {
                        <ViewChoice group="focus" class="segment-choice" view on_change chosen choose>
                            <span>{name}</span>
                        </ViewChoice>
                    }
                })
                .collect_view();
            view! {
                <fieldset class="focus-selector">
                    <legend class="field-label">"Table and per-task charts show"</legend>
                    <div class="segment-choices">{choices}</div>
                </fieldset>
            }
        })
    }
}
