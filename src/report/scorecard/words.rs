//! What the scorecard page says and links to beyond the core's own words
//! ([`eval_compare_core::scorecard::words`]): a cell's colour, the links between a cell and its
//! comparison report, the baselines a row may use, and the link after a change of the rule or
//! of a row's baseline. Plain functions, natively tested; the components only lay them out.

use eval_compare_core::model::unix_seconds;
use eval_compare_core::report::Decision;
use eval_compare_core::scorecard::{CellState, ListedRun, Rule, ScorecardCell};
use eval_compare_core::view_state::{
    decode_component, encode_component, parse_tenths, tenths_text, ScorecardLink, ViewState,
    MAX_MARGIN_TENTHS,
};

use crate::route::Route;
use crate::state::url::{href, FROM_SCORECARD};

/// The class that colours a cell: only a better or worse verdict that is neither provisional
/// nor partial is coloured (as the HTML scorecard does).
pub fn cell_tone(state: &CellState) -> Option<&'static str> {
    let CellState::Compared { comparison } = state else {
        return None;
    };
    let verdict = &comparison.verdict;
    if verdict.provisional || verdict.partial {
        return None;
    }
    match verdict.decision {
        Decision::Better => Some("cell-better"),
        Decision::Worse => Some("cell-worse"),
        _ => None,
    }
}

/// The comparison report of a cell's pair on the page `report` (`/compare`, or `/files/compare`
/// for a scorecard of run folders), with the scorecard's settings, and the scorecard's own query
/// in [`FROM_SCORECARD`] so the report links back; `None` for a cell with no pair.
pub fn cell_report_href(
    cell: &ScorecardCell,
    link: &ScorecardLink,
    report: Route,
) -> Option<String> {
    let view = ViewState {
        baseline: Some(cell.baseline_run_id.clone()?),
        candidates: vec![cell.candidate_run_id.clone()?],
        ..link.settings.clone()
    };
    let mut address = href(report, &view);
    address.push_str(&format!(
        "&{FROM_SCORECARD}={}",
        encode_component(&link.to_query())
    ));
    Some(address)
}

/// The scorecard a comparison was opened from, as the address of its page `page` (`/scorecard`,
/// or `/files/scorecard`); `None` when the parameter does not read as a scorecard of a training
/// run.
pub fn back_to_scorecard_href(origin: &str, page: Route) -> Option<String> {
    let query = decode_component(origin).ok()?;
    let link = ScorecardLink::from_query(&query).link;
    link.training_run.as_ref()?;
    Some(format!("{}?{}", page.path(), link.to_query()))
}

/// The base-model evaluations a row of `bench_id` may compare against, newest first.
pub fn eligible_baselines(listed: &[ListedRun], bench_id: &str) -> Vec<String> {
    let mut runs: Vec<&ListedRun> = listed
        .iter()
        .filter(|run| {
            run.info.bench_id.as_deref() == Some(bench_id) && !run.info.checkpoint.is_checkpoint()
        })
        .collect();
    runs.sort_by_key(|run| {
        (
            std::cmp::Reverse(unix_seconds(&run.created_at).unwrap_or(i64::MIN)),
            run.info.id.clone(),
        )
    });
    runs.into_iter().map(|run| run.info.id.clone()).collect()
}

/// `link` with `run_id` as `bench_id`'s baseline, or with the automatic choice (`None`).
pub fn with_baseline(link: &ScorecardLink, bench_id: &str, run_id: Option<&str>) -> ScorecardLink {
    let mut next = link.clone();
    next.baselines.retain(|(bench, _)| bench != bench_id);
    if let Some(run_id) = run_id {
        next.baselines
            .push((bench_id.to_owned(), run_id.to_owned()));
    }
    next
}

/// What the rule asks of one benchmark.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BenchRole {
    /// Nothing: the rule does not look at it.
    Ignored,
    /// Must be better.
    Primary,
    /// Must not be worse by more than its margin (tenths of a point).
    Guardrail(u16),
}

/// The guardrail margin a benchmark starts with when made a guardrail: one point.
pub const DEFAULT_MARGIN_TENTHS: u16 = 10;

/// What `link`'s rule asks of `bench_id`.
pub fn role_of(link: &ScorecardLink, bench_id: &str) -> BenchRole {
    if link.primary.iter().any(|bench| bench == bench_id) {
        BenchRole::Primary
    } else if let Some((_, margin)) = link.guardrails.iter().find(|(bench, _)| bench == bench_id) {
        BenchRole::Guardrail(*margin)
    } else {
        BenchRole::Ignored
    }
}

/// `link` with `bench_id` given `role` (taken out of the other list).
pub fn with_role(link: &ScorecardLink, bench_id: &str, role: BenchRole) -> ScorecardLink {
    let mut next = link.clone();
    next.primary.retain(|bench| bench != bench_id);
    next.guardrails.retain(|(bench, _)| bench != bench_id);
    match role {
        BenchRole::Ignored => {}
        BenchRole::Primary => next.primary.push(bench_id.to_owned()),
        BenchRole::Guardrail(margin) => next.guardrails.push((bench_id.to_owned(), margin)),
    }
    next
}

/// A margin typed in points ("1.5"), in tenths of a point, or why it cannot be used.
pub fn parse_margin(text: &str) -> Result<u16, String> {
    parse_tenths(text.trim())
        .filter(|tenths| *tenths <= MAX_MARGIN_TENTHS)
        .ok_or_else(|| {
            format!(
                "“{}” is not a margin: give points from 0 to {} with at most one decimal, e.g. 1.5.",
                text.trim(),
                tenths_text(MAX_MARGIN_TENTHS)
            )
        })
}

/// The margin of a guardrail as typed ("1.5").
pub fn margin_text(tenths: u16) -> String {
    tenths_text(tenths)
}

/// The rule `link` carries (the core's reading of it).
pub fn rule_of(link: &ScorecardLink) -> Rule {
    Rule::from_link(link)
}

/// The file name of a download of `training_run_id`'s scorecard ending in `ending` (".json").
pub fn file_name(training_run_id: &str, ending: &str) -> String {
    let safe: String = training_run_id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .take(64)
        .collect();
    format!("scorecard-{safe}{ending}")
}

/// Text ending with a newline, as the CLI prints it.
pub fn with_final_newline(mut text: String) -> String {
    if !text.ends_with('\n') {
        text.push('\n');
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::route::ReportPage;

    fn link() -> ScorecardLink {
        ScorecardLink {
            training_run: Some("train_1".to_owned()),
            primary: vec!["bench_a".to_owned()],
            guardrails: vec![("bench_b".to_owned(), 15)],
            ..ScorecardLink::default()
        }
    }

    #[test]
    fn roles_are_read_and_moved_between_the_lists() {
        let link = link();
        assert_eq!(role_of(&link, "bench_a"), BenchRole::Primary);
        assert_eq!(role_of(&link, "bench_b"), BenchRole::Guardrail(15));
        assert_eq!(role_of(&link, "bench_c"), BenchRole::Ignored);
        let moved = with_role(
            &link,
            "bench_a",
            BenchRole::Guardrail(DEFAULT_MARGIN_TENTHS),
        );
        assert!(moved.primary.is_empty());
        assert_eq!(role_of(&moved, "bench_a"), BenchRole::Guardrail(10));
        let dropped = with_role(&moved, "bench_b", BenchRole::Ignored);
        assert_eq!(dropped.guardrails, vec![("bench_a".to_owned(), 10)]);
    }

    #[test]
    fn margins_are_points_with_one_decimal() {
        assert_eq!(parse_margin("1.5"), Ok(15));
        assert_eq!(parse_margin(" 2 "), Ok(20));
        assert!(parse_margin("-1").is_err());
        assert!(parse_margin("1.25")
            .expect_err("two decimals")
            .contains("at most one decimal"));
        assert!(parse_margin("101").is_err());
        assert_eq!(margin_text(15), "1.5");
    }

    #[test]
    fn a_hand_picked_baseline_replaces_the_rows_previous_one() {
        let picked = with_baseline(&link(), "bench_a", Some("er_1"));
        let again = with_baseline(&picked, "bench_a", Some("er_2"));
        assert_eq!(
            again.baselines,
            vec![("bench_a".to_owned(), "er_2".to_owned())]
        );
        assert!(with_baseline(&again, "bench_a", None).baselines.is_empty());
    }

    #[test]
    fn a_cell_links_to_its_report_and_the_report_back() {
        let cell = ScorecardCell {
            bench_id: "bench_a".to_owned(),
            step: 300,
            baseline_run_id: Some("er_base".to_owned()),
            candidate_run_id: Some("er_300".to_owned()),
            others: Vec::new(),
            state: CellState::Pending,
            versus_previous: None,
        };
        let link = link();
        let api = Route::Report(ReportPage::Compare);
        let address = cell_report_href(&cell, &link, api).expect("a pair");
        assert!(address.starts_with("/compare?base=er_base&cand=er_300&scorecard="));
        let origin = address.split("scorecard=").nth(1).expect("origin");
        assert_eq!(
            back_to_scorecard_href(origin, Route::Report(ReportPage::Scorecard)),
            Some(format!("/scorecard?{}", link.to_query()))
        );
        // A scorecard of run folders: the report of the same folders, and back to it.
        let files = cell_report_href(&cell, &link, Route::Report(ReportPage::FilesCompare));
        assert!(files
            .as_deref()
            .is_some_and(|a| a.starts_with("/files/compare?base=er_base&cand=er_300&scorecard=")));
        assert_eq!(
            back_to_scorecard_href(origin, Route::Report(ReportPage::FilesScorecard)),
            Some(format!("/files/scorecard?{}", link.to_query()))
        );
        let missing = ScorecardCell {
            candidate_run_id: None,
            ..cell
        };
        assert_eq!(cell_report_href(&missing, &link, api), None);
        assert_eq!(
            back_to_scorecard_href("primary%3Dbench_a", Route::Report(ReportPage::Scorecard)),
            None
        );
    }

    #[test]
    fn only_settled_better_or_worse_verdicts_are_coloured() {
        assert_eq!(cell_tone(&CellState::Missing), None);
        assert_eq!(cell_tone(&CellState::Pending), None);
    }

    #[test]
    fn file_names_keep_only_safe_characters() {
        assert_eq!(
            file_name("train/../x", ".json"),
            "scorecard-train____x.json"
        );
        assert_eq!(with_final_newline("a".into()), "a\n");
        assert_eq!(with_final_newline("a\n".into()), "a\n");
    }
}
