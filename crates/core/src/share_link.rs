//! The share link of a report: the viewer's address of the same view, absolute. The viewer's
//! "Copy link" and its HTML report, and the CLI's `--format html`, all build it here, so the
//! same view gives the same link wherever it is made.
//!
//! The origin is the viewer's: the page passes its own (`location.origin`), the CLI its
//! `--link-base` (by default [`DEFAULT_LINK_BASE`], the demo server's address).

use crate::model::SourceKind;
use crate::report::Report;
use crate::view_state::{
    target_delta_of_tenths, AnalysisMode, ViewState, PROJECT_SAMPLES_RANGE, RESAMPLES_RANGE,
    TARGET_TENTHS_RANGE,
};

/// The viewer's address the CLI links to when not told otherwise: the demo server's default.
pub const DEFAULT_LINK_BASE: &str = "http://127.0.0.1:8080";

/// `base` + `path` + `?query` of `view` (the query left out when empty); a trailing `/` of
/// `base` is dropped, so `http://host/` and `http://host` give the same link.
pub fn share_link(base: &str, path: &str, view: &ViewState) -> String {
    let base = base.trim_end_matches('/');
    let query = view.to_query();
    if query.is_empty() {
        format!("{base}{path}")
    } else {
        format!("{base}{path}?{query}")
    }
}

/// The viewer's report page for runs of these sources: `/backtests/compare` for Chronicle
/// runs, `/files/compare` for run folders, else `/compare`.
pub fn report_page_path(sources: &[SourceKind]) -> &'static str {
    if sources.contains(&SourceKind::Chronicle) {
        "/backtests/compare"
    } else if sources.contains(&SourceKind::Files) {
        "/files/compare"
    } else {
        "/compare"
    }
}

/// The view of `report` alone: its runs, its settings and its reviewer's ledger, nothing else
/// (what the CLI knows).
/// `None` when a setting cannot be written in a link (a level that is no whole percent from
/// 50 to 99, resamples outside the link's range).
pub fn report_view(report: &Report) -> Option<ViewState> {
    let settings = &report.settings;
    let percent = (settings.level * 100.0).round();
    if !(50.0..=99.0).contains(&percent) || (percent / 100.0 - settings.level).abs() > 1e-9 {
        return None;
    }
    let resamples = u32::try_from(settings.resamples).ok()?;
    if !RESAMPLES_RANGE.contains(&resamples) {
        return None;
    }
    // The target Δ travels in tenths of a point, K′ as a count: a value the address cannot
    // hold exactly gives no link.
    let tenths = (settings.target_delta * 1000.0).round();
    if !(0.0..=f64::from(u16::MAX)).contains(&tenths) {
        return None;
    }
    let target_tenths = tenths as u16;
    if !TARGET_TENTHS_RANGE.contains(&target_tenths)
        || target_delta_of_tenths(target_tenths) != settings.target_delta
    {
        return None;
    }
    let project_samples = match settings.project_samples_per_task {
        None => None,
        Some(k) => Some(
            u32::try_from(k)
                .ok()
                .filter(|k| PROJECT_SAMPLES_RANGE.contains(k))?,
        ),
    };
    // The pass threshold travels in thousandths: one the address cannot hold exactly gives no
    // link.
    let pass_thousandths = match settings.pass_threshold {
        None => None,
        Some(threshold) => {
            let thousandths = (threshold * 1000.0).round();
            let fits = (1.0..=1000.0).contains(&thousandths)
                && crate::view_state::pass_threshold_of_thousandths(thousandths as u16)
                    == threshold;
            Some(fits.then_some(thousandths as u16)?)
        }
    };
    let mut runs = report.runs.iter().map(|run| run.id.clone());
    Some(ViewState {
        pass_thousandths,
        versus_step: settings.versus_step,
        target_tenths,
        project_samples,
        baseline: runs.next(),
        candidates: runs.collect(),
        seed: settings.seed,
        resamples,
        confidence_percent: percent as u8,
        analysis: match settings.headline {
            crate::model::Analysis::Primary => AnalysisMode::Primary,
            crate::model::Analysis::Sensitivity => AnalysisMode::Sensitivity,
        },
        // The reviewer's ledger travels with the link (its short form).
        ledger: report
            .ledger
            .as_ref()
            .filter(|ledger| !ledger.entries.is_empty())
            .map(|ledger| {
                let entries = ledger.entries.iter().map(|line| line.entry.clone());
                crate::ledger::Ledger {
                    entries: entries.collect(),
                }
                .to_link_text()
            }),
        ..ViewState::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_link_joins_base_path_and_query() {
        let view = ViewState {
            baseline: Some("a b".to_owned()),
            candidates: vec!["c".to_owned()],
            ..ViewState::default()
        };
        assert_eq!(
            share_link("http://h:8080/", "/compare", &view),
            "http://h:8080/compare?base=a%20b&cand=c"
        );
        assert_eq!(
            share_link("https://h", "/", &ViewState::default()),
            "https://h/"
        );
    }

    #[test]
    fn the_page_follows_the_sources() {
        assert_eq!(report_page_path(&[SourceKind::Api]), "/compare");
        assert_eq!(report_page_path(&[SourceKind::Files]), "/files/compare");
        assert_eq!(
            report_page_path(&[SourceKind::Chronicle]),
            "/backtests/compare"
        );
    }
}
