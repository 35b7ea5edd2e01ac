//! `/files/scorecard?training=…`: a training run's scorecard from the run folders opened on the
//! Files page, with no API: the body of `/scorecard` (answer, rule controls, grid, chart,
//! downloads), built by [`use_folder_scorecard`], its cells opening `/files/compare` reports
//! ([`ScorecardPages::FOLDERS`]). Its link keeps the view, not the data: opened where the
//! folders are not open, the page asks for them, as `/files/compare` does. Also the Files page's
//! offer of each training run's scorecard ([`FolderScorecardOffers`]).

use eval_compare_core::scorecard::{words as core_words, FOLDERS_SCORECARD_PAGE_PATH};
use eval_compare_core::view_state::ScorecardLink;
use leptos::prelude::*;

use super::body::ScorecardBody;
use super::files_words::{folders_needed, offer_gap, offer_href, offer_text, LINK_KEEPS_NO_DATA};
use super::pages::ScorecardPages;
use crate::page_title::set_document_title;
use crate::report::files_page::FileIssues;
use crate::report::panels::drop_zone::DropZone;
use crate::report::panels::query_notice::QueryIssuesNotice;
use crate::route::{ReportPage, Route};
use crate::state::files::scorecard::{scorecard_folders, use_folder_scorecard};
use crate::state::files::use_file_runs;
use crate::state::url::use_url_state;

/// `/files/scorecard`: the scorecard of the link's training run from the opened folders.
#[component]
pub fn FilesScorecardPage() -> impl IntoView {
    let url = use_url_state();
    let file_runs = use_file_runs();
    let parsed = Memo::new(move |_| ScorecardLink::from_query(&url.search()));
    let link = Memo::new(move |_| parsed.with(|parsed| parsed.link.clone()));
    provide_context(ScorecardPages::FOLDERS);
    let scorecard = use_folder_scorecard(file_runs, link);
    let state = scorecard.state;
    let on_link = Callback::new(move |next: ScorecardLink| {
        url.replace_href(format!("{FOLDERS_SCORECARD_PAGE_PATH}?{}", next.to_query()));
    });
    let training = move || link.with(|link| link.training_run.clone());
    Effect::new(move |_| {
        let subject = match training() {
            Some(id) => format!("{} of {id}", core_words::HEADING),
            None => core_words::HEADING.to_owned(),
        };
        set_document_title(&subject);
    });
    let ready = move || state.plan.with(Option::is_some) && scorecard.missing.with(Vec::is_empty);
    let needed = move || {
        if training().is_none() {
            return Some(
                view! {
                    <div class="empty-state">
                        <p>"This link names no training run."</p>
                        <p><a href=Route::Report(ReportPage::Files).path()>"Open run folders and choose a training run's scorecard."</a></p>
                    </div>
                }
                .into_any(),
            );
        }
        if ready() {
            return None;
        }
        let opened = file_runs.runs().len();
        let what = scorecard.problem.with(|problem| {
            scorecard
                .missing
                .with(|missing| folders_needed(opened, problem.as_deref(), missing))
        });
        Some(
            view! {
                <div class="notice notice-info" role="status">
                    <div class="notice-body">
                        <p class="notice-title">"This scorecard is computed from run folders on the reader's computer"</p>
                        <p>"A link keeps the view but not the data. "{what}</p>
                    </div>
                </div>
                <DropZone/>
                <FileIssues/>
            }
            .into_any(),
        )
    };
    view! {
        <div class="scorecard-page">
            <h2 class="page-heading">
                {core_words::HEADING}
                {move || training().map(|id| format!(" of training run {id}"))}
            </h2>
            <p class="page-intro">{LINK_KEEPS_NO_DATA}</p>
            <QueryIssuesNotice issues=Signal::derive(move || parsed.with(|p| p.issues.clone()))/>
            {needed}
            <Show when=ready>
                <ScorecardBody state link on_link/>
            </Show>
        </div>
    }
}

/// The Files page's offer: a scorecard of each training run whose checkpoint evaluations are
/// open, when a base-model evaluation of one of their benchmark versions is open too; shown
/// once the folders picked are all read (not a scorecard of half of them).
#[component]
pub fn FolderScorecardOffers() -> impl IntoView {
    let file_runs = use_file_runs();
    let offers = Memo::new(move |_| {
        if file_runs.reading().is_some() {
            return Vec::new();
        }
        scorecard_folders(&file_runs.runs())
            .map(|folders| folders.offers())
            .unwrap_or_default()
    });
    move || {
        let offers = offers.get();
        (!offers.is_empty()).then(|| {
            let items = offers
                .into_iter()
                .map(|offer| {
                    let open = (offer.comparisons > 0).then(|| {
                        view! {
                            <a class="button" href=offer_href(&offer.training_run_id)>"Scorecard"</a>
                        }
                    });
                    let gap = offer_gap(&offer).map(|gap| view! { <span class="field-help">{gap}</span> });
                    view! {
                        <li class="folder-scorecard" data-training-run-id=offer.training_run_id.clone()>
                            <span>{offer_text(&offer)}</span>
                            {gap}
                            {open}
                        </li>
                    }
                })
                .collect_view();
            view! {
                <section class="benchmark folder-scorecards" aria-label="Scorecards">
                    <header class="benchmark-header">
                        <h3 class="benchmark-name">"Scorecards"</h3>
                        <span class="benchmark-meta">"every checkpoint on every benchmark, from these folders"</span>
                    </header>
                    <ul class="folder-scorecard-list">{items}</ul>
                </section>
            }
        })
    }
}
