//! The HTML document's section of the platform's own results beside the trials: per Chronicle
//! job its check in a line and the tasks the platform and the trials disagree on (the words of
//! the page and the markdown, [`super::super::words`]).

use std::fmt::Write;

use crate::text::html_text;

use super::super::words::{
    and_more, disagreement_cells, platform_check_line, DISAGREEMENT_COLUMNS, LISTED_DISAGREEMENTS,
    PLATFORM_RESULTS_HEADING, PLATFORM_RESULTS_INTRO,
};
use super::super::Report;
use super::sections::{head, td};

/// The section; nothing when the report has no Chronicle job with the platform's results.
pub fn section(out: &mut String, report: &Report) {
    if report.platform.is_empty() {
        return;
    }
    let _ = write!(
        out,
        "<section id=\"platform\"><h2>{}</h2><p class=\"note\">{}</p>",
        html_text(PLATFORM_RESULTS_HEADING),
        html_text(PLATFORM_RESULTS_INTRO)
    );
    for check in &report.platform {
        let _ = write!(
            out,
            "<h3>Job <code>{}</code></h3><p class=\"{}\">{}</p>",
            html_text(&check.job_id),
            if check.agrees() { "note" } else { "warning" },
            html_text(&platform_check_line(check))
        );
        if check.disagreements.is_empty() {
            continue;
        }
        out.push_str("<div class=\"scroll\"><table>");
        head(out, &DISAGREEMENT_COLUMNS);
        out.push_str("<tbody>");
        for disagreement in check.disagreements.iter().take(LISTED_DISAGREEMENTS) {
            out.push_str("<tr>");
            for (index, text) in disagreement_cells(disagreement).iter().enumerate() {
                if index == 0 {
                    let _ = write!(out, "<td><code>{}</code></td>", html_text(text));
                } else {
                    td(out, text);
                }
            }
            out.push_str("</tr>");
        }
        out.push_str("</tbody></table></div>");
        let more = check
            .disagreements
            .len()
            .saturating_sub(LISTED_DISAGREEMENTS);
        if more > 0 {
            let _ = write!(out, "<p class=\"note\">{}</p>", html_text(&and_more(more)));
        }
    }
    out.push_str("</section>\n");
}
