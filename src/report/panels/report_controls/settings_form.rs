//! The settings the numbers are computed with: the typed fields applied together, the headline
//! analysis chosen at once, and the status line.

use eval_compare_core::model::Analysis;
use eval_compare_core::report::analysis_name;
use eval_compare_core::view_state::{
    tenths_text, AnalysisMode, ViewState, PROJECT_SAMPLES_RANGE, RESAMPLES_RANGE,
};
use leptos::ev::SubmitEvent;
use leptos::prelude::*;

use super::words::{apply_settings, settings_status, TypedSettings};
use super::ViewChoice;
use crate::format::capitalized;
use crate::state::report::ReportTimings;

/// The settings the numbers are computed with. A value is applied when the form is submitted
/// (Apply or Enter); one the URL codec would refuse is shown as an error and not applied.
#[component]
pub fn ReportSettingsForm(
    /// The view state.
    #[prop(into)]
    view: Signal<ViewState>,
    /// Called with the view to show (a tweak: replace the history entry).
    on_change: Callback<ViewState>,
    /// How long the report took, when known.
    #[prop(into)]
    timings: Signal<Option<ReportTimings>>,
    /// The share of the bootstrap's resamples drawn, while it is being computed.
    #[prop(into)]
    bootstrap_progress: Signal<Option<f64>>,
) -> impl IntoView {
    let error = RwSignal::new(None::<String>);
    let status = move || {
        settings_status(
            bootstrap_progress.get(),
            view.with(|view| view.resamples),
            timings.get(),
        )
    };
    view! {
        <section class="panel settings" aria-labelledby="settings-title">
            <h3 id="settings-title" class="panel-title">"Settings"</h3>
            <TypedSettingsForm view on_change error/>
            <AnalysisChoice view on_change/>
            {move || error.get().map(|why| view! { <p class="form-error" role="alert">{why}</p> })}
            <p class="muted settings-status" aria-live="polite">{status}</p>
        </section>
    }
}

/// The typed settings (confidence level, B, seed, target Δ, K′), applied together by Apply or
/// Enter; `error` says why a value was refused.
#[component]
fn TypedSettingsForm(
    /// The view state.
    view: Signal<ViewState>,
    /// Called with the view to show.
    on_change: Callback<ViewState>,
    /// Why the last Apply was refused, if it was.
    error: RwSignal<Option<String>>,
) -> impl IntoView {
    let seed = RwSignal::new(String::new());
    let resamples = RwSignal::new(String::new());
    let level = RwSignal::new(String::new());
    let target = RwSignal::new(String::new());
    let k_prime = RwSignal::new(String::new());
    // The fields follow the URL (Back, a pasted link) until the user edits them.
    Effect::new(move |_| {
        let current = view.get();
        seed.set(current.seed.to_string());
        resamples.set(current.resamples.to_string());
        level.set(current.confidence_percent.to_string());
        target.set(tenths_text(current.target_tenths));
        k_prime.set(
            current
                .project_samples
                .map_or_else(String::new, |k| k.to_string()),
        );
    });
    let apply = move |event: SubmitEvent| {
        event.prevent_default();
        let current = view.get_untracked();
        let (seed, resamples, level) = (
            seed.get_untracked(),
            resamples.get_untracked(),
            level.get_untracked(),
        );
        let (target, k_prime) = (target.get_untracked(), k_prime.get_untracked());
        let typed = apply_settings(
            &current,
            TypedSettings {
                seed: &seed,
                resamples: &resamples,
                level: &level,
                target: &target,
                k_prime: &k_prime,
            },
        );
        match typed {
            Ok(next) => {
                error.set(None);
                if next != current {
                    on_change.run(next);
                }
            }
            Err(why) => error.set(Some(why)),
        }
    };
    view! {
        <form class="settings-form" novalidate on:submit=apply>
            <NumberField label="Confidence level (%)" min="50" max="99" value=level/>
            <NumberField
                label="Bootstrap resamples B"
                min=RESAMPLES_RANGE.start().to_string()
                max=RESAMPLES_RANGE.end().to_string()
                value=resamples
            />
            <NumberField label="Bootstrap seed" min="0" value=seed/>
            <NumberField
                label="Target Δ (points)"
                name="target"
                min="0.1"
                max="100"
                step="0.1"
                value=target
            />
            <NumberField
                label="K′ samples per task (empty: automatic)"
                name="kprime"
                min=PROJECT_SAMPLES_RANGE.start().to_string()
                max=PROJECT_SAMPLES_RANGE.end().to_string()
                placeholder="automatic"
                title="Empty: automatic, max(8, 2 × the most samples a paired task has)"
                value=k_prime
            />
            <button class="button" type="submit">"Apply"</button>
        </form>
    }
}

/// The headline analysis, one radio button per analysis, applied when chosen.
#[component]
fn AnalysisChoice(
    /// The view state.
    view: Signal<ViewState>,
    /// Called with the view to show.
    on_change: Callback<ViewState>,
) -> impl IntoView {
    let choices = [
        (AnalysisMode::Primary, Analysis::Primary),
        (AnalysisMode::Sensitivity, Analysis::Sensitivity),
    ]
    .into_iter()
    .map(|(mode, analysis)| {
        let chosen = move |view: &ViewState| view.analysis == mode;
        let choose = move |next: &mut ViewState| next.analysis = mode;
        view! {
            <ViewChoice group="analysis" class="check" view on_change chosen choose>
                {capitalized(analysis_name(analysis))}
            </ViewChoice>
        }
    })
    .collect_view();
    view! {
        <fieldset class="analysis-choice">
            <legend class="field-label">"Headline analysis"</legend>
            {choices}
        </fieldset>
    }
}

/// A labelled number input holding its text as typed (checked when the form is applied).
#[component]
fn NumberField(
    /// The label.
    label: &'static str,
    /// The smallest value.
    #[prop(into)]
    min: String,
    /// The largest value, if any.
    #[prop(optional, into)]
    max: Option<String>,
    /// The step between values: whole numbers unless told.
    #[prop(default = "1")]
    step: &'static str,
    /// The field's name, if it has one.
    #[prop(optional)]
    name: Option<&'static str>,
    /// What an empty field shows.
    #[prop(optional)]
    placeholder: Option<&'static str>,
    /// The field's tooltip.
    #[prop(optional)]
    title: Option<&'static str>,
    /// The text typed.
    value: RwSignal<String>,
) -> impl IntoView {
    view! {
        <label class="field">
            <span class="field-label">{label}</span>
            <input
                type="number"
                name=name
                min=min
                max=max
                step=step
                placeholder=placeholder
                title=title
                bind:value=value
            />
        </label>
    }
}
