//! The scorecard as one self-contained HTML document (the CLI's `--format html`, the page's
//! download): the HTML report's style, policy and SVG writer, no script, nothing loaded; every
//! text escaped by `text::html_text`; the only address the share link, a link only when it is
//! http(s). A cell is coloured only when its verdict is better or worse and neither
//! provisional nor partial.

use std::fmt::Write;

use crate::report::html::style::CSS;
use crate::report::html::{document_end, document_start, share_section, ShareWords};
use crate::report::Decision;
use crate::text::html_text;

use super::cell::CellState;
use super::chart::{delta_by_step, SERIES_CSS};
use super::words::{self, cell_words};
use super::{Scorecard, SCORECARD_FORMAT_VERSION};

/// The colours of the grid's cells: a verdict's background only where it allows one.
const CELL_CSS: &str = "td.better { background: var(--better-bg); }
td.worse { background: var(--worse-bg); }
td.absent { background: var(--absent); }
";

/// The scorecard's share section words.
const SHARE: ShareWords = ShareWords {
    heading: "Link to this scorecard",
    opens: None,
    none: "No link.",
};

impl Scorecard {
    /// The scorecard as one HTML document; `share` is the viewer's link of the same scorecard.
    pub fn to_html(&self, share: Option<&str>) -> String {
        let mut out = String::with_capacity(32 * 1024);
        let title = format!("{}: training run {}", words::HEADING, self.training_run_id);
        document_start(&mut out, &title, &[CSS, SERIES_CSS, CELL_CSS]);
        let _ = writeln!(out, "<header><h1>{}</h1></header>", html_text(&title));
        share_section(&mut out, share, &SHARE);
        decision(&mut out, self);
        grid(&mut out, self);
        if let Some(svg) = delta_by_step(self) {
            let _ = writeln!(
                out,
                "<section id=\"chart\"><div class=\"scroll\">{svg}</div></section>"
            );
        }
        rows(&mut out, self);
        passed_over(&mut out, self);
        document_end(
            &mut out,
            &format!(
                "Written by eval-compare (scorecard format {SCORECARD_FORMAT_VERSION}). This file \
                 holds no script and loads nothing; each cell's numbers are its pair report's."
            ),
        );
        out
    }
}

fn decision(out: &mut String, scorecard: &Scorecard) {
    out.push_str("<section id=\"decision\">");
    let _ = write!(
        out,
        "<p>{}</p>",
        html_text(&words::rule_text(&scorecard.rule, scorecard.settings.alpha))
    );
    match &scorecard.recommended {
        Some(recommended) => {
            let _ = write!(
                out,
                "<p class=\"important\"><strong>{}: step {}.</strong> {}</p>",
                words::RECOMMENDED,
                recommended.step,
                html_text(&recommended.reason)
            );
        }
        None => {
            let _ = write!(
                out,
                "<p class=\"important\">{}</p>",
                words::NONE_RECOMMENDED
            );
        }
    }
    out.push_str("</section>\n");
}

fn grid(out: &mut String, scorecard: &Scorecard) {
    out.push_str("<section id=\"grid\"><div class=\"scroll\"><table><thead><tr><th>Benchmark</th>");
    for &step in &scorecard.steps {
        let _ = write!(out, "<th class=\"num\">{}</th>", words::step_heading(step));
    }
    out.push_str("</tr></thead><tbody>");
    let width = scorecard.steps.len();
    for (r, row) in scorecard.rows.iter().enumerate() {
        let _ = write!(
            out,
            "<tr><th><code>{}</code></th>",
            html_text(&row.bench_id)
        );
        for cell in scorecard.cells.iter().skip(r * width).take(width) {
            let shown = cell_words(&cell.state);
            let class = match &cell.state {
                CellState::Compared { comparison }
                    if !comparison.verdict.provisional && !comparison.verdict.partial =>
                {
                    match comparison.verdict.decision {
                        Decision::Better => " class=\"better\"",
                        Decision::Worse => " class=\"worse\"",
                        _ => "",
                    }
                }
                CellState::Missing | CellState::NoBaseline => " class=\"absent\"",
                _ => "",
            };
            let _ = write!(out, "<td{class}>{}", html_text(&shown.delta));
            for part in [shown.verdict, shown.coverage] {
                if !part.is_empty() {
                    let _ = write!(out, "<br>{}", html_text(&part));
                }
            }
            if let Some(previous) = &cell.versus_previous {
                let _ = write!(
                    out,
                    "<br><span class=\"note\">{}</span>",
                    html_text(&words::previous_words(previous))
                );
            }
            out.push_str("</td>");
        }
        out.push_str("</tr>");
    }
    out.push_str("<tr><th>Rule</th>");
    for column in &scorecard.columns {
        let _ = write!(
            out,
            "<td>{}</td>",
            html_text(&words::outcome_text(&column.outcome))
        );
    }
    let _ = writeln!(
        out,
        "</tr></tbody></table></div><p class=\"note\">{}</p></section>",
        html_text(words::CELL_LEGEND)
    );
}

fn rows(out: &mut String, scorecard: &Scorecard) {
    out.push_str(
        "<section id=\"baselines\"><h2>Baselines</h2><div class=\"scroll\"><table><thead><tr>",
    );
    for column in words::ROW_COLUMNS {
        let _ = write!(out, "<th>{column}</th>");
    }
    out.push_str("</tr></thead><tbody>");
    for row in &scorecard.rows {
        let _ = write!(
            out,
            "<tr><td><code>{}</code></td><td>{}</td><td class=\"num\">{}</td><td>{}</td><td>{}</td></tr>",
            html_text(&row.bench_id),
            html_text(&words::baseline_words(&row.baseline)),
            html_text(&words::baseline_mean_words(row)),
            html_text(&words::mde_words(row)),
            html_text(&words::first_significant_words(row)),
        );
    }
    out.push_str("</tbody></table></div></section>\n");
}

fn passed_over(out: &mut String, scorecard: &Scorecard) {
    let lines: Vec<String> = scorecard
        .rows
        .iter()
        .flat_map(|row| words::skipped_words(&row.baseline))
        .chain(scorecard.cells.iter().flat_map(words::others_words))
        .collect();
    if lines.is_empty() {
        return;
    }
    out.push_str("<section id=\"passed-over\"><h2>Passed over</h2><ul>");
    for line in lines {
        let _ = write!(out, "<li>{}</li>", html_text(&line));
    }
    out.push_str("</ul></section>\n");
}
