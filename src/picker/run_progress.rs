//! Progress of a run that is still executing.

use leptos::prelude::*;

use crate::format::percent_done;

/// A progress bar with "finished / planned rollouts".
#[component]
pub fn RunProgress(
    /// Rollouts that reached a terminal status.
    terminal: i64,
    /// Rollouts the run schedules.
    total: i64,
) -> impl IntoView {
    let percent = percent_done(terminal, total);
    let label = match percent {
        Some(percent) => format!("{terminal} / {total} rollouts ({percent:.0}%)"),
        None => format!("{terminal} rollouts finished"),
    };
    view! {
        <div class="run-progress">
            {percent.map(|percent| view! { <progress max="100" value=percent></progress> })}
            <span>{label}</span>
        </div>
    }
}
