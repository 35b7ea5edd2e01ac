//! Downloads of the comparison: the per-task table as CSV (core [`to_csv`]; the rows a filter
//! leaves, [`shown_csv_file`]), the whole report
//! as JSON ([`Report::to_json`], the same text as `eval-compare report --format json` for the
//! same runs and settings) and as one HTML document to keep ([`Report::to_html`] with the
//! Copy link's link, the same bytes as `eval-compare report --format html --link-base ORIGIN`
//! when the view names only runs and settings).
//!
//! The files are made from the [`Report`] and the view's link alone, which hold no
//! credentials: nothing of the API key or the client configuration can end up in them.

use std::sync::Arc;
use std::time::Duration;

use eval_compare_core::report::{to_csv, to_csv_rows, visible_rows, Report};
use eval_compare_core::text::count;
use eval_compare_core::view_state::{RowFilter, ViewState};
use leptos::prelude::*;
use wasm_bindgen::{JsCast, JsValue};

use crate::report::panels::copy_link::share_href;
use crate::state::url::use_url_state;

/// How long a download's object URL stays valid after the click that starts it.
const REVOKE_AFTER: Duration = Duration::from_secs(60);

/// Longest run id kept in a file name.
const MAX_NAME_PART: usize = 48;

/// A file to download.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportFile {
    /// Suggested file name.
    pub name: String,
    /// MIME type of the contents.
    pub mime: &'static str,
    /// The contents.
    pub contents: String,
}

impl ExportFile {
    /// `contents` as the file `<the report's file stem><ending>`, of type `mime`.
    fn of(report: &Report, ending: &str, mime: &'static str, contents: String) -> Self {
        Self {
            name: format!("{}{ending}", file_stem(report)),
            mime,
            contents,
        }
    }
}

/// The MIME type of both CSV files.
const CSV_MIME: &str = "text/csv;charset=utf-8";

/// `text` ending with a newline, as the CLI ends what it prints.
fn ending_with_newline(mut text: String) -> String {
    if !text.ends_with('\n') {
        text.push('\n');
    }
    text
}

/// The per-task table as CSV.
pub fn csv_file(report: &Report) -> ExportFile {
    ExportFile::of(report, ".csv", CSV_MIME, to_csv(report))
}

/// The per-task table's rows as `view` shows them (its filter, category, search and sort) as
/// CSV, named `…-shown.csv`; `None` when the view shows every task (the whole table is
/// [`csv_file`]).
pub fn shown_csv_file(report: &Report, view: &ViewState) -> Option<ExportFile> {
    let rows = visible_rows(report, view);
    (rows.len() < report.tasks.len())
        .then(|| ExportFile::of(report, "-shown.csv", CSV_MIME, to_csv_rows(report, &rows)))
}

/// Whether `view` may leave tasks out of the table (a filter, a category or a search).
pub fn narrows_rows(view: &ViewState) -> bool {
    view.filter != RowFilter::All || view.category.is_some() || view.search.is_some()
}

/// The title of "Download CSV": every task, whatever the table shows, and Δ's unit.
pub fn csv_title(report: &Report) -> String {
    format!(
        "The per-task table, all {} tasks whatever the filter, as {} (Δ as a fraction: \
         100 × the points shown)",
        count(report.tasks.len() as u64),
        csv_file_name(report)
    )
}

/// The whole report as JSON, byte for byte what `eval-compare report --format json` prints for
/// the same runs and settings (the CLI ends its output with a newline).
pub fn json_file(report: &Report) -> ExportFile {
    let contents = ending_with_newline(report.to_json());
    ExportFile::of(report, ".json", "application/json", contents)
}

/// The whole report as one self-contained HTML document with `share`, the view's link: what
/// `eval-compare report --format html` writes for the same runs, settings and link.
pub fn html_file(report: &Report, share: Option<&str>) -> ExportFile {
    let contents = ending_with_newline(report.to_html(share));
    ExportFile::of(report, ".html", "text/html;charset=utf-8", contents)
}

/// `eval-compare-<baseline>-vs-<candidate>` for one candidate,
/// `eval-compare-<baseline>-vs-<n>-candidates` for several; run ids reduced to safe characters.
pub fn file_stem(report: &Report) -> String {
    let baseline = report
        .baseline()
        .map_or_else(|| "baseline".to_owned(), |run| name_part(&run.id));
    let candidates: Vec<&str> = report
        .runs
        .iter()
        .skip(1)
        .map(|run| run.id.as_str())
        .collect();
    match candidates.as_slice() {
        [] => format!("eval-compare-{baseline}"),
        [one] => format!("eval-compare-{baseline}-vs-{}", name_part(one)),
        many => format!("eval-compare-{baseline}-vs-{}-candidates", many.len()),
    }
}

/// An id as part of a file name: ASCII letters, digits, `.`, `-` and `_`; anything else `_`.
fn name_part(id: &str) -> String {
    let part: String = id
        .chars()
        .take(MAX_NAME_PART)
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect();
    let part = part.trim_matches('.');
    if part.is_empty() {
        "run".to_owned()
    } else {
        part.to_owned()
    }
}

/// Starts a download of `file` through a Blob and a temporary link.
pub fn download(file: &ExportFile) -> Result<(), String> {
    let failed = |what: &str, error: JsValue| {
        let detail = error
            .dyn_ref::<js_sys::Error>()
            .map(|e| String::from(e.message()))
            .unwrap_or_default();
        format!("{what} {detail}").trim().to_owned()
    };
    let document = web_sys::window()
        .and_then(|window| window.document())
        .ok_or_else(|| "the page has no document".to_owned())?;
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(file.mime);
    let parts = js_sys::Array::of1(&JsValue::from_str(&file.contents));
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options)
        .map_err(|e| failed("the file could not be made:", e))?;
    let url = web_sys::Url::create_object_url_with_blob(&blob)
        .map_err(|e| failed("the file could not be made:", e))?;
    let link = document
        .create_element("a")
        .map_err(|e| failed("the download link could not be made:", e))?
        .dyn_into::<web_sys::HtmlAnchorElement>()
        .map_err(|_| "the download link could not be made".to_owned())?;
    link.set_href(&url);
    link.set_download(&file.name);
    link.set_hidden(true);
    let body = document
        .body()
        .ok_or_else(|| "the page has no body".to_owned())?;
    body.append_child(&link)
        .map_err(|e| failed("the download link could not be added:", e))?;
    link.click();
    link.remove();
    // The browser reads the Blob asynchronously; release it once the download has started.
    set_timeout(
        move || {
            let _ = web_sys::Url::revoke_object_url(&url);
        },
        REVOKE_AFTER,
    );
    Ok(())
}

/// "Download CSV", "Download report JSON" and "Download HTML report" buttons. The JSON and the
/// HTML report wait for the bootstrap (`bootstrap_pending`): they hold its intervals, and are
/// what `eval-compare report` writes; the CSV (the per-task table) does not need it.
#[component]
pub fn ExportButtons(
    /// The report to export.
    report: Signal<Arc<Report>>,
    /// True while the report's bootstrap is being drawn.
    #[prop(into)]
    bootstrap_pending: Signal<bool>,
) -> impl IntoView {
    let whole_title = move |title: &'static str| {
        move || {
            if bootstrap_pending.get() {
                "Available once the bootstrap is drawn (its intervals are part of the report)"
            } else {
                title
            }
        }
    };
    let url = use_url_state();
    let error = RwSignal::new(None::<String>);
    let start = move |make: fn(&Report) -> ExportFile| {
        let file = report.with_untracked(|report| make(report));
        error.set(download(&file).err());
    };
    let start_html = move |_| {
        let share = share_href(&url);
        let file = report.with_untracked(|report| html_file(report, share.as_deref()));
        error.set(download(&file).err());
    };
    view! {
        <div class="export-buttons" role="group" aria-label="Export">
            <button
                type="button"
                class="button button-quiet"
                title=move || report.with(|r| csv_title(r))
                on:click=move |_| start(csv_file)
            >
                "Download CSV"
            </button>
            {move || {
                url.view_signal().with(narrows_rows).then(|| {
                    view! {
                        <button
                            type="button"
                            class="button button-quiet"
                            title="The rows the table shows (its filter, category, search and sort), as CSV"
                            on:click=move |_| {
                                let view = url.view_untracked();
                                let file = report
                                    .with_untracked(|report| shown_csv_file(report, &view));
                                if let Some(file) = file {
                                    error.set(download(&file).err());
                                }
                            }
                        >
                            "Download shown rows (CSV)"
                        </button>
                    }
                })
            }}
            <button
                type="button"
                class="button button-quiet"
                title=whole_title("The whole report, as `eval-compare report --format json` writes it")
                disabled=move || bootstrap_pending.get()
                on:click=move |_| start(json_file)
            >
                "Download report JSON"
            </button>
            <button
                type="button"
                class="button button-quiet"
                title=whole_title(
                    "One self-contained HTML document (no script, opens offline), as `eval-compare report --format html` writes it",
                )
                disabled=move || bootstrap_pending.get()
                on:click=start_html
            >
                "Download HTML report"
            </button>
            {move || {
                error
                    .get()
                    .map(|message| {
                        view! {
                            <span class="export-error" role="alert">
                                "The download could not start: "{message}
                            </span>
                        }
                    })
            }}
        </div>
    }
}

fn csv_file_name(report: &Report) -> String {
    format!("{}.csv", file_stem(report))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_filter_a_category_or_a_search_narrows_the_rows_and_a_sort_does_not() {
        let mut view = ViewState::default();
        assert!(!narrows_rows(&view));
        view.sort.descending = !view.sort.descending;
        assert!(!narrows_rows(&view));
        view.filter = RowFilter::Regressions;
        assert!(narrows_rows(&view));
        let view = ViewState {
            search: Some("cf-00".to_owned()),
            ..ViewState::default()
        };
        assert!(narrows_rows(&view));
    }
}
