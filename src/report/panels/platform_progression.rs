//! The platform's own progression of the compared checkpoints' training run beside ours: its
//! evaluation mean and held-out reward per step, our mean with its interval, and each step
//! where the platform's mean falls outside our interval flagged. The cells and the sentence
//! are the core's (`platform_cells`, `platform_sentence`), as in the markdown and HTML reports.

use std::sync::Arc;

use eval_compare_core::report::{
    platform_cells, platform_sentence, Report, Topic, PLATFORM_COLUMNS,
    PLATFORM_PROGRESSION_HEADING,
};
use leptos::prelude::*;

use crate::components::explain::explain_button;

/// The panel; nothing when the report has no progression or its runs came from files.
#[component]
pub fn PlatformProgressionPanel(
    /// The report.
    #[prop(into)]
    report: Signal<Arc<Report>>,
) -> impl IntoView {
    move || {
        report.with(|report| {
            let platform = report.progression.as_ref()?.platform.as_ref()?;
            let head = PLATFORM_COLUMNS
                .iter()
                .map(|heading| view! { <th scope="col">{*heading}</th> })
                .collect_view();
            let rows = platform
                .steps
                .iter()
                .map(|step| {
                    let cells = platform_cells(step)
                        .into_iter()
                        .map(|text| view! { <td>{text}</td> })
                        .collect_view();
                    view! { <tr class:disagrees=step.disagrees>{cells}</tr> }
                })
                .collect_view();
            let table = platform.error.is_none().then(|| {
                view! {
                    <div class="table-scroll">
                        <table class="data-table compact platform-progression-table">
                            <thead><tr>{head}</tr></thead>
                            <tbody>{rows}</tbody>
                        </table>
                    </div>
                }
            });
            let flagged = platform.disagreements > 0 || platform.error.is_some();
            Some(view! {
                <section class="panel platform-progression" aria-labelledby="platform-progression-title">
                    <h3 id="platform-progression-title" class="panel-title">
                        {PLATFORM_PROGRESSION_HEADING}
                        {explain_button(Topic::PlatformProgression, &report.settings)}
                    </h3>
                    <p
                        class="platform-progression-line"
                        class:disagrees=flagged
                    >
                        {platform_sentence(platform)}
                    </p>
                    {table}
                </section>
            })
        })
    }
}
