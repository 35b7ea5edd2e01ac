//! The answer first: the recommended checkpoint and why (or that none meets the rule), the
//! rule in one sentence with its correction, and each checkpoint's decision.

use std::sync::Arc;

use eval_compare_core::scorecard::words::{
    outcome_text, rule_text, step_heading, NONE_RECOMMENDED, RECOMMENDED,
};
use eval_compare_core::scorecard::{Outcome, Scorecard};
use leptos::prelude::*;

/// The class of a column's decision: meets, fails or cannot tell.
pub fn outcome_class(outcome: &Outcome) -> &'static str {
    match outcome {
        Outcome::Meets => "decision decision-meets",
        Outcome::Fails { .. } => "decision decision-fails",
        Outcome::CannotTell { .. } | Outcome::NoRule => "decision decision-open",
    }
}

/// The recommendation, the rule and the decisions of `scorecard`.
#[component]
pub fn Answer(
    /// The scorecard, decided under the page's rule.
    #[prop(into)]
    scorecard: Signal<Arc<Scorecard>>,
) -> impl IntoView {
    let recommended = move || {
        scorecard.with(|card| match &card.recommended {
            Some(pick) => view! {
                <p class="scorecard-pick">
                    <strong>{RECOMMENDED}": "{step_heading(pick.step)}</strong>
                    " — "{pick.reason.clone()}
                </p>
            }
            .into_any(),
            None => {
                view! { <p class="scorecard-pick scorecard-none">{NONE_RECOMMENDED}</p> }.into_any()
            }
        })
    };
    let rule = move || scorecard.with(|card| rule_text(&card.rule, card.settings.alpha));
    let decisions = move || {
        scorecard.with(|card| {
            card.columns
                .iter()
                .map(|column| {
                    view! {
                        <li class=outcome_class(&column.outcome) data-step=column.step>
                            <span class="decision-step">{step_heading(column.step)}": "</span>
                            {outcome_text(&column.outcome)}
                        </li>
                    }
                })
                .collect_view()
        })
    };
    view! {
        <section class="scorecard-answer" aria-label="Which checkpoint to deploy">
            {recommended}
            <p class="scorecard-rule">{rule}</p>
            <ul class="scorecard-decisions">{decisions}</ul>
        </section>
    }
}
