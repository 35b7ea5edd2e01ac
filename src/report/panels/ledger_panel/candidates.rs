//! "Find candidates…": the obvious candidates for the ledger (core's `ledger_candidates`: tasks
//! whose attempts in one run all ended in an execution error or all without a submission,
//! tasks no run graded, tasks the benchmark's list does not have), each group taken in one
//! action. Preview shows what changes before anything does: how many tasks, and each
//! candidate's verdict and Δ with them set aside, from the same core report the page shows
//! (built without its bootstraps). Computed only while the list is open.

use std::sync::Arc;

use eval_compare_core::ledger::{ledger_candidates, with_entries, Action, CandidateGroup, Reason};
use eval_compare_core::model::{RunIdx, RunSet};
use eval_compare_core::report::{build_report_with_ledger_deferred, Report, ReportSettings};
use eval_compare_core::view_state::ViewState;
use leptos::prelude::*;

use super::words::{candidate_counts, preview_lines};
use crate::components::button::ActionButton;
use crate::state::ledger::{now_rfc3339, LedgerEdits};

/// The compared runs of `report`, the baseline first.
fn compared(report: &Report) -> Vec<RunIdx> {
    report.runs.iter().map(|run| run.index).collect()
}

/// "Find candidates…" and, once open, the groups; closed, it computes nothing.
#[component]
pub fn LedgerCandidates(
    report: Signal<Arc<Report>>,
    run_set: Signal<Arc<RunSet>>,
    view: Signal<ViewState>,
    edits: LedgerEdits,
) -> impl IntoView {
    let open = RwSignal::new(false);
    let groups = Memo::new(move |_| {
        if !open.get() {
            return Vec::new();
        }
        let runs = report.with(|report| compared(report));
        let ledger = edits.ledger.get();
        run_set.with(|set| ledger_candidates(set, &runs, &ledger))
    });
    let list = move || {
        let groups = groups.get();
        if groups.is_empty() {
            return view! {
                <p class="muted">"No obvious candidate: no task is in one of these groups."</p>
            }
            .into_any();
        }
        groups
            .into_iter()
            .map(|group| view! { <CandidateRow group report run_set view edits/> })
            .collect_view()
            .into_any()
    };
    view! {
        <section class="ledger-candidates" aria-label="Candidates for the ledger">
            <button
                type="button"
                class="button button-secondary candidates-toggle"
                aria-expanded=move || open.get().to_string()
                on:click=move |_| open.update(|open| *open = !*open)
            >
                {move || if open.get() { "Hide candidates" } else { "Find candidates…" }}
            </button>
            <Show when=move || open.get()>
                <p class="muted">
                    "Tasks a reviewer usually sets aside, in groups; Preview shows what setting a "
                    "group aside would change before it does."
                </p>
                {list}
            </Show>
        </section>
    }
}

/// One group: what its tasks share, how many, the reason, Preview and then "Set aside".
#[component]
fn CandidateRow(
    group: CandidateGroup,
    report: Signal<Arc<Report>>,
    run_set: Signal<Arc<RunSet>>,
    view: Signal<ViewState>,
    edits: LedgerEdits,
) -> impl IntoView {
    let reason = RwSignal::new(group.kind.reason());
    let preview = RwSignal::new(None::<Result<Vec<String>, String>>);
    let counts = report.with_untracked(|report| candidate_counts(&group, report));
    let group = Arc::new(group);
    let entries = {
        let group = group.clone();
        move |at: Option<&str>| group.entries(Action::LeaveOut, reason.get_untracked(), at)
    };
    let show_preview = {
        let entries = entries.clone();
        move |()| {
            let runs = report.with_untracked(|report| compared(report));
            let ledger = with_entries(&edits.ledger.get_untracked(), entries(None));
            let settings = view.with_untracked(ReportSettings::from_view);
            let built = run_set.with_untracked(|set| {
                let (&baseline, candidates) = runs.split_first()?;
                Some(
                    build_report_with_ledger_deferred(
                        set, baseline, candidates, &settings, &ledger,
                    )
                    .map(|deferred| preview_lines(&deferred.report))
                    .map_err(|error| error.to_string()),
                )
            });
            preview.set(built);
        }
    };
    let apply = Callback::new(move |()| {
        let at = now_rfc3339();
        if edits.add_all(entries(Some(&at))) {
            preview.set(None);
        }
    });
    let reasons = Reason::ALL
        .into_iter()
        .map(|r| view! { <option value=r.name() selected=r == reason.get_untracked()>{r.label()}</option> })
        .collect_view();
    let shown = move || {
        preview.get().map(|lines| match lines {
            Ok(lines) => {
                let items = lines
                    .into_iter()
                    .map(|line| view! { <li>{line}</li> })
                    .collect_view();
                view! {
                    <ul class="candidate-preview" aria-live="polite">{items}</ul>
                    <div class="button-row">
                        <ActionButton on_click=apply>"Set these tasks aside"</ActionButton>
                        <ActionButton secondary=true on_click=move |()| preview.set(None)>
                            "Cancel"
                        </ActionButton>
                    </div>
                }
                .into_any()
            }
            Err(why) => view! { <p class="notice notice-caution">{why}</p> }.into_any(),
        })
    };
    view! {
        <section class="candidate-group" data-kind=group.kind.name()>
            <p class="candidate-label"><strong>{group.kind.label()}</strong></p>
            <p class="candidate-counts">{counts}</p>
            <div class="candidate-controls">
                <label class="field">
                    <span class="field-label">"Reason"</span>
                    <select on:change=move |event| {
                        let name = event_target_value(&event);
                        if let Some(r) = Reason::ALL.into_iter().find(|r| r.name() == name) {
                            reason.set(r);
                            preview.set(None);
                        }
                    }>{reasons}</select>
                </label>
                <ActionButton secondary=true on_click=show_preview>"Preview"</ActionButton>
            </div>
            {shown}
        </section>
    }
}
