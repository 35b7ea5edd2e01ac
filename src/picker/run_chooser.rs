//! Choosing a comparison among a list of runs: the run table with a baseline radio and candidate
//! checkboxes, and a bar summing up the choice with "Compare".

use std::collections::HashMap;

use eval_compare_core::api::{EvalProgress, EvalRunStatus};
use eval_compare_core::client::{ClientConfig, TrajectoryClient};
use eval_compare_core::text::noun;
use eval_compare_core::view_state::ViewState;
use gloo_timers::future::TimeoutFuture;
use leptos::prelude::*;

use crate::format;
use crate::picker::overview::{default_selection, RunRow};
use crate::picker::run_table::{RunSelection, RunTable};
use crate::route::Route;
use crate::state::async_load::spawn_scoped;
use crate::state::url::UrlState;
use crate::transport::FetchTransport;

/// How often the progress of running evaluations is read.
pub const PROGRESS_POLL_MS: u32 = 10_000;

/// The comparison settings of `view` without the report's tweaks (filters, sort, focus, task):
/// what the picker keeps in its URL and hands to "Compare".
pub fn chooser_view(view: &ViewState) -> ViewState {
    ViewState {
        agent: view.agent.clone(),
        bench: view.bench.clone(),
        baseline: view.baseline.clone(),
        candidates: view.candidates.clone(),
        seed: view.seed,
        resamples: view.resamples,
        confidence_percent: view.confidence_percent,
        analysis: view.analysis,
        ..ViewState::default()
    }
}

/// Run ids in the order candidates are listed: checkpoints by step, then other runs, each
/// oldest first.
pub fn candidate_order(rows: &[RunRow]) -> Vec<String> {
    let mut runs: Vec<_> = rows.iter().map(|row| &row.run).collect();
    runs.sort_by(|a, b| {
        (a.step.is_none(), a.step, &a.created_at).cmp(&(b.step.is_none(), b.step, &b.created_at))
    });
    runs.into_iter()
        .map(|run| run.eval_run_id.clone())
        .collect()
}

/// Sorts chosen candidates by `order` (ids it does not know go last, as chosen).
pub fn sort_candidates(candidates: &mut [String], order: &[String]) {
    candidates.sort_by_key(|id| {
        order
            .iter()
            .position(|known| known == id)
            .unwrap_or(usize::MAX)
    });
}

/// The initial choice: the URL's when it names runs of `rows` (and the same benchmark version,
/// when one is given), else the defaults of [`default_selection`].
fn initial_choice(
    rows: &[RunRow],
    view: ViewState,
    bench: Option<&str>,
) -> (Option<String>, Vec<String>) {
    let known = |id: &String| rows.iter().any(|row| &row.run.eval_run_id == id);
    let same_bench = bench.is_none() || view.bench.as_deref() == bench;
    let names_runs = view.baseline.as_ref().is_some_and(known) || view.candidates.iter().any(known);
    if same_bench && names_runs {
        (
            view.baseline.filter(known),
            view.candidates.into_iter().filter(known).collect(),
        )
    } else {
        default_selection(rows)
    }
}

/// The run table with selection controls and the Compare bar. The choice is kept in the URL
/// (replaced as it changes, with `agent` and `bench` when given); Compare opens `compare` with
/// it (a new history entry).
#[component]
pub fn RunChooser(
    /// The runs to choose from, in display order.
    rows: Vec<RunRow>,
    /// The URL state.
    url: UrlState,
    /// Where Compare goes, e.g. `/compare`.
    compare: Route,
    /// Called when the user is about to press Compare (the pointer on it, or the focus in it):
    /// time to fetch what the report needs.
    #[prop(optional_no_strip)]
    on_compare_intent: Option<Callback<()>>,
    /// The agent written to the URL with the choice.
    #[prop(optional_no_strip)]
    agent: Option<String>,
    /// The benchmark version written to the URL with the choice.
    #[prop(optional_no_strip)]
    bench: Option<String>,
    /// Where to read the progress of running runs (none for files).
    #[prop(optional_no_strip)]
    live_from: Option<ClientConfig>,
) -> impl IntoView {
    let (initial_base, initial_cands) =
        initial_choice(&rows, url.view_untracked(), bench.as_deref());
    let baseline = RwSignal::new(initial_base);
    let candidates = RwSignal::new(initial_cands);
    let names: HashMap<String, String> = rows
        .iter()
        .map(|row| {
            (
                row.run.eval_run_id.clone(),
                format::run_name(&row.run).to_owned(),
            )
        })
        .collect();
    let names = StoredValue::new(names);
    let order = StoredValue::new(candidate_order(&rows));
    let chosen_view = StoredValue::new(move || {
        let mut view = chooser_view(&url.view_untracked());
        if agent.is_some() {
            view.agent = agent.clone();
        }
        if bench.is_some() {
            view.bench = bench.clone();
        }
        view.baseline = baseline.get_untracked();
        view.candidates = candidates.get_untracked();
        view
    });
    let write_url = move || chosen_view.with_value(|view| url.replace(&view()));
    let on_baseline = Callback::new(move |id: String| {
        candidates.update(|cands| cands.retain(|cand| cand != &id));
        baseline.set(Some(id));
        write_url();
    });
    let on_candidate = Callback::new(move |(id, chosen): (String, bool)| {
        if chosen {
            if baseline.get_untracked().as_deref() == Some(id.as_str()) {
                baseline.set(None);
            }
            candidates.update(|cands| {
                if !cands.contains(&id) {
                    cands.push(id);
                }
                order.with_value(|order| sort_candidates(cands, order));
            });
        } else {
            candidates.update(|cands| cands.retain(|cand| cand != &id));
        }
        write_url();
    });
    let selection = RunSelection {
        baseline: baseline.into(),
        candidates: candidates.into(),
        on_baseline,
        on_candidate,
    };

    let live = RwSignal::new(HashMap::<String, EvalProgress>::new());
    let running: Vec<String> = rows
        .iter()
        .filter(|row| row.run.status == Some(EvalRunStatus::Running))
        .map(|row| row.run.eval_run_id.clone())
        .collect();
    if let Some(config) = live_from.filter(|_| !running.is_empty()) {
        spawn_scoped(poll_progress(config, running, live));
    }

    let can_compare =
        move || baseline.with(Option::is_some) && candidates.with(|cands| !cands.is_empty());
    let open_report = move |_| {
        if can_compare() {
            url.push(compare, &chosen_view.with_value(|view| view()));
        }
    };
    let intent = move || {
        if let Some(callback) = on_compare_intent {
            callback.run(());
        }
    };
    let summary = move || {
        let name = |id: &String| {
            names.with_value(|names| names.get(id).cloned().unwrap_or_else(|| id.clone()))
        };
        let base = match baseline.with(|base| base.as_ref().map(name)) {
            Some(name) => view! { <span>"Baseline "<strong>{name}</strong></span> }.into_any(),
            None => view! { <span class="muted">"No baseline chosen"</span> }.into_any(),
        };
        let cands: Vec<String> = candidates.with(|cands| cands.iter().map(name).collect());
        let cands = if cands.is_empty() {
            view! { <span class="muted">"no candidate chosen"</span> }.into_any()
        } else {
            let label = format!(
                "{} {}: ",
                cands.len(),
                noun(cands.len() as u64, "candidate", "candidates")
            );
            view! { <span>{label}<strong>{cands.join(", ")}</strong></span> }.into_any()
        };
        view! { {base}" · "{cands} }
    };
    view! {
        <RunTable rows selection live/>
        <div class="compare-bar" role="region" aria-label="Chosen runs">
            <p class="compare-summary" aria-live="polite">{summary}</p>
            <button
                class="button"
                type="button"
                disabled=move || !can_compare()
                on:click=open_report
                on:pointerenter=move |_| intent()
                on:focus=move |_| intent()
            >
                "Compare"
            </button>
        </div>
    }
}

/// Reads the progress of `running` every [`PROGRESS_POLL_MS`] until none is running; a failed
/// read is tried again at the next tick.
async fn poll_progress(
    config: ClientConfig,
    mut running: Vec<String>,
    live: RwSignal<HashMap<String, EvalProgress>>,
) {
    let client = TrajectoryClient::new(config, FetchTransport::default());
    while !running.is_empty() {
        TimeoutFuture::new(PROGRESS_POLL_MS).await;
        let mut still_running = Vec::with_capacity(running.len());
        for id in running {
            match client.eval_progress(&id).await {
                Ok(progress) => {
                    if progress.status == Some(EvalRunStatus::Running) {
                        still_running.push(id.clone());
                    }
                    if live.try_update(|live| live.insert(id, progress)).is_none() {
                        return;
                    }
                }
                Err(_) => still_running.push(id),
            }
        }
        running = still_running;
    }
}
