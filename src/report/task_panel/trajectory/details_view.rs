//! A trajectory's details as shown once fetched (or already in the run set): the recorded error
//! message and the reward components with their weights, bounds and the grader's explanation.

use eval_compare_core::model::RewardComponent;
use eval_compare_core::text::compact_value;
use leptos::prelude::*;

use super::details::TrajectoryDetails;
use crate::format;
use crate::report::table::fixed::{Column, FixedTable};
use crate::report::task_panel::rows::RecordedError;

/// A fetched trajectory's error message and reward components.
#[component]
pub fn DetailsView(
    /// What was fetched.
    details: TrajectoryDetails,
) -> impl IntoView {
    let error = match details.error {
        Some(text) => view! { <RecordedError class="details-message" text/> }.into_any(),
        None => view! { <p class="muted details-message">"No error recorded."</p> }.into_any(),
    };
    view! {
        {error}
        <ComponentsView components=details.components/>
    }
}

/// The columns of the components table.
const COLUMNS: [Column; 6] = [
    Column::text("Name").col("col-name"),
    Column::num("Value").col("col-value"),
    Column::num("Scaled").col("col-scaled"),
    Column::num("Weight").col("col-weight"),
    Column::num("Bounds").col("col-bounds"),
    Column::text("Explanation").col("col-explanation"),
];

/// Reward components: name, value, scaled value, weight (0 = informative only), bounds and the
/// grader's explanation.
#[component]
pub fn ComponentsView(
    /// The components in logged order.
    components: Vec<RewardComponent>,
) -> impl IntoView {
    if components.is_empty() {
        return view! { <p class="muted details-message">"No reward components recorded."</p> }
            .into_any();
    }
    let rows = components
        .into_iter()
        .map(|component| {
            let weight = match component.weight {
                Some(0.0) => view! {
                    "0 "<span class="pill pill-neutral">"informative only"</span>
                }
                .into_any(),
                Some(weight) => compact_value(weight).into_any(),
                None => format::MISSING.into_any(),
            };
            let bounds = component
                .score_range
                .map_or_else(|| format::MISSING.to_owned(), |(low, high)| {
                    format!("[{}, {}]", compact_value(low), compact_value(high))
                });
            let threshold = component.threshold.map(|threshold| {
                let outcome = match component.passed {
                    Some(true) => ": passed",
                    Some(false) => ": not passed",
                    None => "",
                };
                format!("threshold {}{outcome}", compact_value(threshold))
            });
            let explanation = component.explanation.clone().filter(|text| !text.trim().is_empty());
            view! {
                <tr>
                    <th scope="row" class="component-name">{component.name.clone()}</th>
                    <td class="num">{component.value.map_or_else(|| "no value".to_owned(), compact_value)}</td>
                    <td class="num">{component.scaled_value.map_or_else(|| format::MISSING.to_owned(), compact_value)}</td>
                    <td class="num component-weight">{weight}</td>
                    <td class="num">{bounds}</td>
                    <td class="component-explanation">
                        {threshold.map(|text| view! { <span class="component-threshold">{text}</span> })}
                        {explanation.unwrap_or_default()}
                    </td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <FixedTable class="components" caption="Reward components" columns=&COLUMNS>
            <tbody>{rows}</tbody>
        </FixedTable>
    }
    .into_any()
}
