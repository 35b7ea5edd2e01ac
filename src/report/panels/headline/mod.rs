//! The headline of each candidate: the core's verdict (its decision, its provisional and partial
//! marks and Retry under a verdict on runs not read completely, what a
//! "no detectable difference" rules out, and why), its sentence, the anytime-valid interval while
//! a compared run runs, with a reviewer's ledger the verdict with and without it (and first,
//! when the ledger changes a verdict, the sentence that says so), Δ with the named headline interval, the tests that apply, and a details expander with every statistic of both analyses.
//!
//! [`card_text`] makes what a card says from the report; the cards here only lay it out, and
//! [`details`] is the expander's table.

pub mod beside;
pub mod card_text;
pub mod details;
pub mod marks;

use std::sync::Arc;

use eval_compare_core::model::Analysis;
use eval_compare_core::report::{ledger_changes, Report, ReportSettings, Topic};
use leptos::prelude::*;

use crate::components::disclosure::toggled_open;
use crate::components::explain::explain_button;
pub use card_text::verdict_label;
use card_text::{card_text, CardText};
use details::DetailsTable;
use marks::{ReadTheRest, VerdictMarks};

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
    // When the reviewer's ledger changes a verdict, the page says so first.
    let changes = Memo::new(move |_| report.with(|report| ledger_changes(report)));
    view! {
        {move || {
            changes
                .get()
                .map(|sentence| {
                    view! {
                        <p class="notice notice-caution ledger-changes" role="status">
                            {sentence}
                        </p>
                    }
                })
        }}
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
    move || {
        report.with(|report| {
            let text = card_text(report, index)?;
            let details =
                view! { <DetailsTable report=Arc::clone(report) index bootstrap_pending/> };
            let beside = beside::beside_delta_view(report, index);
            Some(card(
                text,
                &report.settings,
                details,
                focused,
                details_open,
                beside,
            ))
        })
    }
}

/// A card laid out from its texts, with the details table in its expander, what stands beside
/// the Δ (`beside`) and a "?" beside each statistic explaining it under the report's `settings`.
fn card(
    text: CardText,
    settings: &ReportSettings,
    details: impl IntoView + 'static,
    focused: Signal<bool>,
    details_open: RwSignal<bool>,
    beside: impl IntoView + 'static,
) -> impl IntoView {
    let CardText {
        title,
        run_id,
        verdict,
        modifier,
        provisional,
        partial,
        incomplete,
        verdict_detail,
        reasons,
        sentence,
        anytime_interval,
        delta_label,
        delta,
        p_values,
        win_tie_loss,
        means,
        mde,
        needed_label,
        needed,
        correlation,
        other_label,
        other_delta,
        ledger,
    } = text;
    let (title, full_title) = crate::format::shown_name(&title);
    let explain = |topic| explain_button(topic, settings);
    let other_topic = match settings.headline {
        Analysis::Primary => Topic::SensitivityAnalysis,
        Analysis::Sensitivity => Topic::PrimaryAnalysis,
    };
    view! {
        <article
            class=format!("headline-card {modifier}")
            class:provisional=provisional
            class:partial=partial
            class:focused=move || focused.get()
            data-run-id=run_id
        >
            <header class="headline-head">
                <h3 class="headline-title" title=full_title>{title}</h3>
                <span class=format!("verdict-badge {modifier}")>{verdict}</span>
                {explain(Topic::Verdict)}
                <VerdictMarks provisional partial/>
                {move || focused.get().then(|| view! { <span class="focus-mark">"in focus"</span> })}
            </header>
            {verdict_detail.map(|detail| view! { <p class="verdict-detail">{detail}</p> })}
            {ledger.map(|both| view! { <p class="ledger-verdicts">{both}</p> })}
            <p class="headline-sentence">{sentence}"."</p>
            {(!reasons.is_empty())
                .then(|| {
                    view! {
                        <ul class="verdict-reasons">
                            {reasons
                                .into_iter()
                                .map(|reason| view! { <li>{reason}</li> })
                                .collect_view()}
                        </ul>
                    }
                })}
            <ReadTheRest incomplete/>
            {anytime_interval
                .map(|anytime| {
                    view! {
                        <p
                            class="anytime-interval"
                            title="A confidence sequence: it holds at every number of tasks, however often the page refreshes"
                        >
                            {anytime}
                            {explain_button(Topic::AnytimeValid, settings)}
                        </p>
                    }
                })}
            <dl class="headline-stats">
                <div>
                    <dt>{delta_label}{explain(Topic::Delta)}</dt>
                    <dd class="headline-delta">
                        {delta}{explain(Topic::HeadlineInterval)}{beside}
                    </dd>
                </div>
                <div>
                    <dt>"p-values"</dt>
                    <dd class="p-list">
                        {p_values
                            .into_iter()
                            .map(|(topic, p)| view! { <span>{p}{explain(topic)}</span> })
                            .collect_view()}
                    </dd>
                </div>
                <div>
                    <dt>"Wins / ties / losses"{explain(Topic::WinTieLoss)}</dt>
                    <dd>{win_tie_loss}</dd>
                </div>
                <div>
                    <dt>"Mean reward, baseline → candidate"{explain(Topic::TaskWeightedMean)}</dt>
                    <dd>{means}{explain(Topic::PlatformMean)}</dd>
                </div>
                <div>
                    <dt>"Minimum detectable effect"{explain(Topic::Mde)}</dt>
                    <dd>{mde}</dd>
                </div>
                <div>
                    <dt>{needed_label}{explain(Topic::TasksNeeded)}</dt>
                    <dd>{needed}</dd>
                </div>
                <div>
                    <dt>"Correlation of task scores"{explain(Topic::Correlation)}</dt>
                    <dd>{correlation}</dd>
                </div>
                <div>
                    <dt>{other_label}{explain(other_topic)}</dt>
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
    }
}
