//! The Chronicle job folders opened on the files page, and the comparison of their agents: one
//! compare-mode job alone (its first agent the baseline), or several jobs on one suite with the
//! one marked as baseline first. Jobs on another suite (or suite version) stay selectable: the
//! report's audit then says the comparison is not meaningful, which is what a reader needs to
//! see rather than a silently disabled box.

use std::collections::BTreeSet;

use eval_compare_core::api::ChronicleJob;
use eval_compare_core::run_folder::Folder;
use eval_compare_core::text::{count, noun, visible};
use leptos::prelude::*;

use crate::picker::run_chooser::chooser_view;
use crate::route::{ReportPage, Route};
use crate::state::files::OpenedRun;
use crate::state::url::use_url_state;

/// A job folder as the chooser lists it.
#[derive(Debug, Clone, PartialEq)]
pub struct JobRow {
    /// The job.
    pub job: ChronicleJob,
    /// Its runs (`{job}/{agent}`), in the job's agent order.
    pub run_ids: Vec<String>,
    /// Its trials.
    pub trials: usize,
    /// The folder it was opened from.
    pub folder: String,
}

/// The job folders among the opened folders, in the order opened.
pub fn job_rows(opened: &[OpenedRun]) -> Vec<JobRow> {
    opened
        .iter()
        .filter_map(|opened| match opened.run.as_ref() {
            Folder::Chronicle(folder) => Some(JobRow {
                job: folder.job.clone(),
                run_ids: opened.run_ids.clone(),
                trials: folder.trials.len(),
                folder: opened.folder.clone(),
            }),
            Folder::Trajectory(_) => None,
        })
        .collect()
}

/// The baseline and candidates of comparing the jobs `included` (indices into `rows`) with
/// `baseline` first: its first agent is the baseline, its other agents and every other
/// included job's agents (in list order) the candidates. `None` when that leaves no candidate.
pub fn jobs_comparison(
    rows: &[JobRow],
    baseline: usize,
    included: &BTreeSet<usize>,
) -> Option<(String, Vec<String>)> {
    let base_row = rows.get(baseline)?;
    let (base, own) = base_row.run_ids.split_first()?;
    let mut candidates: Vec<String> = own.to_vec();
    for (index, row) in rows.iter().enumerate() {
        if index != baseline && included.contains(&index) {
            candidates.extend(row.run_ids.iter().cloned());
        }
    }
    (!candidates.is_empty()).then(|| (base.clone(), candidates))
}

/// The job folders with a choice of baseline and jobs, and a link to their report.
#[component]
pub fn JobFolderChooser(
    /// The job folders.
    rows: Vec<JobRow>,
) -> impl IntoView {
    let url = use_url_state();
    let count_of_rows = rows.len();
    let baseline = RwSignal::new(0usize);
    let included = RwSignal::new(BTreeSet::<usize>::new());
    let rows = StoredValue::new(rows);
    let choice =
        move || rows.with_value(|rows| jobs_comparison(rows, baseline.get(), &included.get()));
    let open = move |_| {
        if let Some((base, candidates)) = choice() {
            let mut view = chooser_view(&url.view_untracked());
            view.baseline = Some(base);
            view.candidates = candidates;
            url.push(Route::Report(ReportPage::FilesCompare), &view);
        }
    };
    let items = rows.with_value(|rows| {
        rows.iter()
            .enumerate()
            .map(|(index, row)| view! { <JobItem row=row.clone() index baseline included/> })
            .collect_view()
    });
    view! {
        <section class="benchmark">
            <header class="benchmark-header">
                <h3 class="benchmark-name">"Opened backtest jobs"</h3>
                <span class="benchmark-meta">
                    {format!("{count_of_rows} {} from files", noun(count_of_rows as u64, "job", "jobs"))}
                </span>
            </header>
            <p class="field-help">
                "A compare-mode job compares its agents (the first is the baseline). To compare jobs on one "
                "suite, mark the baseline job and tick the others."
            </p>
            <ul class="job-folders">{items}</ul>
            <div class="compare-bar">
                {move || match choice() {
                    Some(_) => view! {
                        <button class="button" type="button" on:click=open>"Compare"</button>
                    }
                    .into_any(),
                    None => view! {
                        <span class="muted">
                            "The baseline job has one agent: tick another job to compare it with."
                        </span>
                    }
                    .into_any(),
                }}
            </div>
        </section>
    }
}

#[component]
fn JobItem(
    row: JobRow,
    index: usize,
    baseline: RwSignal<usize>,
    included: RwSignal<BTreeSet<usize>>,
) -> impl IntoView {
    let job = &row.job;
    let name = visible(job.name.as_deref().unwrap_or(&job.id)).into_owned();
    let meta = [
        job.mode
            .as_ref()
            .map(|mode| visible(mode.as_str()).into_owned()),
        job.status
            .as_ref()
            .map(|status| visible(status.as_str()).into_owned()),
        job.task_suite_id.as_ref().map(|suite| {
            let version = job.task_suite_version.as_deref().map(visible);
            match version {
                Some(version) => format!("{}@{version}", visible(suite)),
                None => visible(suite).into_owned(),
            }
        }),
        Some(format!(
            "{} {}",
            count(row.trials as u64),
            noun(row.trials as u64, "trial", "trials")
        )),
    ]
    .into_iter()
    .flatten()
    .collect::<Vec<_>>()
    .join(" · ");
    let agents = job
        .agents
        .iter()
        .map(|agent| visible(agent).into_owned())
        .collect::<Vec<_>>()
        .join(", ");
    let group = "job-folder-baseline";
    view! {
        <li class="job-folder">
            <label class="job-folder-choice">
                <input
                    type="radio"
                    name=group
                    prop:checked=move || baseline.get() == index
                    on:change=move |_| baseline.set(index)
                />
                " baseline"
            </label>
            <label class="job-folder-choice">
                <input
                    type="checkbox"
                    prop:checked=move || included.with(|set| set.contains(&index)) || baseline.get() == index
                    prop:disabled=move || baseline.get() == index
                    on:change=move |_| included.update(|set| {
                        if !set.remove(&index) {
                            set.insert(index);
                        }
                    })
                />
                " compare"
            </label>
            <span class="job-folder-name">{name}</span>
            <span class="job-folder-id">{visible(&job.id).into_owned()}</span>
            <span class="muted">{meta}</span>
            <span class="job-folder-agents">{agents}</span>
            <code class="muted">{row.folder.clone()}</code>
        </li>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(id: &str, agents: &[&str]) -> JobRow {
        JobRow {
            job: serde_json::from_value(serde_json::json!({"id": id, "agents": agents}))
                .expect("a job"),
            run_ids: agents.iter().map(|agent| format!("{id}/{agent}")).collect(),
            trials: 0,
            folder: id.to_owned(),
        }
    }

    #[test]
    fn a_compare_job_alone_compares_its_agents() {
        let rows = [row("j1", &["a@1", "a@2", "a@3"])];
        assert_eq!(
            jobs_comparison(&rows, 0, &BTreeSet::new()),
            Some((
                "j1/a@1".to_owned(),
                vec!["j1/a@2".to_owned(), "j1/a@3".to_owned()]
            ))
        );
    }

    #[test]
    fn jobs_join_after_the_baseline_job_in_list_order() {
        let rows = [
            row("j1", &["b@1"]),
            row("j2", &["a@1"]),
            row("j3", &["c@1"]),
        ];
        let none = BTreeSet::new();
        assert_eq!(jobs_comparison(&rows, 1, &none), None, "one agent alone");
        let both: BTreeSet<usize> = [0, 2].into();
        assert_eq!(
            jobs_comparison(&rows, 1, &both),
            Some((
                "j2/a@1".to_owned(),
                vec!["j1/b@1".to_owned(), "j3/c@1".to_owned()]
            ))
        );
    }
}
