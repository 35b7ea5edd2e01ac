//! The comparability audit: its verdict on one line, folded when the runs are comparable (the
//! findings and settings opened on demand) and open, the worst findings first, when a finding is
//! a caution or blocks; then the effective settings it compared ([`settings_table`]: the rows
//! that differ, the rest on demand). Its words are in [`audit_words`] and [`settings_words`].

pub mod audit_words;
pub mod settings_table;
pub mod settings_words;

use std::sync::Arc;

use eval_compare_core::audit::{Finding, Severity};
use eval_compare_core::report::Report;
use eval_compare_core::text::{quoted_parts, QuotedPart};
use leptos::prelude::*;

use crate::components::disclosure::toggled_open;
use audit_words::{audit_open, folded_contents, verdict_words, worst_first};
use settings_table::SettingsTable;
use settings_words::rows_differing;

/// Label and CSS modifier of a severity.
pub fn severity_label(severity: Severity) -> (&'static str, &'static str) {
    match severity {
        Severity::Info => ("info", "severity-info"),
        Severity::Caution => ("caution", "severity-caution"),
        Severity::Blocking => ("blocking", "severity-blocking"),
    }
}

/// The verdict ("comparable", "comparable with cautions", "not comparable") as the line that
/// opens the panel, then the findings, worst first, each with its severity badge, code and
/// message, and the settings table.
#[component]
pub fn AuditPanel(
    /// The report.
    #[prop(into)]
    report: Signal<Arc<Report>>,
) -> impl IntoView {
    let verdict = Memo::new(move |_| report.with(|report| report.audit.verdict));
    // The reader's last open or close, and the verdict it was made under: a newer report with
    // the same verdict keeps it, another verdict opens or folds the panel by its own rule.
    let chosen = RwSignal::new(None::<(Severity, bool)>);
    let findings = move || {
        report.with(|report| {
            if report.audit.findings.is_empty() {
                return view! { <p class="muted">"No findings."</p> }.into_any();
            }
            let items = worst_first(&report.audit.findings)
                .into_iter()
                .map(|finding| view! { <FindingItem finding=finding.clone()/> })
                .collect_view();
            view! { <ul class="findings">{items}</ul> }.into_any()
        })
    };
    view! {
        <section class="panel audit" aria-labelledby="audit-title">
            <details
                class="audit-details"
                prop:open=move || audit_open(verdict.get(), chosen.get())
                on:toggle=move |event| {
                    chosen.set(Some((verdict.get_untracked(), toggled_open(&event))));
                }
            >
                <AuditSummary report verdict/>
                {findings}
                <SettingsTable report/>
            </details>
        </section>
    }
}

/// The line that opens and folds the audit: its verdict, what that means, and (folded) what
/// opening it shows.
#[component]
fn AuditSummary(report: Signal<Arc<Report>>, verdict: Memo<Severity>) -> impl IntoView {
    let contents = move || {
        report.with(|report| {
            let settings = rows_differing(&report.audit.settings);
            let differing = settings.iter().filter(|differs| **differs).count();
            folded_contents(report.audit.findings.len(), settings.len(), differing)
        })
    };
    move || {
        let words = verdict_words(verdict.get());
        view! {
            <summary class=format!("verdict {}", words.modifier)>
                <h3 id="audit-title" class="panel-title">"Comparability: "{words.title}</h3>
                <p class="verdict-explanation">
                    {words.explanation}
                    <span class="audit-contents">{contents}</span>
                </p>
            </summary>
        }
    }
}

/// One finding.
#[component]
fn FindingItem(finding: Finding) -> impl IntoView {
    let (label, modifier) = severity_label(finding.severity);
    view! {
        <li class="finding">
            <span class=format!("severity {modifier}")>{label}</span>
            <code class="finding-code">{finding.code}</code>
            <span class="finding-message">{quoted_view(&finding.message)}</span>
        </li>
    }
}

/// A phrase of the report's own with its `` `quoted` `` parts as `<code>` (text, never markup).
fn quoted_view(text: &str) -> impl IntoView {
    quoted_parts(text)
        .into_iter()
        .map(|part| match part {
            QuotedPart::Words(words) => words.to_owned().into_any(),
            QuotedPart::Code(code) => view! { <code>{code.to_owned()}</code> }.into_any(),
        })
        .collect_view()
}
