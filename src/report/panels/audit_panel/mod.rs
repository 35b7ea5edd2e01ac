//! The comparability verdict, every finding of the audit, and the effective settings it
//! compared ([`settings_table`], its words in [`settings_words`]).

pub mod settings_table;
pub mod settings_words;

use std::sync::Arc;

use eval_compare_core::audit::{Finding, Severity};
use eval_compare_core::report::Report;
use eval_compare_core::text::{quoted_parts, QuotedPart};
use leptos::prelude::*;

use settings_table::SettingsTable;

/// Label and CSS modifier of a severity.
pub fn severity_label(severity: Severity) -> (&'static str, &'static str) {
    match severity {
        Severity::Info => ("info", "severity-info"),
        Severity::Caution => ("caution", "severity-caution"),
        Severity::Blocking => ("blocking", "severity-blocking"),
    }
}

/// The verdict ("comparable", "comparable with cautions", "not comparable") and the findings,
/// each with its severity badge, code and message.
#[component]
pub fn AuditPanel(
    /// The report.
    #[prop(into)]
    report: Signal<Arc<Report>>,
) -> impl IntoView {
    let verdict = move || {
        report.with(|report| match report.audit.verdict {
            Severity::Info => (
                "Comparable",
                "verdict-ok",
                "Nothing found that would make these runs measure different things.",
            ),
            Severity::Caution => (
                "Comparable, with cautions",
                "verdict-caution",
                "The comparison stands, but a difference below may explain part of it.",
            ),
            Severity::Blocking => (
                "Not comparable",
                "verdict-blocking",
                "These runs measure different things: read the blocking findings before any number.",
            ),
        })
    };
    let findings = move || {
        report.with(|report| {
            if report.audit.findings.is_empty() {
                return view! { <p class="muted">"No findings."</p> }.into_any();
            }
            let items = report
                .audit
                .findings
                .iter()
                .map(|finding| view! { <FindingItem finding=finding.clone()/> })
                .collect_view();
            view! { <ul class="findings">{items}</ul> }.into_any()
        })
    };
    view! {
        <section class="panel audit" aria-labelledby="audit-title">
            {move || {
                let (title, modifier, explanation) = verdict();
                view! {
                    <div class=format!("verdict {modifier}")>
                        <h3 id="audit-title" class="panel-title">
                            "Comparability: "{title}
                        </h3>
                        <p class="verdict-explanation">{explanation}</p>
                    </div>
                }
            }}
            {findings}
            <SettingsTable report/>
        </section>
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
