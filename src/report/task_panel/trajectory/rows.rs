//! A Trajectory API run's trajectories on the task as a table: a row per trajectory (id and
//! flags, outcome, reward, ending, its actions), its details once asked for (or the reward
//! components the run set already holds) and its transcript once opened.

use eval_compare_core::client::ClientConfig;
use eval_compare_core::model::RewardComponent;
use eval_compare_core::text::visible;
use leptos::prelude::*;

use super::details::{DetailLoader, DetailState};
use super::details_view::{ComponentsView, DetailsView};
use super::lines::{class_slug, TrajectoryLine};
use crate::report::table::fixed::{Column, FixedTable};
use crate::report::task_panel::on_demand::load_action;
use crate::report::task_panel::panel_state::PanelState;
use crate::report::task_panel::rows::{ErrorNotice, LoadAction, WideRow};
use crate::report::task_panel::set_aside::{AttemptAsideButton, AttemptAsideRow};
use crate::report::task_panel::transcript::view::TranscriptSlot;

/// The table's columns.
const COLUMNS: [Column; 5] = [
    Column::text("Trajectory").col("col-trajectory"),
    Column::text("Outcome").col("col-outcome"),
    Column::num("Reward").col("col-reward"),
    Column::text("Ending").col("col-ending"),
    Column::text("Details").col("col-action").hidden(),
];

/// The table of one run's trajectories on the task.
#[component]
pub fn TrajectoryTable(
    lines: Vec<TrajectoryLine>,
    /// Whether the trajectories can be fetched by id (a Trajectory API run).
    fetchable: bool,
    panel: PanelState,
) -> impl IntoView {
    let rows = lines
        .into_iter()
        .map(|line| view! { <TrajectoryRows line fetchable panel/> })
        .collect_view();
    view! {
        <FixedTable class="trajectories" columns=&COLUMNS>
            <tbody>{rows}</tbody>
        </FixedTable>
    }
}

/// A trajectory's row, its details action and, once asked for, its details and transcript.
#[component]
fn TrajectoryRows(line: TrajectoryLine, fetchable: bool, panel: PanelState) -> impl IntoView {
    let PanelState {
        client,
        details: loader,
        transcripts,
        attempts,
        on_attempts,
        ..
    } = panel;
    let id = line.id.clone();
    // Open when asked here, or when the link's `attempts` is this trajectory alone.
    let opened = RwSignal::new(attempts.with_untracked(|ids| ids.as_slice() == [id.clone()]));
    let config = Signal::derive(move || client.get().filter(|_| fetchable));
    let state = {
        let id = id.clone();
        Memo::new(move |_| client.with(|config| loader.state(config.as_ref(), &id)))
    };
    let transcript = {
        let id = id.clone();
        let wanted = id.clone();
        Effect::new(move |_| {
            if let Some(config) = config.get().filter(|_| opened.get()) {
                transcripts.load(config, vec![wanted.clone()]);
            }
        });
        move || {
            let config = config.get().filter(|_| opened.get())?;
            let id = id.clone();
            Some(view! {
                <WideRow class="transcript-row" columns=5>
                    <TranscriptSlot id config loader=transcripts/>
                </WideRow>
            })
        }
    };
    // The reviewer's ledger on this attempt (set aside, or a note), opened from its row.
    let aside = RwSignal::new(false);
    let flags = line
        .flags_text()
        .map(|text| view! { <span class="trajectory-flags">{text}</span> });
    view! {
        <tr class="trajectory-row" data-trajectory-id=id.clone()>
            <td class="trajectory-id">{visible(&id).into_owned()}{flags}</td>
            <td>
                <span class=format!("traj-class traj-class-{}", class_slug(line.class))>{line.class.label()}</span>
            </td>
            <td class="num trajectory-reward">
                <span class="reward-value">{line.reward.clone()}</span>
                {line.note.map(|note| view! { <span class="reward-note">{note}</span> })}
                {line.pass.map(|pass| view! { <span class="reward-note reward-pass">{pass}</span> })}
            </td>
            <td class="trajectory-ending">
                {match line.ending.clone() {
                    Some(ending) => view! { <code>{ending}</code> }.into_any(),
                    None => view! { <span class="muted">"not recorded"</span> }.into_any(),
                }}
            </td>
            <td class="trajectory-action">
                <DetailsAction id=id.clone() config state loader/>
                <TranscriptAction id=id.clone() config opened on_attempts/>
                <AttemptAsideButton id=id.clone() open=aside/>
            </td>
        </tr>
        <AttemptAsideRow id=id.clone() open=aside columns=5/>
        <DetailsRows state known=line.components.clone()/>
        {transcript}
    }
}

/// "Load details" (or its progress, or Retry) until the trajectory's details are loaded.
#[component]
fn DetailsAction(
    id: String,
    /// Where to fetch them; nothing without.
    config: Signal<Option<ClientConfig>>,
    state: Memo<Option<DetailState>>,
    loader: DetailLoader,
) -> impl IntoView {
    move || {
        let config = config.get()?;
        let action = state.with(|state| load_action(state.as_ref()))?;
        let what = format!("trajectory {id}");
        let id = id.clone();
        let on_load = Callback::new(move |()| loader.load(config.clone(), vec![id.clone()]));
        Some(view! { <LoadAction class="link-button details-action" action what on_load/> })
    }
}

/// "Read transcript" / "Hide transcript", which also puts the trajectory in the link.
#[component]
fn TranscriptAction(
    id: String,
    /// Where to read it; nothing without.
    config: Signal<Option<ClientConfig>>,
    opened: RwSignal<bool>,
    on_attempts: Callback<Vec<String>>,
) -> impl IntoView {
    move || {
        config.with(Option::is_some).then_some(())?;
        let id = id.clone();
        let label = if opened.get() {
            "Hide transcript"
        } else {
            "Read transcript"
        };
        Some(view! {
            <button
                type="button"
                class="link-button transcript-action"
                aria-expanded=move || opened.get().to_string()
                aria-label=format!("{label}: trajectory {id}")
                on:click=move |_| {
                    let open = !opened.get_untracked();
                    opened.set(open);
                    on_attempts.run(if open { vec![id.clone()] } else { Vec::new() });
                }
            >
                {label}
            </button>
        })
    }
}

/// The fetched details, the failed request, or the reward components the run set holds.
#[component]
fn DetailsRows(
    state: Memo<Option<DetailState>>,
    /// Reward components already in the run set.
    known: Option<Vec<RewardComponent>>,
) -> impl IntoView {
    move || {
        let body = match state.get() {
            Some(DetailState::Loaded(details)) => {
                view! { <DetailsView details=(*details).clone()/> }.into_any()
            }
            Some(DetailState::Failed(explanation)) => {
                view! { <ErrorNotice explanation/> }.into_any()
            }
            Some(DetailState::Loading) | None => {
                let components = known.clone()?;
                view! { <ComponentsView components/> }.into_any()
            }
        };
        Some(view! { <WideRow class="details-row" columns=5>{body}</WideRow> })
    }
}
