//! The HTML of the tokens read from the transcripts (the markdown's words, escaped and laid
//! out); nothing until some were read. The line beside a verdict is `words::beside_delta`'s.

use std::fmt::Write;

use crate::text::html_text;

use super::super::words::{
    run_token_cells, tokens_sentence, RUN_TOKEN_COLUMNS, TOKENS_HEADING, TOKENS_INTRO,
};
use super::super::Report;
use super::sections::{head, shown, td, td_num, td_shown};

/// The tokens section; nothing until tokens were read.
pub fn section(out: &mut String, report: &Report) {
    let Some(tokens) = report.effort.as_ref().and_then(|e| e.tokens.as_ref()) else {
        return;
    };
    let _ = write!(
        out,
        "<section id=\"tokens\"><h2>{}</h2><p>{}</p><div class=\"scroll\"><table>",
        html_text(TOKENS_HEADING),
        html_text(TOKENS_INTRO)
    );
    head(out, &RUN_TOKEN_COLUMNS);
    out.push_str("<tbody>");
    for (index, (run, summary)) in tokens.runs.iter().zip(&report.runs).enumerate() {
        out.push_str("<tr>");
        for (i, text) in run_token_cells(index, &summary.name, run)
            .iter()
            .enumerate()
        {
            match i {
                0 => td(out, text),
                1 => td_shown(out, text),
                _ => td_num(out, text),
            }
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table></div><ul>");
    for candidate in &tokens.candidates {
        let Some(run) = report.runs.get(candidate.run) else {
            continue;
        };
        let (name, title) = shown(&run.name);
        let _ = write!(
            out,
            "<li><strong{title}>{name}</strong>: {}</li>",
            html_text(&tokens_sentence(candidate))
        );
    }
    out.push_str("</ul></section>\n");
}
