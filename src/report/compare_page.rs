//! The report page: `/compare?…` over Trajectory runs read from the API, `/backtests/compare?…`
//! over the agents of Chronicle jobs (its runs are `{job}/{agent}`; the jobs are read), and
//! `/files/compare?…` over run folders (see [`crate::report::files_page`]). The query names the
//! runs and the view; the page loads
//! the runs, builds the run set once they are read, and the report from it (first without the
//! bootstrap, then with it), and shows the header, the headline of each candidate, the
//! comparability audit, the settings, the focus selector and the charts, the coverage ledger,
//! the per-task table and the task panel.

use std::sync::Arc;

use eval_compare_core::client::ClientConfig;
use eval_compare_core::model::{split_chronicle_run_id, ModelError, RunSet};
use eval_compare_core::report::Report;
use eval_compare_core::text::visible;
use eval_compare_core::view_state::ViewState;
use leptos::prelude::*;

use crate::components::loading::Loading;
use crate::page_title::set_document_title;
use crate::picker::run_chooser::chooser_view;
use crate::report::charts::ReportCharts;
use crate::report::export::ExportButtons;
use crate::report::panels::audit_panel::AuditPanel;
use crate::report::panels::checkpoint_steps::{CheckpointStepsPanel, PassThresholdForm};
use crate::report::panels::component_deltas::ComponentDeltas;
use crate::report::panels::copy_link::{link_snapshot, CopyLinkButton, LinkSnapshotNotice};
use crate::report::panels::cost_panel::CostPanel;
use crate::report::panels::coverage_ledger::CoverageLedger;
use crate::report::panels::effort_panel::EffortPanel;
use crate::report::panels::headline::HeadlineCards;
use crate::report::panels::ledger_panel::LedgerPanel;
use crate::report::panels::load_panel::LoadPanel;
use crate::report::panels::load_panel::{JobsWithoutTrials, LiveJobsNotice, LiveRunsNotice};
use crate::report::panels::platform_panel::PlatformPanel;
use crate::report::panels::platform_progression::PlatformProgressionPanel;
use crate::report::panels::query_notice::QueryIssuesNotice;
use crate::report::panels::report_controls::{FocusSelector, ReportSettingsForm};
use crate::report::panels::report_header::{comparison_heading, ReportHeader};
use crate::report::panels::where_delta::WhereDelta;
use crate::report::table::{focus_table, focus_task_row, TaskTable};
use crate::report::task_panel::TaskPanel;
use crate::route::{ReportPage, Route, RunSource};
use crate::state::async_load::spawn_scoped;
use crate::state::ledger::LedgerEdits;
use crate::state::loader::{use_loader, LoadPlan};
use crate::state::report::{after_paint, use_report, ReportKey, ReportState, BELOW_FOLD_STAGES};
use crate::state::retry_load::RetryLoad;
use crate::state::run_set_build::use_run_set;
use crate::state::shared::Shared;
use crate::state::source::use_source_settings;
use crate::state::url::{href, use_url_state};

/// The runs a view compares, baseline first, or why it names no comparison.
pub fn plan_of(view: &ViewState) -> Result<Vec<String>, String> {
    let baseline = view
        .baseline
        .clone()
        .ok_or_else(|| "This link names no baseline run.".to_owned())?;
    if view.candidates.is_empty() {
        return Err("This link names no candidate run to compare with the baseline.".to_owned());
    }
    if view.candidates.contains(&baseline) {
        return Err(format!(
            "The baseline `{baseline}` is also listed as a candidate; a run is not compared with itself."
        ));
    }
    Ok(std::iter::once(baseline)
        .chain(view.candidates.iter().cloned())
        .collect())
}

/// The runs of `view` for `source`: [`plan_of`], and for Chronicle every id must name a job and
/// one of its agents (`{job}/{agent}`).
pub fn plan_for(source: RunSource, view: &ViewState) -> Result<Vec<String>, String> {
    let ids = plan_of(view)?;
    if source == RunSource::Chronicle {
        if let Some(id) = ids.iter().find(|id| split_chronicle_run_id(id).is_none()) {
            return Err(format!(
                "`{}` is not a Chronicle run: a run of a backtest is named `{{job}}/{{agent}}`, \
                 e.g. `job_1/coder@v2`.",
                visible(id)
            ));
        }
    }
    Ok(ids)
}

/// `/compare` and `/backtests/compare`: the runs of the query, read from the API of the source
/// settings: Trajectory runs, or the Chronicle jobs of the runs (`{job}/{agent}`).
#[component]
pub fn ComparePage(
    /// Where the runs come from (the page's path names it).
    #[prop(optional)]
    source: Option<RunSource>,
) -> impl IntoView {
    let run_source = source.unwrap_or(RunSource::Trajectory);
    let url = use_url_state();
    let source = use_source_settings();
    let loader = use_loader();
    let view = url.view_signal();
    let plan = Memo::new(move |_| view.with(|view| plan_for(run_source, view)));
    let load_plan = Memo::new(move |_| {
        plan.with(|plan| plan.as_ref().ok().map(|ids| LoadPlan::of(run_source, ids)))
    });
    let config = Memo::new(move |_| source.config());

    Effect::new(move |_| {
        if let (Some(plan), Ok(config)) = (load_plan.get(), config.get()) {
            loader.ensure(&config, &plan);
            // What still executes is refreshed (jobs followed) while this comparison is shown.
            spawn_scoped(loader.refresh_loop(plan));
        }
    });
    let current_plan = move || load_plan.get().unwrap_or(LoadPlan::Runs(Vec::new()));
    let progress = Signal::derive(move || loader.progress(&current_plan()));
    let job_records = Signal::derive(move || match load_plan.get() {
        Some(LoadPlan::Jobs(ids)) => loader.job_records(&ids),
        _ => Vec::new(),
    });
    let empty_jobs = Memo::new(move |_| match load_plan.get() {
        Some(LoadPlan::Jobs(ids)) => loader.jobs_without_trials(&ids),
        _ => Vec::new(),
    });
    let hold = Memo::new(move |_| empty_jobs.with(|empty| !empty.is_empty()));
    let run_set_state = use_run_set(loader, load_plan, hold);
    let run_set = run_set_state.built;
    let base_url = Signal::derive(move || source.base_url());
    let client = Signal::derive(move || config.get().ok());
    let retry = Callback::new(move |()| {
        loader.retry(
            &load_plan
                .get_untracked()
                .unwrap_or(LoadPlan::Runs(Vec::new())),
        )
    });
    // A partial verdict's card offers the same Retry as the load panel.
    provide_context(RetryLoad(retry));

    let problem = move || {
        let plan_error = plan.get().err().map(|why| {
            view! {
                <div class="empty-state">
                    <p>{why}</p>
                    <p><a href=run_source.chooser().path()>"Choose the runs to compare."</a></p>
                </div>
            }
            .into_any()
        });
        let config_error = config.get().err().map(|error| {
            view! {
                <div class="error-panel" role="alert">
                    <h2 class="error-title">"The API address cannot be used"</h2>
                    <p class="error-message">{error.to_string()}</p>
                    <p class="error-hint">"Fix the address in the source settings."</p>
                </div>
            }
            .into_any()
        });
        plan_error.or(config_error)
    };

    view! {
        <QueryIssuesNotice issues=Signal::derive(move || url.issues())/>
        {problem}
        <Show when=move || plan.with(Result::is_ok)>
            <LoadPanel
                progress
                loading=Signal::derive(move || loader.is_loading())
                load=Signal::derive(move || loader.load_number())
                on_cancel=Callback::new(move |()| loader.cancel())
                on_retry=retry
                base_url
            />
            <LiveJobsNotice jobs=job_records mode=Signal::derive(move || loader.live_mode())/>
            <LiveRunsNotice
                progress=Signal::derive(move || match load_plan.get() {
                    Some(LoadPlan::Runs(_)) => progress.get(),
                    _ => Vec::new(),
                })
                checked_at=Signal::derive(move || loader.checked_at())
            />
            <JobsWithoutTrials jobs=empty_jobs/>
            <ReportBody
                run_set
                building=run_set_state.progress
                view
                on_change=url.replace_callback()
                client
                from_files=false
                chooser=run_source.chooser()
            />
        </Show>
    }
}

/// The report of `view` over `run_set`, once that is built: its errors, "Computing…", or the
/// report itself (mounted once, then updated in place as the report is recomputed).
#[component]
pub fn ReportBody(
    /// The loaded runs (`None` while loading; an error when they could not be combined).
    #[prop(into)]
    run_set: Signal<Option<Result<Shared<RunSet>, ModelError>>>,
    /// The share of the run set's build done, while it is being built.
    #[prop(optional, into)]
    building: Signal<Option<f64>>,
    /// The view state.
    #[prop(into)]
    view: Signal<ViewState>,
    /// Called with a tweaked view (replace the history entry).
    on_change: Callback<ViewState>,
    /// Where the task panel fetches trajectory details (`None` for runs read from files).
    #[prop(into)]
    client: Signal<Option<ClientConfig>>,
    /// Whether the runs were read from files.
    from_files: bool,
    /// Where "Change runs" goes (by default the run picker, or the Files page for files).
    #[prop(optional)]
    chooser: Option<Route>,
) -> impl IntoView {
    let key = Memo::new(move |_| match run_set.get() {
        Some(Ok(set)) => view.with(|view| ReportKey::of(set, view)),
        _ => None,
    });
    let state = use_report(key);
    let ready = Memo::new(move |_| {
        state.report.with(Option::is_some) && state.run_set.with(Option::is_some)
    });
    let errors = move || {
        let combine = match run_set.get() {
            Some(Err(why)) => Some(why.to_string()),
            _ => None,
        };
        combine
            .map(|why| ("The runs could not be combined", why))
            .or_else(|| {
                state
                    .error
                    .get()
                    .map(|why| ("The report could not be computed", why.to_string()))
            })
            .map(|(title, why)| {
                view! {
                    <div class="error-panel" role="alert">
                        <h2 class="error-title">{title}</h2>
                        <p class="error-message">{why}</p>
                    </div>
                }
            })
    };
    let computing = move || {
        let combining = building.get().filter(|_| run_set.with(Option::is_none));
        if let Some(share) = combining {
            let label = format!("Combining the runs: {}% joined…", (share * 100.0).floor());
            return Some(view! { <Loading label/> });
        }
        let label = match state.build_progress.get() {
            Some(share) => format!("Computing the report: {}% done…", (share * 100.0).floor()),
            None => "Computing the report…".to_owned(),
        };
        (run_set.with(|set| matches!(set, Some(Ok(_)))) && state.error.with(Option::is_none))
            .then(|| view! { <Loading label/> })
    };
    view! {
        {errors}
        <Show when=move || ready.get() fallback=computing>
            {move || mount_report(state, view, on_change, client, from_files, chooser)}
        </Show>
    }
}

/// Mounts the report view over signals that follow the state's latest report and run set.
fn mount_report(
    state: ReportState,
    view: Signal<ViewState>,
    on_change: Callback<ViewState>,
    client: Signal<Option<ClientConfig>>,
    from_files: bool,
    chooser: Option<Route>,
) -> Option<impl IntoView> {
    let current_report = RwSignal::new(state.report.get_untracked()?.arc());
    let current_base = RwSignal::new(state.without_bootstrap.get_untracked()?.arc());
    // The rewards as published (not scored pass/fail): what the task panel lists.
    let current_set = RwSignal::new(state.published.get_untracked()?.arc());
    let ledger_set = RwSignal::new(state.before_ledger.get_untracked()?.arc());
    Effect::new(move |_| {
        if let Some(report) = state.report.get() {
            current_report.set(report.arc());
        }
        if let Some(report) = state.without_bootstrap.get() {
            if !Arc::ptr_eq(&report.arc(), &current_base.get_untracked()) {
                current_base.set(report.arc());
            }
        }
        // Filling the bootstrap in changes the report, not the run set: the task panel and
        // the components, which read the run set, are not rendered again for it.
        if let Some(set) = state.published.get() {
            if !Arc::ptr_eq(&set.arc(), &current_set.get_untracked()) {
                current_set.set(set.arc());
            }
        }
        if let Some(set) = state.before_ledger.get() {
            if !Arc::ptr_eq(&set.arc(), &ledger_set.get_untracked()) {
                ledger_set.set(set.arc());
            }
        }
    });
    Some(view! {
        <ReportView
            report=current_report
            without_bootstrap=current_base
            run_set=current_set
            ledger_set
            view
            on_change
            client
            state
            from_files
            chooser
        />
    })
}

/// The report: header and actions (copy link, change runs, exports), headlines, audit, where
/// the Δ comes from, settings, focus and charts, coverage, the per-task table and the task panel.
#[component]
pub fn ReportView(
    /// The report.
    #[prop(into)]
    report: Signal<Arc<Report>>,
    /// The same report as first shown, its bootstraps absent: what the charts, the coverage
    /// ledger, the table and the task panel (none shows a bootstrap) render from.
    #[prop(into)]
    without_bootstrap: Signal<Arc<Report>>,
    /// The runs it was computed from, their rewards as published (before a pass threshold):
    /// the task panel's trajectories.
    #[prop(into)]
    run_set: Signal<Arc<RunSet>>,
    /// The run set before the reviewer's ledger (the ledger's candidates and previews).
    #[prop(into)]
    ledger_set: Signal<Arc<RunSet>>,
    /// The view state.
    #[prop(into)]
    view: Signal<ViewState>,
    /// Called with a tweaked view (replace the history entry).
    on_change: Callback<ViewState>,
    /// Where the task panel fetches trajectory details (`None` for files).
    #[prop(into)]
    client: Signal<Option<ClientConfig>>,
    /// Where the computation stands (bootstrap pending, timings).
    state: ReportState,
    /// Whether the runs were read from files.
    from_files: bool,
    /// Where "Change runs" goes (by default the run picker, or the Files page for files).
    #[prop(optional_no_strip)]
    chooser: Option<Route>,
) -> impl IntoView {
    let source = use_source_settings();
    // Memos, not derived signals: a filter, sort or search changes the view state too, and must
    // not make the cards, charts and task panel read their parts of it again (at 100,000 tasks
    // the charts' data alone is tens of milliseconds).
    let focus: Signal<usize> = Memo::new(move |_| view.with(|view| view.focus)).into();
    let task_id: Signal<Option<String>> =
        Memo::new(move |_| view.with(|view| view.task.clone())).into();
    let org_key = Signal::derive(move || source.org_key());
    Effect::new(move |_| {
        report.with(|report| set_document_title(&comparison_heading(report, true)));
    });
    let close_task = Callback::new(move |()| {
        let mut next = view.get_untracked();
        let closed = next.task.take();
        next.attempts = Vec::new();
        on_change.run(next);
        // Focus goes back to the row the panel was opened from.
        if let Some(task) = closed {
            request_animation_frame(move || focus_task_row(&task));
        }
    });
    let edits = LedgerEdits::new(view, on_change);
    // For the parts far from here that add to it (a trajectory's row, the task table).
    provide_context(edits);
    let attempts: Signal<Vec<String>> =
        Memo::new(move |_| view.with(|view| view.attempts.clone())).into();
    let on_attempts = Callback::new(move |ids: Vec<String>| {
        let mut next = view.get_untracked();
        if next.attempts != ids {
            next.attempts = ids;
            on_change.run(next);
        }
    });
    // The header, audit and headline cards are painted first; the charts follow right after
    // that paint, the coverage ledger and the task table after the next (each of the three is
    // a fair share of the rendering of a 100,000-task report).
    let below_fold = RwSignal::new(0u8);
    spawn_scoped(async move {
        for stage in 1..=BELOW_FOLD_STAGES {
            after_paint().await;
            below_fold.try_set(stage);
        }
    });
    let change_runs = move || {
        let chooser = chooser.unwrap_or(if from_files {
            Route::Report(ReportPage::Files)
        } else {
            Route::Picker
        });
        view.with(|view| href(chooser, &chooser_view(view)))
    };
    view! {
        <div class="report">
            <button type="button" class="skip-link" on:click=move |_| focus_table()>
                "Skip to the task table"
            </button>
            <ReportHeader report/>
            <div class="report-actions">
                <CopyLinkButton snapshot=Callback::new(move |taken: i64| {
                    let report = report.get_untracked();
                    run_set.with_untracked(|set| {
                        view.with_untracked(|view| link_snapshot(&report, set, view, taken))
                    })
                })/>
                <a href=change_runs class="button button-secondary">"Change runs"</a>
                <ExportButtons report bootstrap_pending=state.bootstrap_pending()/>
            </div>
            <LinkSnapshotNotice report view on_change/>
            {from_files
                .then(|| {
                    view! {
                        <div class="notice notice-info" role="note">
                            <p>
                                "This report was computed from run folders opened in this browser. "
                                "Its link keeps the view (runs, settings, filters) but not the "
                                "data: whoever opens it needs the same folders."
                            </p>
                        </div>
                    }
                })}
            // The answer first: the verdicts; whether they stand (the audit, one line when the
            // runs are comparable, its findings when not); where the Δ comes from; then what
            // they rest on (the platform's own numbers, the settings).
            <HeadlineCards report focus bootstrap_pending=state.bootstrap_pending()/>
            <AuditPanel report/>
            <WhereDelta report=without_bootstrap focus/>
            <EffortPanel report run_set client/>
            <CostPanel report/>
            <PlatformPanel report/>
            <ReportSettingsForm
                view
                on_change
                timings=state.timings
                bootstrap_progress=state.bootstrap_progress
            />
            <PassThresholdForm view on_change/>
            <Show when=move || { below_fold.get() >= 1 }>
                <FocusSelector report=without_bootstrap view on_change/>
                <ReportCharts report=without_bootstrap focus/>
                <PlatformProgressionPanel report=without_bootstrap/>
                <CheckpointStepsPanel report=without_bootstrap view on_change/>
                <ComponentDeltas report=without_bootstrap focus run_set client/>
            </Show>
            <Show when=move || { below_fold.get() >= 2 }>
                <CoverageLedger report=without_bootstrap/>
                <LedgerPanel report=without_bootstrap view run_set=ledger_set edits/>
                <TaskTable report=without_bootstrap view on_change/>
            </Show>
            <TaskPanel
                report=without_bootstrap run_set task_id client org_key on_close=close_task
                attempts on_attempts focus edits
            />
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view(baseline: Option<&str>, candidates: &[&str]) -> ViewState {
        ViewState {
            baseline: baseline.map(str::to_owned),
            candidates: candidates.iter().map(|id| (*id).to_owned()).collect(),
            ..ViewState::default()
        }
    }

    #[test]
    fn a_plan_is_the_baseline_then_the_candidates() {
        assert_eq!(
            plan_of(&view(Some("er_base"), &["er_a", "er_b"])),
            Ok(vec![
                "er_base".to_owned(),
                "er_a".to_owned(),
                "er_b".to_owned()
            ])
        );
    }

    #[test]
    fn a_chronicle_link_names_jobs_and_agents() {
        let runs = view(Some("job_a/base"), &["job_a/s400", "job_b/s500"]);
        assert_eq!(
            plan_for(RunSource::Chronicle, &runs).map(|ids| ids.len()),
            Ok(3)
        );
        let bare = view(Some("job_a/base"), &["job_b"]);
        assert!(plan_for(RunSource::Chronicle, &bare)
            .expect_err("a job id alone")
            .starts_with("`job_b` is not a Chronicle run"));
        assert_eq!(
            plan_for(RunSource::Trajectory, &bare).map(|ids| ids.len()),
            Ok(2)
        );
    }

    #[test]
    fn a_link_without_a_comparison_says_what_is_missing() {
        assert_eq!(
            plan_of(&view(None, &["er_a"])),
            Err("This link names no baseline run.".to_owned())
        );
        assert!(plan_of(&view(Some("er_base"), &[]))
            .expect_err("no candidate")
            .contains("no candidate"));
        assert!(plan_of(&view(Some("er_a"), &["er_a"]))
            .expect_err("compared with itself")
            .contains("not compared with itself"));
    }
}
