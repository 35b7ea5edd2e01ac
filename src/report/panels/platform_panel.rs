//! The platform's own numbers beside ours: for each Chronicle job of the comparison, the pass
//! rate and pass/fail per task its results endpoint reports next to what the trials give by the
//! guide's rule (every scorer with a threshold met it in every trial). A disagreement is shown
//! as one, never resolved; the audit also lists it as a finding. Hidden without Chronicle jobs.

use std::sync::Arc;

use eval_compare_core::audit::PlatformCheck;
use eval_compare_core::report::Report;
use eval_compare_core::text::{count, optional_value, visible};
use leptos::prelude::*;

/// Disagreements listed per job before "and N more".
pub const SHOWN_DISAGREEMENTS: usize = 20;

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
                        <h3 id="platform-title" class="panel-title">
                            "Platform results beside the trials"
                        </h3>
                        <p class="panel-intro">
                            "Chronicle's own pass/fail per task (its results endpoint, all of a job's agents together) "
                            "next to what the trials give by the same rule: a task passes when every scorer with a "
                            "threshold met it in every trial."
                        </p>
                        {jobs}
                    </section>
                }
            })
        })
    }
}

/// The summary line of a job's check.
pub fn check_summary(check: &PlatformCheck) -> String {
    let rates = if check.pass_rate_agrees {
        "the pass rates agree".to_owned()
    } else {
        "the pass rates differ".to_owned()
    };
    format!(
        "The platform lists {} tasks, pass rate {}; the trials decide {} tasks, pass rate {}. {} agree, {} differ; {rates}.",
        count(check.platform_tasks as u64),
        optional_value(check.platform_pass_rate),
        count(check.computed_tasks as u64),
        optional_value(check.computed_pass_rate),
        count(check.agreeing_tasks as u64),
        count(check.disagreements.len() as u64),
    )
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
        .take(SHOWN_DISAGREEMENTS)
        .map(|d| {
            view! {
                <tr>
                    <td class="task-id">{visible(&d.task_id).into_owned()}</td>
                    <td>{d.platform.label()}</td>
                    <td>{d.computed.label()}</td>
                    <td>{visible(&d.platform_failed_scorers.join(", ")).into_owned()}</td>
                    <td>{visible(&d.computed_failed_scorers.join(", ")).into_owned()}</td>
                </tr>
            }
        })
        .collect_view();
    let more = check
        .disagreements
        .len()
        .checked_sub(SHOWN_DISAGREEMENTS)
        .filter(|more| *more > 0)
        .map(|more| view! { <p class="muted">{format!("and {} more.", count(more as u64))}</p> });
    let table = (!check.disagreements.is_empty()).then(|| {
        view! {
            <table class="data-table compact platform-table">
                <thead>
                    <tr>
                        <th scope="col">"Task"</th>
                        <th scope="col">"Platform"</th>
                        <th scope="col">"Trials"</th>
                        <th scope="col">"Platform's failed scorers"</th>
                        <th scope="col">"Scorers failed in trials"</th>
                    </tr>
                </thead>
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
            <p>{check_summary(&check)}</p>
            {table}
        </div>
    }
}
