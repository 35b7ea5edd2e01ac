//! The baseline's attempt at the task beside the focused candidate's: above, the flip table of
//! both sides' samples with its verdict; then a select per side (the default pair from
//! [`default_pair`], its reason shown), each side's head (outcome, reward, ending, reward
//! components once the details are loaded) and the aligned rows of [`align`] with the first
//! divergence marked. Keys (the view focused): j/↓, k/↑ between rows, `d` the divergence, n/p
//! and N/P the candidate's and the baseline's next or previous sample (the focus stays in the
//! view while the new pair is read, then moves to its rows).

use std::sync::Arc;

use eval_compare_core::client::ClientConfig;
use eval_compare_core::model::RunSet;
use eval_compare_core::report::{Report, TaskRow};
use eval_compare_core::text::{optional_value, visible};
use eval_compare_core::transcript::{
    align, default_pair, flip_table, Direction, Flip, FlipSide, FlipTable, Sample, SideBySide,
    Transcript, Unit,
};
use leptos::html;
use leptos::prelude::*;

use super::details::{DetailLoader, DetailState};
use super::details_view::ComponentsView;
use super::on_demand::Fetch;
use super::transcript_lines::{
    counts_text, divergence_text, flip_text, pair_reason_text, row_after_key, sample_after_key,
    KEYBOARD_HINT, TURN_PAGE,
};
use super::transcript_view::TurnView;
use super::transcripts::TranscriptLoader;
use super::{in_text_field, is_trajectory_api_run};

/// The flip table and the side-by-side view of the task, for the baseline and the candidate
/// at `focus`; nothing when either is not a Trajectory API run or has no sample.
#[component]
pub fn TaskComparison(
    report: Arc<Report>,
    set: Arc<RunSet>,
    row: TaskRow,
    focus: usize,
    client: Signal<Option<ClientConfig>>,
    transcripts: TranscriptLoader,
    details: DetailLoader,
    attempts: Signal<Vec<String>>,
    on_attempts: Callback<Vec<String>>,
) -> impl IntoView {
    let runs = (report.runs.first(), report.runs.get(1 + focus));
    let (Some(base), Some(cand)) = runs else {
        return ().into_any();
    };
    if !is_trajectory_api_run(base) || !is_trajectory_api_run(cand) {
        return ().into_any();
    }
    let table = (|| {
        let task = set.find_task(&row.task_id)?;
        let sides = [set.find_run(&base.id)?, set.find_run(&cand.id)?];
        flip_table(&set, task, &sides).ok()
    })();
    let Some(table) = table.filter(|t| t.sides.iter().all(|s| !s.samples.is_empty())) else {
        return ().into_any();
    };
    let direction = Direction::of_delta(row.deltas.get(focus).copied().flatten());
    let Some(pair) = default_pair(&table.sides[0], &table.sides[1], direction) else {
        return ().into_any();
    };
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
    let read = {
        let ids = ids.clone();
        move || {
            if let Some(config) = client.get_untracked() {
                transcripts.load(config.clone(), ids(chosen.get_untracked()));
                details.load(config, ids(chosen.get_untracked()));
            }
        }
    };
    {
        let read = read.clone();
        Effect::new(move |_| {
            if open.get() && client.with(Option::is_some) {
                chosen.track();
                read();
            }
        });
    }
    let choose = {
        let ids = ids.clone();
        move |next: (usize, usize)| {
            chosen.set(next);
            open.set(true);
            on_attempts.run(ids(next));
        }
    };
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
    let default_reason = pair_reason_text(pair.reason);
    let flip = flip_text(Flip::between(&table.sides[0], &table.sides[1]));
    let names = [base.name.clone(), cand.name.clone()];
    let body = {
        let table = Arc::clone(&table);
        let choose = choose.clone();
        move || {
            let config = client.get()?;
            if !open.get() {
                let choose = choose.clone();
                return Some(
                    view! {
                        <button
                            type="button"
                            class="button button-quiet"
                            on:click=move |_| choose(chosen.get_untracked())
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
                (Some(Fetch::Failed(e)), _) | (_, Some(Fetch::Failed(e))) => {
                    let read = read.clone();
                    view! {
                        <div class="details-error" role="alert">
                            <strong>{e.title}</strong>
                            <span>{e.message}</span>
                            <span class="muted">{e.hint}</span>
                            <button type="button" class="link-button" on:click=move |_| read()>"Retry"</button>
                        </div>
                    }
                    .into_any()
                }
                _ => view! { <p class="muted" role="status">"Reading both transcripts…"</p> }
                    .into_any(),
            };
            Some(view! { {heads}{rows} }.into_any())
        }
    };
    let sample_counts = (table.sides[0].samples.len(), table.sides[1].samples.len());
    let section = NodeRef::<html::Section>::new();
    let on_key = {
        let choose = choose.clone();
        move |event: web_sys::KeyboardEvent| {
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
                choose(next);
            }
        }
    };
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
            <p class="flip-verdict">{flip}</p>
            <p class="muted sbs-reason">{default_reason}</p>
            <SamplePickers table=Arc::clone(&table) names chosen choose/>
            {body}
        </section>
    }
    .into_any()
}

/// Each side's samples and outcome counts.
#[component]
fn FlipTableView(table: Arc<FlipTable>, names: [String; 2]) -> impl IntoView {
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
        <table class="flip-table">
            <thead>
                <tr>
                    <th scope="col">"Run"</th>
                    <th scope="col">"Samples, in order"</th>
                    <th scope="col">"Counts"</th>
                </tr>
            </thead>
            <tbody>{rows}</tbody>
        </table>
    }
}

/// A select per side to pick which sample is shown.
#[component]
fn SamplePickers<F>(
    table: Arc<FlipTable>,
    names: [String; 2],
    chosen: RwSignal<(usize, usize)>,
    choose: F,
) -> impl IntoView
where
    F: Fn((usize, usize)) + Clone + Send + Sync + 'static,
{
    let picker = |side: usize, samples: &FlipSide, name: String| {
        let choose = choose.clone();
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
                    choose(if side == 0 { (index, c) } else { (b, index) });
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

/// Where the focus waits while the rows of another pair are read: the side-by-side view.
const WAITING_FOR_ROWS: &str = "section.task-comparison";

/// The aligned rows of two transcripts (baseline left), paged, the divergence marked, with
/// keyboard moves between rows.
#[component]
pub fn AlignedRows(left: Arc<Transcript>, right: Arc<Transcript>) -> impl IntoView {
    let sbs: Arc<SideBySide> = Arc::new(align(&left, &right));
    let total = sbs.rows.len();
    let divergence_row = sbs.divergence_row;
    let shown = RwSignal::new(
        TURN_PAGE
            .max(divergence_row.map_or(0, |r| r + 1))
            .min(total),
    );
    let current = RwSignal::new(None::<usize>);
    let container = NodeRef::<html::Div>::new();
    let go_to = move |row: usize| {
        if row >= shown.get_untracked() {
            shown.set((row + 1).min(total));
        }
        current.set(Some(row));
        request_animation_frame(move || {
            let Some(container) = container.get_untracked() else {
                return;
            };
            if let Ok(Some(element)) = container.query_selector(&format!("[data-row=\"{row}\"]")) {
                element.scroll_into_view();
            }
        });
    };
    let mark = sbs.divergence.zip(divergence_row).map(|(found, row)| {
        view! {
            <p class="sbs-divergence-note" role="note">
                {divergence_text(found.kind)}
                {format!(" (exchange {})", found.exchange + 1)}
                <button type="button" class="link-button" on:click=move |_| go_to(row)>
                    "Go to divergence"
                </button>
            </p>
        }
    });
    let no_divergence = sbs.divergence.is_none().then(
        || view! { <p class="muted sbs-divergence-note">"The two attempts do not diverge."</p> },
    );
    let rows = {
        let sbs = Arc::clone(&sbs);
        move || {
            (0..shown.get().min(total))
                .map(|index| {
                    let row = sbs.rows[index];
                    let cell = |transcript: &Arc<Transcript>, unit: Option<usize>, units: &[Unit]| {
                        let turns = unit
                            .and_then(|u| units.get(u))
                            .map(|u| u.turns.clone())
                            .unwrap_or(0..0)
                            .map(|turn| view! { <TurnView transcript=Arc::clone(transcript) index=turn/> })
                            .collect_view();
                        view! { <ol class="sbs-cell transcript-turns">{turns}</ol> }
                    };
                    let is_divergence = divergence_row == Some(index);
                    let class = move || {
                        let mut class = String::from("sbs-row");
                        if row.same {
                            class.push_str(" sbs-same");
                        }
                        if is_divergence {
                            class.push_str(" sbs-divergence");
                        }
                        if current.get() == Some(index) {
                            class.push_str(" sbs-current");
                        }
                        class
                    };
                    let mark = is_divergence.then(|| {
                        view! { <p class="sbs-row-mark">"▼ first divergence"</p> }
                    });
                    view! {
                        <div class=class data-row=index>
                            {mark}
                            {cell(&left, row.left, &sbs.left_units)}
                            {cell(&right, row.right, &sbs.right_units)}
                        </div>
                    }
                })
                .collect_view()
        }
    };
    let more = move || {
        let left = total.saturating_sub(shown.get());
        (left > 0).then(|| {
            view! {
                <button
                    type="button"
                    class="button button-quiet transcript-more"
                    on:click=move |_| shown.update(|n| *n = (*n + TURN_PAGE).min(total))
                >
                    {format!("Show more rows ({left} left)")}
                </button>
            }
        })
    };
    // Rows replacing those of another pair take the focus that waited on the view for them.
    Effect::new(move |_| {
        let Some(container) = container.get() else {
            return;
        };
        let waiting = document()
            .active_element()
            .is_some_and(|active| active.matches(WAITING_FOR_ROWS).unwrap_or(false));
        if waiting {
            let _ = container.focus();
        }
    });
    let on_key = move |event: web_sys::KeyboardEvent| {
        if event.alt_key() || event.ctrl_key() || event.meta_key() {
            return;
        }
        if let Some(row) =
            row_after_key(&event.key(), current.get_untracked(), total, divergence_row)
        {
            event.prevent_default();
            go_to(row);
        }
    };
    view! {
        <p class="muted sbs-hint">{KEYBOARD_HINT}</p>
        {mark}
        {no_divergence}
        <div class="sbs-rows" tabindex="0" node_ref=container on:keydown=on_key
            aria-label="Aligned turns, baseline left, candidate right">
            {rows}
        </div>
        {more}
    }
}
