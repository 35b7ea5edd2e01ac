//! The HTML of the effort section (turns and endings beside quality): the markdown's words,
//! escaped and laid out.

use std::fmt::Write;

use crate::text::html_text;

use super::super::words::{
    candidate_effort, ending_cells, ending_sentence, run_effort_cells, solved_failed_sentence,
    turns_beside_verdict, turns_sentence, EFFORT_HEADING, EFFORT_INTRO, ENDING_COLUMNS,
    RUN_EFFORT_COLUMNS,
};
use super::super::{CandidateResult, Report};
use super::sections::{head, shown, td, td_num, td_shown};

/// The turns beside a candidate's verdict on its card ("+18.0% turns"), when there are any.
pub fn beside_verdict(out: &mut String, report: &Report, candidate: &CandidateResult) {
    let effort = report
        .candidates
        .iter()
        .position(|c| c.run == candidate.run)
        .and_then(|index| candidate_effort(report, index));
    let Some(effort) = effort else {
        return;
    };
    if let Some(line) = turns_beside_verdict(effort) {
        let _ = write!(out, "<p class=\"effort\">{}</p>", html_text(&line));
    }
}

/// The effort section; nothing when the report has none.
pub fn section(out: &mut String, report: &Report) {
    let Some(effort) = &report.effort else {
        return;
    };
    let _ = write!(
        out,
        "<section id=\"effort\"><h2>{}</h2><p>{}</p><div class=\"scroll\"><table>",
        html_text(EFFORT_HEADING),
        html_text(EFFORT_INTRO)
    );
    head(out, &RUN_EFFORT_COLUMNS);
    out.push_str("<tbody>");
    for (index, (run, summary)) in effort.runs.iter().zip(&report.runs).enumerate() {
        out.push_str("<tr>");
        for (i, text) in run_effort_cells(index, &summary.name, run)
            .iter()
            .enumerate()
        {
            if i == 0 {
                td(out, text);
            } else if i == 1 {
                td_shown(out, text);
            } else {
                td_num(out, text);
            }
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table></div>");
    for candidate in &effort.candidates {
        let Some(run) = report.runs.get(candidate.run) else {
            continue;
        };
        let (name, title) = shown(&run.name);
        let _ = write!(out, "<h3{title}>{name}</h3><ul>");
        let solved_failed =
            (candidate.turns.n > 0).then(|| solved_failed_sentence(&candidate.turns));
        let lines = [
            Some(turns_sentence(&candidate.turns)),
            solved_failed,
            Some(ending_sentence(&candidate.turn_limit)),
            Some(ending_sentence(&candidate.timeout)),
        ];
        for line in lines.iter().flatten() {
            let _ = write!(out, "<li>{}</li>", html_text(line));
        }
        out.push_str("</ul><div class=\"scroll\"><table>");
        head(out, &ENDING_COLUMNS);
        out.push_str("<tbody>");
        for ending in &candidate.endings {
            out.push_str("<tr>");
            for (i, text) in ending_cells(ending).iter().enumerate() {
                if i == 0 {
                    td(out, text);
                } else {
                    td_num(out, text);
                }
            }
            out.push_str("</tr>");
        }
        out.push_str("</tbody></table></div>");
    }
    out.push_str("</section>\n");
}
