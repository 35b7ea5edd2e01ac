//! The grid: one row per benchmark version (its baseline, the baseline's mean, the minimum
//! detectable effect, the first significant step), one column per checkpoint step, and each
//! column's decision at the foot.

use std::sync::Arc;

use eval_compare_core::scorecard::words::{outcome_text, step_heading, HEADING, ROW_COLUMNS};
use eval_compare_core::scorecard::{ListedRun, Scorecard};
use eval_compare_core::view_state::ScorecardLink;
use leptos::prelude::*;

use super::answer::outcome_class;
use super::grid_row::GridRow;

/// The grid of `scorecard`.
#[component]
pub fn Grid(
    /// The scorecard, decided under the page's rule.
    #[prop(into)]
    scorecard: Signal<Arc<Scorecard>>,
    /// The page's link (the cells' report links carry it).
    link: Memo<ScorecardLink>,
    /// The listed runs (each row's eligible baselines).
    #[prop(into)]
    listed: Signal<Vec<ListedRun>>,
    /// Called with a changed link (a row's baseline chosen).
    on_link: Callback<ScorecardLink>,
) -> impl IntoView {
    let steps = move || {
        scorecard.with(|card| {
            card.steps
                .iter()
                .map(|step| view! { <th scope="col" class="num">{step_heading(*step)}</th> })
                .collect_view()
        })
    };
    let rows = move || {
        let card = scorecard.get();
        (0..card.rows.len())
            .map(|row| view! { <GridRow scorecard=card.clone() row link listed on_link/> })
            .collect_view()
    };
    let decisions = move || {
        scorecard.with(|card| {
            card.columns
                .iter()
                .map(|column| {
                    view! { <td class=outcome_class(&column.outcome)>{outcome_text(&column.outcome)}</td> }
                })
                .collect_view()
        })
    };
    view! {
        <div class="table-scroll">
            <table class="data-table scorecard-grid">
                <caption class="visually-hidden">{HEADING}</caption>
                <thead>
                    <tr>
                        {ROW_COLUMNS
                            .iter()
                            .map(|name| view! { <th scope="col">{*name}</th> })
                            .collect_view()}
                        {steps}
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
                <tfoot>
                    <tr>
                        <th scope="row" colspan=ROW_COLUMNS.len()>"Decision"</th>
                        {decisions}
                    </tr>
                </tfoot>
            </table>
        </div>
    }
}
