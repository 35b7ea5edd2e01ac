//! The per-task table's rows as the view state asks for them (filter, category, search, sort),
//! and its CSV export. Pure, so the viewer's table, its export and the tests all agree.

use std::sync::OnceLock;

use crate::model::{same_text, text_order};
use crate::radix;
use crate::view_state::{RowFilter, SortKey, ViewState};

use super::{Report, TaskEffortCell, TaskRow};

/// Each task row's rank by the table's text sorts (task name, first category) among all of a
/// report's rows, each computed on its first use. Ranks among all rows order any subset of
/// them, so a viewer that keeps these per report sorts by task after a filter, a search or a
/// focus switch without sorting texts again.
#[derive(Debug)]
pub struct TextRanks {
    /// Where the report's rows are and how many: ranks of another report's rows are not used.
    rows: (usize, usize),
    task: OnceLock<Vec<u32>>,
    category: OnceLock<Vec<u32>>,
}

impl TextRanks {
    /// Ranks for `report`'s rows, none computed yet.
    pub fn for_report(report: &Report) -> Self {
        Self {
            rows: rows_of(report),
            task: OnceLock::new(),
            category: OnceLock::new(),
        }
    }

    /// Computes the ranks by task name now, unless done (e.g. while the page is idle, so the
    /// first sort by task does not wait for it).
    pub fn prepare_task(&self, report: &Report) {
        self.task(report);
    }

    /// The ranks by task name ([`text_ranks`]).
    fn task(&self, report: &Report) -> &[u32] {
        self.task
            .get_or_init(|| text_ranks(report.tasks.iter().map(|row| Some(task_name(row)))))
    }

    /// The ranks by first category ([`text_ranks`]).
    fn category(&self, report: &Report) -> &[u32] {
        self.category
            .get_or_init(|| text_ranks(report.tasks.iter().map(|row| category_name(report, row))))
    }
}

/// Where a report's rows are and how many.
fn rows_of(report: &Report) -> (usize, usize) {
    (report.tasks.as_ptr() as usize, report.tasks.len())
}

/// Indices into [`Report::tasks`] of the rows to show, in display order.
///
/// `focus` is the candidate (index into [`Report::candidates`]) whose deltas drive the
/// regression/improvement filters and the delta and candidate sorts.
pub fn visible_rows(report: &Report, view: &ViewState) -> Vec<usize> {
    visible_rows_ranked(report, view, &TextRanks::for_report(report))
}

/// [`visible_rows`] with the text sorts' ranks from `ranks`, kept for this report (ranks made
/// for another report's rows are not used: these rows' own are computed).
pub fn visible_rows_ranked(report: &Report, view: &ViewState, ranks: &TextRanks) -> Vec<usize> {
    let own;
    let ranks = if ranks.rows == rows_of(report) {
        ranks
    } else {
        own = TextRanks::for_report(report);
        &own
    };
    let focus = view.focus.min(report.candidates.len().saturating_sub(1));
    let category = view
        .category
        .as_ref()
        .and_then(|label| report.categories.iter().position(|c| c == label))
        .map(|i| i as u32);
    let needle = view.search.as_deref();
    let changing = changing_rows(report, view.filter);
    let rows: Vec<usize> = report
        .tasks
        .iter()
        .enumerate()
        .filter(|(_, row)| keeps(row, view.filter, focus))
        .filter(|(i, _)| changing.as_ref().is_none_or(|rows| rows[*i]))
        .filter(|(i, _)| keeps_effort(report, *i, view.filter, focus))
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
    // Each row's sort value is read once as an integer key that orders as the value does, and
    // the (key, row) pairs are radix sorted: no comparisons of task rows reached at random, of
    // texts byte by byte, or of u128 keys (several instructions each in wasm).
    let descending = view.sort.descending;
    let mut keyed: Vec<(u64, u32)> = Vec::with_capacity(rows.len());
    let mut missing: Vec<usize> = Vec::new();
    for (key, row) in sort_keys(report, &rows, view.sort.key, focus, ranks)
        .into_iter()
        .zip(rows)
    {
        match key {
            // Rows are task indices, which fit in u32 (the model's task index).
            Some(key) => keyed.push((if descending { !key } else { key }, row as u32)),
            None => missing.push(row),
        }
    }
    // Ties keep task order (the sort is stable and the rows come in task order), so the order
    // is total and stable across renders.
    radix::sort(&mut keyed);
    let present = keyed.into_iter().map(|(_, row)| row as usize);
    // Missing numbers go after present ones, reversed with them when descending.
    if descending {
        missing.into_iter().chain(present).collect()
    } else {
        present.chain(missing).collect()
    }
}

/// Each of `rows`' sort key for `key`, as an integer that orders as the value does: numbers in
/// `f64::total_cmp` order (`None` when missing), texts by their rank ([`TextRanks`]; a missing
/// text is rank 0, before the others).
fn sort_keys(
    report: &Report,
    rows: &[usize],
    key: SortKey,
    focus: usize,
    ranks: &TextRanks,
) -> Vec<Option<u64>> {
    let row = |i: usize| &report.tasks[i];
    let numbers = |value: &dyn Fn(&TaskRow) -> Option<f64>| -> Vec<Option<u64>> {
        rows.iter()
            .map(|&i| value(row(i)).map(radix::number_key))
            .collect()
    };
    let texts = |ranks: &[u32]| -> Vec<Option<u64>> {
        rows.iter().map(|&i| Some(u64::from(ranks[i]))).collect()
    };
    match key {
        SortKey::Delta => numbers(&|row| row.deltas.get(focus).copied().flatten()),
        SortKey::Baseline => numbers(&|row| cell_mean(row, 0)),
        SortKey::Candidate => numbers(&|row| cell_mean(row, focus + 1)),
        SortKey::Task => texts(ranks.task(report)),
        SortKey::Category => texts(ranks.category(report)),
        SortKey::Turns => rows
            .iter()
            .map(|&i| {
                task_effort(report, i, focus + 1)
                    .and_then(|cell| cell.turns)
                    .map(radix::number_key)
            })
            .collect(),
        SortKey::Ending => texts(&text_ranks((0..report.tasks.len()).map(|i| {
            task_effort(report, i, focus + 1).and_then(|cell| cell.ending.as_deref())
        }))),
    }
}

/// The effort of run `run` on the task row `row` (`None` without the report's effort).
fn task_effort(report: &Report, row: usize, run: usize) -> Option<&TaskEffortCell> {
    report.effort.as_ref()?.tasks.get(row)?.cells.get(run)
}

/// Under [`RowFilter::TurnLimit`] and [`RowFilter::Timeout`], whether the focused candidate hit
/// the turn limit (timed out) on the task row `row` at least once; true under the others.
fn keeps_effort(report: &Report, row: usize, filter: RowFilter, focus: usize) -> bool {
    let cell = || task_effort(report, row, focus + 1);
    match filter {
        RowFilter::TurnLimit => cell().is_some_and(|cell| cell.turn_limit > 0),
        RowFilter::Timeout => cell().is_some_and(|cell| cell.timeout > 0),
        _ => true,
    }
}

/// Each text's rank: 0 when missing, else 1 + its rank among the distinct texts in byte order.
/// The present texts are sorted once with their positions and ranked in that order, equal texts
/// equal ranks: no table of the distinct texts (task ids are all distinct).
fn text_ranks<'a>(texts: impl Iterator<Item = Option<&'a str>>) -> Vec<u32> {
    let mut ranks = Vec::new();
    let mut present: Vec<(&str, usize)> = Vec::new();
    for (position, text) in texts.enumerate() {
        ranks.push(0);
        if let Some(text) = text {
            present.push((text, position));
        }
    }
    present.sort_unstable_by(|a, b| text_order(a.0, b.0));
    let mut rank = 0;
    let mut previous: Option<&str> = None;
    for (text, position) in present {
        if previous.is_none_or(|previous| !same_text(previous, text)) {
            rank += 1;
            previous = Some(text);
        }
        ranks[position] = rank;
    }
    ranks
}

/// Under [`RowFilter::Changing`], whether each row is a task whose state changes across the
/// checkpoints (none without a progression); `None` under any other filter.
fn changing_rows(report: &Report, filter: RowFilter) -> Option<Vec<bool>> {
    if filter != RowFilter::Changing {
        return None;
    }
    let mut rows = vec![false; report.tasks.len()];
    for path in report.checkpoints.iter().flat_map(|c| &c.paths) {
        if let Some(slot) = rows.get_mut(path.task) {
            *slot = true;
        }
    }
    Some(rows)
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
        RowFilter::Changing | RowFilter::TurnLimit | RowFilter::Timeout => true,
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
/// included and total samples and failed count, and each candidate's delta, a difference of
/// means as a fraction (`delta_fraction:`; the page's points are 100 times it). Empty cells
/// mean "no value" (never 0). Text cells that a spreadsheet would run as a formula are
/// prefixed with `'`.
pub fn to_csv(report: &Report) -> String {
    let all: Vec<usize> = (0..report.tasks.len()).collect();
    to_csv_rows(report, &all)
}

/// [`to_csv`] of the rows `rows` (indices into [`Report::tasks`], e.g. [`visible_rows`]'s: the
/// table's rows as a filter, a search or a sort left them), in that order.
pub fn to_csv_rows(report: &Report, rows: &[usize]) -> String {
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
            header.push(format!("delta_fraction:{}", run.id));
        }
    }
    let mut out = String::new();
    push_line(&mut out, header.iter().map(String::as_str));
    for row in rows.iter().filter_map(|&i| report.tasks.get(i)) {
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
    use super::text_ranks;

    #[test]
    fn text_ranks_order_as_bytes_with_missing_first() {
        let texts = [
            Some("b"),
            None,
            Some("a"),
            Some("ab"),
            Some("a"),
            Some(""),
            Some("é"),
            Some("e\u{301}"),
        ];
        let ranks = text_ranks(texts.iter().copied());
        for (i, a) in texts.iter().enumerate() {
            for (j, b) in texts.iter().enumerate() {
                assert_eq!(ranks[i].cmp(&ranks[j]), a.cmp(b), "{a:?} against {b:?}");
            }
        }
    }

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
