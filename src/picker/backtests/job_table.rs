//! The table of backtest jobs with the picker's controls: per job a baseline radio and a
//! checkbox to compare it, and for a compare-mode job "Open" (its agents compared at once);
//! under it the bar summing up the choice with "Compare".

use eval_compare_core::api::ChronicleJob;
use eval_compare_core::load::jobs_of;
use eval_compare_core::text::{noun, visible};
use eval_compare_core::view_state::ViewState;
use leptos::prelude::*;

use crate::format;
use crate::picker::backtests::choice::{
    comparison_of, mode_label, opens_alone, refusal_beside, refusal_of, status_label, suite_label,
    trials_label,
};
use crate::picker::pick_cells::PickCells;
use crate::picker::run_chooser::chooser_view;
use crate::route::{ReportPrefetch, RunSource};
use crate::state::url::UrlState;

/// The chosen jobs: one baseline job and the others, in the order chosen.
#[derive(Debug, Clone, Copy)]
struct JobSelection {
    baseline: RwSignal<Option<String>>,
    others: RwSignal<Vec<String>>,
}

/// The view that opens the comparison of `runs` (baseline, candidates), keeping the analysis
/// settings of `current`.
pub fn comparison_view(
    current: &ViewState,
    (baseline, candidates): (String, Vec<String>),
) -> ViewState {
    ViewState {
        agent: None,
        bench: None,
        baseline: Some(baseline),
        candidates,
        ..chooser_view(current)
    }
}

/// The jobs a link's comparison names (its runs are `{job}/{agent}`): the baseline's job and
/// the other jobs in order.
pub fn jobs_of_view(view: &ViewState) -> (Option<String>, Vec<String>) {
    let base = view
        .baseline
        .as_ref()
        .and_then(|id| jobs_of(std::slice::from_ref(id)).pop());
    let others = jobs_of(&view.candidates)
        .into_iter()
        .filter(|job| Some(job) != base.as_ref())
        .collect();
    (base, others)
}

/// The jobs with the selection controls and the Compare bar. The first choice is the one of the
/// URL (when it names jobs of the list); Compare and Open push `/backtests/compare`.
#[component]
pub fn JobChooser(
    /// The jobs to choose from, in display order.
    #[prop(into)]
    jobs: Signal<Vec<ChronicleJob>>,
    /// The URL state.
    url: UrlState,
) -> impl IntoView {
    let (base, others) = jobs_of_view(&url.view_untracked());
    let selection = JobSelection {
        baseline: RwSignal::new(base),
        others: RwSignal::new(others),
    };
    let find = move |id: &str| jobs.with(|jobs| jobs.iter().find(|job| job.id == id).cloned());
    let baseline_job = Memo::new(move |_| selection.baseline.get().and_then(|id| find(&id)));
    // Jobs chosen but not (or no longer) in the list, or refused beside the baseline, drop out.
    let chosen = Memo::new(move |_| {
        let Some(base) = baseline_job.get() else {
            return Vec::new();
        };
        let mut chosen = vec![base.clone()];
        for id in selection.others.get() {
            if let Some(job) = find(&id).filter(|job| refusal_beside(&base, job).is_none()) {
                chosen.push(job);
            }
        }
        chosen
    });
    let open = Callback::new(move |jobs: Vec<ChronicleJob>| {
        let refs: Vec<&ChronicleJob> = jobs.iter().collect();
        if let Some(runs) = comparison_of(&refs) {
            let view = comparison_view(&url.view_untracked(), runs);
            url.push(RunSource::Chronicle.report(), &view);
        }
    });
    let intent = Callback::new(move |()| {
        if let Some(prefetch) = ReportPrefetch::from_context() {
            prefetch.run(());
        }
    });
    // A row is re-created only when its job changed (a running job's progress).
    let row_key = |job: &ChronicleJob| {
        (
            job.id.clone(),
            job.completed_trials,
            job.status.as_ref().map(|status| status.as_str().to_owned()),
        )
    };
    view! {
        <div class="table-scroll">
            <table class="runs-table jobs-table selectable">
                <colgroup>
                    <col class="col-pick"/>
                    <col class="col-pick"/>
                    <col class="col-job"/>
                    <col class="col-mode"/>
                    <col class="col-agents"/>
                    <col class="col-job-status"/>
                    <col class="col-suite"/>
                    <col class="col-created"/>
                    <col class="col-open"/>
                </colgroup>
                <thead>
                    <tr>
                        <th scope="col" class="pick">"Baseline"</th>
                        <th scope="col" class="pick">"Compare"</th>
                        <th scope="col">"Job"</th>
                        <th scope="col">"Mode"</th>
                        <th scope="col">"Agents"</th>
                        <th scope="col">"Status"</th>
                        <th scope="col">"Task suite"</th>
                        <th scope="col">"Created"</th>
                        <th scope="col"><span class="visually-hidden">"Open"</span></th>
                    </tr>
                </thead>
                <tbody>
                    <For each=move || jobs.get() key=row_key let(job)>
                        <JobRow job selection baseline_job open intent/>
                    </For>
                </tbody>
            </table>
        </div>
        <JobCompareBar chosen open intent/>
    }
}

/// One job as a row: its controls, name and id, mode, agents, status with trials, suite,
/// creation time, and Open for a compare-mode job.
#[component]
fn JobRow(
    job: ChronicleJob,
    selection: JobSelection,
    baseline_job: Memo<Option<ChronicleJob>>,
    open: Callback<Vec<ChronicleJob>>,
    intent: Callback<()>,
) -> impl IntoView {
    let name = job_name(&job);
    let id = job.id.clone();
    let own_refusal = refusal_of(&job);
    let refusal = {
        let job = job.clone();
        Memo::new(move |_| {
            baseline_job.with(|base| match base {
                Some(base) if base.id != job.id => refusal_beside(base, &job),
                _ => refusal_of(&job),
            })
        })
    };
    let is_baseline = {
        let id = id.clone();
        Memo::new(move |_| {
            selection
                .baseline
                .with(|base| base.as_deref() == Some(id.as_str()))
        })
    };
    let is_other = {
        let id = id.clone();
        move || selection.others.with(|others| others.contains(&id))
    };
    let choose_baseline = {
        let id = id.clone();
        move |()| {
            selection
                .others
                .update(|others| others.retain(|other| other != &id));
            selection.baseline.set(Some(id.clone()));
        }
    };
    let toggle = {
        let id = id.clone();
        move |checked: bool| {
            selection.others.update(|others| {
                others.retain(|other| other != &id);
                if checked {
                    others.push(id.clone());
                }
            });
        }
    };
    let checkbox_disabled = move || {
        is_baseline.get()
            || selection.baseline.with(Option::is_none)
            || refusal.with(Option::is_some)
    };
    let checkbox_title = move || {
        refusal.get().or_else(|| {
            selection
                .baseline
                .with(Option::is_none)
                .then(|| "Choose the baseline job first.".to_owned())
        })
    };
    let (status, modifier) = status_label(job.status.as_ref());
    let agents = job
        .agents
        .iter()
        .map(|agent| view! { <li>{visible(agent).into_owned()}</li> })
        .collect_view();
    let open_button = opens_alone(&job).then(|| {
        let job = job.clone();
        view! {
            <button
                class="button button-secondary"
                type="button"
                on:click=move |_| open.run(vec![job.clone()])
                on:pointerenter=move |_| intent.run(())
                on:focus=move |_| intent.run(())
            >
                "Open"
            </button>
        }
    });
    let shown_refusal = move || {
        (!is_baseline.get())
            .then(|| refusal.get())
            .flatten()
            .map(|why| view! { <span class="run-detail job-refusal">{why}</span> })
    };
    let pick_cells = PickCells {
        group: "baseline-job",
        baseline_label: format!("Use {name} as the baseline job"),
        compare_label: format!("Compare {name} with the baseline job"),
        baseline_refusal: Signal::stored(own_refusal.clone()),
        compare_disabled: Signal::derive(checkbox_disabled),
        compare_title: Signal::derive(checkbox_title),
        is_baseline: is_baseline.into(),
        is_compared: Signal::derive(is_other),
        on_baseline: Callback::new(choose_baseline),
        on_compare: Callback::new(toggle),
    }
    .render();
    view! {
        <tr data-job-id=id.clone()>
            {pick_cells}
            <td>
                <span class="run-name">{name.clone()}</span>
                <span class="run-id">{visible(&id).into_owned()}</span>
                {shown_refusal}
            </td>
            <td>{mode_label(job.mode.as_ref())}</td>
            <td><ul class="job-agents">{agents}</ul></td>
            <td>
                <span class=format!("status {modifier}")>{status}</span>
                {trials_label(&job).map(|trials| view! { <span class="run-detail">{trials}</span> })}
            </td>
            <td class="nowrap">{suite_label(&job)}</td>
            <td class="muted nowrap">
                {job.created_at.as_deref().map(format::timestamp).unwrap_or_default()}
            </td>
            <td>{open_button}</td>
        </tr>
    }
}

/// A job's name, or its id when it has none.
pub fn job_name(job: &ChronicleJob) -> String {
    job.name
        .as_deref()
        .filter(|name| !name.trim().is_empty())
        .map_or_else(
            || visible(&job.id).into_owned(),
            |name| visible(name).into_owned(),
        )
}

/// The bar under the table: the baseline job and the others chosen, the runs that makes, and
/// Compare once there is a candidate.
#[component]
fn JobCompareBar(
    /// The baseline job first, then the others.
    chosen: Memo<Vec<ChronicleJob>>,
    open: Callback<Vec<ChronicleJob>>,
    intent: Callback<()>,
) -> impl IntoView {
    let runs = move || {
        chosen.with(|jobs| {
            let refs: Vec<&ChronicleJob> = jobs.iter().collect();
            comparison_of(&refs)
        })
    };
    let summary = move || {
        chosen.with(|jobs| {
            let Some((base, others)) = jobs.split_first() else {
                return view! { <span class="muted">"No baseline job chosen"</span> }.into_any();
            };
            let candidates = runs().map_or(0, |(_, candidates)| candidates.len());
            let others_text = if others.is_empty() {
                String::new()
            } else {
                let names: Vec<String> = others.iter().map(job_name).collect();
                format!(" · with {}", names.join(", "))
            };
            let runs_text = if candidates == 0 {
                " · no candidate: choose a job with more agents, or more jobs".to_owned()
            } else {
                format!(
                    " · {candidates} {} against its first agent",
                    noun(candidates as u64, "candidate", "candidates")
                )
            };
            view! {
                <span>
                    "Baseline job "<strong>{job_name(base)}</strong>{others_text}{runs_text}
                </span>
            }
            .into_any()
        })
    };
    let can_compare = move || runs().is_some();
    view! {
        <div class="compare-bar" role="region" aria-label="Chosen jobs">
            <p class="compare-summary" aria-live="polite">{summary}</p>
            <button
                class="button"
                type="button"
                disabled=move || !can_compare()
                on:click=move |_| {
                    if can_compare() {
                        open.run(chosen.get_untracked());
                    }
                }
                on:pointerenter=move |_| intent.run(())
                on:focus=move |_| intent.run(())
            >
                "Compare"
            </button>
        </div>
    }
}
