//! The baseline's attempt at the task beside the focused candidate's: above, the flip table of
//! both sides' samples with its verdict ([`super::flip_table`]); then a select per side (the
//! default pair from [`default_pair`], its reason shown), each side's head (outcome, reward,
//! ending, reward components once the details are loaded) and the aligned rows of
//! [`super::aligned_rows`] with the first divergence marked. Keys (the view focused): j/↓, k/↑
//! between rows, `d` the divergence, n/p and N/P the candidate's and the baseline's next or
//! previous sample (the focus stays in the view while the new pair is read, then moves to its
//! rows).

use std::sync::Arc;

use eval_compare_core::client::ClientConfig;
use eval_compare_core::model::RunSet;
use eval_compare_core::report::{Report, RunSummary, TaskRow};
use eval_compare_core::text::{optional_value, visible};
use eval_compare_core::transcript::{
    default_pair, flip_table, Direction, Flip, FlipTable, Sample, SamplePair,
};
use leptos::html;
use leptos::prelude::*;

use super::aligned_rows::AlignedRows;
use super::flip_table::{FlipTableView, SamplePickers};
use super::lines::{flip_text, pair_reason_text, sample_after_key};
use crate::report::task_panel::keys::in_text_field;
use crate::report::task_panel::on_demand::Fetch;
use crate::report::task_panel::panel_state::PanelState;
use crate::report::task_panel::rows::ErrorNotice;
use crate::report::task_panel::run_kind::is_trajectory_api_run;
use crate::report::task_panel::trajectory::details::{DetailLoader, DetailState};
use crate::report::task_panel::trajectory::details_view::ComponentsView;

/// The flip table of the baseline and the candidate at `focus` on the task, and the pair shown
/// first; `None` when either is not a Trajectory API run or has no sample.
fn comparison<'a>(
    report: &'a Report,
    set: &RunSet,
    row: &TaskRow,
    focus: usize,
) -> Option<([&'a RunSummary; 2], FlipTable, SamplePair)> {
    let (base, cand) = (report.runs.first()?, report.runs.get(1 + focus)?);
    if !is_trajectory_api_run(base) || !is_trajectory_api_run(cand) {
        return None;
    }
    let task = set.find_task(&row.task_id)?;
    let sides = [set.find_run(&base.id)?, set.find_run(&cand.id)?];
    let table = flip_table(set, task, &sides).ok()?;
    if table.sides.iter().any(|side| side.samples.is_empty()) {
        return None;
    }
    let direction = Direction::of_delta(row.deltas.get(focus).copied().flatten());
    let pair = default_pair(&table.sides[0], &table.sides[1], direction)?;
    Some(([base, cand], table, pair))
}

/// The flip table and the side-by-side view of the task, for the baseline and the candidate
/// at `focus`; nothing when either is not a Trajectory API run or has no sample.
#[component]
pub fn TaskComparison(
    report: Arc<Report>,
    set: Arc<RunSet>,
    row: TaskRow,
    focus: usize,
    panel: PanelState,
) -> impl IntoView {
    let Some(([base, cand], table, pair)) = comparison(&report, &set, &row, focus) else {
        return ().into_any();
    };
    let PanelState {
        client,
        details,
        transcripts,
        attempts,
        on_attempts,
        ..
    } = panel;
    let table = Arc::new(table);
    // The pair from the link when both ids are this task's samples, else the default.
    let from_link = attempts.with_untracked(|ids| match ids.as_slice() {
        [b, c] => table.sides[0]
            .position_of(b)
            .zip(table.sides[1].position_of(c)),
        _ => None,
    });
    let chosen = RwSignal::new(from_link.unwrap_or((pair.baseline, pair.candidate)));
    let open = RwSignal::new(from_link.is_some());
    let ids = {
        let table = Arc::clone(&table);
        move |(b, c): (usize, usize)| {
            vec![
                table.sides[0].samples[b].trajectory_id.clone(),
                table.sides[1].samples[c].trajectory_id.clone(),
            ]
        }
    };
    // Reads the chosen pair (and its details) whenever the view is open and a client is set;
    // what is read or being read is not asked for again, what failed is.
    let read = Callback::new({
        let ids = ids.clone();
        move |()| {
            if let Some(config) = client.get_untracked() {
                transcripts.load(config.clone(), ids(chosen.get_untracked()));
                details.load(config, ids(chosen.get_untracked()));
            }
        }
    });
    Effect::new(move |_| {
        if open.get() && client.with(Option::is_some) {
            chosen.track();
            read.run(());
        }
    });
    let choose = Callback::new(move |next: (usize, usize)| {
        chosen.set(next);
        open.set(true);
        on_attempts.run(ids(next));
    });
    let sample_counts = (table.sides[0].samples.len(), table.sides[1].samples.len());
    let section = NodeRef::<html::Section>::new();
    let on_key = move |event: web_sys::KeyboardEvent| {
        if event.alt_key() || event.ctrl_key() || event.meta_key() || in_text_field(&event) {
            return;
        }
        let current = chosen.get_untracked();
        if let Some(next) = sample_after_key(&event.key(), current, sample_counts) {
            event.prevent_default();
            // The rows are replaced by the new pair's: the focus waits on the view, and
            // the new rows take it (AlignedRows), so the next key works too.
            if let Some(section) = section.get_untracked() {
                let _ = section.focus();
            }
            choose.run(next);
        }
    };
    let names = [base.name.clone(), cand.name.clone()];
    view! {
        <section
            class="task-comparison"
            aria-label="Baseline and candidate side by side"
            tabindex="-1"
            node_ref=section
            on:keydown=on_key
        >
            <h3 class="panel-run-name">"Samples side by side"</h3>
            <FlipTableView table=Arc::clone(&table) names=names.clone()/>
            <p class="flip-verdict">{flip_text(Flip::between(&table.sides[0], &table.sides[1]))}</p>
            <p class="muted sbs-reason">{pair_reason_text(pair.reason)}</p>
            <SamplePickers table=Arc::clone(&table) names chosen choose/>
            <PairView table panel chosen open choose read/>
        </section>
    }
    .into_any()
}

/// The chosen pair: an offer to read it until opened, then each side's head and the aligned
/// rows of both transcripts (or where reading them stands).
#[component]
fn PairView(
    table: Arc<FlipTable>,
    panel: PanelState,
    chosen: RwSignal<(usize, usize)>,
    open: RwSignal<bool>,
    choose: Callback<(usize, usize)>,
    read: Callback<()>,
) -> impl IntoView {
    let PanelState {
        client,
        details,
        transcripts,
        ..
    } = panel;
    let pair_state = {
        let table = Arc::clone(&table);
        Memo::new(move |_| {
            let config = client.get()?;
            let (b, c) = chosen.get();
            let state = |side: usize, index: usize| {
                transcripts.state(
                    Some(&config),
                    &table.sides[side].samples[index].trajectory_id,
                )
            };
            Some((state(0, b), state(1, c)))
        })
    };
    move || {
        let config = client.get()?;
        if !open.get() {
            return Some(
                view! {
                    <button
                        type="button"
                        class="button button-quiet"
                        on:click=move |_| choose.run(chosen.get_untracked())
                    >
                        "Read both attempts side by side"
                    </button>
                }
                .into_any(),
            );
        }
        let (b, c) = chosen.get();
        let left = &table.sides[0].samples[b];
        let right = &table.sides[1].samples[c];
        let states = pair_state.get()?;
        let heads = view! {
            <div class="sbs-heads">
                <SideHead sample=left.clone() config=config.clone() details/>
                <SideHead sample=right.clone() config=config.clone() details/>
            </div>
        };
        let rows = match states {
            (Some(Fetch::Loaded(l)), Some(Fetch::Loaded(r))) => {
                view! { <AlignedRows left=l right=r/> }.into_any()
            }
            (Some(Fetch::Failed(explanation)), _) | (_, Some(Fetch::Failed(explanation))) => {
                view! { <ErrorNotice explanation on_retry=read/> }.into_any()
            }
            _ => {
                view! { <p class="muted" role="status">"Reading both transcripts…"</p> }.into_any()
            }
        };
        Some(view! { {heads}{rows} }.into_any())
    }
}

/// One side's head: the sample, its outcome, reward and ending, and its reward components once
/// its details are loaded.
#[component]
fn SideHead(sample: Sample, config: ClientConfig, details: DetailLoader) -> impl IntoView {
    let id = sample.trajectory_id.clone();
    let components = move || match details.state(Some(&config), &id) {
        Some(DetailState::Loaded(loaded)) => Some(
            view! {
                <details class="sbs-components">
                    <summary>"Reward components"</summary>
                    <ComponentsView components=loaded.components.clone()/>
                </details>
            }
            .into_any(),
        ),
        _ => None,
    };
    view! {
        <div class="sbs-head" data-trajectory-id=sample.trajectory_id.clone()>
            <p class="sbs-head-id">{visible(&sample.trajectory_id).into_owned()}</p>
            <p>
                <strong>{sample.outcome.label()}</strong>
                {format!(" · reward {}", optional_value(sample.reward))}
                {format!(" · ending {}", sample.ending.clone().unwrap_or_else(|| "not recorded".to_owned()))}
            </p>
            {components}
        </div>
    }
}
