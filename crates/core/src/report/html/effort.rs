//! The HTML of the effort section (turns and endings beside quality): the markdown's words,
//! escaped and laid out.

use std::fmt::Write;

use crate::text::html_text;

use super::super::words::{
    effort_lines, ending_cells, run_effort_cells, EFFORT_HEADING, EFFORT_INTRO, ENDING_COLUMNS,
    RUN_EFFORT_COLUMNS,
};
use super::super::Report;
use super::sections::{cells_table, run_list, CellKind};

/// The effort section; nothing when the report has none.
pub fn section(out: &mut String, report: &Report) {
    let Some(effort) = &report.effort else {
        return;
    };
    let _ = write!(
        out,
        "<section id=\"effort\"><h2>{}</h2><p>{}</p>",
        html_text(EFFORT_HEADING),
        html_text(EFFORT_INTRO)
    );
    let runs = effort.runs.iter().zip(&report.runs).enumerate();
    let runs = runs.map(|(index, (run, summary))| run_effort_cells(index, &summary.name, run));
    cells_table(out, &RUN_EFFORT_COLUMNS, runs, |i| match i {
        0 => CellKind::Text,
        1 => CellKind::Shown,
        _ => CellKind::Num,
    });
    for candidate in &effort.candidates {
        if !run_list(out, report, candidate.run, &effort_lines(candidate)) {
            continue;
        }
        let endings = candidate.endings.iter().map(ending_cells);
        cells_table(out, &ENDING_COLUMNS, endings, |i| match i {
            0 => CellKind::Text,
            _ => CellKind::Num,
        });
    }
    out.push_str("</section>\n");
}
