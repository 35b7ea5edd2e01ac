//! The HTML of the cost section (money beside quality): the markdown's words, escaped and laid
//! out.

use std::fmt::Write;

use crate::text::html_text;

use super::super::words::{
    cost_line_of, cost_sentence, kind_sentence, quality_cost_cells, run_cost_cells,
    unbeaten_sentence, COST_HEADING, COST_INTRO, QUALITY_COST_COLUMNS, QUALITY_COST_HEADING,
    QUALITY_COST_INTRO, RUN_COST_COLUMNS,
};
use super::super::{CandidateResult, Report};
use super::sections::{head, shown, td, td_num, td_shown};

/// The cost beside a candidate's verdict on its card ("+0.40 ¢ per task", or why it is
/// unavailable), when the report has a cost section.
pub fn beside_verdict(out: &mut String, report: &Report, candidate: &CandidateResult) {
    if let Some(line) = cost_line_of(report, candidate) {
        let _ = write!(out, "<p class=\"cost\">{}</p>", html_text(&line));
    }
}

/// The cost section; nothing when the report has none.
pub fn section(out: &mut String, report: &Report) {
    let Some(cost) = &report.cost else {
        return;
    };
    let _ = write!(
        out,
        "<section id=\"cost\"><h2>{}</h2><p>{}</p><div class=\"scroll\"><table>",
        html_text(COST_HEADING),
        html_text(COST_INTRO)
    );
    head(out, &RUN_COST_COLUMNS);
    out.push_str("<tbody>");
    for (index, run) in cost.runs.iter().enumerate() {
        out.push_str("<tr>");
        for (i, text) in run_cost_cells(report, index, run).iter().enumerate() {
            match i {
                0 => td(out, text),
                1 => td_shown(out, text),
                _ => td_num(out, text),
            }
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table></div>");
    for candidate in &cost.candidates {
        let Some(run) = report.runs.get(candidate.run) else {
            continue;
        };
        let (name, title) = shown(&run.name);
        let _ = write!(out, "<h3{title}>{name}</h3><ul>");
        let lines = [
            Some(cost_sentence(report, candidate)),
            kind_sentence(candidate),
        ];
        for line in lines.iter().flatten() {
            let _ = write!(out, "<li>{}</li>", html_text(line));
        }
        out.push_str("</ul>");
    }
    let _ = write!(
        out,
        "<h3>{}</h3><p>{}</p><div class=\"scroll\"><table>",
        html_text(QUALITY_COST_HEADING),
        html_text(QUALITY_COST_INTRO)
    );
    head(out, &QUALITY_COST_COLUMNS);
    out.push_str("<tbody>");
    for point in &cost.quality_cost {
        out.push_str("<tr>");
        for (i, text) in quality_cost_cells(report, point).iter().enumerate() {
            match i {
                0 => td_shown(out, text),
                3 => td(out, text),
                _ => td_num(out, text),
            }
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table></div>");
    if let Some(line) = unbeaten_sentence(report) {
        let _ = write!(out, "<p>{}</p>", html_text(&line));
    }
    out.push_str("</section>\n");
}
