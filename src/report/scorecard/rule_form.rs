//! The decision rule's controls: per benchmark, whether it is primary (must be better), a
//! guardrail (must not be worse by more than a margin, in points) or not looked at; and the
//! family-wise correction (Holm, or none). Every change goes into the link.

use eval_compare_core::view_state::ScorecardLink;
use leptos::prelude::*;

use super::words::{
    margin_text, parse_margin, role_of, with_role, BenchRole, DEFAULT_MARGIN_TENTHS,
};

/// The rule's controls over `benches`.
#[component]
pub fn RuleForm(
    /// The scorecard's benchmark versions.
    #[prop(into)]
    benches: Signal<Vec<String>>,
    /// The page's link.
    link: Memo<ScorecardLink>,
    /// Called with a changed link.
    on_link: Callback<ScorecardLink>,
) -> impl IntoView {
    let on_correction = move |event: leptos::ev::Event| {
        let holm = event_target_checked(&event);
        let mut next = link.get_untracked();
        next.uncorrected = !holm;
        on_link.run(next);
    };
    view! {
        <fieldset class="scorecard-rule-form">
            <legend>"Decision rule"</legend>
            <div class="scorecard-roles">
                <For each=move || benches.get() key=|bench| bench.clone() let:bench>
                    <BenchRoleField bench link on_link/>
                </For>
            </div>
            <label class="checkbox-label">
                <input
                    type="checkbox"
                    prop:checked=move || link.with(|link| !link.uncorrected)
                    on:change=on_correction
                />
                " Holm correction across the cells the rule looks at in a column"
            </label>
        </fieldset>
    }
}

/// One benchmark's role and, for a guardrail, its margin.
#[component]
fn BenchRoleField(
    bench: String,
    link: Memo<ScorecardLink>,
    on_link: Callback<ScorecardLink>,
) -> impl IntoView {
    let role = {
        let bench = bench.clone();
        Memo::new(move |_| link.with(|link| role_of(link, &bench)))
    };
    let error = RwSignal::new(None::<String>);
    let set_role = {
        let bench = bench.clone();
        move |next: BenchRole| {
            on_link.run(link.with_untracked(|link| with_role(link, &bench, next)))
        }
    };
    let on_role = {
        let set_role = set_role.clone();
        move |event| {
            error.set(None);
            set_role(match event_target_value(&event).as_str() {
                "primary" => BenchRole::Primary,
                "guardrail" => BenchRole::Guardrail(DEFAULT_MARGIN_TENTHS),
                _ => BenchRole::Ignored,
            });
        }
    };
    let on_margin = move |event| match parse_margin(&event_target_value(&event)) {
        Ok(tenths) => {
            error.set(None);
            set_role(BenchRole::Guardrail(tenths));
        }
        Err(why) => error.set(Some(why)),
    };
    let value = move || match role.get() {
        BenchRole::Ignored => "ignored",
        BenchRole::Primary => "primary",
        BenchRole::Guardrail(_) => "guardrail",
    };
    let margin = move || match role.get() {
        BenchRole::Guardrail(tenths) => Some(margin_text(tenths)),
        _ => None,
    };
    let label = format!("Role of {bench}");
    let margin_label = format!("Guardrail margin of {bench}, in points");
    view! {
        <div class="scorecard-role" data-bench-id=bench.clone()>
            <span class="scorecard-role-name">{bench.clone()}</span>
            <select aria-label=label on:change=on_role>
                <option value="ignored" selected=move || value() == "ignored">
                    "not in the rule"
                </option>
                <option value="primary" selected=move || value() == "primary">
                    "primary: must be better"
                </option>
                <option value="guardrail" selected=move || value() == "guardrail">
                    "guardrail: not worse than −margin"
                </option>
            </select>
            {move || {
                margin()
                    .map(|text| {
                        view! {
                            <label class="scorecard-margin">
                                "margin "
                                <input
                                    type="text"
                                    inputmode="decimal"
                                    size="4"
                                    aria-label=margin_label.clone()
                                    prop:value=text
                                    on:change=on_margin.clone()
                                />
                                " points"
                            </label>
                        }
                    })
            }}
            {move || error.get().map(|why| view! { <span class="form-error" role="alert">{why}</span> })}
        </div>
    }
}
