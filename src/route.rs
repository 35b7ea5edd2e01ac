//! The route table: the viewer's pages and their paths, read and written in this one place.
//!
//! The app's match ([`crate::app`]), the history's handling of clicked links
//! ([`crate::state::history`]), the pages loaded on demand ([`crate::pages::lazy`]) and every
//! link name a page as a [`Route`]; only this module spells the paths. The query of every route
//! is the view state (see [`crate::state::url`]). A path names a page exactly: `/compare/` or
//! `/Compare` is no page (the app shows "Page not found").

/// A page of the viewer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Route {
    /// `/`: the run picker (the start page), over Trajectory evaluations.
    Picker,
    /// One of the report pages, whose code the release build loads on demand.
    Report(ReportPage),
}

/// The pages behind the release build's wasm split point (see [`crate::pages::lazy`]).
///
/// `index.html` preloads their code on these paths too, with a regular expression of its own
/// that must list the same paths as [`Route::is_report`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReportPage {
    /// `/compare`: a report over runs read from the API.
    Compare,
    /// `/files`: run folders opened from disk, and the choice of runs among them.
    Files,
    /// `/files/compare`: a report over those folders.
    FilesCompare,
    /// `/backtests`: the job picker over Chronicle backtests (the start page's other source);
    /// behind the split like `/files`, so the initial download of every page stays that of the
    /// Trajectory picker, and the report that follows it needs no second fetch.
    Backtests,
    /// `/backtests/compare`: a report over the agents of Chronicle jobs read from the API (its
    /// `base` and `cand` are Chronicle run ids, `{job}/{agent}`).
    BacktestsCompare,
    /// `/scorecard`: a training run's checkpoints on every benchmark of its agent, each cell a
    /// comparison against the row's baseline (its query is a `ScorecardLink`).
    Scorecard,
    /// `/files/scorecard`: the same scorecard from the run folders opened on `/files`.
    FilesScorecard,
}

/// Where the runs of a report page come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RunSource {
    /// Trajectory evaluation runs read from the API.
    Trajectory,
    /// The agents of Chronicle backtest jobs read from the API.
    Chronicle,
    /// Run folders opened from disk.
    Files,
}

impl ReportPage {
    /// Where the runs of this page come from.
    pub fn source(self) -> RunSource {
        match self {
            ReportPage::Compare | ReportPage::Scorecard => RunSource::Trajectory,
            ReportPage::BacktestsCompare => RunSource::Chronicle,
            ReportPage::Backtests => RunSource::Chronicle,
            ReportPage::Files | ReportPage::FilesCompare | ReportPage::FilesScorecard => {
                RunSource::Files
            }
        }
    }
}

impl RunSource {
    /// The page where the runs of this source are chosen (a report's "Change runs").
    pub fn chooser(self) -> Route {
        match self {
            RunSource::Trajectory => Route::Picker,
            RunSource::Chronicle => Route::Report(ReportPage::Backtests),
            RunSource::Files => Route::Report(ReportPage::Files),
        }
    }

    /// The report page of this source's runs.
    pub fn report(self) -> Route {
        Route::Report(match self {
            RunSource::Trajectory => ReportPage::Compare,
            RunSource::Chronicle => ReportPage::BacktestsCompare,
            RunSource::Files => ReportPage::FilesCompare,
        })
    }
}

impl Route {
    /// Every page, the start page first.
    pub const ALL: [Route; 8] = [
        Route::Picker,
        Route::Report(ReportPage::Compare),
        Route::Report(ReportPage::Files),
        Route::Report(ReportPage::FilesCompare),
        Route::Report(ReportPage::Backtests),
        Route::Report(ReportPage::BacktestsCompare),
        Route::Report(ReportPage::Scorecard),
        Route::Report(ReportPage::FilesScorecard),
    ];

    /// The page at `path` (a URL's path, without query or fragment); `None` when no page has
    /// this path.
    pub fn parse(path: &str) -> Option<Route> {
        Self::ALL.into_iter().find(|route| route.path() == path)
    }

    /// The page's path, e.g. `/files/compare`.
    pub fn path(self) -> &'static str {
        match self {
            Route::Picker => "/",
            Route::Report(ReportPage::Compare) => "/compare",
            Route::Report(ReportPage::Files) => "/files",
            Route::Report(ReportPage::FilesCompare) => "/files/compare",
            Route::Report(ReportPage::Backtests) => "/backtests",
            Route::Report(ReportPage::BacktestsCompare) => "/backtests/compare",
            Route::Report(ReportPage::Scorecard) => {
                eval_compare_core::scorecard::SCORECARD_PAGE_PATH
            }
            Route::Report(ReportPage::FilesScorecard) => {
                eval_compare_core::scorecard::FOLDERS_SCORECARD_PAGE_PATH
            }
        }
    }

    /// Whether the page is behind the split point (its code is loaded on demand).
    pub fn is_report(self) -> bool {
        matches!(self, Route::Report(_))
    }

    /// Whether a link to this page is marked as the current one on the page at `path`: the start
    /// page only on itself, other pages also on the paths below them (`/files` on
    /// `/files/compare`, `/backtests` on `/backtests/compare`).
    pub fn is_current(self, path: &str) -> bool {
        let own = self.path();
        match self {
            Route::Picker => path == own,
            Route::Report(_) => {
                path == own
                    || path
                        .strip_prefix(own)
                        .is_some_and(|rest| rest.starts_with('/'))
            }
        }
    }
}

/// Starts fetching the code of the report pages (the release build's wasm chunk) ahead of a
/// navigation to one; provided as context by the app, so pages that link to a report (the
/// picker's Compare) need not import the split point.
#[derive(Debug, Clone, Copy)]
pub struct ReportPrefetch(pub leptos::prelude::Callback<()>);

impl ReportPrefetch {
    /// The prefetch in context, if the app provided one.
    pub fn from_context() -> Option<leptos::prelude::Callback<()>> {
        leptos::prelude::use_context::<ReportPrefetch>().map(|prefetch| prefetch.0)
    }
}

#[cfg(test)]
mod tests {
    use super::{ReportPage, Route};

    /// Every page and its path, as [`Route::ALL`] lists them.
    const PAGES: [(Route, &str); 8] = [
        (Route::Picker, "/"),
        (Route::Report(ReportPage::Compare), "/compare"),
        (Route::Report(ReportPage::Files), "/files"),
        (Route::Report(ReportPage::FilesCompare), "/files/compare"),
        (Route::Report(ReportPage::Backtests), "/backtests"),
        (
            Route::Report(ReportPage::BacktestsCompare),
            "/backtests/compare",
        ),
        (Route::Report(ReportPage::Scorecard), "/scorecard"),
        (
            Route::Report(ReportPage::FilesScorecard),
            "/files/scorecard",
        ),
    ];

    #[test]
    fn every_page_has_its_path() {
        assert_eq!(Route::ALL, PAGES.map(|(route, _)| route));
        for (route, path) in PAGES {
            assert_eq!(route.path(), path, "{route:?}");
        }
    }

    #[test]
    fn paths_parse_to_their_pages() {
        for (route, path) in PAGES {
            assert_eq!(Route::parse(path), Some(route), "{path:?}");
        }
    }

    #[test]
    fn other_paths_are_not_found() {
        for path in [
            "",
            "/compare/",
            "/files/",
            "/files/compare/",
            "//",
            "/Compare",
            "/compare?base=a",
            "/compare/x",
            "/files/compare/x",
            "/filesystem",
            "/index.html",
            "compare",
            "/backtests/",
            "/backtests/compare/",
            "/Backtests",
            "/backtests/job_1",
            "/backtest",
            "/scorecard/",
            "/Scorecard",
        ] {
            assert_eq!(Route::parse(path), None, "{path:?}");
        }
    }

    #[test]
    fn a_written_path_parses_back_to_its_page() {
        for route in Route::ALL {
            assert_eq!(Route::parse(route.path()), Some(route));
        }
    }

    #[test]
    fn the_report_pages_are_the_split_ones() {
        for (route, path) in PAGES {
            assert_eq!(route.is_report(), path != "/", "{path:?}");
        }
    }

    #[test]
    fn each_report_page_names_its_source_and_its_chooser() {
        use super::RunSource;
        for page in [
            ReportPage::Compare,
            ReportPage::FilesCompare,
            ReportPage::BacktestsCompare,
        ] {
            assert_eq!(page.source().report(), Route::Report(page));
        }
        assert_eq!(ReportPage::Files.source(), RunSource::Files);
        assert_eq!(RunSource::Trajectory.chooser(), Route::Picker);
        assert_eq!(
            RunSource::Chronicle.chooser(),
            Route::Report(ReportPage::Backtests)
        );
        assert_eq!(ReportPage::Backtests.source(), RunSource::Chronicle);
        assert_eq!(RunSource::Files.chooser(), Route::Report(ReportPage::Files));
    }

    #[test]
    fn current_page_links() {
        let files = Route::Report(ReportPage::Files);
        assert!(Route::Picker.is_current("/"));
        assert!(!Route::Picker.is_current("/compare"));
        assert!(files.is_current("/files"));
        assert!(files.is_current("/files/compare"));
        assert!(!files.is_current("/filesystem"));
        assert!(!files.is_current("/compare"));
        assert!(Route::Report(ReportPage::Compare).is_current("/compare"));
        assert!(!Route::Report(ReportPage::FilesCompare).is_current("/files"));
        let backtests = Route::Report(ReportPage::Backtests);
        assert!(backtests.is_current("/backtests"));
        assert!(backtests.is_current("/backtests/compare"));
        assert!(!backtests.is_current("/backtestsx"));
        assert!(!Route::Picker.is_current("/backtests"));
    }
}
