//! Effort beside quality: each run's turns and endings, and each candidate's paired turns
//! (relative, on tasks both solved and both failed) and endings against the baseline (the turn
//! limit and timeouts singled out). What stands beside each verdict is the card's
//! (`headline/beside.rs`). The numbers, cells and sentences are the core's (`report.effort`, `core::report::words`), as in the markdown and
//! HTML reports; this folder only lays them out. Tokens, read on request: `tokens.rs`; Chronicle
//! trials' steps and durations, read on request: `trial_details.rs`.

use std::sync::Arc;

use eval_compare_core::client::ClientConfig;
use eval_compare_core::model::RunSet;
use eval_compare_core::report::{
    ending_cells, ending_sentence, run_effort_cells, solved_failed_sentence, turns_sentence,
    CandidateEffort, Report, ReportSettings, Topic, EFFORT_HEADING, EFFORT_INTRO, ENDING_COLUMNS,
    RUN_EFFORT_COLUMNS,
};
use leptos::prelude::*;

use crate::components::explain::explain_button;

mod tokens;
mod trial_details;

pub use tokens::{token_read_status, TokensPart};

/// The panel; nothing when the report has no effort section.
#[component]
pub fn EffortPanel(
    /// The report.
    #[prop(into)]
    report: Signal<Arc<Report>>,
    /// The run set the report was computed from (whose tokens to read).
    #[prop(into)]
    run_set: Signal<Arc<RunSet>>,
    /// Where the runs were read (`None` for files: no tokens to read).
    #[prop(into)]
    client: Signal<Option<ClientConfig>>,
) -> impl IntoView {
    // The section and the parts read on request stay while the report is recomputed (a new
    // bootstrap, tokens landing): only the tables inside follow it, so a button being clicked
    // is not replaced under the pointer.
    let has_effort = Memo::new(move |_| report.with(|report| report.effort.is_some()));
    let tables = move || {
        report.with(|report| {
            let effort = report.effort.as_ref()?;
            let rows = effort
                .runs
                .iter()
                .zip(&report.runs)
                .enumerate()
                .map(|(index, (run, summary))| {
                    cells_row(
                        run_effort_cells(index, &summary.name, run),
                        RUN_TEXT_COLUMNS,
                    )
                })
                .collect_view();
            let candidates = effort
                .candidates
                .iter()
                .filter_map(|candidate| {
                    let name = report.runs.get(candidate.run)?.name.clone();
                    Some(view! {
                        <CandidateEffortView
                            name
                            candidate=candidate.clone()
                            settings=report.settings.clone()
                        />
                    })
                })
                .collect_view();
            Some(view! {
                <div class="table-scroll">
                    <table class="data-table compact effort-runs">
                        <thead>
                            <tr>{head(&RUN_EFFORT_COLUMNS, RUN_TEXT_COLUMNS)}</tr>
                        </thead>
                        <tbody>{rows}</tbody>
                    </table>
                </div>
                {candidates}
            })
        })
    };
    move || {
        has_effort.get().then(|| {
            view! {
                <section class="panel effort-panel" aria-labelledby="effort-title">
                    <h3 id="effort-title" class="panel-title">{EFFORT_HEADING}</h3>
                    <p class="muted">{EFFORT_INTRO}</p>
                    {tables}
                    <TokensPart report run_set client/>
                    <trial_details::TrialDetailsPart report run_set client/>
                </section>
            }
        })
    }
}

/// One candidate's turns sentences and its endings table.
#[component]
fn CandidateEffortView(
    name: String,
    candidate: CandidateEffort,
    settings: ReportSettings,
) -> impl IntoView {
    let (shown, full) = crate::format::shown_name(&name);
    let solved_failed = (candidate.turns.n > 0).then(|| {
        view! { <li>{solved_failed_sentence(&candidate.turns)}</li> }
    });
    let endings = candidate
        .endings
        .iter()
        .map(|ending| cells_row(ending_cells(ending), ENDING_TEXT_COLUMNS))
        .collect_view();
    view! {
        <h4 class="effort-candidate" title=full data-run=candidate.run.to_string()>
            {shown}
        </h4>
        <ul class="effort-lines">
            <li class="effort-turns">
                {turns_sentence(&candidate.turns)}
                {explain_button(Topic::Turns, &settings)}
            </li>
            {solved_failed}
            <li class="effort-turn-limit">{ending_sentence(&candidate.turn_limit)}</li>
            <li class="effort-timeout">{ending_sentence(&candidate.timeout)}</li>
        </ul>
        <div class="table-scroll">
            <table class="data-table compact effort-endings">
                <thead>
                    <tr>{head(&ENDING_COLUMNS, ENDING_TEXT_COLUMNS)}</tr>
                </thead>
                <tbody>{endings}</tbody>
            </table>
        </div>
    }
}

/// The leading text columns of the runs table (role, run); the others are numbers.
const RUN_TEXT_COLUMNS: usize = 2;

/// The leading text column of an endings table (the ending); the others are numbers.
const ENDING_TEXT_COLUMNS: usize = 1;

/// The class of the column at `index`: numbers (right-aligned) after the `text` first ones.
fn column_class(index: usize, text: usize) -> Option<&'static str> {
    (index >= text).then_some("num")
}

fn head(columns: &[&'static str], text: usize) -> impl IntoView {
    columns
        .iter()
        .enumerate()
        .map(|(index, heading)| {
            view! { <th scope="col" class=column_class(index, text)>{*heading}</th> }
        })
        .collect_view()
}

fn cells_row(cells: Vec<String>, text: usize) -> impl IntoView {
    let cells = cells
        .into_iter()
        .enumerate()
        .map(|(index, cell)| view! { <td class=column_class(index, text)>{cell}</td> })
        .collect_view();
    view! { <tr>{cells}</tr> }
}
