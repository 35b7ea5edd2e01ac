//! The report pages ([`ReportPage`]: `/compare`, `/files`, `/files/compare`, `/backtests`,
//! `/backtests/compare`, `/scorecard`, `/files/scorecard`) behind one split point.
//!
//! The release build (`scripts/build-viewer.sh`, which compiles with `--cfg lazy_report`) cuts
//! the code reachable only from these pages (the analysis core, the report's panels, charts,
//! table and task panel, the run-folder reader) into a wasm chunk of its own with
//! `wasm-split-cli`. Every page starts with the rest, the app shell and the run picker; the chunk
//! is fetched when a report page is first shown, and `index.html` preloads it when the app is
//! opened on a report page. Other builds (native, browser tests, clippy) render the pages
//! directly.

use leptos::prelude::*;

use crate::route::ReportPage;

/// The view of `page` (in a release build: once its chunk is loaded, with a retry on failure).
pub fn report_page(page: ReportPage) -> AnyView {
    #[cfg(lazy_report)]
    {
        loaded_page(page)
    }
    #[cfg(not(lazy_report))]
    {
        page_view(page)
    }
}

/// Starts fetching the report pages' chunk, unless it is loaded or loading, and shows nothing:
/// for when the user is about to open a report (the picker calls it when the pointer is on, or
/// the focus in, Compare). A failed prefetch is not remembered; the page's own load tries again.
pub fn prefetch_report_pages() {
    #[cfg(lazy_report)]
    leptos::task::spawn_local(async {
        if chunk::preload().await.is_ok() {
            CHUNK_LOADED.store(true, std::sync::atomic::Ordering::Relaxed);
        }
    });
}

fn page_view(page: ReportPage) -> AnyView {
    use crate::picker::backtests::page::BacktestsPage;
    use crate::report::compare_page::ComparePage;
    use crate::report::files_page::{FilesComparePage, FilesPage};
    match page {
        ReportPage::Compare | ReportPage::BacktestsCompare => {
            view! { <ComparePage source=page.source()/> }.into_any()
        }
        ReportPage::Files => view! { <FilesPage/> }.into_any(),
        ReportPage::FilesCompare => view! { <FilesComparePage/> }.into_any(),
        // The job picker reads Chronicle's own types and pages: behind the split, so the
        // Trajectory picker's download does not grow; opening a job then needs no other chunk.
        ReportPage::Backtests => view! { <BacktestsPage/> }.into_any(),
        ReportPage::Scorecard => view! { <crate::report::scorecard::ScorecardPage/> }.into_any(),
        ReportPage::FilesScorecard => {
            view! { <crate::report::scorecard::files::FilesScorecardPage/> }.into_any()
        }
    }
}

/// Whether the chunk has been loaded: a report page shown again (Back, Forward, another report
/// page) is then rendered at once, without a frame of "Loading…".
#[cfg(lazy_report)]
static CHUNK_LOADED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Loads the chunk (once; a failed load is not remembered) and renders the page, or says the
/// code could not be loaded, with a button that tries again.
#[cfg(lazy_report)]
fn loaded_page(page: ReportPage) -> AnyView {
    use std::sync::atomic::Ordering;

    use futures::FutureExt;

    use crate::components::loading::Loading;
    use crate::state::async_load::{use_load, LoadState};

    // Once the chunk is loaded, the split function returns at its first poll, so the page is
    // built right here, like any other page, rather than inside a suspended future.
    let render = move || chunk::page_view(page).now_or_never().and_then(Result::ok);
    if CHUNK_LOADED.load(Ordering::Relaxed) {
        if let Some(view) = render() {
            return view;
        }
    }
    let (state, retry) = use_load(|| async {
        let loaded = chunk::preload().await.is_ok();
        CHUNK_LOADED.store(loaded, Ordering::Relaxed);
        loaded.then_some(()).ok_or(())
    });
    let failed = move || {
        view! {
            <div class="error-panel" role="alert">
                <h2 class="error-title">"The report's code could not be loaded"</h2>
                <p class="error-message">
                    "The browser could not fetch or start the part of Eval Compare that computes "
                    "and shows reports."
                </p>
                <p class="error-hint">"Check the connection to this server, then retry."</p>
                <button class="button" type="button" on:click=move |_| retry.run(())>
                    "Retry"
                </button>
            </div>
        }
        .into_any()
    };
    let content = move || match state.get() {
        LoadState::Loading => view! { <Loading label="Loading the report viewer…"/> }.into_any(),
        LoadState::Loaded(()) => render().unwrap_or_else(failed),
        LoadState::Failed(()) => failed(),
    };
    view! { {content} }.into_any()
}

/// The split point: `wasm-split-cli` moves this function, and all code only it reaches, into the
/// chunk `report_pages`; calling it first loads that chunk.
#[cfg(lazy_report)]
// The macro declares the chunk's wasm import and export (`unsafe extern "C"`, `no_mangle`).
#[allow(unsafe_code)]
mod chunk {
    use leptos::prelude::AnyView;
    use leptos::wasm_split::SplitLoaderError;

    use crate::route::ReportPage;

    #[leptos::wasm_split::wasm_split(
        report_pages,
        wasm_split_path = ::leptos::wasm_split,
        fallible,
        preload(
            /// Loads the chunk without rendering anything.
            preload
        )
    )]
    pub fn page_view(page: ReportPage) -> Result<AnyView, SplitLoaderError> {
        Ok(super::page_view(page))
    }
}
