//! One candidate's section of the HTML document: its sorted per-task Δ, the statistics details
//! ([`detail_rows`], the page's and the markdown's rows), its components, where its Δ comes
//! from (the page's and the markdown's cells) and its regressed tasks.

use std::fmt::Write;

use crate::text::{html_text, optional_value, signed_points};

use super::super::categories::{category_cells, CATEGORY_COLUMNS};
use super::super::components::{component_cells, COMPONENT_COLUMNS};
use super::super::details::{detail_rows, DetailCells};
use super::super::pass_k::{pass_k_cells, PASS_K_COLUMNS};
use super::super::words::{
    flaky_line, CATEGORIES_INTRO, COMPONENTS_HEADING, COMPONENTS_INTRO, NO_CATEGORY, PASS_K_INTRO,
    WHERE_DELTA_HEADING,
};
use super::super::{CandidateResult, Report, TaskRow};
use super::sections::{cells_table, figure, head, shown, td, td_num, td_shown, CellKind};
use super::svg;

/// Most regressed tasks listed per candidate (the rest are counted).
pub const REGRESSED_LIMIT: usize = 50;

/// The whole section of `candidate`.
pub fn section(out: &mut String, report: &Report, candidate: &CandidateResult) {
    let name = report
        .run_of(candidate)
        .map_or("candidate", |run| run.name.as_str());
    let (name, title) = shown(name);
    let _ = write!(
        out,
        "<section class=\"candidate\"><h2{title}>{name} vs baseline</h2><p>{}.</p>",
        html_text(&candidate.sentence)
    );
    if let Some(chart) = svg::sorted_deltas(report, candidate) {
        figure(out, &chart);
    }
    details(out, report, candidate);
    components(out, candidate);
    where_delta(out, report, candidate);
    regressed(out, report, candidate);
    out.push_str("</section>\n");
}

/// Every statistic of both analyses.
fn details(out: &mut String, report: &Report, candidate: &CandidateResult) {
    out.push_str("<h3>Statistics</h3><div class=\"scroll\"><table class=\"details\">");
    head(out, &["statistic", "primary", "sensitivity"]);
    out.push_str("<tbody>");
    for row in detail_rows(report, candidate, false) {
        out.push_str("<tr>");
        let _ = write!(out, "<th scope=\"row\">{}</th>", html_text(&row.label));
        match &row.cells {
            DetailCells::PerAnalysis {
                primary,
                sensitivity,
            } => {
                td(out, primary);
                td(out, sensitivity);
            }
            DetailCells::Whole(text) => {
                let _ = write!(out, "<td colspan=\"2\">{}</td>", html_text(text));
            }
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table></div>");
}

/// Each reward component's own paired Δ.
fn components(out: &mut String, candidate: &CandidateResult) {
    if candidate.components.is_empty() {
        return;
    }
    let _ = write!(
        out,
        "<h3>{}</h3><p class=\"note\">{}</p>",
        html_text(COMPONENTS_HEADING),
        html_text(COMPONENTS_INTRO)
    );
    rows_table(
        out,
        &COMPONENT_COLUMNS,
        candidate.components.iter().map(component_cells),
    );
}

/// Where the Δ comes from: Δ per category with the concentration line, the flaky tasks, pass@k
/// beside pass^k.
fn where_delta(out: &mut String, report: &Report, candidate: &CandidateResult) {
    let _ = write!(out, "<h3>{}</h3>", html_text(WHERE_DELTA_HEADING));
    match &candidate.by_category {
        Some(breakdown) => {
            let _ = write!(out, "<p>{}</p>", html_text(&breakdown.sentence));
            rows_table(
                out,
                &CATEGORY_COLUMNS,
                breakdown.groups.iter().map(category_cells),
            );
            let _ = write!(out, "<p class=\"note\">{}</p>", html_text(CATEGORIES_INTRO));
        }
        None => {
            let _ = write!(out, "<p>{}</p>", html_text(NO_CATEGORY));
        }
    }
    let _ = write!(out, "<p>{}</p>", html_text(&flaky_line(&candidate.flaky)));
    let pass_k = &report.headline(candidate).pass_at_k;
    if !pass_k.is_empty() {
        rows_table(out, &PASS_K_COLUMNS, pass_k.iter().map(pass_k_cells));
        let _ = write!(out, "<p class=\"note\">{}</p>", html_text(PASS_K_INTRO));
    }
}

/// A table of text rows, the first cell as text and the others as numbers.
fn rows_table<R: AsRef<[String]>>(
    out: &mut String,
    columns: &[&str],
    rows: impl IntoIterator<Item = R>,
) {
    cells_table(out, columns, rows, |i| match i {
        0 => CellKind::Text,
        _ => CellKind::Num,
    });
}

/// The candidate's tasks with Δ < 0, worst first (ties in task order), at most
/// [`REGRESSED_LIMIT`], the rest counted.
pub fn regressed_tasks<'a>(
    report: &'a Report,
    candidate: &CandidateResult,
) -> Vec<(&'a TaskRow, f64)> {
    let Some(slot) = candidate.run.checked_sub(1) else {
        return Vec::new();
    };
    let mut tasks: Vec<(&TaskRow, f64)> = report
        .tasks
        .iter()
        .filter_map(|task| {
            let delta = task.deltas.get(slot).copied().flatten()?;
            (delta < 0.0).then_some((task, delta))
        })
        .collect();
    tasks.sort_by(|a, b| a.1.total_cmp(&b.1));
    tasks
}

fn regressed(out: &mut String, report: &Report, candidate: &CandidateResult) {
    let tasks = regressed_tasks(report, candidate);
    let _ = write!(
        out,
        "<h3>Regressed tasks ({})</h3><p class=\"note\">Paired tasks lower in the candidate, worst first.</p>",
        tasks.len()
    );
    if tasks.is_empty() {
        out.push_str("<p>No paired task is lower in the candidate.</p>");
        return;
    }
    out.push_str("<div class=\"scroll\"><table>");
    head(
        out,
        &[
            "task",
            "label",
            "categories",
            "baseline",
            "candidate",
            "Δ (points)",
        ],
    );
    out.push_str("<tbody>");
    for (task, delta) in tasks.iter().take(REGRESSED_LIMIT) {
        out.push_str("<tr>");
        let _ = write!(out, "<td><code>{}</code></td>", html_text(&task.task_id));
        // A label that only repeats the id is left out.
        td_shown(
            out,
            task.label
                .as_deref()
                .filter(|label| *label != task.task_id)
                .unwrap_or(""),
        );
        td(out, &task.category_labels(&report.categories).join(", "));
        td_num(
            out,
            &optional_value(task.cells.first().and_then(|c| c.mean)),
        );
        td_num(
            out,
            &optional_value(task.cells.get(candidate.run).and_then(|c| c.mean)),
        );
        td_num(out, &signed_points(*delta));
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table></div>");
    if tasks.len() > REGRESSED_LIMIT {
        let _ = write!(
            out,
            "<p class=\"note\">and {} more regressed tasks, not listed (the report JSON and the CSV hold every task).</p>",
            tasks.len() - REGRESSED_LIMIT
        );
    }
}
