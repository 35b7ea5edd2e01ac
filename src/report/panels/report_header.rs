//! The report's header: which runs are compared, what each evaluated, and where they stand.

use std::sync::Arc;

use eval_compare_core::api::EvalRunStatus;
use eval_compare_core::report::{Report, Role, RunSummary, Topic};
use eval_compare_core::text::{shorten, visible, SHOWN_NAME_CHARS};
use leptos::prelude::*;

use crate::components::explain::explain_button;
use crate::components::stat_text::{count, interval_mean, optional_mean, plural, StatText};
use crate::components::status_badge::StatusBadge;
use crate::report::panels::platform_words::platform_cell;
use crate::report::scorecard::pages::ScorecardPages;
use crate::report::scorecard::words::back_to_scorecard_href;
use crate::state::url::use_url_state;

/// A title naming the candidates and the baseline, where the data came from, and one row per
/// run: its name and id, model or checkpoint step, benchmark version, status ("as of N graded
/// tasks" while running), its task-weighted mean with interval, pooled and platform means.
/// Each row is one line on a laptop's screen (`.runs-summary` in the style sheet), so the first
/// verdict stays on the first screen with five candidates: details follow their value on the
/// same line, and the run id and training run show only where they fit (always in a tooltip).
#[component]
pub fn ReportHeader(
    /// The report.
    #[prop(into)]
    report: Signal<Arc<Report>>,
) -> impl IntoView {
    // Each name cut for showing; the whole title in the heading's tooltip when one was.
    let titles = move |shown: bool| report.with(|report| comparison_heading(report, shown));
    let title = move || titles(true);
    let full_title = move || {
        let full = titles(false);
        (full != titles(true)).then_some(full)
    };
    let sources = move || {
        report.with(|report| {
            report
                .sources
                .iter()
                .map(|source| source.label())
                .collect::<Vec<_>>()
                .join(", ")
        })
    };
    let level = move || report.with(|report| (report.settings.level * 100.0).round());
    let explain = move |topic| report.with(|report| explain_button(topic, &report.settings));
    // Opened from a scorecard's cell: the way back to that scorecard.
    let url = use_url_state();
    let back = move || {
        let page = ScorecardPages::of_report(&url.path()).scorecard;
        let href = back_to_scorecard_href(&url.scorecard_origin()?, page)?;
        Some(view! {
            <p class="scorecard-back">
                <a href=href class="scorecard-back-link">"← Back to the scorecard"</a>
            </p>
        })
    };
    let rows = move || {
        report.with(|report| {
            report
                .runs
                .iter()
                .map(|run| view! { <RunRow run=run.clone()/> })
                .collect_view()
        })
    };
    view! {
        <header class="report-header">
            {back}
            <h2 class="page-heading" title=full_title>{title}</h2>
            <p class="page-intro">"Data from "{sources}"."</p>
            <div class="table-scroll">
                <table class="data-table compact runs-summary">
                    <caption class="visually-hidden">"Compared runs"</caption>
                    <thead>
                        <tr>
                            <th scope="col">"Run"</th>
                            <th scope="col">"Model / checkpoint"</th>
                            <th scope="col">"Benchmark"</th>
                            <th scope="col">"Status"</th>
                            <th scope="col" class="num">"Graded tasks"</th>
                            <th scope="col" class="num">
                                "Task-weighted mean ("{level}"% CI)"
                                {move || explain(Topic::TaskWeightedMean)}
                            </th>
                            <th scope="col" class="num">
                                "Pooled mean"
                                {move || explain(Topic::PooledMean)}
                            </th>
                            <th scope="col" class="num">
                                "Platform mean"
                                {move || explain(Topic::PlatformMean)}
                            </th>
                        </tr>
                    </thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
        </header>
    }
}

/// The comparison in words, "Step 300, Step 400 against Baseline qwen3-235b": the report's
/// heading and the tab's title; `shown` cuts each name to [`SHOWN_NAME_CHARS`] characters.
pub fn comparison_heading(report: &Report, shown: bool) -> String {
    let name = |name: &str| match shown {
        true => shorten(name, SHOWN_NAME_CHARS).into_owned(),
        false => name.to_owned(),
    };
    let candidates: Vec<String> = report
        .runs
        .iter()
        .filter(|run| run.role == Role::Candidate)
        .map(|run| name(&run.name))
        .collect();
    let baseline = report
        .baseline()
        .map_or_else(|| "the baseline".to_owned(), |run| name(&run.name));
    format!("{} against {baseline}", candidates.join(", "))
}

/// The badge of a Chronicle job's status that Trajectory has no word for (`succeeded`,
/// `queued`); `None` for the others, which read the same in both APIs.
pub fn chronicle_status(status: &str) -> Option<(&'static str, &'static str)> {
    match status {
        "succeeded" => Some(("succeeded", "status-completed")),
        "queued" => Some(("queued", "status-queued")),
        _ => None,
    }
}

/// One compared run.
#[component]
fn RunRow(run: RunSummary) -> impl IntoView {
    let evaluated = match (run.step, &run.base_model) {
        (Some(step), _) => format!("checkpoint, step {step}"),
        (None, Some(model)) => model.clone(),
        (None, None) => "—".to_owned(),
    };
    let platform = platform_cell(&run);
    let status = run.status.as_deref().map(EvalRunStatus::from);
    let running = status == Some(EvalRunStatus::Running) || run.status.as_deref() == Some("queued");
    let badge = match run.status.as_deref().and_then(chronicle_status) {
        Some((label, modifier)) => {
            view! { <span class=format!("status {modifier}")>{label}</span> }.into_any()
        }
        None => view! { <StatusBadge status/> }.into_any(),
    };
    let interval = StatText::of(&run.task_weighted_interval, interval_mean).text();
    let (name, full_name) = crate::format::shown_name(&run.name);
    // The whole name and the run id in the tooltip: the row may cut a long name short on
    // screen too, and show the id only where it has room.
    let full_name = format!(
        "{}\nrun {}",
        full_name.as_deref().unwrap_or(&run.name),
        visible(&run.id)
    );
    let training_run = run
        .training_run_id
        .as_deref()
        .map(|id| format!("training run {}", visible(id)));
    let training_title = training_run.clone();
    view! {
        <tr data-run-id=run.id.clone() class:baseline=run.role == Role::Baseline>
            <th scope="row">
                <span class="run-name" title=full_name>{name}</span>
                {(run.role == Role::Baseline).then(|| view! { <span class="role role-baseline">"baseline"</span> })}
                <span class="run-id">{visible(&run.id).into_owned()}</span>
            </th>
            <td class="run-evaluated" title=training_title>
                {evaluated}
                {training_run
                    .map(|text| view! { <span class="run-detail training-run">{text}</span> })}
            </td>
            <td class="mono">
                {run.bench_id.clone().map_or_else(|| "—".to_owned(), |id| visible(&id).into_owned())}
                {run.chronicle.as_ref().map(|job| {
                    let version = job
                        .task_suite_version
                        .as_deref()
                        .map(|version| format!("version {}", visible(version)));
                    let name = job.job_name.as_deref().unwrap_or(&job.job_id);
                    view! {
                        {version.map(|version| view! { <span class="run-detail">{version}</span> })}
                        <span class="run-detail">{format!("job {}", visible(name))}</span>
                    }
                })}
            </td>
            <td>
                {badge}
                {running
                    .then(|| {
                        view! {
                            <span class="run-detail as-of">
                                {format!("as of {}", plural(run.tasks_scored, "graded task", "graded tasks"))}
                            </span>
                        }
                    })}
                {run
                    .incomplete_load
                    .clone()
                    .map(|why| {
                        view! {
                            <span class="run-detail incomplete" title=why.clone()>
                                "incomplete load"
                            </span>
                        }
                    })}
            </td>
            <td class="num">{count(run.tasks_scored)}</td>
            <td class="num">
                {optional_mean(run.task_weighted_mean)}
                <span class="run-detail">{interval}</span>
            </td>
            <td class="num">{optional_mean(run.pooled_mean)}</td>
            <td class="num">
                {platform.0}
                {platform.1.map(|detail| view! { <span class="run-detail">{detail}</span> })}
            </td>
        </tr>
    }
}
