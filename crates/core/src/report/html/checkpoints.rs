//! The HTML of the checkpoints against each other, of the tasks' paths across them and of the
//! pass threshold: the markdown's words, escaped and laid out.

use std::fmt::Write;

use crate::text::html_text;

use super::super::words::{
    pass_threshold_line, path_cells, path_columns, paths_line, step_cells, versus_chosen_line,
    PATHS_HEADING, PATHS_INTRO, STEPS_HEADING, STEPS_INTRO, STEP_COLUMNS,
};
use super::super::{Report, StepComparison};
use super::sections::{head, td, td_num, td_shown};

/// The pass threshold the rewards were scored with, when one was set.
pub fn threshold(out: &mut String, report: &Report) {
    if let Some(line) = pass_threshold_line(report) {
        let _ = writeln!(
            out,
            "<section id=\"pass-threshold\"><p class=\"important\">{}</p></section>",
            html_text(&line)
        );
    }
}

/// The comparisons of the checkpoints and the tasks' paths; nothing without a progression.
pub fn section(out: &mut String, report: &Report) {
    let Some(checkpoints) = &report.checkpoints else {
        return;
    };
    let _ = write!(
        out,
        "<section id=\"checkpoint-steps\"><h2>{}</h2><p>{}</p>",
        html_text(STEPS_HEADING),
        html_text(STEPS_INTRO)
    );
    comparisons(out, &checkpoints.versus_previous);
    if let Some(step) = checkpoints.versus_step {
        let _ = write!(out, "<p>{}</p>", html_text(&versus_chosen_line(step)));
        comparisons(out, &checkpoints.versus_chosen);
    }
    let _ = write!(
        out,
        "<h3>{}</h3><p>{} {}</p>",
        html_text(PATHS_HEADING),
        html_text(PATHS_INTRO),
        html_text(&paths_line(checkpoints))
    );
    if !checkpoints.paths.is_empty() {
        let columns = path_columns(report);
        let columns: Vec<&str> = columns.iter().map(String::as_str).collect();
        out.push_str("<div class=\"scroll\"><table>");
        head(out, &columns);
        out.push_str("<tbody>");
        for path in &checkpoints.paths {
            let cells = path_cells(report, path);
            let last = cells.len().saturating_sub(1);
            out.push_str("<tr>");
            for (i, text) in cells.iter().enumerate() {
                match i {
                    0 => td_shown(out, text),
                    _ if i == last => td(out, text),
                    _ => td_num(out, text),
                }
            }
            out.push_str("</tr>");
        }
        out.push_str("</tbody></table></div>");
    }
    out.push_str("</section>\n");
}

fn comparisons(out: &mut String, comparisons: &[StepComparison]) {
    out.push_str("<div class=\"scroll\"><table>");
    head(out, &STEP_COLUMNS);
    out.push_str("<tbody>");
    for comparison in comparisons {
        out.push_str("<tr>");
        for (i, text) in step_cells(comparison).iter().enumerate() {
            if i == 0 || i == 5 {
                td(out, text);
            } else {
                td_num(out, text);
            }
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table></div>");
    let reasons: Vec<String> = comparisons
        .iter()
        .flat_map(|c| {
            c.verdict
                .reasons
                .iter()
                .map(move |reason| format!("{}: {reason}", c.title()))
        })
        .collect();
    if !reasons.is_empty() {
        out.push_str("<ul>");
        for reason in reasons {
            let _ = write!(out, "<li>{}</li>", html_text(&reason));
        }
        out.push_str("</ul>");
    }
}
