//! Choosing a comparison among a list of runs: the run table with a baseline radio and candidate
//! checkboxes, and a bar summing up the choice with "Compare".

use std::collections::HashMap;

use eval_compare_core::api::{EvalProgress, EvalRunStatus};
use eval_compare_core::client::{ClientConfig, TrajectoryClient};
use eval_compare_core::text::{noun, visible};
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

/// The initial choice: the URL's when it names runs of `rows` or of `other_versions` (and the
/// same benchmark version, when one is given), else the defaults of [`default_selection`].
fn initial_choice(
    rows: &[RunRow],
    other_versions: &[RunRow],
    view: ViewState,
    bench: Option<&str>,
) -> (Option<String>, Vec<String>) {
    let known = |id: &String| {
        rows.iter()
            .chain(other_versions)
            .any(|row| &row.run.eval_run_id == id)
    };
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
/// it (a new history entry). Runs chosen on another benchmark version (`other_versions`) stay
/// chosen, named with their version in the bar.
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
    /// The same agent's runs on its other benchmark versions, which the choice may keep.
    #[prop(optional)]
    other_versions: Vec<RunRow>,
) -> impl IntoView {
    let (initial_base, initial_cands) = initial_choice(
        &rows,
        &other_versions,
        url.view_untracked(),
        bench.as_deref(),
    );
    let baseline = RwSignal::new(initial_base);
    let candidates = RwSignal::new(initial_cands);
    let names = StoredValue::new(chosen_names(&rows, &other_versions));
    let mixes_versions = {
        let versions: HashMap<String, String> = rows
            .iter()
            .chain(&other_versions)
            .map(|row| (row.run.eval_run_id.clone(), row.run.bench_id.clone()))
            .collect();
        Signal::derive(move || {
            let base = baseline.get();
            candidates.with(|cands| spans_versions(base.iter().chain(cands), &versions))
        })
    };
    let all_rows: Vec<RunRow> = rows.iter().chain(&other_versions).cloned().collect();
    let order = StoredValue::new(candidate_order(&all_rows));
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

    let live = live_progress(&rows, live_from);

    let open_report =
        Callback::new(move |()| url.push(compare, &chosen_view.with_value(|view| view())));
    view! {
        <RunTable rows selection live/>
        <CompareBar
            baseline=baseline.into()
            candidates=candidates.into()
            names
            mixes_versions
            on_compare=open_report
            on_intent=on_compare_intent
        />
    }
}

/// The names the Compare bar gives run ids: each run's name, with its benchmark version for the
/// runs of `other_versions`.
fn chosen_names(rows: &[RunRow], other_versions: &[RunRow]) -> HashMap<String, String> {
    let named = |row: &RunRow| {
        (
            row.run.eval_run_id.clone(),
            format::shown_name(format::run_name(&row.run)).0,
        )
    };
    let elsewhere = other_versions.iter().map(|row| {
        let (id, name) = named(row);
        (id, format!("{name} ({})", visible(&row.run.bench_id)))
    });
    rows.iter().map(named).chain(elsewhere).collect()
}

/// Whether the chosen runs `ids` ran on more than one benchmark version (`versions`: each
/// run's version).
fn spans_versions<'a>(
    ids: impl Iterator<Item = &'a String>,
    versions: &HashMap<String, String>,
) -> bool {
    let mut seen = ids.filter_map(|id| versions.get(id));
    let first = seen.next();
    seen.any(|version| Some(version) != first)
}

/// What the Compare bar says when the chosen runs ran on different benchmark versions.
pub const MIXED_VERSIONS_NOTE: &str = "These runs ran on different benchmark versions: the \
    report compares them, and its audit says why their scores are not comparable.";

/// "N candidates: " before the chosen candidates' names.
pub fn candidates_label(count: usize) -> String {
    format!(
        "{count} {}: ",
        noun(count as u64, "candidate", "candidates")
    )
}

/// "Baseline " before the chosen baseline's name, unless the name says so already ("Baseline
/// qwen3-235b" is not read "Baseline Baseline qwen3-235b").
pub fn baseline_label(name: &str) -> &'static str {
    let first_word = name
        .trim_start()
        .split(|c: char| !c.is_alphanumeric())
        .next()
        .unwrap_or_default();
    if first_word.eq_ignore_ascii_case("baseline") {
        ""
    } else {
        "Baseline "
    }
}

/// The bar under the table: the chosen runs by name, and Compare once a baseline and a
/// candidate are chosen.
#[component]
fn CompareBar(
    /// The baseline's run id.
    baseline: Signal<Option<String>>,
    /// The candidates' run ids.
    candidates: Signal<Vec<String>>,
    /// Run names by id.
    names: StoredValue<HashMap<String, String>>,
    /// Whether the chosen runs ran on different benchmark versions.
    mixes_versions: Signal<bool>,
    /// Opens the report of the choice.
    on_compare: Callback<()>,
    /// Called when the user is about to press Compare.
    on_intent: Option<Callback<()>>,
) -> impl IntoView {
    let can_compare =
        move || baseline.with(Option::is_some) && candidates.with(|cands| !cands.is_empty());
    let open_report = move |_| {
        if can_compare() {
            on_compare.run(());
        }
    };
    let intent = move || {
        if let Some(callback) = on_intent {
            callback.run(());
        }
    };
    let summary = move || {
        let name = |id: &String| {
            names.with_value(|names| names.get(id).cloned().unwrap_or_else(|| id.clone()))
        };
        let base = match baseline.with(|base| base.as_ref().map(name)) {
            Some(name) => {
                view! { <span>{baseline_label(&name)}<strong>{name}</strong></span> }.into_any()
            }
            None => view! { <span class="muted">"No baseline chosen"</span> }.into_any(),
        };
        let cands: Vec<String> = candidates.with(|cands| cands.iter().map(name).collect());
        let cands = if cands.is_empty() {
            view! { <span class="muted">"no candidate chosen"</span> }.into_any()
        } else {
            let label = candidates_label(cands.len());
            view! { <span>{label}<strong>{cands.join(", ")}</strong></span> }.into_any()
        };
        view! { {base}" · "{cands} }
    };
    view! {
        <div class="compare-bar" role="region" aria-label="Chosen runs">
            <p class="compare-summary" aria-live="polite">
                {summary}
                {move || {
                    mixes_versions
                        .get()
                        .then(|| view! { <span class="compare-note">{MIXED_VERSIONS_NOTE}</span> })
                }}
            </p>
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

/// The latest progress of the running runs among `rows`, read from `live_from` (polled while
/// any runs; nothing without a source).
fn live_progress(
    rows: &[RunRow],
    live_from: Option<ClientConfig>,
) -> RwSignal<HashMap<String, EvalProgress>> {
    let live = RwSignal::new(HashMap::<String, EvalProgress>::new());
    let running: Vec<String> = rows
        .iter()
        .filter(|row| row.run.status == Some(EvalRunStatus::Running))
        .map(|row| row.run.eval_run_id.clone())
        .collect();
    if let Some(config) = live_from.filter(|_| !running.is_empty()) {
        spawn_scoped(poll_progress(config, running, live));
    }
    live
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

#[cfg(test)]
mod tests {
    use super::*;
    use eval_compare_core::view_state::RowFilter;

    fn row(id: &str, step: Option<i64>, created: &str) -> RunRow {
        let run = serde_json::from_value(serde_json::json!({
            "eval_run_id": id, "bench_id": "b2", "agent_id": "ag", "options": {},
            "status": "completed", "step": step,
            "training_run_id": step.map(|_| "tr_1"),
            "created_at": created, "updated_at": created
        }))
        .expect("a valid EvalRun");
        RunRow {
            run,
            progress: None,
        }
    }

    fn rows() -> Vec<RunRow> {
        vec![
            row("er_other_new", None, "2026-10-05T00:00:00Z"),
            row("er_s400", Some(400), "2026-10-02T00:00:00Z"),
            row("er_other_old", None, "2026-10-01T00:00:00Z"),
            row("er_s100", Some(100), "2026-10-03T00:00:00Z"),
        ]
    }

    #[test]
    fn candidates_are_ordered_checkpoints_by_step_then_other_runs_oldest_first() {
        assert_eq!(
            candidate_order(&rows()),
            ["er_s100", "er_s400", "er_other_old", "er_other_new"]
        );
        let mut chosen = vec![
            "er_unknown".to_owned(),
            "er_other_old".to_owned(),
            "er_s100".to_owned(),
        ];
        sort_candidates(&mut chosen, &candidate_order(&rows()));
        assert_eq!(chosen, ["er_s100", "er_other_old", "er_unknown"]);
    }

    #[test]
    fn the_chooser_keeps_the_comparison_and_drops_the_report_tweaks() {
        let view = ViewState {
            agent: Some("ag".to_owned()),
            baseline: Some("er_other_old".to_owned()),
            candidates: vec!["er_s100".to_owned()],
            seed: 7,
            filter: RowFilter::Failed,
            task: Some("t1".to_owned()),
            focus: 1,
            ..ViewState::default()
        };
        let kept = chooser_view(&view);
        assert_eq!(kept.baseline, view.baseline);
        assert_eq!(kept.candidates, view.candidates);
        assert_eq!((kept.agent.as_deref(), kept.seed), (Some("ag"), 7));
        assert_eq!(
            (kept.filter, kept.task, kept.focus),
            (RowFilter::default(), None, 0)
        );
    }

    #[test]
    fn the_urls_choice_is_kept_when_it_names_runs_of_the_table() {
        let view = ViewState {
            bench: Some("b2".to_owned()),
            baseline: Some("er_other_old".to_owned()),
            candidates: vec!["er_s400".to_owned(), "er_gone".to_owned()],
            ..ViewState::default()
        };
        assert_eq!(
            initial_choice(&rows(), &[], view.clone(), Some("b2")),
            (Some("er_other_old".to_owned()), vec!["er_s400".to_owned()])
        );
        // Another benchmark version, or no run of the table: the defaults.
        assert_eq!(
            initial_choice(&rows(), &[], view, Some("b3")),
            default_selection(&rows())
        );
        assert_eq!(
            initial_choice(&rows(), &[], ViewState::default(), None),
            default_selection(&rows())
        );
    }

    #[test]
    fn a_choice_keeps_the_runs_of_another_benchmark_version() {
        let mut v1_base = row("er_base_v1", None, "2026-09-01T00:00:00Z");
        v1_base.run.bench_id = "b1".to_owned();
        let view = ViewState {
            bench: Some("b2".to_owned()),
            baseline: Some("er_base_v1".to_owned()),
            candidates: vec!["er_s400".to_owned(), "er_elsewhere".to_owned()],
            ..ViewState::default()
        };
        let others = [v1_base.clone()];
        assert_eq!(
            initial_choice(&rows(), &others, view.clone(), Some("b2")),
            (Some("er_base_v1".to_owned()), vec!["er_s400".to_owned()])
        );
        let names = chosen_names(&rows(), &others);
        assert_eq!(names["er_base_v1"], "er_base_v1 (b1)");
        assert_eq!(names["er_s400"], "er_s400");
        let versions: HashMap<String, String> = rows()
            .iter()
            .chain(&others)
            .map(|row| (row.run.eval_run_id.clone(), row.run.bench_id.clone()))
            .collect();
        let ids = |ids: &[&str]| ids.iter().map(|id| (*id).to_owned()).collect::<Vec<_>>();
        assert!(spans_versions(
            ids(&["er_base_v1", "er_s400"]).iter(),
            &versions
        ));
        assert!(!spans_versions(
            ids(&["er_other_old", "er_s400"]).iter(),
            &versions
        ));
        assert!(!spans_versions(
            ids(&["er_base_v1", "er_unknown"]).iter(),
            &versions
        ));
    }

    #[test]
    fn the_summary_says_baseline_once() {
        assert_eq!(baseline_label("Baseline qwen3-235b"), "");
        assert_eq!(baseline_label("baseline-v2 run"), "");
        assert_eq!(baseline_label("Checkpoint step 300"), "Baseline ");
        assert_eq!(baseline_label("Baselines compared"), "Baseline ");
        assert_eq!(baseline_label(""), "Baseline ");
    }

    #[test]
    fn the_summary_counts_the_candidates() {
        assert_eq!(candidates_label(1), "1 candidate: ");
        assert_eq!(candidates_label(3), "3 candidates: ");
    }
}
