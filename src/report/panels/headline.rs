//! The headline of each candidate: its sentence, Δ with its interval, the tests that apply, and
//! a details expander with every statistic of both analyses.

use std::sync::Arc;

use eval_compare_core::model::Analysis;
use eval_compare_core::report::{
    detail_rows, CandidateResult, DetailCells, PairedAnalysis, Report, Verdict,
};
use leptos::prelude::*;

use crate::components::disclosure::toggled_open;
use crate::components::stat_text::{
    count, interval_points, mean, optional_mean, p_value, points, signed_points, StatText,
};
use crate::format::capitalized;

/// Label and CSS modifier of a verdict.
pub fn verdict_label(verdict: Verdict) -> (&'static str, &'static str) {
    match verdict {
        Verdict::Better => ("better", "verdict-better"),
        Verdict::Worse => ("worse", "verdict-worse"),
        Verdict::Inconclusive => ("no significant difference", "verdict-inconclusive"),
        Verdict::NotComputable => ("not computable", "verdict-none"),
    }
}

fn analysis_name(analysis: Analysis) -> &'static str {
    match analysis {
        Analysis::Primary => "primary",
        Analysis::Sensitivity => "sensitivity",
    }
}

/// One card per candidate, in report order; the focused one is marked.
#[component]
pub fn HeadlineCards(
    /// The report.
    #[prop(into)]
    report: Signal<Arc<Report>>,
    /// Index of the focused candidate.
    #[prop(into)]
    focus: Signal<usize>,
    /// True while the bootstrap of this report is still being computed.
    #[prop(into)]
    bootstrap_pending: Signal<bool>,
) -> impl IntoView {
    // Cards are made once per candidate and update in place as the report is recomputed.
    let count = Memo::new(move |_| report.with(|report| report.candidates.len()));
    view! {
        <section class="headlines" aria-label="Headline per candidate">
            {move || {
                (0..count.get())
                    .map(|index| {
                        view! {
                            <HeadlineCard
                                report
                                index
                                focused=Signal::derive(move || focus.get() == index)
                                bootstrap_pending
                            />
                        }
                    })
                    .collect_view()
            }}
        </section>
    }
}

/// The card of candidate `index`: verdict, sentence, Δ and interval, p-values (adjusted when
/// several candidates), wins/ties/losses, means, power, the other analysis' Δ, and details.
#[component]
pub fn HeadlineCard(
    /// The report.
    #[prop(into)]
    report: Signal<Arc<Report>>,
    /// Position of the candidate in [`Report::candidates`].
    index: usize,
    /// Whether the table and per-task charts show this candidate.
    #[prop(into)]
    focused: Signal<bool>,
    /// True while the bootstrap is still being computed.
    #[prop(into)]
    bootstrap_pending: Signal<bool>,
) -> impl IntoView {
    let details_open = RwSignal::new(false);
    move || report.with(|report| card(report, index, focused, bootstrap_pending, details_open))
}

/// The card of candidate `index`, when the report has it.
fn card(
    report: &Arc<Report>,
    index: usize,
    focused: Signal<bool>,
    bootstrap_pending: Signal<bool>,
    details_open: RwSignal<bool>,
) -> Option<impl IntoView> {
    let candidate = report.candidates.get(index)?;
    let run = report.run_of(candidate)?;
    let baseline = report.baseline()?;
    let (verdict, modifier) = verdict_label(candidate.verdict);
    let headline = report.headline(candidate);
    let other = match headline.analysis {
        Analysis::Primary => &candidate.sensitivity,
        Analysis::Sensitivity => &candidate.primary,
    };
    let level = (report.settings.level * 100.0).round();
    let several = report.candidates.len() > 1;
    let delta = StatText::and_then(&headline.estimate, |estimate| {
        let interval = StatText::of(&estimate.t_interval, interval_points);
        StatText::Value(match interval {
            StatText::Value(interval) => format!(
                "{} points ({level}% CI {interval})",
                signed_points(estimate.delta)
            ),
            StatText::Missing(reason) => format!(
                "{} points (no interval: {reason})",
                signed_points(estimate.delta)
            ),
        })
    })
    .text();
    let p_values = p_values_line(headline, candidate, several);
    let wtl = StatText::of(&headline.win_tie_loss, |w| {
        format!(
            "{} / {} / {}",
            count(w.wins as u64),
            count(w.ties as u64),
            count(w.losses as u64)
        )
    })
    .text();
    let other_delta = StatText::and_then(&other.estimate, |estimate| {
        StatText::Value(format!(
            "{} points{} on {}",
            signed_points(estimate.delta),
            match &estimate.t_interval {
                Ok(ci) => format!(" ({level}% CI {})", interval_points(ci)),
                Err(_) => String::new(),
            },
            match other.analysis {
                Analysis::Primary => format!("{} paired tasks", count(other.n as u64)),
                Analysis::Sensitivity =>
                    format!("{} tasks, failed and absent as 0", count(other.n as u64)),
            }
        ))
    })
    .text();
    let mde = StatText::of(&headline.mde, |m| format!("{} points", points(m.mde))).text();
    let needed = StatText::of(&headline.tasks_needed, |n| count(*n)).text();
    let target = signed_points(report.settings.target_delta);
    let correlation = StatText::and_then(&headline.estimate, |estimate| {
        StatText::of(&estimate.correlation, |r| mean(*r))
    })
    .text();
    let means = format!(
        "{} → {} (task-weighted) · platform {} → {} (pooled)",
        optional_mean(baseline.task_weighted_mean),
        optional_mean(run.task_weighted_mean),
        optional_mean(baseline.platform_reward_mean),
        optional_mean(run.platform_reward_mean),
    );
    let title = run.name.clone();
    let sentence = candidate.sentence.clone();
    let other_label = format!("{} Δ", capitalized(analysis_name(other.analysis)));
    let details = details_table(Arc::clone(report), index, bootstrap_pending);
    Some(view! {
        <article class=format!("headline-card {modifier}") class:focused=move || focused.get() data-run-id=run.id.clone()>
            <header class="headline-head">
                <h3 class="headline-title">{title}</h3>
                <span class=format!("verdict-badge {modifier}")>{verdict}</span>
                {move || focused.get().then(|| view! { <span class="focus-mark">"in focus"</span> })}
            </header>
            <p class="headline-sentence">{sentence}"."</p>
            <dl class="headline-stats">
                <div>
                    <dt>{format!("Δ ({} analysis)", analysis_name(headline.analysis))}</dt>
                    <dd class="headline-delta">{delta}</dd>
                </div>
                <div>
                    <dt>"p-values"</dt>
                    <dd class="p-list">
                        {p_values.into_iter().map(|p| view! { <span>{p}</span> }).collect_view()}
                    </dd>
                </div>
                <div>
                    <dt>"Wins / ties / losses"</dt>
                    <dd>{wtl}</dd>
                </div>
                <div>
                    <dt>"Mean reward, baseline → candidate"</dt>
                    <dd>{means}</dd>
                </div>
                <div>
                    <dt>"Minimum detectable effect"</dt>
                    <dd>{mde}</dd>
                </div>
                <div>
                    <dt>{format!("Tasks needed to detect {target} points")}</dt>
                    <dd>{needed}</dd>
                </div>
                <div>
                    <dt>"Correlation of task scores"</dt>
                    <dd>{correlation}</dd>
                </div>
                <div>
                    <dt>{other_label}</dt>
                    <dd>{other_delta}</dd>
                </div>
            </dl>
            <details
                class="headline-details"
                prop:open=move || details_open.get()
                on:toggle=move |event| details_open.set(toggled_open(&event))
            >
                <summary>"Details"</summary>
                {details}
            </details>
        </article>
    })
}

/// The p-values that apply: t, Wilcoxon (Pratt), sign, McNemar when present, and Holm and BH
/// adjusted ones when several candidates are compared.
fn p_values_line(
    analysis: &PairedAnalysis,
    candidate: &CandidateResult,
    several: bool,
) -> Vec<String> {
    let mut parts = vec![
        format!(
            "t {}",
            StatText::of(&analysis.t_test, |t| p_value(t.p_value)).text()
        ),
        format!(
            "Wilcoxon (Pratt) {}",
            StatText::of(&analysis.wilcoxon_pratt, |w| p_value(w.p_value)).text()
        ),
        format!(
            "sign {}",
            StatText::of(&analysis.sign_test, |s| p_value(s.p_value)).text()
        ),
    ];
    if let Some(mcnemar) = &analysis.mcnemar {
        parts.push(format!(
            "McNemar {}",
            StatText::of(mcnemar, |m| p_value(m.p_exact)).text()
        ));
    }
    if several {
        parts.push(format!(
            "Holm {}",
            StatText::of(&candidate.p_holm, |p| p_value(*p)).text()
        ));
        parts.push(format!(
            "BH {}",
            StatText::of(&candidate.p_bh, |p| p_value(*p)).text()
        ));
    }
    parts
}

/// The details expander's table: the core's [`detail_rows`] of candidate `index`, the same
/// rows the CLI's markdown prints; its bootstrap rows say "computing…" while it is pending.
fn details_table(
    report: Arc<Report>,
    index: usize,
    bootstrap_pending: Signal<bool>,
) -> impl IntoView {
    let body = move || {
        let pending = bootstrap_pending.get();
        let Some(candidate) = report.candidates.get(index) else {
            return Vec::new();
        };
        detail_rows(&report, candidate, pending)
            .into_iter()
            .map(|row| {
                let cells = match row.cells {
                    DetailCells::PerAnalysis {
                        primary,
                        sensitivity,
                    } => view! { <td>{primary}</td><td>{sensitivity}</td> }.into_any(),
                    DetailCells::Whole(text) => view! { <td colspan="2">{text}</td> }.into_any(),
                };
                view! {
                    <tr>
                        <th scope="row">{row.label}</th>
                        {cells}
                    </tr>
                }
            })
            .collect::<Vec<_>>()
    };
    view! {
        <div class="table-scroll">
            <table class="data-table compact details-table">
                <thead>
                    <tr>
                        <th scope="col">"Statistic"</th>
                        <th scope="col">"Primary (paired tasks)"</th>
                        <th scope="col">"Sensitivity (failed and absent as 0)"</th>
                    </tr>
                </thead>
                <tbody>{body}</tbody>
            </table>
        </div>
    }
}
