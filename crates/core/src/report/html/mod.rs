//! The report as one self-contained HTML document a reviewer can keep (the CLI's
//! `--format html`, the viewer's "Download HTML report"): the same function makes both, so the
//! same report and share link give the same bytes.
//!
//! The document holds no script and loads nothing: its style is one inline `<style>` (light and
//! dark through `prefers-color-scheme`, and a print layout), its figures inline SVG drawn by
//! [`svg`] with a fixed layout, and a Content-Security-Policy `<meta>` forbids everything else.
//! The only address in it is the share link, written as a link only when it is http(s).
//!
//! Every text goes through [`html_text`] (the report's own words as well as the data's), and no
//! data reaches a `style` or any attribute other than the escaped share link's `href` and the
//! escaped `title` that holds the whole of a name or label shown cut (to
//! [`SHOWN_NAME_CHARS`] characters); table cells and headings break long words. Numbers
//! are written by `core::text`, the formatters of the page and the markdown.

mod candidate;
mod checkpoints;
mod cost;
mod effort;
mod ledger;
mod platform;
mod sections;
pub(crate) mod style;
pub mod svg;
mod tokens;
mod trial_effort;

use std::borrow::Cow;
use std::fmt::Write;

use crate::text::{html_text, is_web_link, shorten, SHOWN_NAME_CHARS};

use super::Report;

/// The whole document; `share` is the link of the same view in the viewer (the share link
/// module builds it), or `None` when there is none.
pub fn render(report: &Report, share: Option<&str>) -> String {
    let mut out = String::with_capacity(64 * 1024);
    let title = title(report);
    document_start(&mut out, &title, &[style::CSS, style::REPORT_CSS]);
    sections::header(&mut out, report, &title);
    share_section(&mut out, share, &REPORT_SHARE);
    checkpoints::threshold(&mut out, report);
    sections::headline(&mut out, report);
    sections::runs(&mut out, report);
    sections::audit(&mut out, report);
    platform::section(&mut out, report);
    sections::coverage(&mut out, report);
    ledger::section(&mut out, report);
    sections::categories(&mut out, report);
    sections::progression(&mut out, report);
    checkpoints::section(&mut out, report);
    effort::section(&mut out, report);
    tokens::section(&mut out, report);
    trial_effort::section(&mut out, report);
    cost::section(&mut out, report);
    for candidate in &report.candidates {
        candidate::section(&mut out, report, candidate);
    }
    sections::glossary(&mut out, report);
    document_end(
        &mut out,
        &format!(
            "Written by eval-compare (report format {}). This file holds no script and loads \
             nothing; the numbers are the report JSON's, formatted as on the page.",
            report.format_version
        ),
    );
    out
}

/// The start of a self-contained document, for the report and the scorecard alike: the
/// doctype, the policy that allows nothing but the inline style, the viewport and colour
/// schemes, `title` (escaped), the style sheets `css` (the report's own words, never data), and
/// the opening of `<body>` and `<main>`.
pub(crate) fn document_start(out: &mut String, title: &str, css: &[&str]) {
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta name=\"color-scheme\" content=\"light dark\">\n\
         <title>{}</title>\n<style>\n{}</style>\n</head>\n<body>\n<main>\n",
        html_text(title),
        css.concat()
    );
}

/// The end of a document: its footer (the report's own words, never data) and the closing tags.
pub(crate) fn document_end(out: &mut String, footer: &str) {
    let _ = write!(
        out,
        "<footer><p>{footer}</p></footer>\n</main>\n</body>\n</html>\n"
    );
}

/// "Eval comparison: BASELINE vs CANDIDATE, …".
fn title(report: &Report) -> String {
    let mut names = report
        .runs
        .iter()
        .map(|run| shorten(&run.name, SHOWN_NAME_CHARS));
    let baseline = names.next().unwrap_or(Cow::Borrowed("baseline"));
    let candidates: Vec<Cow<'_, str>> = names.collect();
    format!("Eval comparison: {baseline} vs {}", candidates.join(", "))
}

/// What a document's share section says: its heading, the note under a link (if any) and the
/// note when there is no link.
pub(crate) struct ShareWords {
    /// The section's heading.
    pub heading: &'static str,
    /// The note under a web link, if any.
    pub opens: Option<&'static str>,
    /// What is said when there is no link.
    pub none: &'static str,
}

/// The report's share section words.
const REPORT_SHARE: ShareWords = ShareWords {
    heading: "Link to this view",
    opens: Some(
        "Opens the same comparison in the viewer (it reads the runs again; the link holds no key).",
    ),
    none: "No link: these settings cannot be written in the viewer's address.",
};

/// The share link of the same view, as a link when it is http(s), else as text.
pub(crate) fn share_section(out: &mut String, share: Option<&str>, words: &ShareWords) {
    let _ = write!(
        out,
        "<section id=\"share\" class=\"share\"><h2>{}</h2>",
        words.heading
    );
    match share {
        Some(link) if is_web_link(link) => {
            let link = html_text(link);
            let _ = write!(
                out,
                "<p><a href=\"{link}\" rel=\"noreferrer\">{link}</a></p>"
            );
            if let Some(opens) = words.opens {
                let _ = write!(out, "<p class=\"note\">{opens}</p>");
            }
        }
        Some(link) => {
            let _ = write!(out, "<p><code>{}</code></p>", html_text(link));
        }
        None => {
            let _ = write!(out, "<p class=\"note\">{}</p>", words.none);
        }
    }
    out.push_str("</section>\n");
}

impl Report {
    /// The report as one self-contained HTML document (see [`render`]); `share` is the viewer's
    /// link of the same view.
    pub fn to_html(&self, share: Option<&str>) -> String {
        render(self, share)
    }
}
