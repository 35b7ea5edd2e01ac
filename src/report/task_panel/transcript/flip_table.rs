//! The flip table of the side-by-side view (each side's samples in order with their outcome
//! counts) and the select per side that picks the sample shown.

use std::sync::Arc;

use eval_compare_core::text::{optional_value, visible};
use eval_compare_core::transcript::{FlipSide, FlipTable};
use leptos::prelude::*;

use super::lines::counts_text;
use crate::report::table::fixed::{Column, FixedTable};

/// The flip table's columns.
const COLUMNS: [Column; 3] = [
    Column::text("Run"),
    Column::text("Samples, in order"),
    Column::text("Counts"),
];

/// Each side's samples and outcome counts.
#[component]
pub fn FlipTableView(table: Arc<FlipTable>, names: [String; 2]) -> impl IntoView {
    let rows = table
        .sides
        .iter()
        .zip(names)
        .map(|(side, name)| {
            let samples = side
                .samples
                .iter()
                .map(|sample| {
                    let label = sample.outcome.label();
                    view! {
                        <li class=format!("flip-sample flip-{}", label.replace(' ', "-"))
                            title=visible(&sample.trajectory_id).into_owned()>
                            {label}
                        </li>
                    }
                })
                .collect_view();
            view! {
                <tr>
                    <th scope="row">{name}</th>
                    <td><ol class="flip-samples">{samples}</ol></td>
                    <td>{counts_text(&side.counts)}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <FixedTable class="flip-table" columns=&COLUMNS>
            <tbody>{rows}</tbody>
        </FixedTable>
    }
}

/// A select per side to pick which sample is shown.
#[component]
pub fn SamplePickers(
    table: Arc<FlipTable>,
    names: [String; 2],
    chosen: RwSignal<(usize, usize)>,
    /// Called with the pair picked (baseline's sample, candidate's).
    choose: Callback<(usize, usize)>,
) -> impl IntoView {
    let picker = |side: usize, samples: &FlipSide, name: String| {
        let options = samples
            .samples
            .iter()
            .enumerate()
            .map(|(index, sample)| {
                let text = format!(
                    "{} · {} · reward {}",
                    visible(&sample.trajectory_id),
                    sample.outcome.label(),
                    optional_value(sample.reward)
                );
                let selected = move || {
                    let (b, c) = chosen.get();
                    (if side == 0 { b } else { c }) == index
                };
                view! { <option value=index.to_string() selected=selected>{text}</option> }
            })
            .collect_view();
        view! {
            <label class="sbs-picker">
                <span>{format!("{name}'s sample")}</span>
                <select on:change=move |event| {
                    let Ok(index) = event_target_value(&event).parse::<usize>() else { return };
                    let (b, c) = chosen.get_untracked();
                    choose.run(if side == 0 { (index, c) } else { (b, index) });
                }>
                    {options}
                </select>
            </label>
        }
    };
    let [base, cand] = names;
    view! {
        <div class="sbs-pickers">
            {picker(0, &table.sides[0], base)}
            {picker(1, &table.sides[1], cand)}
        </div>
    }
}
