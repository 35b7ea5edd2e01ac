//! The two cells every chooser row starts with: a radio to make the row the baseline and a
//! checkbox to compare it with the baseline, each with its accessible name, a reason shown as
//! its title when it is disabled, and its state — one markup for the run table and the job
//! table.

use leptos::prelude::*;

/// What one row's pick cells show and do.
#[derive(Clone)]
pub struct PickCells {
    /// The radio group (one per table).
    pub group: &'static str,
    /// The radio's accessible name ("Use X as the baseline").
    pub baseline_label: String,
    /// The checkbox's accessible name ("Compare X with the baseline").
    pub compare_label: String,
    /// Why the radio is disabled, when it is (its title).
    pub baseline_refusal: Signal<Option<String>>,
    /// Whether the checkbox is disabled.
    pub compare_disabled: Signal<bool>,
    /// The checkbox's title (why it is disabled, when it is).
    pub compare_title: Signal<Option<String>>,
    /// Whether the row is the baseline.
    pub is_baseline: Signal<bool>,
    /// Whether the row is compared with the baseline.
    pub is_compared: Signal<bool>,
    /// Makes the row the baseline.
    pub on_baseline: Callback<()>,
    /// Ticks (`true`) or unticks the row.
    pub on_compare: Callback<bool>,
}

impl PickCells {
    /// The two `<td class="pick">` cells.
    pub fn render(self) -> impl IntoView {
        let PickCells {
            group,
            baseline_label,
            compare_label,
            baseline_refusal,
            compare_disabled,
            compare_title,
            is_baseline,
            is_compared,
            on_baseline,
            on_compare,
        } = self;
        view! {
            <td class="pick">
                <input
                    type="radio"
                    name=group
                    aria-label=baseline_label
                    title=move || baseline_refusal.get()
                    disabled=move || baseline_refusal.with(Option::is_some)
                    prop:checked=move || is_baseline.get()
                    on:change=move |_| on_baseline.run(())
                />
            </td>
            <td class="pick">
                <input
                    type="checkbox"
                    aria-label=compare_label
                    title=move || compare_title.get()
                    disabled=move || compare_disabled.get()
                    prop:checked=move || is_compared.get()
                    on:change=move |event| on_compare.run(event_target_checked(&event))
                />
            </td>
        }
    }
}
