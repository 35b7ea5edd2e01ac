//! The HTML of the cost section (money beside quality): the markdown's words, escaped and laid
//! out, and the quality–cost figure (`svg::quality_cost`).

use std::fmt::Write;

use crate::text::html_text;

use super::super::words::{
    cost_lines, quality_cost_cells, run_cost_cells, unbeaten_sentence, COST_HEADING, COST_INTRO,
    QUALITY_COST_COLUMNS, QUALITY_COST_HEADING, QUALITY_COST_INTRO, RUN_COST_COLUMNS,
};
use super::super::Report;
use super::sections::{cells_table, figure, run_list, CellKind};

/// The cost section; nothing when the report has none.
pub fn section(out: &mut String, report: &Report) {
    let Some(cost) = &report.cost else {
        return;
    };
    let _ = write!(
        out,
        "<section id=\"cost\"><h2>{}</h2><p>{}</p>",
        html_text(COST_HEADING),
        html_text(COST_INTRO)
    );
    let runs = cost.runs.iter().enumerate();
    let runs = runs.map(|(index, run)| run_cost_cells(report, index, run));
    cells_table(out, &RUN_COST_COLUMNS, runs, |i| match i {
        0 => CellKind::Text,
        1 => CellKind::Shown,
        _ => CellKind::Num,
    });
    for candidate in &cost.candidates {
        run_list(out, report, candidate.run, &cost_lines(report, candidate));
    }
    let _ = write!(
        out,
        "<h3>{}</h3><p>{}</p>",
        html_text(QUALITY_COST_HEADING),
        html_text(QUALITY_COST_INTRO)
    );
    let points = cost.quality_cost.iter();
    let points = points.map(|point| quality_cost_cells(report, point));
    cells_table(out, &QUALITY_COST_COLUMNS, points, |i| match i {
        0 => CellKind::Shown,
        3 => CellKind::Text,
        _ => CellKind::Num,
    });
    if let Some(line) = unbeaten_sentence(report) {
        let _ = write!(out, "<p>{}</p>", html_text(&line));
    }
    if let Some(chart) = super::svg::quality_cost(report) {
        figure(out, &chart);
    }
    out.push_str("</section>\n");
}
