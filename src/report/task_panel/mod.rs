//! The task drill-down: a side panel listing, run by run, what each compared run did on the
//! selected task and every trajectory behind it, with on-demand details (error message, reward
//! components) and a link to the platform's page of the run's attempts.
//!
//! Per-run numbers come from the report's task row; trajectories (id, outcome class, reward,
//! ending) from the loaded [`RunSet`]. Nothing is recomputed here.
//!
//! [`TaskPanel`] is the panel's frame (Escape, close) and [`body`] what it shows of one task;
//! [`run_section`] shows one run's part: a Trajectory API run's trajectories ([`trajectory`])
//! or a Chronicle run's trials ([`trial`]). [`transcript`] shows what the agent did, one
//! attempt or two side by side. Shared by them: [`panel_state`] (the client, loaders and
//! attempts passed down), [`on_demand`] (what is fetched on request, cached and cancelled),
//! [`rows`] (the row shapes both stacks lay out), [`run_kind`] (a Trajectory API run or a
//! Chronicle job's), [`keys`] and [`link`] (links out of the panel). [`set_aside`] puts the
//! task in the reviewer's ledger, or takes it out.

pub mod body;
pub mod keys;
pub mod link;
pub mod on_demand;
pub mod panel_state;
pub mod rows;
pub mod run_kind;
pub mod run_section;
pub mod set_aside;
pub mod trajectory;
pub mod transcript;
pub mod trial;

use std::sync::Arc;

use eval_compare_core::client::ClientConfig;
use eval_compare_core::model::RunSet;
use eval_compare_core::report::Report;
use leptos::ev;
use leptos::prelude::*;

use crate::state::ledger::LedgerEdits;
use crate::state::loader::use_loader;
use body::PanelBody;
use keys::in_text_field;
use trial::source::TrialSource;

/// The side panel of the selected task; renders nothing while no task is selected.
///
/// Escape (outside a text field) and the close button call `on_close`. When it opens, focus
/// moves to its heading; closing it or selecting another task cancels its detail requests.
#[component]
pub fn TaskPanel(
    /// The comparison report (runs in order, the task's row).
    report: Signal<Arc<Report>>,
    /// The loaded runs, for the trajectories behind each cell.
    run_set: Signal<Arc<RunSet>>,
    /// The selected task, if any.
    task_id: Signal<Option<String>>,
    /// Where to fetch trajectory details; `None` hides the "Load details" actions.
    client: Signal<Option<ClientConfig>>,
    /// The organization URL key for platform links; `None` shows no link.
    org_key: Signal<Option<String>>,
    /// Called to close the panel.
    on_close: Callback<()>,
    /// Where Chronicle trials are read as the API listed them; the app's loader when not given.
    #[prop(optional)]
    trials: Option<TrialSource>,
    /// The open trajectories (the link's `attempts`): one transcript, or baseline and candidate.
    #[prop(optional, into)]
    attempts: Option<Signal<Vec<String>>>,
    /// Called with the trajectories opened or chosen (to keep them in the link).
    #[prop(optional)]
    on_attempts: Option<Callback<Vec<String>>>,
    /// Which candidate the side-by-side view shows (an index into the candidates).
    #[prop(optional, into)]
    focus: Option<Signal<usize>>,
    /// The view's reviewer's ledger, to set the task aside; `None` offers no "Set aside…".
    #[prop(optional)]
    edits: Option<LedgerEdits>,
) -> impl IntoView {
    let trials = trials.unwrap_or_else(|| TrialSource::from_loader(use_loader()));
    let attempts = attempts.unwrap_or_else(|| Signal::stored(Vec::new()));
    let on_attempts = on_attempts.unwrap_or_else(|| Callback::new(|_| {}));
    let focus = focus.unwrap_or_else(|| Signal::stored(0));
    // Memoized: the view's other changes (a sample chosen) must not rebuild the panel.
    let focus = Signal::from(Memo::new(move |_| focus.get()));
    let task = Memo::new(move |_| task_id.get());
    let escape = window_event_listener(ev::keydown, move |event| {
        let open = task.try_with_untracked(Option::is_some).unwrap_or(false);
        if open && event.key() == "Escape" && !event.default_prevented() && !in_text_field(&event) {
            event.prevent_default();
            on_close.run(());
        }
    });
    on_cleanup(move || escape.remove());
    move || {
        task.get().map(|task| {
            view! {
                <PanelBody
                    report run_set task client org_key on_close trials attempts on_attempts focus
                    edits
                />
            }
        })
    }
}
