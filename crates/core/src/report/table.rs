//! The per-task table's rows as the view state asks for them (filter, category, search, sort),
//! and its CSV export. Pure, so the viewer's table, its export and the tests all agree.

use std::cmp::Ordering;

use crate::view_state::{RowFilter, SortKey, ViewState};

use super::{Report, TaskRow};

/// Indices into [`Report::tasks`] of the rows to show, in display order.
///
/// `focus` is the candidate (index into [`Report::candidates`]) whose deltas drive the
/// regression/improvement filters and the delta and candidate sorts.
pub fn visible_rows(report: &Report, view: &ViewState) -> Vec<usize> {
    let focus = view.focus.min(report.candidates.len().saturating_sub(1));
    let category = view
        .category
        .as_ref()
        .and_then(|label| report.categories.iter().position(|c| c == label))
        .map(|i| i as u32);
    let needle = view.search.as_deref();
    let rows: Vec<usize> = report
        .tasks
        .iter()
        .enumerate()
        .filter(|(_, row)| keeps(row, view.filter, focus))
        .filter(|(_, row)| match (&view.category, category) {
            (None, _) => true,
            (Some(_), Some(c)) => row.categories.contains(&c),
            // A category the report does not have matches nothing.
            (Some(_), None) => false,
        })
        .filter(|(_, row)| match &needle {
            None => true,
            Some(n) => {
                contains_ignoring_ascii_case(&row.task_id, n)
                    || row
                        .label
                        .as_deref()
                        .is_some_and(|l| contains_ignoring_ascii_case(l, n))
            }
        })
        .map(|(i, _)| i)
        .collect();
    // Each row's sort value is read once, then the compact (value, row) pairs are sorted: the
    // comparisons do not reach into 100,000 task rows at random.
    let mut keyed: Vec<(SortValue<'_>, usize)> = rows
        .into_iter()
        .map(|i| {
            (
                sort_value(report, &report.tasks[i], view.sort.key, focus),
                i,
            )
        })
        .collect();
    keyed.sort_unstable_by(|(a, i), (b, j)| {
        let ordering = a.compare(b);
        let ordering = if view.sort.descending {
            ordering.reverse()
        } else {
            ordering
        };
        // Ties keep task order, so the order is total (an unstable sort gives the one order)
        // and stable across renders.
        ordering.then(i.cmp(j))
    });
    keyed.into_iter().map(|(_, i)| i).collect()
}

/// What a row is sorted by, for one sort key.
enum SortValue<'a> {
    /// A number, missing ones after present ones in ascending order.
    Number(Option<f64>),
    /// A text, missing ones before present ones in ascending order.
    Text(Option<&'a str>),
}

impl SortValue<'_> {
    fn compare(&self, other: &Self) -> Ordering {
        match (self, other) {
            (SortValue::Number(a), SortValue::Number(b)) => compare_opt(*a, *b),
            (SortValue::Text(a), SortValue::Text(b)) => a.cmp(b),
            // One key gives every row the same kind of value.
            _ => Ordering::Equal,
        }
    }
}

fn sort_value<'a>(
    report: &'a Report,
    row: &'a TaskRow,
    key: SortKey,
    focus: usize,
) -> SortValue<'a> {
    match key {
        SortKey::Delta => SortValue::Number(row.deltas.get(focus).copied().flatten()),
        SortKey::Task => SortValue::Text(Some(task_name(row))),
        SortKey::Category => SortValue::Text(category_name(report, row)),
        SortKey::Baseline => SortValue::Number(cell_mean(row, 0)),
        SortKey::Candidate => SortValue::Number(cell_mean(row, focus + 1)),
    }
}

fn keeps(row: &TaskRow, filter: RowFilter, focus: usize) -> bool {
    let delta = row.deltas.get(focus).copied().flatten();
    match filter {
        RowFilter::All => true,
        RowFilter::Regressions => delta.is_some_and(|d| d < 0.0),
        RowFilter::Improvements => delta.is_some_and(|d| d > 0.0),
        RowFilter::Unpaired => delta.is_none(),
        RowFilter::Failed => row.has_failure(),
        RowFilter::Flaky => [0, focus + 1]
            .iter()
            .any(|&run| row.cells.get(run).is_some_and(|cell| cell.flaky)),
    }
}

/// Missing values sort after present ones in ascending order.
fn compare_opt(a: Option<f64>, b: Option<f64>) -> Ordering {
    match (a, b) {
        (Some(x), Some(y)) => x.total_cmp(&y),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => Ordering::Equal,
    }
}

fn task_name(row: &TaskRow) -> &str {
    row.label.as_deref().unwrap_or(&row.task_id)
}

fn category_name<'a>(report: &'a Report, row: &TaskRow) -> Option<&'a str> {
    row.categories
        .first()
        .and_then(|&c| report.categories.get(c as usize))
        .map(String::as_str)
}

fn cell_mean(row: &TaskRow, run: usize) -> Option<f64> {
    row.cells.get(run).and_then(|c| c.mean)
}

/// The per-task table as CSV (RFC 4180): one line per task of the union, every run's mean,
/// included and total samples and failed count, and each candidate's delta. Empty cells mean
/// "no value" (never 0). Text cells that a spreadsheet would run as a formula are prefixed
/// with `'`.
pub fn to_csv(report: &Report) -> String {
    let mut header = vec![
        "task_id".to_owned(),
        "label".to_owned(),
        "categories".to_owned(),
    ];
    for run in &report.runs {
        for what in ["mean", "included", "samples", "failed"] {
            header.push(format!("{}:{what}", run.id));
        }
    }
    for c in &report.candidates {
        if let Some(run) = report.run_of(c) {
            header.push(format!("delta:{}", run.id));
        }
    }
    let mut out = String::new();
    push_line(&mut out, header.iter().map(String::as_str));
    for row in &report.tasks {
        let categories = row.category_labels(&report.categories);
        let mut cells = vec![
            row.task_id.clone(),
            row.label.clone().unwrap_or_default(),
            categories.join("; "),
        ];
        for cell in &row.cells {
            cells.push(cell.mean.map(number).unwrap_or_default());
            cells.push(cell.included.to_string());
            cells.push(cell.samples.to_string());
            cells.push(cell.classes.failed.to_string());
        }
        for delta in &row.deltas {
            cells.push(delta.map(number).unwrap_or_default());
        }
        push_line(&mut out, cells.iter().map(String::as_str));
    }
    out
}

/// Shortest decimal that round-trips.
fn number(value: f64) -> String {
    format!("{value}")
}

fn push_line<'a>(out: &mut String, cells: impl Iterator<Item = &'a str>) {
    let mut first = true;
    for cell in cells {
        if !first {
            out.push(',');
        }
        first = false;
        out.push_str(&escape(cell));
    }
    out.push_str("\r\n");
}

fn escape(cell: &str) -> String {
    // Neutralise spreadsheet formulas in text taken from the data.
    let guarded = match cell.chars().next() {
        Some('=' | '+' | '@' | '\t' | '\r') => format!("'{cell}"),
        Some('-') if cell.parse::<f64>().is_err() => format!("'{cell}"),
        _ => cell.to_owned(),
    };
    if guarded.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", guarded.replace('"', "\"\""))
    } else {
        guarded
    }
}

/// Whether `haystack` contains `needle`, ignoring the case of ASCII letters (other characters
/// must match exactly). No allocation per row, and no Unicode case tables in the wasm.
fn contains_ignoring_ascii_case(haystack: &str, needle: &str) -> bool {
    let (haystack, needle) = (haystack.as_bytes(), needle.as_bytes());
    needle.is_empty()
        || haystack
            .windows(needle.len())
            .any(|window| window.eq_ignore_ascii_case(needle))
}

#[cfg(test)]
mod tests {
    use super::contains_ignoring_ascii_case as contains;

    #[test]
    fn search_ignores_ascii_case_only() {
        assert!(contains("Fix the CSV parser", "csv PARSER"));
        assert!(contains("anything", ""));
        assert!(!contains("csv", "csv parser"));
        assert!(contains("Größe prüfen", "GRößE PRüFEN"));
        assert!(
            !contains("ÄRGER", "ärger"),
            "non-ASCII letters match exactly"
        );
    }
}
