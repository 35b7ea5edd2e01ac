//! The reviewer's ledger in the HTML document: what it did and every entry (task, action,
//! reason, note, when, whether it applies).

use std::fmt::Write;

use crate::text::html_text;

use super::super::words::{
    ledger_cells, ledger_intro, target_kind, LEDGER_COLUMNS, LEDGER_HEADING,
};
use super::super::Report;
use super::sections::{head, td, td_shown};

/// The ledger's section, when the report has a ledger.
pub fn section(out: &mut String, report: &Report) {
    let Some(ledger) = &report.ledger else {
        return;
    };
    let _ = write!(
        out,
        "<section id=\"ledger\"><h2>{}</h2><p>{}</p>",
        html_text(LEDGER_HEADING),
        html_text(&ledger_intro(ledger))
    );
    if !ledger.entries.is_empty() {
        out.push_str("<div class=\"scroll\"><table>");
        head(out, &LEDGER_COLUMNS);
        out.push_str("<tbody>");
        for line in &ledger.entries {
            let [id, action, reason, note, at, applies] = ledger_cells(line);
            let _ = write!(
                out,
                "<tr><td>{} <code>{}</code></td>",
                target_kind(&line.entry.target),
                super::sections::shown(&id).0
            );
            for text in [&action, &reason] {
                td(out, text);
            }
            td_shown(out, &note);
            for text in [&at, &applies] {
                td(out, text);
            }
            out.push_str("</tr>");
        }
        out.push_str("</tbody></table></div>");
    }
    out.push_str("</section>\n");
}
