//! The report as markdown-friendly text (the CLI's `--format text`).
//!
//! Every string that comes from the data (ids, names, models, benchmarks, statuses, task labels,
//! and the sentences and messages that quote them) goes through [`markdown_text`] or
//! [`markdown_code`]: hidden characters are made visible and markup is escaped, so a hostile
//! run can neither inject HTML, links or terminal sequences nor break a table. Names and labels
//! in headings and cells are cut to [`SHOWN_NAME_CHARS`] characters first (the JSON holds them
//! whole). The report's own text (statistics, labels of rows) only has its cells' `|` escaped.

use std::fmt::Write;

use crate::audit::Severity;
use crate::coverage::{group_warnings, CoverageWarning};
use crate::model::Resolution;
use crate::stats::Stat;
use crate::text::{
    interval_points, markdown_code, markdown_text, noun, p_value, points, setting_source,
    setting_value, shorten, signed_points, StatText, SHOWN_NAME_CHARS,
};

use super::categories::{category_cells, CATEGORY_COLUMNS};
use super::components::{component_cells, COMPONENT_COLUMNS};
use super::details::{detail_rows, headline_anytime_interval, interval_method_text, DetailCells};
use super::flaky::flaky_sentence;
use super::pass_k::{pass_k_cells, PASS_K_COLUMNS};
use super::words::{pairing_line, settings_line};
use super::{CandidateResult, Report};

/// How many regressions and improvements are listed per candidate.
const TOP_TASKS: usize = 5;

/// Renders the whole report.
pub fn render(report: &Report) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# Eval comparison\n");
    let _ = writeln!(out, "{}\n", settings_line(report));
    headlines(&mut out, report);
    runs(&mut out, report);
    chronicle_jobs(&mut out, report);
    comparability(&mut out, report);
    platform(&mut out, report);
    coverage(&mut out, report);
    progression(&mut out, report);
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
            r.tasks_scored,
            opt(r.task_weighted_mean),
            opt(r.pooled_mean),
            opt(r.platform_reward_mean),
        );
        if let Some(why) = &r.incomplete_load {
            let _ = writeln!(
                out,
                "\n> Incomplete load of {}: {}\n",
                markdown_code(&r.id),
                markdown_text(why)
            );
        }
    }
    out.push('\n');
}

fn comparability(out: &mut String, report: &Report) {
    let verdict = match report.audit.verdict {
        Severity::Blocking => "**not comparable** (blocking findings)",
        Severity::Caution => "comparable with cautions",
        Severity::Info => "comparable",
    };
    let _ = writeln!(out, "## Comparability: {verdict}\n");
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
    let _ = writeln!(
        out,
        "### Effective settings
"
    );
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
            let text = run.settings.get(row).map_or_else(
                || "—".to_owned(),
                |s| match &s.resolution {
                    Resolution::Resolved { value, .. } => format!(
                        "{} ({})",
                        markdown_text(&setting_value(value)),
                        cell(&setting_source(&s.resolution))
                    ),
                    Resolution::Unresolved { .. } => "not resolved".to_owned(),
                },
            );
            let _ = write!(out, " {text} |");
        }
        out.push('\n');
    }
    out.push('\n');
}

fn coverage(out: &mut String, report: &Report) {
    let cov = &report.coverage;
    let _ = writeln!(out, "## Coverage\n");
    let _ = writeln!(out, "Union of tasks: {}.\n", cov.union_tasks);
    let _ = writeln!(
        out,
        "| run | selected | attempted | scored | graded | cut-off | model ending | failed | cancelled | unfinished | ungraded | other | samples | valid |"
    );
    let _ = writeln!(
        out,
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
    );
    for r in &cov.runs {
        let t = &r.tasks_by_class;
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            shown(&r.name),
            r.tasks_selected.map_or("—".to_owned(), |n| n.to_string()),
            r.tasks_attempted,
            r.tasks_scored,
            t.graded,
            t.cut_off,
            t.model_ending,
            t.failed,
            t.cancelled,
            t.unfinished,
            t.ungraded,
            t.other,
            r.samples_total,
            r.samples_valid
        );
    }
    let _ = writeln!(
        out,
        "\n(task columns count tasks with at least one trajectory of that class)\n"
    );
    for pair in &cov.comparisons {
        let name = report
            .runs
            .iter()
            .find(|r| r.index == pair.candidate)
            .map_or("candidate", |r| r.name.as_str());
        let _ = writeln!(out, "- {}: {}", shown(name), pairing_line(pair));
    }
    coverage_warnings(out, &cov.warnings);
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
    let _ = writeln!(out, "### Where the Δ comes from\n");
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
        out.push('\n');
    } else {
        let _ = writeln!(out, "No task has a category.\n");
    }
    let _ = writeln!(out, "Flaky tasks: {}.\n", flaky_sentence(&c.flaky));
    let pass_k = &report.headline(c).pass_at_k;
    if !pass_k.is_empty() {
        table_head(out, &PASS_K_COLUMNS);
        for pk in pass_k {
            let cells = pass_k_cells(pk);
            let _ = writeln!(
                out,
                "| {} |",
                cells
                    .iter()
                    .map(|c| cell(c))
                    .collect::<Vec<_>>()
                    .join(" | ")
            );
        }
        out.push('\n');
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
    let _ = writeln!(out, "Baseline mean {}.\n", opt(progression.baseline_mean));
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
            opt(point.mean),
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
    out.push_str("### The platform's own progression\n\n");
    if let Some(error) = &platform.error {
        let _ = writeln!(out, "Could not be read: {}\n", markdown_text(error));
        return;
    }
    table_head(out, &super::PLATFORM_COLUMNS);
    for step in &platform.steps {
        let cells: Vec<String> = super::platform_cells(step)
            .iter()
            .map(|text| cell(text))
            .collect();
        let _ = writeln!(out, "| {} |", cells.join(" | "));
    }
    let _ = writeln!(out, "\n{}\n", super::platform_sentence(platform));
}

fn table_head(out: &mut String, columns: &[&str]) {
    let _ = writeln!(out, "| {} |", columns.join(" | "));
    let _ = writeln!(out, "|{}", "---|".repeat(columns.len()));
}

/// How many task disagreements with the platform are listed per job.
const TOP_DISAGREEMENTS: usize = 10;

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
            opt(job.pass_rate),
            job.decided_tasks,
            opt(job.platform_pass_rate),
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
        "## Platform results beside the trials
"
    );
    for check in &report.platform {
        let _ = writeln!(
            out,
            "- Job {}: the platform lists {} tasks, pass rate {}; the trials decide {} tasks, pass rate {}; {} agree, {} differ{}.",
            markdown_code(&check.job_id),
            check.platform_tasks,
            opt(check.platform_pass_rate),
            check.computed_tasks,
            opt(check.computed_pass_rate),
            check.agreeing_tasks,
            check.disagreements.len(),
            if check.pass_rate_agrees {
                ""
            } else {
                "; the pass rates differ"
            }
        );
        if check.disagreements.is_empty() {
            continue;
        }
        let _ = writeln!(
            out,
            "\n  | task | platform | trials | platform's failed scorers | scorers failed in trials |"
        );
        let _ = writeln!(out, "  |---|---|---|---|---|");
        for d in check.disagreements.iter().take(TOP_DISAGREEMENTS) {
            let _ = writeln!(
                out,
                "  | {} | {} | {} | {} | {} |",
                markdown_code(&d.task_id),
                d.platform.label(),
                d.computed.label(),
                markdown_text(&d.platform_failed_scorers.join(", ")),
                markdown_text(&d.computed_failed_scorers.join(", ")),
            );
        }
        if check.disagreements.len() > TOP_DISAGREEMENTS {
            let _ = writeln!(
                out,
                "\n  and {} more.",
                check.disagreements.len() - TOP_DISAGREEMENTS
            );
        }
        out.push('\n');
    }
    out.push('\n');
}

/// Each component's own paired Δ, in its own units (the page's cells).
fn components(out: &mut String, c: &CandidateResult) {
    if c.components.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "Components (each component's or scorer's own paired Δ over the tasks both runs have a value for it, in its own units; weight 0 is informative, not in the reward):\n"
    );
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

fn opt(value: Option<f64>) -> String {
    value.map_or("—".to_owned(), |v| format!("{v:.4}"))
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
