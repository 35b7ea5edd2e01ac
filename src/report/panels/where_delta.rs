//! Where the focused candidate's Δ comes from, beside the headline: Δ per task category with
//! its interval and the Holm/BH-adjusted p across the categories, the line saying whether the
//! regressions are concentrated in one category, the tasks whose samples disagree (flaky) and
//! their share of Δ, and pass@k beside pass^k. Every text is the core's (`category_cells`,
//! `flaky_line`, `pass_k_cells` and the introductions, the same as the markdown's and the HTML
//! report's); this only lays it out.

use std::sync::Arc;

use eval_compare_core::report::{
    category_cells, flaky_line, pass_k_cells, CandidateResult, Report, Topic, CATEGORIES_INTRO,
    CATEGORY_COLUMNS, NO_CATEGORY, PASS_K_COLUMNS, PASS_K_INTRO,
};
use eval_compare_core::text::{shorten, visible, SHOWN_NAME_CHARS};
use leptos::prelude::*;

use crate::components::explain::explain_button;

/// The section of the focused candidate; nothing without a candidate.
#[component]
pub fn WhereDelta(
    /// The report.
    #[prop(into)]
    report: Signal<Arc<Report>>,
    /// Index of the focused candidate.
    #[prop(into)]
    focus: Signal<usize>,
) -> impl IntoView {
    move || {
        report.with(|report| {
            let candidate = report.candidates.get(focus.get())?;
            let name = report
                .run_of(candidate)
                .map(|run| visible(&shorten(&run.name, SHOWN_NAME_CHARS)).into_owned())
                .unwrap_or_default();
            Some(view! {
                <section class="panel where-delta" aria-labelledby="where-delta-title">
                    <h3 id="where-delta-title" class="panel-title">
                        "Where the Δ of "{name}" comes from"
                        {explain_button(Topic::CategoryDelta, &report.settings)}
                    </h3>
                    {categories(candidate)}
                    <p class="flaky-line">
                        {flaky_line(&candidate.flaky)}
                        {explain_button(Topic::FlakyTasks, &report.settings)}
                    </p>
                    {pass_k(report, candidate)}
                </section>
            })
        })
    }
}

fn table<const N: usize>(
    class: &'static str,
    columns: &[&'static str; N],
    rows: Vec<[String; N]>,
) -> impl IntoView {
    let head = columns
        .iter()
        .enumerate()
        .map(|(index, heading)| {
            let class = if index >= 1 { "num" } else { "" };
            view! { <th scope="col" class=class>{*heading}</th> }
        })
        .collect_view();
    let body = rows
        .into_iter()
        .map(|cells| {
            let cells = cells
                .into_iter()
                .enumerate()
                .map(|(index, text)| {
                    let class = if index >= 1 { "num" } else { "" };
                    view! { <td class=class>{text}</td> }
                })
                .collect_view();
            view! { <tr>{cells}</tr> }
        })
        .collect_view();
    view! {
        <table class=format!("data-table compact {class}")>
            <thead><tr>{head}</tr></thead>
            <tbody>{body}</tbody>
        </table>
    }
}

fn categories(candidate: &CandidateResult) -> AnyView {
    match &candidate.by_category {
        Some(breakdown) => {
            let rows = breakdown.groups.iter().map(category_cells).collect();
            view! {
                <p class="concentration-line">{breakdown.sentence.clone()}</p>
                {table("categories-table", &CATEGORY_COLUMNS, rows)}
                <p class="panel-intro">{CATEGORIES_INTRO}</p>
            }
            .into_any()
        }
        None => view! { <p class="muted">{NO_CATEGORY}</p> }.into_any(),
    }
}

fn pass_k(report: &Report, candidate: &CandidateResult) -> Option<impl IntoView> {
    let comparisons = &report.headline(candidate).pass_at_k;
    (!comparisons.is_empty()).then(|| {
        let rows = comparisons.iter().map(pass_k_cells).collect();
        view! {
            {table("pass-k-table", &PASS_K_COLUMNS, rows)}
            <p class="panel-intro">
                {PASS_K_INTRO}
                {explain_button(Topic::PassAtK, &report.settings)}
            </p>
        }
    })
}
