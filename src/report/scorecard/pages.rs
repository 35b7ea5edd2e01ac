//! Which pages a scorecard links to: its own page (the share link, the way back from a cell's
//! report) and its cells' comparison reports: the API's (`/scorecard`, `/compare`) or, for a
//! scorecard of the run folders opened on the Files page, the files pages' (`/files/scorecard`,
//! `/files/compare`). The page provides its pair as context; the grid, the actions and a
//! report's way back read it.

use leptos::prelude::*;

use crate::route::{ReportPage, Route, RunSource};

/// A scorecard's own page and the page of its cells' reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScorecardPages {
    /// The scorecard's page.
    pub scorecard: Route,
    /// Its cells' comparison reports.
    pub report: Route,
}

impl ScorecardPages {
    /// The scorecard of runs read from the API.
    pub const API: ScorecardPages = ScorecardPages {
        scorecard: Route::Report(ReportPage::Scorecard),
        report: Route::Report(ReportPage::Compare),
    };

    /// The scorecard of run folders opened in this browser.
    pub const FOLDERS: ScorecardPages = ScorecardPages {
        scorecard: Route::Report(ReportPage::FilesScorecard),
        report: Route::Report(ReportPage::FilesCompare),
    };

    /// The pages of a scorecard whose cells' reports are shown at `report_path` (a report
    /// opened from a cell goes back to the scorecard of its own source).
    pub fn of_report(report_path: &str) -> ScorecardPages {
        match Route::parse(report_path) {
            Some(Route::Report(page)) if page.source() == RunSource::Files => Self::FOLDERS,
            _ => Self::API,
        }
    }

    /// The pages the scorecard on screen provided, the API's when none did.
    pub fn in_context() -> ScorecardPages {
        use_context::<ScorecardPages>().unwrap_or(Self::API)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_goes_back_to_the_scorecard_of_its_own_source() {
        assert_eq!(
            ScorecardPages::of_report("/files/compare"),
            ScorecardPages::FOLDERS
        );
        assert_eq!(ScorecardPages::of_report("/compare"), ScorecardPages::API);
        assert_eq!(ScorecardPages::of_report("/nowhere"), ScorecardPages::API);
        assert_eq!(ScorecardPages::FOLDERS.scorecard.path(), "/files/scorecard");
    }
}
