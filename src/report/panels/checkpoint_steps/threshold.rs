//! The pass threshold for graded rewards (`pass=` in the URL): typed, applied by Apply or Enter,
//! cleared by Off. With it every figure of the report is about passes (core's
//! `apply_pass_threshold`), so pass@k, pass^k and flips exist for continuous rewards too.

use eval_compare_core::view_state::{thousandths_text, ViewState};
use leptos::ev::SubmitEvent;
use leptos::prelude::*;

use super::words::with_pass_threshold;

/// The threshold's form.
#[component]
pub fn PassThresholdForm(
    /// The view state.
    #[prop(into)]
    view: Signal<ViewState>,
    /// Called with the view to show.
    on_change: Callback<ViewState>,
) -> impl IntoView {
    let error = RwSignal::new(None::<String>);
    let text = RwSignal::new(String::new());
    Effect::new(move || {
        let current = view.with(|v| v.pass_thousandths.map(thousandths_text));
        text.set(current.unwrap_or_default());
    });
    let apply = move |event: SubmitEvent| {
        event.prevent_default();
        match with_pass_threshold(&view.get_untracked(), &text.get_untracked()) {
            Ok(next) => {
                error.set(None);
                on_change.run(next);
            }
            Err(why) => error.set(Some(why)),
        }
    };
    let off = move |_| {
        error.set(None);
        on_change.run(ViewState {
            pass_thousandths: None,
            ..view.get_untracked()
        });
    };
    let state = move || match view.with(|v| v.pass_thousandths) {
        Some(t) => format!(
            "On: a reward of at least {} passes, below it fails; every figure is about passes.",
            thousandths_text(t)
        ),
        None => "Off: rewards as published.".to_owned(),
    };
    view! {
        <section class="panel pass-threshold" aria-labelledby="pass-threshold-title">
            <h3 id="pass-threshold-title" class="panel-title">"Pass threshold"</h3>
            <form class="pass-threshold-form" on:submit=apply>
                <label class="field">
                    <span class="field-label">"A graded reward passes at or above"</span>
                    <input
                        type="text"
                        name="pass"
                        inputmode="decimal"
                        placeholder="off, e.g. 0.5"
                        prop:value=move || text.get()
                        on:input=move |event| text.set(event_target_value(&event))
                    />
                </label>
                <button class="button" type="submit">"Apply"</button>
                <button type="button" class="button button-secondary" on:click=off>"Off"</button>
            </form>
            {move || error.get().map(|why| view! { <p class="form-error" role="alert">{why}</p> })}
            <p class="muted pass-threshold-state" aria-live="polite">{state}</p>
        </section>
    }
}
