//! The scorecard as built so far, decided under the link's rule: the answer first, then the
//! actions (copy link, downloads), the rule's controls, the grid and the chart.

use eval_compare_core::scorecard::words as core_words;
use eval_compare_core::scorecard::Scorecard;
use eval_compare_core::view_state::ScorecardLink;
use leptos::prelude::*;

use super::answer::Answer;
use super::chart::DeltaChart;
use super::exports::ScorecardActions;
use super::grid::Grid;
use super::rule_form::RuleForm;
use super::words::rule_of;
use crate::components::loading::Loading;
use crate::state::scorecard::ScorecardState;
use crate::state::shared::Shared;

/// The built scorecard (see the module doc), "Computing…" with its count while cells remain.
#[component]
pub fn ScorecardBody(
    /// The scorecard's load and build.
    state: ScorecardState,
    /// The page's link.
    link: Memo<ScorecardLink>,
    /// Called with a changed link (replaces the history entry).
    on_link: Callback<ScorecardLink>,
) -> impl IntoView {
    let rule = Memo::new(move |_| link.with(rule_of));
    let scorecard: Memo<Option<Shared<Scorecard>>> = Memo::new(move |_| {
        let built = state.built.get()?;
        Some(Shared::new(rule.with(|rule| built.with_rule(rule))))
    });
    let complete = Signal::derive(move || {
        state.progress.with(Option::is_none) && scorecard.with(Option::is_some)
    });
    let computing = move || {
        state.progress.get().map(|(done, total)| {
            let label = format!("Computing the scorecard: {done} of {total} comparisons made…");
            view! { <Loading label/> }
        })
    };
    let listed = Signal::derive(move || {
        state.sources.with(|sources| match sources {
            Some(Ok(sources)) => sources.listed.clone(),
            _ => Vec::new(),
        })
    });
    let benches = Signal::derive(move || {
        state.plan.with(|plan| {
            plan.as_ref()
                .map(|plan| plan.rows.iter().map(|row| row.bench_id.clone()).collect())
                .unwrap_or_default()
        })
    });
    let card = move || scorecard.get().map(|card| Signal::stored(card.arc()));
    view! {
        {computing}
        {move || {
            card()
                .map(|card| {
                    view! {
                        <Answer scorecard=card/>
                        <ScorecardActions scorecard=card link complete/>
                    }
                })
        }}
        <RuleForm benches link on_link/>
        {move || {
            card()
                .map(|card| {
                    view! {
                        <Grid scorecard=card link listed on_link/>
                        <p class="field-help">{core_words::CELL_LEGEND}</p>
                        <DeltaChart scorecard=card/>
                    }
                })
        }}
    }
}
