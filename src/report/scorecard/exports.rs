//! The scorecard's actions: Copy link (the page's whole state), and the downloads: the HTML
//! scorecard (one file, no script), its JSON and its markdown, the bytes `eval-compare
//! scorecard --format html|json|text` writes for the same scorecard (they wait for every cell).

use std::sync::Arc;

use eval_compare_core::scorecard::{scorecard_address_on, Scorecard};
use eval_compare_core::view_state::ScorecardLink;
use leptos::prelude::*;
use wasm_bindgen_futures::JsFuture;

use super::pages::ScorecardPages;
use super::words::{file_name, with_final_newline};
use crate::report::export::{download, ExportFile};
use crate::route::Route;

/// The link written into the HTML scorecard and copied by Copy link, as the CLI writes it
/// (`--link-base ORIGIN`): the training run, the baselines chosen by hand, the settings and the
/// scorecard's rule, on the scorecard's page `page` (`/scorecard`, or `/files/scorecard`).
pub fn share_link(
    origin: &str,
    page: Route,
    scorecard: &Scorecard,
    link: &ScorecardLink,
) -> Option<String> {
    let mut shared = ScorecardLink {
        training_run: Some(scorecard.training_run_id.clone()),
        baselines: link.baselines.clone(),
        settings: link.settings.clone(),
        ..ScorecardLink::default()
    };
    scorecard.rule.write_to(&mut shared)?;
    Some(scorecard_address_on(origin, page.path(), &shared))
}

/// The three downloads of `scorecard`.
pub fn export_files(scorecard: &Scorecard, address: Option<&str>) -> [ExportFile; 3] {
    let id = &scorecard.training_run_id;
    [
        ExportFile {
            name: file_name(id, ".html"),
            mime: "text/html;charset=utf-8",
            contents: with_final_newline(scorecard.to_html(address)),
        },
        ExportFile {
            name: file_name(id, ".json"),
            mime: "application/json",
            contents: with_final_newline(scorecard.to_json()),
        },
        ExportFile {
            name: file_name(id, ".md"),
            mime: "text/markdown;charset=utf-8",
            contents: with_final_newline(scorecard.to_markdown()),
        },
    ]
}

fn origin() -> Option<String> {
    web_sys::window()?.location().origin().ok()
}

/// Copy link and the three downloads.
#[component]
pub fn ScorecardActions(
    /// The scorecard, decided under the page's rule.
    #[prop(into)]
    scorecard: Signal<Arc<Scorecard>>,
    /// The page's link.
    link: Memo<ScorecardLink>,
    /// Whether every cell is computed (the downloads wait for it).
    complete: Signal<bool>,
) -> impl IntoView {
    let message = RwSignal::new(None::<String>);
    let page = ScorecardPages::in_context().scorecard;
    let address = move || {
        let origin = origin()?;
        scorecard.with_untracked(|card| {
            link.with_untracked(|link| share_link(&origin, page, card, link))
        })
    };
    let copy = move |_| {
        let Some(href) = address() else { return };
        let clipboard = web_sys::window().map(|window| window.navigator().clipboard());
        leptos::task::spawn_local(async move {
            let written = match clipboard {
                Some(clipboard) => JsFuture::from(clipboard.write_text(&href)).await.is_ok(),
                None => false,
            };
            message.try_set(Some(if written {
                "Link copied".to_owned()
            } else {
                format!("Copy this link: {href}")
            }));
        });
    };
    let start = move |which: usize| {
        let address = address();
        let files = scorecard.with_untracked(|card| export_files(card, address.as_deref()));
        message.set(download(&files[which]).err());
    };
    let title = move || {
        if complete.get() {
            "As `eval-compare scorecard` writes it"
        } else {
            "Available once every cell is computed"
        }
    };
    let button = move |which: usize, label: &'static str| {
        view! {
            <button
                type="button"
                class="button button-quiet"
                title=title
                disabled=move || !complete.get()
                on:click=move |_| start(which)
            >
                {label}
            </button>
        }
    };
    view! {
        <div class="report-actions">
            <div class="copy-link">
                <button class="button button-secondary" type="button" on:click=copy>
                    "Copy link"
                </button>
                {move || message.get().map(|text| view! { <span class="form-ok" role="status">{text}</span> })}
            </div>
            <div class="export-buttons" role="group" aria-label="Export">
                {button(0, "Download HTML scorecard")}
                {button(1, "Download JSON")}
                {button(2, "Download markdown")}
            </div>
        </div>
    }
}
