//! The report-wide sections of the HTML document: header, headline verdicts, runs, audit,
//! coverage ledger, categories and the progression by step.

use std::borrow::Cow;
use std::fmt::Write;

use crate::audit::{Lifecycle, Severity};
use crate::text::{
    count, html_text, interval_points, optional_value, p_value, quoted_parts, shorten,
    signed_points, QuotedPart, StatText, MISSING, SHOWN_NAME_CHARS,
};

use super::super::details::{headline_anytime_interval, interval_method_text};
use super::super::words::{
    beside_delta, comparability_words, incomplete_loads, pairings, setting_cell, settings_line,
    union_line, BESIDE_DELTA, EFFECTIVE_SETTINGS, PLATFORM_PROGRESSION_HEADING, TASK_COLUMNS_NOTE,
};
use super::super::words::{ledger_changes, ledger_verdicts, set_aside_cell, SET_ASIDE_COLUMN};
use super::super::{Decision, Report};
use super::svg;

/// A table cell of text (escaped).
pub(super) fn td(out: &mut String, text: &str) {
    let _ = write!(out, "<td>{}</td>", html_text(text));
}

/// A name or label from the data as a heading or cell shows it: its escaped text, cut to
/// [`SHOWN_NAME_CHARS`] characters, and ` title="…"` holding the whole of it when it was cut
/// (else empty).
pub(super) fn shown(text: &str) -> (String, String) {
    match shorten(text, SHOWN_NAME_CHARS) {
        Cow::Borrowed(_) => (html_text(text), String::new()),
        Cow::Owned(short) => (html_text(&short), format!(" title=\"{}\"", html_text(text))),
    }
}

/// A table cell of a name or label from the data ([`shown`]).
pub(super) fn td_shown(out: &mut String, text: &str) {
    let (text, title) = shown(text);
    let _ = write!(out, "<td{title}>{text}</td>");
}

/// A numeric table cell (escaped, right-aligned).
pub(super) fn td_num(out: &mut String, text: &str) {
    let _ = write!(out, "<td class=\"num\">{}</td>", html_text(text));
}

/// A table's header row.
pub(super) fn head(out: &mut String, columns: &[&str]) {
    out.push_str("<thead><tr>");
    for column in columns {
        let _ = write!(out, "<th scope=\"col\">{}</th>", html_text(column));
    }
    out.push_str("</tr></thead>");
}

/// How a cell of [`cells_table`] is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum CellKind {
    /// The report's own text ([`td`]).
    Text,
    /// A name or label from the data ([`td_shown`]).
    Shown,
    /// A number, right-aligned ([`td_num`]).
    Num,
}

/// The one writer of a table of text cells (in its scrolling box): its header row, then a row
/// per item of `rows`, the cell in column `i` written as `kind(i)` says.
pub(super) fn cells_table<R: AsRef<[String]>>(
    out: &mut String,
    columns: &[&str],
    rows: impl IntoIterator<Item = R>,
    kind: impl Fn(usize) -> CellKind,
) {
    out.push_str("<div class=\"scroll\"><table>");
    head(out, columns);
    out.push_str("<tbody>");
    for row in rows {
        out.push_str("<tr>");
        for (index, text) in row.as_ref().iter().enumerate() {
            match kind(index) {
                CellKind::Text => td(out, text),
                CellKind::Shown => td_shown(out, text),
                CellKind::Num => td_num(out, text),
            }
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table></div>");
}

/// Run `run`'s name as a heading ([`shown`]) and a list of its `lines`, escaped; `false` (and
/// nothing written) when the report has no such run.
pub(super) fn run_list(out: &mut String, report: &Report, run: usize, lines: &[String]) -> bool {
    let Some(run) = report.runs.get(run) else {
        return false;
    };
    let (name, title) = shown(&run.name);
    let _ = write!(out, "<h3{title}>{name}</h3><ul>");
    for line in lines {
        let _ = write!(out, "<li>{}</li>", html_text(line));
    }
    out.push_str("</ul>");
    true
}

/// A phrase of the report's own, escaped, with each `` `quoted` `` name in it (an option key,
/// a run id) set as code ([`quoted_parts`]).
pub(super) fn html_quoted(text: &str) -> String {
    quoted_parts(text)
        .into_iter()
        .map(|part| match part {
            QuotedPart::Words(words) => html_text(words),
            QuotedPart::Code(code) => format!("<code>{}</code>", html_text(code)),
        })
        .collect()
}

/// A figure with its SVG.
pub(super) fn figure(out: &mut String, svg: &str) {
    let _ = write!(out, "<figure>{svg}</figure>");
}

/// The title and what the numbers were computed with.
pub fn header(out: &mut String, report: &Report, title: &str) {
    let _ = write!(out, "<header><h1>{}</h1>", html_text(title));
    if let Some(changes) = ledger_changes(report) {
        let _ = write!(
            out,
            "<p class=\"lead\"><strong>{}</strong></p>",
            html_text(&changes)
        );
    }
    let _ = writeln!(
        out,
        "<p class=\"meta\">{}</p></header>",
        html_text(&settings_line(report))
    );
}

/// The class of a verdict's badge.
fn decision_class(decision: Decision) -> &'static str {
    match decision {
        Decision::Better => "better",
        Decision::Worse => "worse",
        Decision::NoDetectableDifference => "same",
        _ => "unsure",
    }
}

/// One card per candidate: verdict, Δ with what stands beside it (`words::beside_delta`: turns,
/// tokens, trial steps and duration, cost), interval, Holm-adjusted p, the sentence and the
/// reasons;
/// then the forest plot of every candidate's Δ.
pub fn headline(out: &mut String, report: &Report) {
    out.push_str("<section id=\"headline\"><h2>Verdicts</h2><div class=\"cards\">");
    for candidate in &report.candidates {
        let name = report
            .run_of(candidate)
            .map_or("candidate", |run| run.name.as_str());
        let analysis = report.headline(candidate);
        let delta = StatText::of(&analysis.estimate, |e| {
            format!("{} points", signed_points(e.delta))
        })
        .text();
        let interval = StatText::of(&candidate.verdict.interval, |i| {
            format!("{} points", interval_points(i))
        })
        .text();
        let verdict = &candidate.verdict;
        let (name, title) = shown(name);
        let beside: String = beside_delta(report, candidate)
            .iter()
            .map(|part| {
                format!(
                    "<span class=\"beside\">{BESIDE_DELTA}{}</span>",
                    html_text(part)
                )
            })
            .collect();
        let _ = write!(
            out,
            "<article class=\"card\"><h3{title}>{name}</h3><p class=\"verdict {}\">{}</p><p class=\"delta\"><span class=\"value\">Δ {}</span>{beside}</p><dl>\
             <dt>{} ({}%)</dt><dd>{}</dd><dt>Holm-adjusted p</dt><dd>{}</dd><dt>paired tasks</dt><dd>{}</dd></dl><p>{}.</p>",
            decision_class(verdict.decision),
            html_text(&verdict.headline()),
            html_text(&delta),
            html_text(&interval_method_text(verdict.interval_method)),
            (report.settings.level * 100.0).round(),
            html_text(&interval),
            html_text(&StatText::of(&candidate.p_holm, |p| p_value(*p)).text()),
            html_text(&count(analysis.n as u64)),
            html_text(&candidate.sentence)
        );
        if !verdict.reasons.is_empty() || headline_anytime_interval(report, candidate).is_some() {
            out.push_str("<ul class=\"reasons\">");
            for reason in &verdict.reasons {
                let _ = write!(out, "<li>{}</li>", html_text(reason));
            }
            if let Some(anytime) = headline_anytime_interval(report, candidate) {
                let _ = write!(out, "<li>{}.</li>", html_text(&anytime));
            }
            out.push_str("</ul>");
        }
        if let Some(line) = ledger_verdicts(report, candidate) {
            let _ = write!(out, "<p class=\"ledger-verdicts\">{}</p>", html_text(&line));
        }
        out.push_str("</article>");
    }
    out.push_str("</div>");
    figure(out, &svg::forest(report));
    out.push_str("</section>\n");
}

/// The compared runs with their three means.
pub fn runs(out: &mut String, report: &Report) {
    out.push_str("<section id=\"runs\"><h2>Runs</h2><div class=\"scroll\"><table class=\"runs\">");
    head(
        out,
        &[
            "role",
            "name",
            "id",
            "model",
            "benchmark",
            "status",
            "tasks scored",
            "task-weighted mean",
            "pooled mean",
            "platform mean",
        ],
    );
    out.push_str("<tbody>");
    for run in &report.runs {
        out.push_str("<tr>");
        td(
            out,
            match run.role {
                super::super::Role::Baseline => "baseline",
                super::super::Role::Candidate => "candidate",
            },
        );
        td_shown(out, &run.name);
        let _ = write!(out, "<td><code>{}</code></td>", html_text(&run.id));
        td(out, run.base_model.as_deref().unwrap_or(MISSING));
        td(out, run.bench_id.as_deref().unwrap_or(MISSING));
        td(out, run.status.as_deref().unwrap_or(MISSING));
        td_num(out, &count(run.tasks_scored));
        td_num(out, &optional_value(run.task_weighted_mean));
        td_num(out, &optional_value(run.pooled_mean));
        td_num(out, &optional_value(run.platform_reward_mean));
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table></div>");
    for line in incomplete_loads(report) {
        let _ = write!(out, "<p class=\"warning\">{}</p>", html_quoted(&line));
    }
    out.push_str(
        "<p class=\"note\">Task-weighted: the mean of the per-task means (the analysis' mean); \
         pooled: over all included samples; platform: the API's own reward mean.</p></section>\n",
    );
}

/// The comparability audit: its verdict, findings and the effective settings per run.
pub fn audit(out: &mut String, report: &Report) {
    let class = match report.audit.verdict {
        Severity::Blocking => "worse",
        Severity::Caution => "unsure",
        Severity::Info => "same",
    };
    let _ = write!(
        out,
        "<section id=\"audit\"><h2>Comparability: <span class=\"verdict {class}\">{}</span></h2>",
        html_text(comparability_words(report.audit.verdict))
    );
    if report.audit.findings.is_empty() {
        out.push_str("<p>No findings.</p>");
    } else {
        out.push_str("<ul class=\"findings\">");
        for finding in &report.audit.findings {
            let severity = match finding.severity {
                Severity::Blocking => "blocking",
                Severity::Caution => "caution",
                Severity::Info => "info",
            };
            let _ = write!(
                out,
                "<li><span class=\"severity {severity}\">{severity}</span> <code>{}</code>: {}</li>",
                html_text(&finding.code),
                html_text(&finding.message)
            );
        }
        out.push_str("</ul>");
    }
    effective_settings(out, report);
    out.push_str("</section>\n");
}

/// One row per setting, one column per run, each value with where it came from.
fn effective_settings(out: &mut String, report: &Report) {
    let settings = &report.audit.settings;
    let Some(first) = settings.first() else {
        return;
    };
    let names: Vec<String> = settings
        .iter()
        .map(|run| {
            report.runs.iter().find(|r| r.index == run.run).map_or_else(
                || MISSING.to_owned(),
                |r| shorten(&r.name, SHOWN_NAME_CHARS).into_owned(),
            )
        })
        .collect();
    let _ = write!(
        out,
        "<h3>{}</h3><div class=\"scroll\"><table>",
        html_text(EFFECTIVE_SETTINGS)
    );
    let mut columns = vec!["setting"];
    columns.extend(names.iter().map(String::as_str));
    head(out, &columns);
    out.push_str("<tbody>");
    for (row, setting) in first.settings.iter().enumerate() {
        out.push_str("<tr>");
        td(out, setting.setting.label());
        for run in settings {
            // The value stays plain text; the source's quoted option key is set as code.
            let html = setting_cell(run.settings.get(row), html_text, html_quoted);
            let _ = write!(out, "<td>{html}</td>");
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table></div>");
}

/// The coverage ledger: per run, tasks by class and samples; per candidate, what is paired; the
/// warnings; and the coverage bars.
pub fn coverage(out: &mut String, report: &Report) {
    let cov = &report.coverage;
    // The column of tasks set aside only when the report has a ledger.
    let ledger = report.ledger.is_some();
    let _ = write!(
        out,
        "<section id=\"coverage\"><h2>Coverage</h2><p>{}</p><div class=\"scroll\"><table>",
        html_text(&union_line(cov))
    );
    head(
        out,
        &[
            "run",
            "selected",
            "attempted",
            "scored",
            "graded",
            "cut-off",
            "model ending",
            "failed",
            "cancelled",
            "unfinished",
            "ungraded",
            "other",
            "samples",
            "valid",
            SET_ASIDE_COLUMN,
        ][..(if ledger { 15 } else { 14 })],
    );
    out.push_str("<tbody>");
    for run in &cov.runs {
        let t = &run.tasks_by_class;
        out.push_str("<tr>");
        td_shown(out, &run.name);
        td_num(
            out,
            &run.tasks_selected.map_or_else(|| MISSING.to_owned(), count),
        );
        for value in [
            run.tasks_attempted,
            run.tasks_scored,
            u64::from(t.graded),
            u64::from(t.cut_off),
            u64::from(t.model_ending),
            u64::from(t.failed),
            u64::from(t.cancelled),
            u64::from(t.unfinished),
            u64::from(t.ungraded),
            u64::from(t.other),
            run.samples_total,
            run.samples_valid,
        ] {
            td_num(out, &count(value));
        }
        if ledger {
            td(out, &set_aside_cell(run.set_aside.as_ref()));
        }
        out.push_str("</tr>");
    }
    let _ = write!(
        out,
        "</tbody></table></div><p class=\"note\">{}</p>",
        html_text(TASK_COLUMNS_NOTE)
    );
    if let Some(bars) = svg::coverage_bars(report) {
        figure(out, &bars);
    }
    out.push_str("<ul>");
    for (name, pairing) in pairings(report) {
        let name = shorten(name, SHOWN_NAME_CHARS);
        let _ = write!(out, "<li>{}</li>", html_text(&format!("{name}: {pairing}")));
    }
    out.push_str("</ul>");
    // Warnings grouped by code, the ones that can change the answer first (as the page).
    let groups = crate::coverage::group_warnings(&cov.warnings);
    if !groups.is_empty() {
        out.push_str("<ul class=\"warning-groups\">");
        for group in groups {
            let _ = write!(
                out,
                "<li class=\"warning{}\"><code>{}</code> ({}): {}<ul>",
                if group.is_important() {
                    " important"
                } else {
                    ""
                },
                html_text(group.code),
                html_text(&count(group.warnings.len() as u64)),
                html_text(group.summary)
            );
            for warning in group.warnings {
                let _ = write!(out, "<li>{}</li>", html_text(&warning.message));
            }
            out.push_str("</ul></li>");
        }
        out.push_str("</ul>");
    }
    out.push_str("</section>\n");
}

/// The task categories with their task counts (each candidate's Δ per category is in its own
/// section).
pub fn categories(out: &mut String, report: &Report) {
    if report.categories.is_empty() {
        return;
    }
    let mut tasks = vec![0u64; report.categories.len()];
    for task in &report.tasks {
        for &category in &task.categories {
            if let Some(n) = tasks.get_mut(category as usize) {
                *n += 1;
            }
        }
    }
    out.push_str("<section id=\"categories\"><h2>Categories</h2><div class=\"scroll\"><table>");
    head(out, &["category", "tasks"]);
    out.push_str("<tbody>");
    for (name, n) in report.categories.iter().zip(&tasks) {
        out.push_str("<tr>");
        td_shown(out, name);
        td_num(out, &count(*n));
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table></div></section>\n");
}

/// Δ by checkpoint step, when the candidates are checkpoints of one training run.
pub fn progression(out: &mut String, report: &Report) {
    let (Some(progression), Some(chart)) = (&report.progression, svg::progression(report)) else {
        return;
    };
    let _ = write!(
        out,
        "<section id=\"progression\"><h2>Progression of <code>{}</code></h2>",
        html_text(&progression.training_run_id)
    );
    figure(out, &chart);
    out.push_str("<div class=\"scroll\"><table>");
    head(out, &["step", "mean", "Δ (points)", "interval of Δ"]);
    out.push_str("<tbody>");
    for point in &progression.points {
        let running = report
            .runs
            .get(point.run)
            .is_some_and(|run| Lifecycle::of(run.status.as_deref()) == Lifecycle::NotFinished);
        out.push_str("<tr>");
        td_num(
            out,
            &if running {
                format!("{} (running)", point.step)
            } else {
                point.step.to_string()
            },
        );
        td_num(out, &optional_value(point.mean));
        td_num(
            out,
            &point
                .delta
                .map_or_else(|| MISSING.to_owned(), signed_points),
        );
        td_num(
            out,
            &StatText::of(&point.delta_interval, interval_points).text(),
        );
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table></div>");
    if let Some(platform) = &progression.platform {
        let _ = write!(out, "<h3>{}</h3>", html_text(PLATFORM_PROGRESSION_HEADING));
        if platform.error.is_none() {
            out.push_str("<div class=\"scroll\"><table>");
            head(out, &crate::report::PLATFORM_COLUMNS);
            out.push_str("<tbody>");
            for step in &platform.steps {
                out.push_str(if step.disagrees {
                    "<tr class=\"warning important\">"
                } else {
                    "<tr>"
                });
                for (i, text) in crate::report::platform_cells(step).iter().enumerate() {
                    if i == 0 || i == 4 {
                        td(out, text);
                    } else {
                        td_num(out, text);
                    }
                }
                out.push_str("</tr>");
            }
            out.push_str("</tbody></table></div>");
        }
        let _ = write!(
            out,
            "<p>{}</p>",
            html_text(&crate::report::platform_sentence(platform))
        );
    }
    out.push_str("</section>\n");
}

/// What each statistic means, in the words the page's "?" opens ([`crate::report::explain`]),
/// for the report's settings.
pub fn glossary(out: &mut String, report: &Report) {
    out.push_str("<section id=\"glossary\"><h2>What the numbers mean</h2><dl class=\"glossary\">");
    for topic in crate::report::Topic::ALL {
        let title = topic.title();
        let mut chars = title.chars();
        let heading: String = chars
            .next()
            .map(|first| first.to_uppercase().chain(chars).collect())
            .unwrap_or_default();
        let _ = write!(
            out,
            "<dt id=\"{}\">{}</dt><dd>{}</dd>",
            topic.slug(),
            html_text(&heading),
            html_text(&crate::report::explain(topic, &report.settings))
        );
    }
    out.push_str("</dl></section>\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_parts_become_code() {
        assert_eq!(
            html_quoted("recorded, `temperature`"),
            "recorded, <code>temperature</code>"
        );
        assert_eq!(html_quoted("a `b` c `d"), "a <code>b</code> c `d");
        assert_eq!(html_quoted("<plain>"), "&lt;plain&gt;");
    }
}
