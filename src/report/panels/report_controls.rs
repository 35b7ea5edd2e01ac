//! The report's controls: which candidate the table and per-task charts focus on, and the
//! statistical settings (seed, B, confidence level, headline analysis, target Δ, K′). Both live
//! in the URL:
//! each change is a view tweak that replaces the history entry.

use std::sync::Arc;

use eval_compare_core::client::percent_encode;
use eval_compare_core::model::Analysis;
use eval_compare_core::report::{analysis_name, Report};
use eval_compare_core::view_state::{
    tenths_text, AnalysisMode, ViewState, PROJECT_SAMPLES_RANGE, RESAMPLES_RANGE,
};
use leptos::ev::SubmitEvent;
use leptos::prelude::*;

use crate::components::stat_text::count;
use crate::format::capitalized;
use crate::state::report::ReportTimings;

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
                    let choose = move |_| {
                        let mut next = view.get_untracked();
                        next.focus = index;
                        on_change.run(next);
                    };
                    view! {
                        <label class="segment-choice">
                            <input
                                type="radio"
                                name="focus"
                                prop:checked=move || view.with(|view| view.focus == index)
                                on:change=choose
                            />
                            <span>{name}</span>
                        </label>
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

/// Checks one setting as the URL codec would read it: the value, or why it is refused.
fn check_setting(param: &str, typed: &str) -> Result<ViewState, String> {
    let parsed = ViewState::from_query(&format!("{param}={}", percent_encode(typed.trim())));
    match parsed.issues.into_iter().next() {
        Some(issue) => Err(issue.reason),
        None => Ok(parsed.state),
    }
}

/// What the settings form holds, as typed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TypedSettings<'a> {
    /// Bootstrap seed.
    pub seed: &'a str,
    /// Bootstrap resamples B.
    pub resamples: &'a str,
    /// Confidence level in percent.
    pub level: &'a str,
    /// Target Δ in points (at most one decimal).
    pub target: &'a str,
    /// K′; empty for the automatic one.
    pub k_prime: &'a str,
}

/// `view` with the settings as typed in the form, or why the first refused one is refused,
/// named by its field. An empty K′ is the automatic one (max(8, 2 × the samples per task)).
pub fn apply_settings(view: &ViewState, typed: TypedSettings<'_>) -> Result<ViewState, String> {
    let mut next = view.clone();
    next.seed = check_setting("seed", typed.seed)
        .map_err(|why| format!("Seed: {why}"))?
        .seed;
    next.resamples = check_setting("B", typed.resamples)
        .map_err(|why| format!("Resamples: {why}"))?
        .resamples;
    next.confidence_percent = check_setting("ci", typed.level)
        .map_err(|why| format!("Confidence level: {why}"))?
        .confidence_percent;
    next.target_tenths = check_setting("target", typed.target)
        .map_err(|why| format!("Target Δ: {why}"))?
        .target_tenths;
    next.project_samples = if typed.k_prime.trim().is_empty() {
        None
    } else {
        check_setting("kprime", typed.k_prime)
            .map_err(|why| format!("K′: {why}"))?
            .project_samples
    };
    Ok(next)
}

/// The line under the settings: how far the bootstrap being computed is (`drawing`, the share
/// of its resamples drawn), or how long the report took.
pub fn settings_status(
    drawing: Option<f64>,
    resamples: u32,
    timings: Option<ReportTimings>,
) -> String {
    match (drawing, timings) {
        (Some(share), _) => format!(
            "Computing the bootstrap (B = {}): {:.0}% drawn…",
            count(u64::from(resamples)),
            (100.0 * share).clamp(0.0, 100.0).floor()
        ),
        (
            None,
            Some(ReportTimings {
                first_ms,
                full_ms: Some(full_ms),
                ..
            }),
        ) => format!(
            "Computed in this browser: {first_ms:.0} ms without the bootstrap, then {full_ms:.0} ms drawing it (B = {}).",
            count(u64::from(resamples))
        ),
        (None, Some(ReportTimings { first_ms, .. })) => {
            format!("Computed in this browser in {first_ms:.0} ms.")
        }
        (None, None) => String::new(),
    }
}

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
    let seed = RwSignal::new(String::new());
    let resamples = RwSignal::new(String::new());
    let level = RwSignal::new(String::new());
    let target = RwSignal::new(String::new());
    let k_prime = RwSignal::new(String::new());
    let error = RwSignal::new(None::<String>);
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
    let choose_analysis = move |analysis: AnalysisMode| {
        let mut next = view.get_untracked();
        if next.analysis != analysis {
            next.analysis = analysis;
            on_change.run(next);
        }
    };
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
            <form class="settings-form" novalidate on:submit=apply>
                <WholeNumberField
                    label="Confidence level (%)"
                    min="50".to_owned()
                    max="99".to_owned()
                    value=level
                />
                <WholeNumberField
                    label="Bootstrap resamples B"
                    min=RESAMPLES_RANGE.start().to_string()
                    max=RESAMPLES_RANGE.end().to_string()
                    value=resamples
                />
                <WholeNumberField label="Bootstrap seed" min="0".to_owned() value=seed/>
                <label class="field">
                    <span class="field-label">"Target Δ (points)"</span>
                    <input
                        type="number"
                        name="target"
                        min="0.1"
                        max="100"
                        step="0.1"
                        prop:value=move || target.get()
                        on:input=move |event| target.set(event_target_value(&event))
                    />
                </label>
                <label class="field">
                    <span class="field-label">"K′ samples per task (empty: automatic)"</span>
                    <input
                        type="number"
                        name="kprime"
                        min=PROJECT_SAMPLES_RANGE.start().to_string()
                        max=PROJECT_SAMPLES_RANGE.end().to_string()
                        step="1"
                        placeholder="automatic"
                        title="Empty: automatic, max(8, 2 × the most samples a paired task has)"
                        prop:value=move || k_prime.get()
                        on:input=move |event| k_prime.set(event_target_value(&event))
                    />
                </label>
                <button class="button" type="submit">"Apply"</button>
            </form>
            <fieldset class="analysis-choice">
                <legend class="field-label">"Headline analysis"</legend>
                <label class="check">
                    <input
                        type="radio"
                        name="analysis"
                        prop:checked=move || view.with(|view| view.analysis == AnalysisMode::Primary)
                        on:change=move |_| choose_analysis(AnalysisMode::Primary)
                    />
                    {capitalized(analysis_name(Analysis::Primary))}
                </label>
                <label class="check">
                    <input
                        type="radio"
                        name="analysis"
                        prop:checked=move || view.with(|view| view.analysis == AnalysisMode::Sensitivity)
                        on:change=move |_| choose_analysis(AnalysisMode::Sensitivity)
                    />
                    {capitalized(analysis_name(Analysis::Sensitivity))}
                </label>
            </fieldset>
            {move || error.get().map(|why| view! { <p class="form-error" role="alert">{why}</p> })}
            <p class="muted settings-status" aria-live="polite">{status}</p>
        </section>
    }
}

/// A labelled whole-number input holding its text as typed (checked when the form is applied).
#[component]
fn WholeNumberField(
    /// The label.
    label: &'static str,
    /// The smallest value.
    min: String,
    /// The largest value, if any.
    #[prop(optional)]
    max: Option<String>,
    /// The text typed.
    value: RwSignal<String>,
) -> impl IntoView {
    view! {
        <label class="field">
            <span class="field-label">{label}</span>
            <input
                type="number"
                min=min
                max=max
                step="1"
                prop:value=move || value.get()
                on:input=move |event| value.set(event_target_value(&event))
            />
        </label>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_settings_are_applied_when_the_url_codec_accepts_them() {
        let view = ViewState::default();
        let typed = TypedSettings {
            seed: " 7 ",
            resamples: "2000",
            level: "90",
            target: "2.5",
            k_prime: " 16",
        };
        let next = apply_settings(&view, typed).expect("valid settings");
        assert_eq!(
            (
                next.seed,
                next.resamples,
                next.confidence_percent,
                next.target_tenths,
                next.project_samples
            ),
            (7, 2000, 90, 25, Some(16))
        );
        let automatic = apply_settings(
            &next,
            TypedSettings {
                k_prime: "",
                ..typed
            },
        )
        .expect("an empty K′ is the automatic one");
        assert_eq!(automatic.project_samples, None);
        assert_eq!(
            ViewState {
                seed: view.seed,
                resamples: view.resamples,
                confidence_percent: view.confidence_percent,
                target_tenths: view.target_tenths,
                project_samples: view.project_samples,
                ..next
            },
            view,
            "nothing else changes"
        );
    }

    #[test]
    fn the_first_refused_setting_is_named() {
        let view = ViewState::default();
        let refused = |seed, resamples, level, target, k_prime| {
            apply_settings(
                &view,
                TypedSettings {
                    seed,
                    resamples,
                    level,
                    target,
                    k_prime,
                },
            )
            .expect_err("refused")
        };
        assert!(refused("x", "y", "z", "2", "").starts_with("Seed: "));
        assert!(refused("1", "y", "z", "2", "").starts_with("Resamples: "));
        assert!(refused("1", "2000", "120", "2", "").starts_with("Confidence level: "));
        assert!(refused("1", "2000", "95", "0", "").starts_with("Target Δ: "));
        assert!(refused("1", "2000", "95", "2.25", "").starts_with("Target Δ: "));
        assert!(refused("1", "2000", "95", "2", "0").starts_with("K′: "));
    }

    #[test]
    fn the_status_says_what_is_computing_or_how_long_it_took() {
        let first = ReportTimings {
            first_at_ms: 10.0,
            first_ms: 12.4,
            full_ms: None,
            full_at_ms: None,
        };
        assert_eq!(
            settings_status(Some(0.0), 10_000, Some(first)),
            "Computing the bootstrap (B = 10,000): 0% drawn…"
        );
        assert_eq!(
            settings_status(Some(0.996), 10_000, Some(first)),
            "Computing the bootstrap (B = 10,000): 99% drawn…"
        );
        assert_eq!(
            settings_status(None, 10_000, Some(first)),
            "Computed in this browser in 12 ms."
        );
        let full = ReportTimings {
            full_ms: Some(840.6),
            full_at_ms: Some(900.0),
            ..first
        };
        assert_eq!(
            settings_status(None, 2_000, Some(full)),
            "Computed in this browser: 12 ms without the bootstrap, then 841 ms drawing it (B = 2,000)."
        );
        assert_eq!(settings_status(None, 2_000, None), "");
    }
}
