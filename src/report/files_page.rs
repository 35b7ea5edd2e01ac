//! Comparing run folders opened from disk, with no server: `/files` opens folders and chooses
//! the comparison (or offers a training run's scorecard, `/files/scorecard`); `/files/compare?…`
//! shows its report. The URL keeps the view state as for the
//! API, but a link cannot carry the files: opened elsewhere it asks for the same folders.

use eval_compare_core::text::{count, noun, visible};
use leptos::prelude::*;

use eval_compare_core::run_folder::Folder;

use crate::components::button::ActionButton;
use crate::picker::overview::RunRow;
use crate::picker::run_chooser::RunChooser;
use crate::report::compare_page::{plan_of, ReportBody};
use crate::report::files_jobs::{job_rows, JobFolderChooser};
use crate::report::panels::drop_zone::DropZone;
use crate::report::panels::query_notice::QueryIssuesNotice;
use crate::report::scorecard::files::FolderScorecardOffers;
use crate::route::{ReportPage, Route};
use crate::state::files::{issues_note, use_file_runs, FileIssue, OpenedRun};
use crate::state::url::use_url_state;

/// `/files`: open run folders, then choose the baseline and candidates among them.
#[component]
pub fn FilesPage() -> impl IntoView {
    let file_runs = use_file_runs();
    let url = use_url_state();
    let opened = Memo::new(move |_| file_runs.runs());
    let chooser = move || {
        let runs = opened.get();
        if runs.is_empty() {
            return view! { <p class="empty-state">"No run folder opened yet."</p> }.into_any();
        }
        let rows: Vec<RunRow> = runs
            .iter()
            .filter_map(|opened| match opened.run.as_ref() {
                Folder::Trajectory(folder) => Some(RunRow {
                    run: folder.run.clone(),
                    progress: None,
                }),
                Folder::Chronicle(_) => None,
            })
            .collect();
        let jobs = job_rows(&runs);
        let jobs = (!jobs.is_empty()).then(|| view! { <JobFolderChooser rows=jobs/> });
        let count = rows.len();
        if count == 0 {
            return view! {
                <div class="file-choosers">
                    {jobs}
                    <ActionButton secondary=true on_click=move |()| file_runs.clear()>
                        "Close all"
                    </ActionButton>
                </div>
            }
            .into_any();
        }
        view! {
            <section class="benchmark">
                <header class="benchmark-header">
                    <h3 class="benchmark-name">"Opened runs"</h3>
                    <span class="benchmark-meta">
                        {format!("{count} {} from files", noun(count as u64, "run", "runs"))}
                    </span>
                    <ActionButton
                        secondary=true
                        class="header-action"
                        on_click=move |()| file_runs.clear()
                    >
                        "Close all"
                    </ActionButton>
                </header>
                <RunChooser rows url compare=Route::Report(ReportPage::FilesCompare)/>
            </section>
            {jobs}
        }
        .into_any()
    };
    view! {
        <h2 class="page-heading">"Compare run folders from disk"</h2>
        <p class="page-intro">
            "Open the folders of exported runs (or of Chronicle jobs) to compare them in this browser, with no server. "
            "To read runs from the API instead, "<a href=Route::Picker.path()>"choose them here"</a>"."
        </p>
        <QueryIssuesNotice issues=Signal::derive(move || url.issues())/>
        <DropZone/>
        <FileIssues/>
        <FolderScorecardOffers/>
        <OpenedFolders/>
        {chooser}
    }
}

/// What an opened folder holds, in a phrase: `run eval_1`, `job job_1 (2 agents)`.
pub fn folder_holds(opened: &OpenedRun) -> String {
    match opened.run.as_ref() {
        Folder::Trajectory(folder) => format!("run {}", visible(&folder.run.eval_run_id)),
        Folder::Chronicle(folder) => {
            let agents = opened.run_ids.len() as u64;
            format!(
                "job {} ({} {})",
                visible(&folder.job.id),
                count(agents),
                noun(agents, "agent", "agents")
            )
        }
    }
}

/// The folders opened in this browser, each with what it holds.
#[component]
fn OpenedFolders() -> impl IntoView {
    let file_runs = use_file_runs();
    move || {
        let runs = file_runs.runs();
        (!runs.is_empty()).then(|| {
            let items = runs
                .iter()
                .map(|opened| {
                    view! {
                        <li>
                            <code>{visible(&opened.folder).into_owned()}</code>
                            ": "
                            {folder_holds(opened)}
                        </li>
                    }
                })
                .collect_view();
            let folders = runs.len() as u64;
            view! {
                <section class="opened-folders" aria-label="Folders opened">
                    <p class="field-help">
                        {format!("{} {} opened in this browser:", count(folders), noun(folders, "folder", "folders"))}
                    </p>
                    <ul class="notice-list">{items}</ul>
                </section>
            }
        })
    }
}

/// The folders and files of the last opening that could not be used.
#[component]
pub fn FileIssues() -> impl IntoView {
    let file_runs = use_file_runs();
    move || {
        let issues = file_runs.issues();
        (!issues.is_empty()).then(|| {
            let items = issues
                .into_iter()
                .map(|FileIssue { folder, message }| {
                    view! {
                        <li>
                            <code>{folder}</code>
                            ": "
                            {message}
                        </li>
                    }
                })
                .collect_view();
            view! {
                <div class="notice notice-caution" role="alert">
                    <div class="notice-body">
                        <p class="notice-title">"Some files could not be used"</p>
                        <ul class="notice-list">{items}</ul>
                        <p class="field-help">{issues_note(file_runs.opened_last())}</p>
                    </div>
                </div>
            }
        })
    }
}

/// `/files/compare`: the report over opened folders; without them, what to open.
#[component]
pub fn FilesComparePage() -> impl IntoView {
    let url = use_url_state();
    let file_runs = use_file_runs();
    let view = url.view_signal();
    let plan = Memo::new(move |_| view.with(plan_of));
    let missing = Memo::new(move |_| match plan.get() {
        Ok(ids) => file_runs.missing(&ids),
        Err(_) => Vec::new(),
    });
    let run_ids = Memo::new(move |_| plan.get().ok());
    let run_set_state = file_runs.use_run_set(run_ids);
    let problem = move || {
        if let Err(why) = plan.get() {
            return Some(
                view! {
                    <div class="empty-state">
                        <p>{why}</p>
                        <p><a href=Route::Report(ReportPage::Files).path()>"Open run folders and choose the runs."</a></p>
                    </div>
                }
                .into_any(),
            );
        }
        let missing = missing.get();
        (!missing.is_empty()).then(|| {
            view! {
                <div class="notice notice-info" role="status">
                    <div class="notice-body">
                        <p class="notice-title">"This report is computed from run folders on the reader's computer"</p>
                        <p>
                            "A link keeps the view but not the data. Open the same folders to see it; "
                            "still missing: "<code>{missing.join(", ")}</code>"."
                        </p>
                    </div>
                </div>
                <DropZone/>
                <FileIssues/>
            }
            .into_any()
        })
    };
    let ready = move || plan.with(Result::is_ok) && missing.with(Vec::is_empty);
    view! {
        <QueryIssuesNotice issues=Signal::derive(move || url.issues())/>
        {problem}
        <Show when=ready>
            <ReportBody
                run_set=run_set_state.built
                building=run_set_state.progress
                view
                on_change=url.replace_callback()
                client=Signal::derive(|| None)
                from_files=true
            />
        </Show>
    }
}
