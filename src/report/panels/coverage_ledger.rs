//! The coverage ledger: what each run attempted, scored and lost, how many tasks each candidate
//! pairs with the baseline, which tasks are unpaired, and the warnings. Read it before believing
//! a mean.

use std::collections::HashSet;
use std::sync::Arc;

use eval_compare_core::coverage::{MissingnessCheck, PairCoverage, RunCoverage};
use eval_compare_core::model::{OutcomeClass, RunIdx};
use eval_compare_core::report::{Report, TaskCell};
use leptos::prelude::*;

use crate::components::disclosure::toggled_open;
use crate::components::stat_text::{count, mean, plural};

/// How many unpaired tasks are listed before "Show all".
pub const UNPAIRED_SHOWN: usize = 50;

/// The name the report gives a run of the loaded set.
fn run_name(report: &Report, run: RunIdx) -> String {
    report
        .runs
        .iter()
        .find(|summary| summary.index == run)
        .map_or_else(|| format!("run {}", run.0), |summary| summary.name.clone())
}

/// The ledger: counts per run (a table and a stacked bar of trajectories by outcome class),
/// each candidate's paired tasks and unpaired ones, and the coverage warnings.
#[component]
pub fn CoverageLedger(
    /// The report.
    #[prop(into)]
    report: Signal<Arc<Report>>,
) -> impl IntoView {
    let summary = move || {
        report.with(|report| {
            let cov = &report.coverage;
            let listed = if cov.listed_tasks > 0 {
                format!(
                    "; the benchmark lists {}",
                    plural(cov.listed_tasks, "task", "tasks")
                )
            } else {
                String::new()
            };
            format!(
                "{} attempted by at least one run{listed}.",
                plural(cov.union_tasks, "task", "tasks")
            )
        })
    };
    let table_rows = move || {
        report.with(|report| {
            report
                .coverage
                .runs
                .iter()
                .map(|run| {
                    let name = run_name(report, run.run);
                    view! { <CoverageRow run=run.clone() name/> }
                })
                .collect_view()
        })
    };
    let bars = move || {
        report.with(|report| {
            report
                .coverage
                .runs
                .iter()
                .map(|run| {
                    let name = run_name(report, run.run);
                    view! { <OutcomeBar run=run.clone() name/> }
                })
                .collect_view()
        })
    };
    // Which candidates' unpaired lists are open or show all, kept across recomputed reports.
    let open_lists = RwSignal::new(HashSet::<usize>::new());
    let full_lists = RwSignal::new(HashSet::<usize>::new());
    let pairs = move || {
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
    };
    let warnings = move || {
        report.with(|report| {
            let warnings = &report.coverage.warnings;
            (!warnings.is_empty()).then(|| {
                let items = warnings
                    .iter()
                    .map(|warning| {
                        view! {
                            <li class="finding">
                                <span class="severity severity-caution">"warning"</span>
                                <code class="finding-code">{warning.code.clone()}</code>
                                <span class="finding-message">{warning.message.clone()}</span>
                            </li>
                        }
                    })
                    .collect_view();
                view! {
                    <h4 class="subheading">"Coverage warnings"</h4>
                    <ul class="findings">{items}</ul>
                }
            })
        })
    };
    view! {
        <section class="panel coverage" aria-labelledby="coverage-title">
            <h3 id="coverage-title" class="panel-title">"Coverage"</h3>
            <p class="muted">{summary}</p>
            <div class="table-scroll">
                <table class="data-table coverage-table">
                    <caption class="visually-hidden">"Tasks and trajectories per run"</caption>
                    <thead>
                        <tr>
                            <th scope="col">"Run"</th>
                            <th scope="col" class="num">"Tasks selected"</th>
                            <th scope="col" class="num">"Attempted"</th>
                            <th scope="col" class="num">"Scored"</th>
                            <th scope="col" class="num">"Absent"</th>
                            <th scope="col" class="num">"Trajectories"</th>
                            <th scope="col" class="num">"Included"</th>
                            <th scope="col" class="num">"Scored 0 (no reward)"</th>
                            <th scope="col" class="num">"Invalid rewards"</th>
                            <th scope="col" class="num">"Without task"</th>
                            <th scope="col">"Load"</th>
                        </tr>
                    </thead>
                    <tbody>{table_rows}</tbody>
                </table>
            </div>
            <h4 class="subheading">"Trajectories by outcome"</h4>
            <OutcomeLegend/>
            <div class="outcome-bars">{bars}</div>
            <h4 class="subheading">"Pairing with the baseline"</h4>
            <div class="pairs">{pairs}</div>
            {warnings}
        </section>
    }
}

/// One run's counts.
#[component]
fn CoverageRow(run: RunCoverage, name: String) -> impl IntoView {
    let expected = run
        .samples_expected
        .map(|expected| format!(" of {}", count(expected)))
        .unwrap_or_default();
    let load = match &run.incomplete_load {
        None => view! { <span>"complete"</span> }.into_any(),
        Some(why) => view! {
            <span class="incomplete">"incomplete"</span>
            <span class="run-detail">{why.clone()}</span>
        }
        .into_any(),
    };
    view! {
        <tr data-run-id=run.run_id.clone()>
            <th scope="row">
                <span class="run-name">{name}</span>
                <span class="run-id">{run.run_id.clone()}</span>
            </th>
            <td class="num">{run.tasks_selected.map_or_else(|| "—".to_owned(), count)}</td>
            <td class="num">{count(run.tasks_attempted)}</td>
            <td class="num">{count(run.tasks_scored)}</td>
            <td class="num">{count(run.tasks_absent)}</td>
            <td class="num">{format!("{}{expected}", count(run.samples_total))}</td>
            <td class="num">{count(run.samples_valid)}</td>
            <td class="num">{count(run.zero_by_platform_rule + run.zero_without_grade)}</td>
            <td class="num">{count(run.invalid_rewards)}</td>
            <td class="num">{count(run.without_task)}</td>
            <td>{load}</td>
        </tr>
    }
}

/// CSS modifier of an outcome class (its colour).
fn class_modifier(class: OutcomeClass) -> &'static str {
    match class {
        OutcomeClass::Graded => "outcome-graded",
        OutcomeClass::Ungraded => "outcome-ungraded",
        OutcomeClass::CutOff => "outcome-cut-off",
        OutcomeClass::ModelEnding => "outcome-model-ending",
        OutcomeClass::Failed => "outcome-failed",
        OutcomeClass::Cancelled => "outcome-cancelled",
        OutcomeClass::Unfinished => "outcome-unfinished",
        OutcomeClass::Other => "outcome-other",
    }
}

/// The colour key of the outcome bars.
#[component]
fn OutcomeLegend() -> impl IntoView {
    let items = OutcomeClass::ALL
        .into_iter()
        .map(|class| {
            view! {
                <li>
                    <span class=format!("swatch {}", class_modifier(class)) aria-hidden="true"></span>
                    {class.label()}
                </li>
            }
        })
        .collect_view();
    view! { <ul class="legend" aria-label="Outcome classes">{items}</ul> }
}

/// A horizontal bar of one run's trajectories split by outcome class, widths proportional to
/// the counts; the counts are in its label and in each segment's tooltip.
#[component]
fn OutcomeBar(run: RunCoverage, name: String) -> impl IntoView {
    let total = run.samples_total;
    let parts: Vec<(OutcomeClass, u64)> = OutcomeClass::ALL
        .into_iter()
        .map(|class| (class, u64::from(run.samples.get(class))))
        .filter(|(_, n)| *n > 0)
        .collect();
    let described = parts
        .iter()
        .map(|(class, n)| format!("{} {}", count(*n), class.label()))
        .collect::<Vec<_>>()
        .join(", ");
    let label = format!("{name}: {} trajectories: {described}", count(total));
    let segments = parts
        .into_iter()
        .map(|(class, n)| {
            let width = if total > 0 {
                n as f64 * 100.0 / total as f64
            } else {
                0.0
            };
            let share = format!("{:.1}%", width);
            view! {
                <span
                    class=format!("segment {}", class_modifier(class))
                    style=format!("width: {width:.3}%")
                    title=format!("{}: {} ({share})", class.label(), count(n))
                ></span>
            }
        })
        .collect_view();
    view! {
        <div class="outcome-row">
            <span class="outcome-name">{name.clone()}</span>
            <div class="outcome-bar" role="img" aria-label=label>{segments}</div>
            <span class="outcome-total">{count(total)}</span>
        </div>
    }
}

/// A task of the union that a candidate does not pair with the baseline.
#[derive(Debug, Clone, PartialEq)]
pub struct UnpairedTask {
    /// Task id.
    pub task_id: String,
    /// Human label, when known.
    pub label: Option<String>,
    /// The baseline's state on it.
    pub baseline: String,
    /// The candidate's state on it.
    pub candidate: String,
}

/// The tasks candidate `slot` (its position among the candidates) attempted with the baseline
/// in the union but does not pair: one side has no included sample. From the report's rows.
pub fn unpaired_tasks(report: &Report, slot: usize) -> Vec<UnpairedTask> {
    report
        .tasks
        .iter()
        .filter_map(|row| {
            let delta = row.deltas.get(slot)?;
            let base = row.cells.first()?;
            let cand = row.cells.get(slot + 1)?;
            (delta.is_none() && (base.samples > 0 || cand.samples > 0)).then(|| UnpairedTask {
                task_id: row.task_id.clone(),
                label: row.label.clone(),
                baseline: side_state(base),
                candidate: side_state(cand),
            })
        })
        .collect()
}

/// What one run did on a task, in words.
fn side_state(cell: &TaskCell) -> String {
    if cell.samples == 0 {
        return "absent".to_owned();
    }
    match cell.mean {
        Some(value) => format!(
            "scored {} ({} of {} included)",
            mean(value),
            cell.included,
            cell.samples
        ),
        None => {
            let lost: Vec<String> = OutcomeClass::ALL
                .into_iter()
                .map(|class| (class, cell.classes.get(class)))
                .filter(|(_, n)| *n > 0)
                .map(|(class, n)| format!("{n} {}", class.label()))
                .collect();
            format!("nothing included ({})", lost.join(", "))
        }
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
/// unpaired tasks (collapsed; the first [`UNPAIRED_SHOWN`], then "Show all").
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
    let (is_open, set_open) = open;
    let (all_shown, set_all_shown) = show_all;
    let total = unpaired.len();
    let unpaired = StoredValue::new(unpaired);
    let rates = &pair.failure_rates;
    let percent =
        |rate: Option<f64>| rate.map_or_else(|| "—".to_owned(), |r| format!("{:.1}%", r * 100.0));
    let failure_line = format!(
        "Trajectories left out: baseline {} ({} of {}), candidate {} ({} of {}){}.",
        percent(rates.base_rate),
        count(rates.base_unscored),
        count(rates.base_total),
        percent(rates.cand_rate),
        count(rates.cand_unscored),
        count(rates.cand_total),
        rates.z.map(|z| format!(", z = {z:.2}")).unwrap_or_default()
    ) + if rates.flagged {
        " The runs lose trajectories at different rates: Δ may be biased."
    } else {
        ""
    };
    let failure_flagged = rates.flagged;
    let checks = [&pair.missing_from_candidate, &pair.missing_from_baseline]
        .into_iter()
        .filter(|check| check.excluded_tasks > 0)
        .map(missingness_line)
        .map(|(text, flagged)| view! { <li class:flagged=flagged>{text}</li> })
        .collect_view();
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
                                <span class="mono">{task.task_id.clone()}</span>
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
        <div class="pair" data-run-index=pair.candidate.0>
            <p class="pair-headline">
                <strong>{name.clone()}</strong>
                {format!(
                    ": {} paired of {} in the union; {} only in the baseline, {} only in the candidate.",
                    count(pair.paired),
                    count(pair.union),
                    count(pair.only_in_baseline.len() as u64),
                    count(pair.only_in_candidate.len() as u64),
                )}
            </p>
            <ul class="pair-checks">
                <li class:flagged=failure_flagged>{failure_line}</li>
                {checks}
            </ul>
            {(total > 0)
                .then(|| {
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
                                            <th scope="col">{name.clone()}</th>
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
                })}
        </div>
    }
}

/// A missingness check in words, and whether it is flagged.
fn missingness_line(check: &MissingnessCheck) -> (String, bool) {
    let (lost_by, other) = match check.excluded_from {
        eval_compare_core::coverage::Side::Candidate => ("the candidate", "baseline"),
        eval_compare_core::coverage::Side::Baseline => ("the baseline", "candidate"),
    };
    let means = match (check.excluded_mean, check.paired_mean) {
        (Some(excluded), Some(paired)) => format!(
            ": the {other} scores {} there against {} on the paired tasks",
            mean(excluded),
            mean(paired)
        ),
        _ => String::new(),
    };
    let z = check
        .z
        .map(|z| format!(" (z = {z:.2})"))
        .unwrap_or_default();
    let text = format!(
        "{} lost by {lost_by}{means}{z}{}",
        plural(check.excluded_tasks, "task", "tasks"),
        if check.flagged {
            "; the lost tasks differ, so Δ may be biased"
        } else {
            ""
        }
    );
    (text, check.flagged)
}
