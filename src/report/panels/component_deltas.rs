//! Each reward component's (for Chronicle: each scorer's) own paired Δ for the focused
//! candidate, in the component's own units, over the tasks both runs have a value for it — the
//! headline's paired machinery per component. A scorer without a threshold only measures; one
//! with a threshold also decides the pass/fail outcome. Hidden when the runs have no components.

use std::sync::Arc;

use eval_compare_core::report::{ComponentDelta, Report};
use eval_compare_core::text::{
    count, interval_value, mean, signed_value, visible, StatText, MISSING,
};
use leptos::prelude::*;

/// The focused candidate's component deltas; nothing when it has none.
#[component]
pub fn ComponentDeltas(
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
            if candidate.components.is_empty() {
                return None;
            }
            let name = report
                .runs
                .get(candidate.run)
                .map(|run| visible(&run.name).into_owned())
                .unwrap_or_default();
            let rows = candidate
                .components
                .iter()
                .map(component_row)
                .collect_view();
            Some(view! {
                <section class="panel components" aria-labelledby="components-title">
                    <h3 id="components-title" class="panel-title">"Components: "{name}" against the baseline"</h3>
                    <p class="panel-intro">
                        "Each component's own paired Δ (candidate − baseline) over the tasks both runs have a "
                        "value for it, in its own units; a missing value is left out, never taken as 0."
                    </p>
                    <table class="data-table compact components-table">
                        <thead>
                            <tr>
                                <th scope="col">"Component"</th>
                                <th scope="col">"Threshold"</th>
                                <th scope="col" class="num">"Tasks (baseline / candidate / paired)"</th>
                                <th scope="col" class="num">"Baseline mean"</th>
                                <th scope="col" class="num">"Candidate mean"</th>
                                <th scope="col" class="num">"Δ"</th>
                                <th scope="col" class="num">"t interval"</th>
                            </tr>
                        </thead>
                        <tbody>{rows}</tbody>
                    </table>
                </section>
            })
        })
    }
}

/// The cells of one component's row, as text (also what the tests read).
pub fn component_cells(component: &ComponentDelta) -> [String; 7] {
    let paired = component.estimate.as_ref().map_or(0, |e| e.n);
    [
        visible(&component.name).into_owned(),
        component
            .threshold
            .map_or_else(|| format!("{MISSING} (measures only)"), mean),
        format!(
            "{} / {} / {}",
            count(component.baseline_tasks as u64),
            count(component.candidate_tasks as u64),
            count(paired as u64)
        ),
        StatText::of(&component.estimate, |e| mean(e.baseline_mean)).text(),
        StatText::of(&component.estimate, |e| mean(e.candidate_mean)).text(),
        StatText::of(&component.estimate, |e| signed_value(e.delta)).text(),
        StatText::and_then(&component.estimate, |e| {
            StatText::of(&e.t_interval, interval_value)
        })
        .text(),
    ]
}

fn component_row(component: &ComponentDelta) -> impl IntoView {
    let [name, threshold, tasks, base, cand, delta, interval] = component_cells(component);
    view! {
        <tr>
            <th scope="row" class="component-name">{name}</th>
            <td>{threshold}</td>
            <td class="num">{tasks}</td>
            <td class="num">{base}</td>
            <td class="num">{cand}</td>
            <td class="num">{delta}</td>
            <td class="num">{interval}</td>
        </tr>
    }
}
