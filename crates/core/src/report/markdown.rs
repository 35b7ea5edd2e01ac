//! The report as markdown-friendly text (the CLI's `--format text`).
//!
//! Every string that comes from the data (ids, names, models, benchmarks, statuses, task labels,
//! and the sentences and messages that quote them) goes through [`markdown_text`] or
//! [`markdown_code`]: hidden characters are made visible and markup is escaped, so a hostile
//! run can neither inject HTML, links or terminal sequences nor break a table. Names and labels
//! in headings and cells are cut to [`SHOWN_NAME_CHARS`] characters first (the JSON holds them
//! whole). The report's own text (statistics, labels of rows) only has its cells' `|` escaped.

mod checkpoints;
mod cost;
mod effort;
mod tokens;
mod trial_effort;

use std::fmt::Write;

use crate::coverage::{group_warnings, CoverageWarning};
use crate::stats::Stat;
use crate::text::{
    count, interval_points, markdown_code, markdown_text, noun, optional_value, p_value, points,
    shorten, signed_points, StatText, SHOWN_NAME_CHARS,
};

use super::categories::{category_cells, CATEGORY_COLUMNS};
use super::components::{component_cells, COMPONENT_COLUMNS};
use super::details::{detail_rows, headline_anytime_interval, interval_method_text, DetailCells};
use super::pass_k::{pass_k_cells, PASS_K_COLUMNS};
use super::words::{
    and_more, comparability_words, disagreement_cells, flaky_line, incomplete_loads, pairings,
    platform_check_line, setting_cell, settings_line, union_line, CATEGORIES_INTRO,
    COMPONENTS_HEADING, COMPONENTS_INTRO, DISAGREEMENT_COLUMNS, EFFECTIVE_SETTINGS,
    LISTED_DISAGREEMENTS, NO_CATEGORY, PASS_K_INTRO, PLATFORM_PROGRESSION_HEADING,
    PLATFORM_RESULTS_HEADING, PLATFORM_RESULTS_INTRO, TASK_COLUMNS_NOTE, WHERE_DELTA_HEADING,
};
use super::words::{
    ledger_cells, ledger_changes, ledger_intro, ledger_verdicts, set_aside_cell, target_kind,
    LEDGER_COLUMNS, LEDGER_HEADING, SET_ASIDE_COLUMN,
};
use super::{CandidateResult, Report};

/// How many regressions and improvements are listed per candidate.
const TOP_TASKS: usize = 5;

/// Renders the whole report.
pub fn render(report: &Report) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# Eval comparison\n");
    if let Some(changes) = ledger_changes(report) {
        let _ = writeln!(out, "**{}**\n", markdown_text(&changes));
    }
    let _ = writeln!(out, "{}\n", settings_line(report));
    if let Some(line) = super::words::pass_threshold_line(report) {
        let _ = writeln!(out, "{}\n", markdown_text(&line));
    }
    headlines(&mut out, report);
    runs(&mut out, report);
    chronicle_jobs(&mut out, report);
    comparability(&mut out, report);
    platform(&mut out, report);
    coverage(&mut out, report);
    ledger(&mut out, report);
    progression(&mut out, report);
    checkpoints::render(&mut out, report);
    effort::render(&mut out, report);
    tokens::render(&mut out, report);
    trial_effort::render(&mut out, report);
    cost::render(&mut out, report);
    for candidate in &report.candidates {
        candidate_details(&mut out, report, candidate);
    }
    out
}

fn headlines(out: &mut String, report: &Report) {
    let _ = writeln!(out, "## Headline\n");
    for c in &report.candidates {
        let _ = writeln!(
            out,
            "- {}. Holm-adjusted p {}; headline interval: {} → **{}**.",
            markdown_text(&c.sentence),
            p(&c.p_holm),
            interval_method_text(c.verdict.interval_method),
            c.verdict.headline()
        );
        for reason in &c.verdict.reasons {
            let stop = if reason.ends_with('.') { "" } else { "." };
            let _ = writeln!(out, "  - {}{stop}", markdown_text(reason));
        }
        if let Some(anytime) = headline_anytime_interval(report, c) {
            let _ = writeln!(out, "  - {}.", markdown_text(&anytime));
        }
        if let Some(line) = ledger_verdicts(report, c) {
            let _ = writeln!(out, "  - {}", markdown_text(&line));
        }
        effort::headline(out, report, c);
        tokens::headline(out, report, c);
        trial_effort::headline(out, report, c);
        cost::headline(out, report, c);
    }
    out.push('\n');
}

fn runs(out: &mut String, report: &Report) {
    let _ = writeln!(out, "## Runs\n");
    let _ = writeln!(
        out,
        "| role | name | id | model | benchmark | status | tasks scored | task-weighted mean | pooled mean | platform mean |"
    );
    let _ = writeln!(out, "|---|---|---|---|---|---|---|---|---|---|");
    for r in &report.runs {
        let _ = writeln!(
            out,
            "| {:?} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            r.role,
            shown(&r.name),
            markdown_code(&r.id),
            markdown_text(r.base_model.as_deref().unwrap_or("—")),
            markdown_text(r.bench_id.as_deref().unwrap_or("—")),
            markdown_text(r.status.as_deref().unwrap_or("—")),
            count(r.tasks_scored),
            optional_value(r.task_weighted_mean),
            optional_value(r.pooled_mean),
            optional_value(r.platform_reward_mean),
        );
    }
    out.push('\n');
    // Below the table, which a line between its rows would cut in two.
    for line in incomplete_loads(report) {
        let _ = writeln!(out, "> {}\n", markdown_quoted(&line));
    }
}

fn comparability(out: &mut String, report: &Report) {
    let _ = writeln!(
        out,
        "## Comparability: {}\n",
        comparability_words(report.audit.verdict)
    );
    for f in &report.audit.findings {
        let _ = writeln!(
            out,
            "- {:?} {}: {}",
            f.severity,
            markdown_code(&f.code),
            markdown_quoted(&f.message)
        );
    }
    if report.audit.findings.is_empty() {
        let _ = writeln!(out, "No findings.");
    }
    out.push('\n');
    effective_settings(out, report);
}

/// The effective settings the audit compared: one row per setting, one column per run, each
/// value with where it came from.
fn effective_settings(out: &mut String, report: &Report) {
    let settings = &report.audit.settings;
    let Some(first) = settings.first() else {
        return;
    };
    let name = |run| {
        report
            .runs
            .iter()
            .find(|r| r.index == run)
            .map_or_else(|| "—".to_owned(), |r| shown(&r.name))
    };
    let _ = writeln!(out, "### {EFFECTIVE_SETTINGS}\n");
    let _ = write!(out, "| setting |");
    for run in settings {
        let _ = write!(out, " {} |", name(run.run));
    }
    let _ = write!(out, "\n|---|");
    for _ in settings {
        let _ = write!(out, "---|");
    }
    out.push('\n');
    for (row, setting) in first.settings.iter().enumerate() {
        let _ = write!(out, "| {} |", cell(setting.setting.label()));
        for run in settings {
            let text = setting_cell(run.settings.get(row), markdown_text, markdown_quoted);
            let _ = write!(out, " {text} |");
        }
        out.push('\n');
    }
    out.push('\n');
}

fn coverage(out: &mut String, report: &Report) {
    let cov = &report.coverage;
    let _ = writeln!(out, "## Coverage\n");
    let _ = writeln!(out, "{}\n", union_line(cov));
    // The column of tasks set aside only when the report has a ledger.
    let ledger = report.ledger.is_some();
    let _ = writeln!(
        out,
        "| run | selected | attempted | scored | graded | cut-off | model ending | failed | cancelled | unfinished | ungraded | other | samples | valid |{}",
        if ledger { format!(" {SET_ASIDE_COLUMN} |") } else { String::new() }
    );
    let _ = writeln!(
        out,
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|{}",
        if ledger { "---|" } else { "" }
    );
    for r in &cov.runs {
        let t = &r.tasks_by_class;
        let _ = write!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            shown(&r.name),
            r.tasks_selected.map_or("—".to_owned(), count),
            count(r.tasks_attempted),
            count(r.tasks_scored),
            count(t.graded.into()),
            count(t.cut_off.into()),
            count(t.model_ending.into()),
            count(t.failed.into()),
            count(t.cancelled.into()),
            count(t.unfinished.into()),
            count(t.ungraded.into()),
            count(t.other.into()),
            count(r.samples_total),
            count(r.samples_valid)
        );
        if ledger {
            let _ = write!(out, " {} |", set_aside_cell(r.set_aside.as_ref()));
        }
        out.push('\n');
    }
    let _ = writeln!(out, "\n{TASK_COLUMNS_NOTE}\n");
    for (name, pairing) in pairings(report) {
        let _ = writeln!(out, "- {}: {pairing}", shown(name));
    }
    coverage_warnings(out, &cov.warnings);
    out.push('\n');
}

/// The reviewer's ledger, when the report has one: what it did and every entry.
fn ledger(out: &mut String, report: &Report) {
    let Some(ledger) = &report.ledger else {
        return;
    };
    let _ = writeln!(out, "## {LEDGER_HEADING}\n");
    let _ = writeln!(out, "{}\n", ledger_intro(ledger));
    if ledger.entries.is_empty() {
        return;
    }
    table_head(out, &LEDGER_COLUMNS);
    for line in &ledger.entries {
        let [id, action, reason, note, at, applies] = ledger_cells(line);
        let _ = writeln!(
            out,
            "| {} {} | {} | {} | {} | {} | {} |",
            target_kind(&line.entry.target),
            markdown_code(&shorten(&id, SHOWN_NAME_CHARS)),
            cell(&action),
            cell(&reason),
            markdown_text(&note),
            markdown_text(&at),
            cell(&applies)
        );
    }
    out.push('\n');
}

/// The coverage warnings grouped by code, most important first (as the page shows them):
/// "- Warning `CODE` — what it means (N lines):" with its lines below it.
fn coverage_warnings(out: &mut String, warnings: &[CoverageWarning]) {
    for group in group_warnings(warnings) {
        let lines = group.warnings.len() as u64;
        let _ = writeln!(
            out,
            "- Warning {} — {} ({} {}){}:",
            markdown_code(group.code),
            group.summary,
            lines,
            noun(lines, "line", "lines"),
            if group.is_important() {
                ", can change the answer"
            } else {
                ""
            }
        );
        for warning in &group.warnings {
            let _ = writeln!(out, "  - {}", markdown_text(&warning.message));
        }
    }
}

fn candidate_details(out: &mut String, report: &Report, c: &CandidateResult) {
    let name = report.run_of(c).map_or("candidate", |r| r.name.as_str());
    let _ = writeln!(out, "## {} vs baseline\n", shown(name));
    let _ = writeln!(out, "{}.\n", markdown_text(&c.sentence));
    let _ = writeln!(out, "| statistic | primary | sensitivity |");
    let _ = writeln!(out, "|---|---|---|");
    for row in detail_rows(report, c, false) {
        let label = cell(&row.label);
        let _ = match &row.cells {
            DetailCells::PerAnalysis {
                primary,
                sensitivity,
            } => writeln!(
                out,
                "| {label} | {} | {} |",
                cell(primary),
                cell(sensitivity)
            ),
            DetailCells::Whole(text) => writeln!(out, "| {label} | {} | |", cell(text)),
        };
    }
    out.push('\n');
    components(out, c);
    where_delta(out, report, c);
    extremes(out, report, c);
}

/// Where the Δ comes from: per category, flaky tasks, pass@k beside pass^k.
fn where_delta(out: &mut String, report: &Report, c: &CandidateResult) {
    let _ = writeln!(out, "### {WHERE_DELTA_HEADING}\n");
    if let Some(breakdown) = &c.by_category {
        let _ = writeln!(out, "{}\n", markdown_text(&breakdown.sentence));
        table_head(out, &CATEGORY_COLUMNS);
        for group in &breakdown.groups {
            let cells = category_cells(group);
            let _ = writeln!(
                out,
                "| {} | {} |",
                shown(&group.label),
                cells[1..]
                    .iter()
                    .map(|c| cell(c))
                    .collect::<Vec<_>>()
                    .join(" | ")
            );
        }
        let _ = writeln!(out, "\n{CATEGORIES_INTRO}\n");
    } else {
        let _ = writeln!(out, "{NO_CATEGORY}\n");
    }
    let _ = writeln!(out, "{}\n", flaky_line(&c.flaky));
    let pass_k = &report.headline(c).pass_at_k;
    if !pass_k.is_empty() {
        table(out, &PASS_K_COLUMNS, pass_k.iter().map(pass_k_cells), None);
        let _ = writeln!(out, "{PASS_K_INTRO}\n");
    }
}

/// The checkpoints by step: each one's mean and its paired Δ against the baseline with the
/// headline interval; a provisional step (a compared run still runs) is marked.
fn progression(out: &mut String, report: &Report) {
    let Some(progression) = &report.progression else {
        return;
    };
    let _ = writeln!(
        out,
        "## Checkpoint progression: {}\n",
        markdown_code(&progression.training_run_id)
    );
    let _ = writeln!(
        out,
        "Baseline mean {}.\n",
        optional_value(progression.baseline_mean)
    );
    table_head(
        out,
        &[
            "step",
            "run",
            "task-weighted mean",
            "Δ (points)",
            "headline interval",
            "state",
        ],
    );
    for point in &progression.points {
        let name = report.runs.get(point.run).map_or("—", |r| r.name.as_str());
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} |",
            point.step,
            shown(name),
            optional_value(point.mean),
            point.delta.map_or_else(|| "—".to_owned(), signed_points),
            cell(&StatText::of(&point.delta_interval, interval_points).text()),
            if point.provisional {
                "provisional (running)"
            } else {
                "final"
            }
        );
    }
    out.push('\n');
    if let Some(platform) = &progression.platform {
        platform_progression(out, platform);
    }
}

/// The platform's own progression beside ours, a disagreement flagged.
fn platform_progression(out: &mut String, platform: &super::PlatformProgression) {
    let _ = writeln!(out, "### {PLATFORM_PROGRESSION_HEADING}\n");
    if platform.error.is_none() {
        let rows = platform.steps.iter().map(super::platform_cells);
        table(out, &super::PLATFORM_COLUMNS, rows, None);
    }
    let _ = writeln!(
        out,
        "{}\n",
        markdown_text(&super::platform_sentence(platform))
    );
}

fn table_head(out: &mut String, columns: &[&str]) {
    let _ = writeln!(out, "| {} |", columns.join(" | "));
    let _ = writeln!(out, "|{}", "---|".repeat(columns.len()));
}

/// Run `run`'s name as a heading ([`shown`]) and its `lines` as a list (escaped), then a blank
/// line; `false` (and nothing written) when the report has no such run.
fn run_list(out: &mut String, report: &Report, run: usize, lines: &[String]) -> bool {
    let Some(run) = report.runs.get(run) else {
        return false;
    };
    let _ = writeln!(out, "### {}\n", shown(&run.name));
    for line in lines {
        let _ = writeln!(out, "- {}", markdown_text(line));
    }
    out.push('\n');
    true
}

/// A table's one column of text from the data and how it is written (a name [`shown`], an id
/// as [`markdown_code`]); `None` when every cell is the report's own text.
type DataColumn = Option<(usize, fn(&str) -> String)>;

/// The one writer of a table of cells: its header row, a row per item of `rows` and a blank
/// line. Each cell is the report's own text ([`cell`]) but the column `data` names.
fn table<R: AsRef<[String]>>(
    out: &mut String,
    columns: &[&str],
    rows: impl IntoIterator<Item = R>,
    data: DataColumn,
) {
    table_head(out, columns);
    for row in rows {
        let cells: Vec<String> = row
            .as_ref()
            .iter()
            .enumerate()
            .map(|(index, text)| match data {
                Some((column, write)) if column == index => write(text),
                _ => cell(text),
            })
            .collect();
        let _ = writeln!(out, "| {} |", cells.join(" | "));
    }
    out.push('\n');
}

fn chronicle_jobs(out: &mut String, report: &Report) {
    if report.runs.iter().all(|r| r.chronicle.is_none()) {
        return;
    }
    let _ = writeln!(
        out,
        "## Chronicle jobs
"
    );
    let _ = writeln!(
        out,
        "A task passes when every scorer with a threshold met it in every trial (the guide's rule): one outcome per task and run.\n"
    );
    let _ = writeln!(
        out,
        "| run | job | mode | suite | suite version | tasks | extra scorers | environment | job status | trials | pass rate (trials) | platform pass rate (job) |"
    );
    let _ = writeln!(out, "|---|---|---|---|---|---|---|---|---|---|---|---|");
    for r in &report.runs {
        let Some(job) = &r.chronicle else {
            continue;
        };
        let status = match (&job.job_status, &job.job_error) {
            (Some(status), Some(error)) => format!("{status}: {error}"),
            (Some(status), None) => status.clone(),
            (None, Some(error)) => error.clone(),
            (None, None) => "—".to_owned(),
        };
        let trials = match (job.completed_trials, job.total_trials) {
            (Some(done), Some(total)) => format!("{done} of {total}"),
            (Some(done), None) => done.to_string(),
            _ => "—".to_owned(),
        };
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} ({} tasks) | {} |",
            shown(&r.name),
            markdown_code(&job.job_id),
            markdown_text(job.mode.as_deref().unwrap_or("—")),
            markdown_text(job.task_suite_id.as_deref().unwrap_or("—")),
            markdown_text(job.task_suite_version.as_deref().unwrap_or("—")),
            job.tasks
                .as_ref()
                .map_or("whole suite".to_owned(), |tasks| format!(
                    "subset of {}",
                    tasks.len()
                )),
            if job.scorers.is_empty() {
                "none".to_owned()
            } else {
                markdown_text(&job.scorers.join(", "))
            },
            markdown_text(job.environment_version_id.as_deref().unwrap_or("—")),
            markdown_text(&status),
            trials,
            optional_value(job.pass_rate),
            count(job.decided_tasks as u64),
            optional_value(job.platform_pass_rate),
        );
    }
    out.push('\n');
}

fn platform(out: &mut String, report: &Report) {
    if report.platform.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "## {PLATFORM_RESULTS_HEADING}\n\n{PLATFORM_RESULTS_INTRO}\n"
    );
    for check in &report.platform {
        let _ = writeln!(
            out,
            "### Job {}\n\n{}\n",
            markdown_code(&check.job_id),
            platform_check_line(check)
        );
        if check.disagreements.is_empty() {
            continue;
        }
        table_head(out, &DISAGREEMENT_COLUMNS);
        for d in check.disagreements.iter().take(LISTED_DISAGREEMENTS) {
            let cells: Vec<String> = disagreement_cells(d)
                .iter()
                .enumerate()
                .map(|(index, text)| match index {
                    0 => markdown_code(text),
                    _ => markdown_text(text),
                })
                .collect();
            let _ = writeln!(out, "| {} |", cells.join(" | "));
        }
        let more = check
            .disagreements
            .len()
            .saturating_sub(LISTED_DISAGREEMENTS);
        if more > 0 {
            let _ = writeln!(out, "\n{}", and_more(more));
        }
        out.push('\n');
    }
}

/// Each component's own paired Δ, in its own units (the page's cells).
fn components(out: &mut String, c: &CandidateResult) {
    if c.components.is_empty() {
        return;
    }
    let _ = writeln!(out, "### {COMPONENTS_HEADING}\n\n{COMPONENTS_INTRO}\n");
    let _ = writeln!(out, "| {} |", COMPONENT_COLUMNS.join(" | "));
    let _ = writeln!(out, "|{}", "---|".repeat(COMPONENT_COLUMNS.len()));
    for component in &c.components {
        let cells = component_cells(component);
        let cells: Vec<String> = cells
            .iter()
            .enumerate()
            .map(|(index, text)| match index {
                0 => markdown_text(&component.name),
                _ => cell(text),
            })
            .collect();
        let _ = writeln!(out, "| {} |", cells.join(" | "));
    }
    out.push('\n');
}

fn extremes(out: &mut String, report: &Report, c: &CandidateResult) {
    let slot = c.run - 1;
    let mut paired: Vec<(&str, f64)> = report
        .tasks
        .iter()
        .filter_map(|t| {
            Some((
                t.label.as_deref().unwrap_or(&t.task_id),
                (*t.deltas.get(slot)?)?,
            ))
        })
        .collect();
    paired.sort_by(|a, b| a.1.total_cmp(&b.1));
    let worst: Vec<_> = paired
        .iter()
        .filter(|(_, d)| *d < 0.0)
        .take(TOP_TASKS)
        .collect();
    let best: Vec<_> = paired
        .iter()
        .rev()
        .filter(|(_, d)| *d > 0.0)
        .take(TOP_TASKS)
        .collect();
    for (title, list) in [
        ("Largest regressions", worst),
        ("Largest improvements", best),
    ] {
        if list.is_empty() {
            continue;
        }
        let _ = writeln!(out, "{title}:");
        for (task, d) in list {
            let _ = writeln!(
                out,
                "- {} {} points",
                markdown_code(&shorten(task, SHOWN_NAME_CHARS)),
                points(*d)
            );
        }
        out.push('\n');
    }
}

/// A p-value, or why it has none.
fn p(value: &Stat<f64>) -> String {
    StatText::of(value, |p| p_value(*p)).text()
}

/// A name or label from the data as a heading or table cell shows it: cut to
/// [`SHOWN_NAME_CHARS`] characters (the report JSON holds it whole), then escaped.
fn shown(name: &str) -> String {
    markdown_text(&shorten(name, SHOWN_NAME_CHARS))
}

/// The report's own text (a statistic's label or value) in a markdown table cell: its `|`
/// escaped and its line breaks joined. Untrusted text goes through [`markdown_text`] instead.
fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace(['\n', '\r'], " ")
}

/// A phrase of the report's own as markdown: its `` `quoted` `` parts as code spans, the rest
/// as escaped text (so no backtick shows escaped).
fn markdown_quoted(text: &str) -> String {
    crate::text::quoted_parts(text)
        .into_iter()
        .map(|part| match part {
            crate::text::QuotedPart::Words(words) => markdown_text(words),
            crate::text::QuotedPart::Code(code) => markdown_code(code),
        })
        .collect()
}
