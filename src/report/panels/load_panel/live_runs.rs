//! The notice while Trajectory runs of the comparison still execute.

use eval_compare_core::load::RunProgress;
use leptos::prelude::*;

use super::live_notice::LiveNotice;
use super::words::{checked_text, live_run_line};
use crate::state::loader::REFRESH_MS;

/// While Trajectory runs of the comparison are still executing: each one's finished and
/// planned rollouts and how many are outstanding, when the runs were last checked, and that
/// the numbers below move.
#[component]
pub fn LiveRunsNotice(
    /// Progress of each run of the comparison.
    #[prop(into)]
    progress: Signal<Vec<RunProgress>>,
    /// When the runs were last read or checked (`Date.now()`, ms).
    #[prop(into)]
    checked_at: Signal<Option<f64>>,
) -> impl IntoView {
    move || {
        let lines: Vec<String> =
            progress.with(|runs| runs.iter().filter_map(live_run_line).collect());
        if lines.is_empty() {
            return None;
        }
        Some(view! {
            <LiveNotice
                class="live-runs"
                how=checked_text(checked_at.get(), REFRESH_MS / 1_000)
                lines
                note="The numbers below are provisional: trajectories not finished yet are \
                      counted as such in the coverage ledger, and the verdict is marked \
                      provisional."
            />
        })
    }
}
