//! Each candidate's pairing with the baseline: paired of the union, the two checks that the
//! lost trajectories and tasks do not bias Δ, and the unpaired tasks (collapsed; the first
//! [`UNPAIRED_SHOWN`], then "Show all").

use std::collections::HashSet;
use std::sync::Arc;

use eval_compare_core::coverage::PairCoverage;
use eval_compare_core::report::Report;
use eval_compare_core::text::visible;
use leptos::prelude::*;

use super::words::{
    failure_line, missingness_line, pair_headline, run_name, unpaired_tasks, UnpairedTask,
};
use crate::components::disclosure::toggled_open;
use crate::components::stat_text::count;

/// How many unpaired tasks are listed before "Show all".
pub const UNPAIRED_SHOWN: usize = 50;

/// One pairing per candidate, in report order. Which unpaired lists are open or show all is
/// kept by candidate position across recomputed reports.
#[component]
pub fn Pairings(
    /// The report.
    report: Signal<Arc<Report>>,
) -> impl IntoView {
    let open_lists = RwSignal::new(HashSet::<usize>::new());
    let full_lists = RwSignal::new(HashSet::<usize>::new());
    move || {
        report.with(|report| {
            report
                .coverage
                .comparisons
                .iter()
                .enumerate()
                .map(|(slot, pair)| {
                    let name = run_name(report, pair.candidate);
                    let unpaired = unpaired_tasks(report, slot);
                    view! {
                        <PairSummary
                            pair=pair.clone()
                            name
                            unpaired
                            open=slot_flag(open_lists, slot)
                            show_all=slot_flag(full_lists, slot)
                        />
                    }
                })
                .collect_view()
        })
    }
}

/// A flag of one slot kept in a set of slots, as a read/write pair.
fn slot_flag(set: RwSignal<HashSet<usize>>, slot: usize) -> (Signal<bool>, Callback<bool>) {
    (
        Signal::derive(move || set.with(|set| set.contains(&slot))),
        Callback::new(move |on: bool| {
            set.update(|set| {
                if on {
                    set.insert(slot);
                } else {
                    set.remove(&slot);
                }
            })
        }),
    )
}

/// One candidate's pairing: paired n of the union, the lopsided tasks, the two checks, and the
/// unpaired tasks.
#[component]
fn PairSummary(
    pair: PairCoverage,
    name: String,
    unpaired: Vec<UnpairedTask>,
    /// Whether the unpaired list is open, and how to change it.
    open: (Signal<bool>, Callback<bool>),
    /// Whether every unpaired task is listed, and how to change it.
    show_all: (Signal<bool>, Callback<bool>),
) -> impl IntoView {
    let failure_flagged = pair.failure_rates.flagged;
    let checks = [&pair.missing_from_candidate, &pair.missing_from_baseline]
        .into_iter()
        .filter(|check| check.excluded_tasks > 0)
        .map(missingness_line)
        .map(|(text, flagged)| view! { <li class:flagged=flagged>{text}</li> })
        .collect_view();
    view! {
        <div class="pair" data-run-index=pair.candidate.0>
            <p class="pair-headline">
                <strong>{name.clone()}</strong>
                {pair_headline(&pair)}
            </p>
            <ul class="pair-checks">
                <li class:flagged=failure_flagged>{failure_line(&pair.failure_rates)}</li>
                {checks}
            </ul>
            {(!unpaired.is_empty()).then(|| view! { <UnpairedList name unpaired open show_all/> })}
        </div>
    }
}

/// The unpaired tasks of a candidate named `name`, collapsed: each with both sides' state.
#[component]
fn UnpairedList(
    name: String,
    unpaired: Vec<UnpairedTask>,
    open: (Signal<bool>, Callback<bool>),
    show_all: (Signal<bool>, Callback<bool>),
) -> impl IntoView {
    let (is_open, set_open) = open;
    let (all_shown, set_all_shown) = show_all;
    let total = unpaired.len();
    let unpaired = StoredValue::new(unpaired);
    let list = move || {
        let limit = if all_shown.get() {
            usize::MAX
        } else {
            UNPAIRED_SHOWN
        };
        unpaired.with_value(|tasks| {
            tasks
                .iter()
                .take(limit)
                .map(|task| {
                    view! {
                        <tr>
                            <th scope="row">
                                <span class="mono">{visible(&task.task_id).into_owned()}</span>
                                {task.label.clone().map(|label| view! { <span class="run-detail">{label}</span> })}
                            </th>
                            <td>{task.baseline.clone()}</td>
                            <td>{task.candidate.clone()}</td>
                        </tr>
                    }
                })
                .collect_view()
        })
    };
    view! {
        <details
            class="unpaired"
            prop:open=move || is_open.get()
            on:toggle=move |event| set_open.run(toggled_open(&event))
        >
            <summary>{format!("Unpaired tasks ({})", count(total as u64))}</summary>
            <div class="table-scroll">
                <table class="data-table compact">
                    <thead>
                        <tr>
                            <th scope="col">"Task"</th>
                            <th scope="col">"Baseline"</th>
                            <th scope="col">{name}</th>
                        </tr>
                    </thead>
                    <tbody>{list}</tbody>
                </table>
            </div>
            {(total > UNPAIRED_SHOWN)
                .then(|| {
                    view! {
                        <button
                            class="button button-secondary"
                            type="button"
                            on:click=move |_| set_all_shown.run(!all_shown.get_untracked())
                        >
                            {move || {
                                if all_shown.get() {
                                    format!("Show the first {UNPAIRED_SHOWN}")
                                } else {
                                    format!("Show all {}", count(total as u64))
                                }
                            }}
                        </button>
                    }
                })}
        </details>
    }
}
