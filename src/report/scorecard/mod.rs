//! The scorecard page (`/scorecard?training=…`): a training run's checkpoints (columns) on
//! every benchmark version they were evaluated on (rows), each cell the comparison report of
//! that checkpoint's evaluation against the row's baseline, and per column the answer of the
//! decision rule the link carries; the recommended checkpoint first. Loaded and built by
//! [`crate::state::scorecard`]; the words are the core's ([`eval_compare_core::scorecard::words`])
//! and [`words`]'s; these components only lay them out.
//!
//! Its whole state is its link ([`ScorecardLink`]): the training run, baselines chosen by hand,
//! the rule (primary benchmarks, guardrails and their margins, the correction) and the settings.

mod answer;
mod body;
mod chart;
mod exports;
pub mod files;
mod files_words;
mod grid;
mod grid_row;
pub mod pages;
mod rule_form;
pub mod words;

use eval_compare_core::scorecard::{words as core_words, SCORECARD_PAGE_PATH};
use eval_compare_core::view_state::ScorecardLink;
use leptos::prelude::*;

use crate::components::loading::Loading;
use crate::page_title::set_document_title;
use crate::report::panels::load_panel::LoadPanel;
use crate::report::panels::query_notice::QueryIssuesNotice;
use crate::route::Route;
use crate::state::loader::use_loader;
use crate::state::retry_load::RetryLoad;
use crate::state::scorecard::use_scorecard;
use crate::state::source::use_source_settings;
use crate::state::url::use_url_state;

/// `/scorecard`: the scorecard of the link's training run, read from the API of the source
/// settings.
#[component]
pub fn ScorecardPage() -> impl IntoView {
    let url = use_url_state();
    let source = use_source_settings();
    let loader = use_loader();
    let parsed = Memo::new(move |_| ScorecardLink::from_query(&url.search()));
    let link = Memo::new(move |_| parsed.with(|parsed| parsed.link.clone()));
    let config = Memo::new(move |_| source.config().ok());
    let state = use_scorecard(loader, config, link);
    let on_link = Callback::new(move |next: ScorecardLink| {
        url.replace_href(format!("{SCORECARD_PAGE_PATH}?{}", next.to_query()));
    });
    let progress = Signal::derive(move || {
        state
            .load_plan
            .get()
            .map(|plan| loader.progress(&plan))
            .unwrap_or_default()
    });
    let retry = Callback::new(move |()| match state.load_plan.get_untracked() {
        Some(plan) => loader.retry(&plan),
        None => state.retry_sources.run(()),
    });
    provide_context(RetryLoad(retry));
    let training = move || link.with(|link| link.training_run.clone());
    Effect::new(move |_| {
        let subject = match training() {
            Some(id) => format!("{} of {id}", core_words::HEADING),
            None => core_words::HEADING.to_owned(),
        };
        set_document_title(&subject);
    });
    let problem = move || {
        if training().is_none() {
            return Some(
                view! {
                    <div class="empty-state">
                        <p>"This link names no training run."</p>
                        <p><a href=Route::Picker.path()>"Choose a training run in the picker."</a></p>
                    </div>
                }
                .into_any(),
            );
        }
        source.config().err().map(|error| {
            view! {
                <div class="error-panel" role="alert">
                    <h2 class="error-title">"The API address cannot be used"</h2>
                    <p class="error-message">{error.to_string()}</p>
                    <p class="error-hint">"Fix the address in the source settings."</p>
                </div>
            }
            .into_any()
        })
    };
    let sources = move || {
        match state.sources.get() {
        None if training().is_some() && config.with(Option::is_some) => Some(
            view! { <Loading label="Listing the training run's evaluations…"/> }.into_any(),
        ),
        Some(Err(why)) => Some(
            view! {
                <div class="error-panel" role="alert">
                    <h2 class="error-title">"The training run's evaluations could not be listed"</h2>
                    <p class="error-message">{why}</p>
                    <button class="button" type="button" on:click=move |_| state.retry_sources.run(())>
                        "Retry"
                    </button>
                </div>
            }
            .into_any(),
        ),
        _ => None,
    }
    };
    view! {
        <div class="scorecard-page">
            <h2 class="page-heading">
                {core_words::HEADING}
                {move || training().map(|id| format!(" of training run {id}"))}
            </h2>
            <QueryIssuesNotice issues=Signal::derive(move || parsed.with(|p| p.issues.clone()))/>
            {problem}
            {sources}
            <Show when=move || state.plan.with(Option::is_some)>
                <LoadPanel
                    progress
                    loading=Signal::derive(move || loader.is_loading())
                    load=Signal::derive(move || loader.load_number())
                    on_cancel=Callback::new(move |()| loader.cancel())
                    on_retry=retry
                    base_url=Signal::derive(move || source.base_url())
                />
                <body::ScorecardBody state link on_link/>
            </Show>
        </div>
    }
}
