//! Instead of an empty report: the Chronicle jobs that have no trials yet.

use eval_compare_core::api::ChronicleJob;
use leptos::prelude::*;

use super::words::no_trials_line;

/// Instead of an empty report: the jobs that have no trials yet, each with its status.
#[component]
pub fn JobsWithoutTrials(
    /// The jobs whose trials were read and are none.
    #[prop(into)]
    jobs: Signal<Vec<ChronicleJob>>,
) -> impl IntoView {
    move || {
        jobs.with(|jobs| {
            (!jobs.is_empty()).then(|| {
                let items = jobs
                    .iter()
                    .map(|job| view! { <li>{no_trials_line(job)}</li> })
                    .collect_view();
                view! {
                    <section class="notice notice-caution no-trials" role="status">
                        <ul class="no-trials-list">{items}</ul>
                        <p class="muted">
                            "There is nothing to compare until trials finish; a running job is "
                            "followed and the report appears as they do."
                        </p>
                    </section>
                }
            })
        })
    }
}
