//! The browser tab's title: what the page shows, then the app's name ("Step 300, Step 400
//! against Baseline qwen3-235b · Eval Compare"), so tabs and history entries name their
//! comparison. The shell sets each page's own title ([`route_subject`]); a report names its
//! comparison once computed.

use crate::route::{ReportPage, Route};

/// The app's name, the end of every title.
pub const APP_NAME: &str = "Eval Compare";

/// `"{subject} · Eval Compare"`, or the app's name alone.
pub fn document_title(subject: Option<&str>) -> String {
    match subject.map(str::trim).filter(|subject| !subject.is_empty()) {
        Some(subject) => format!("{subject} · {APP_NAME}"),
        None => APP_NAME.to_owned(),
    }
}

/// What the page at `route` shows, before its content names more (`None`: no page there).
pub fn route_subject(route: Option<Route>) -> &'static str {
    match route {
        Some(Route::Picker) => "Choose runs",
        Some(Route::Report(ReportPage::Backtests)) => "Choose backtest jobs",
        Some(Route::Report(ReportPage::Files)) => "Run folders",
        Some(Route::Report(ReportPage::Scorecard | ReportPage::FilesScorecard)) => "Scorecard",
        Some(Route::Report(
            ReportPage::Compare | ReportPage::BacktestsCompare | ReportPage::FilesCompare,
        )) => "Comparison",
        None => "Page not found",
    }
}

/// Sets the tab's title to [`document_title`] of `subject`.
pub fn set_document_title(subject: &str) {
    if let Some(document) = web_sys::window().and_then(|window| window.document()) {
        document.set_title(&document_title(Some(subject)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_title_names_the_subject_then_the_app() {
        assert_eq!(
            document_title(Some("Step 300 against Baseline qwen3-235b")),
            "Step 300 against Baseline qwen3-235b · Eval Compare"
        );
        assert_eq!(document_title(Some("  ")), "Eval Compare");
        assert_eq!(document_title(None), "Eval Compare");
    }

    #[test]
    fn every_page_has_a_subject_of_its_own() {
        let subjects: Vec<&str> = Route::ALL
            .into_iter()
            .map(|route| route_subject(Some(route)))
            .collect();
        assert_eq!(subjects[0], "Choose runs");
        assert!(subjects.iter().all(|subject| !subject.is_empty()));
        assert_eq!(route_subject(None), "Page not found");
    }
}
