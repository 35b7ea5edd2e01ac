//! A scorecard and its link ([`ScorecardLink`], the page's URL query): the rule, the baselines
//! chosen by hand and the settings a link carries, both ways, and the absolute address of the
//! scorecard page.

use std::collections::BTreeMap;

use crate::report::ReportSettings;
use crate::view_state::ScorecardLink;

use super::rule::{Correction, Guardrail, Rule};

/// The viewer's path of the scorecard page (its route).
pub const SCORECARD_PAGE_PATH: &str = "/scorecard";

impl Rule {
    /// The rule a link carries (margins from tenths of a point).
    pub fn from_link(link: &ScorecardLink) -> Rule {
        Rule {
            primary: link.primary.clone(),
            guardrails: link
                .guardrails
                .iter()
                .map(|(bench_id, tenths)| Guardrail {
                    bench_id: bench_id.clone(),
                    margin_points: f64::from(*tenths) / 10.0,
                })
                .collect(),
            correction: if link.uncorrected {
                Correction::None
            } else {
                Correction::Holm
            },
        }
    }

    /// Writes the rule into `link`; `None` when a margin is not a whole number of tenths of a
    /// point from 0 to 100 (a link cannot hold it exactly).
    pub fn write_to(&self, link: &mut ScorecardLink) -> Option<()> {
        let mut guardrails = Vec::with_capacity(self.guardrails.len());
        for guardrail in &self.guardrails {
            let tenths = (guardrail.margin_points * 10.0).round();
            if !(0.0..=f64::from(crate::view_state::MAX_MARGIN_TENTHS)).contains(&tenths)
                || (tenths / 10.0 - guardrail.margin_points).abs() > 1e-9
            {
                return None;
            }
            guardrails.push((guardrail.bench_id.clone(), tenths as u16));
        }
        link.primary = self.primary.clone();
        link.guardrails = guardrails;
        link.uncorrected = self.correction == Correction::None;
        Some(())
    }
}

/// The baselines a link chose by hand, by benchmark version.
pub fn baselines_by_hand(link: &ScorecardLink) -> BTreeMap<String, String> {
    link.baselines.iter().cloned().collect()
}

/// The report settings a link asks for (those of the comparison page's link).
pub fn settings_of(link: &ScorecardLink) -> ReportSettings {
    ReportSettings::from_view(&link.settings)
}

/// The absolute address of the scorecard `link` shows: `base` + the page's path + its query.
pub fn scorecard_address(base: &str, link: &ScorecardLink) -> String {
    scorecard_address_on(base, SCORECARD_PAGE_PATH, link)
}

/// [`scorecard_address`] on the page at `path` (the scorecard of run folders' own page,
/// [`super::FOLDERS_SCORECARD_PAGE_PATH`]).
pub fn scorecard_address_on(base: &str, path: &str, link: &ScorecardLink) -> String {
    let base = base.trim_end_matches('/');
    let query = link.to_query();
    if query.is_empty() {
        format!("{base}{path}")
    } else {
        format!("{base}{path}?{query}")
    }
}
