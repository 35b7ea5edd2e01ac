//! The platform's own numbers beside ours: for each Chronicle job of the comparison, the pass
//! rate and pass/fail per task its results endpoint reports next to what the trials give by the
//! guide's rule (every scorer with a threshold met it in every trial). A disagreement is shown
//! as one, never resolved; the audit also lists it as a finding. Hidden without Chronicle jobs.
//! Every text is the core's (`platform_check_line`, `disagreement_cells`, as in the markdown
//! and HTML reports); this only lays it out.

use std::sync::Arc;

use eval_compare_core::audit::PlatformCheck;
use eval_compare_core::report::{
    and_more, disagreement_cells, platform_check_line, Report, DISAGREEMENT_COLUMNS,
    LISTED_DISAGREEMENTS, PLATFORM_RESULTS_HEADING, PLATFORM_RESULTS_INTRO,
};
use eval_compare_core::text::visible;
use leptos::prelude::*;

/// One section per job checked; nothing when the report has no Chronicle job.
#[component]
pub fn PlatformPanel(
    /// The report.
    #[prop(into)]
    report: Signal<Arc<Report>>,
) -> impl IntoView {
    move || {
        report.with(|report| {
            (!report.platform.is_empty()).then(|| {
                let jobs = report
                    .platform
                    .iter()
                    .map(|check| view! { <PlatformJob check=check.clone()/> })
                    .collect_view();
                view! {
                    <section class="panel platform" aria-labelledby="platform-title">
                        <h3 id="platform-title" class="panel-title">{PLATFORM_RESULTS_HEADING}</h3>
                        <p class="panel-intro">{PLATFORM_RESULTS_INTRO}</p>
                        {jobs}
                    </section>
                }
            })
        })
    }
}

#[component]
fn PlatformJob(check: PlatformCheck) -> impl IntoView {
    let agrees = check.agrees();
    let name = check
        .job_name
        .as_deref()
        .map(|name| visible(name).into_owned());
    let rows = check
        .disagreements
        .iter()
        .take(LISTED_DISAGREEMENTS)
        .map(|d| {
            let cells = disagreement_cells(d)
                .into_iter()
                .enumerate()
                .map(|(index, text)| {
                    let class = if index == 0 { "task-id" } else { "" };
                    view! { <td class=class>{visible(&text).into_owned()}</td> }
                })
                .collect_view();
            view! { <tr>{cells}</tr> }
        })
        .collect_view();
    let more = check
        .disagreements
        .len()
        .checked_sub(LISTED_DISAGREEMENTS)
        .filter(|more| *more > 0)
        .map(|more| view! { <p class="muted">{and_more(more)}</p> });
    let head = DISAGREEMENT_COLUMNS
        .iter()
        .map(|heading| view! { <th scope="col">{*heading}</th> })
        .collect_view();
    let table = (!check.disagreements.is_empty()).then(|| {
        view! {
            <table class="data-table compact platform-table">
                <thead><tr>{head}</tr></thead>
                <tbody>{rows}</tbody>
            </table>
            {more}
        }
    });
    view! {
        <div class=if agrees { "platform-job platform-agrees" } else { "platform-job platform-differs" }>
            <h4 class="platform-job-title">
                <span class="panel-run-id">{visible(&check.job_id).into_owned()}</span>
                {name.map(|name| view! { <span class="muted">" — "{name}</span> })}
                <span class=if agrees { "severity severity-info" } else { "severity severity-caution" }>
                    {if agrees { "agrees" } else { "differs" }}
                </span>
            </h4>
            <p>{platform_check_line(&check)}</p>
            {table}
        </div>
    }
}
