//! Chronicle trials' steps and durations in the effort panel: for jobs read from the API, the
//! offer to read them (one request per counted trial, its detail: the cost said before any is
//! made), then progress with Cancel, then what was covered with Resume; once some were read,
//! each run's mean steps and duration and each candidate's paired Δ (the core's cells and
//! sentences, as in the markdown and HTML reports).

use std::sync::Arc;

use eval_compare_core::client::ClientConfig;
use eval_compare_core::load::{trial_read_keys, ComponentProgress, COMPONENT_CONCURRENCY};
use eval_compare_core::model::{RunSet, SourceKind, TrialRef};
use eval_compare_core::report::{
    measure_sentence, measure_solved_failed, run_trial_effort_cells, trial_details_offer, Report,
    DURATION, RUN_TRIAL_EFFORT_COLUMNS, STEPS, TRIAL_EFFORT_HEADING, TRIAL_EFFORT_INTRO,
};
use leptos::prelude::*;

use super::{cells_row, head, RUN_TEXT_COLUMNS};
use crate::report::panels::read_control::{ReadControl, ReadControlWords};
use crate::report::panels::read_status::{read_status, ReadWords};
use crate::state::loader::use_loader;

/// The trials part of the effort panel (Chronicle reports only): the offer to read the trials'
/// details, and what was read.
#[component]
pub fn TrialDetailsPart(
    /// The report.
    #[prop(into)]
    report: Signal<Arc<Report>>,
    /// The run set the report was computed from (which trials to read).
    #[prop(into)]
    run_set: Signal<Arc<RunSet>>,
    /// Where the jobs were read (`None` for folders: nothing to read).
    #[prop(into)]
    client: Signal<Option<ClientConfig>>,
) -> impl IntoView {
    let chronicle = Memo::new(move |_| {
        report.with(|report| report.runs.iter().any(|run| run.chronicle.is_some()))
    });
    let targets = Memo::new(move |_| {
        let from_api = client.with(Option::is_some)
            && run_set.with(|set| {
                set.runs()
                    .iter()
                    .any(|run| run.info().source == SourceKind::Chronicle)
            });
        let runs: Vec<_> = report.with(|report| report.runs.iter().map(|run| run.index).collect());
        from_api
            .then(|| Arc::new(run_set.with(|set| set.trial_detail_targets(&runs))))
            .filter(|targets| !targets.is_empty())
    });
    let read = move || {
        targets
            .get()
            .map(|targets| view! { <TrialReadControl targets client/> })
    };
    let tables = move || report.with(|report| trial_tables(report));
    move || {
        chronicle.get().then(|| {
            view! {
                <h4 class="effort-trials-title">{TRIAL_EFFORT_HEADING}</h4>
                <p class="muted">{TRIAL_EFFORT_INTRO}</p>
                {read}
                {tables}
            }
        })
    }
}

/// The per-run table and each candidate's sentences, once some trial details were read.
fn trial_tables(report: &Report) -> Option<impl IntoView> {
    let section = report.trial_effort.as_ref()?;
    let rows = section
        .runs
        .iter()
        .zip(&report.runs)
        .enumerate()
        .map(|(index, (run, summary))| {
            cells_row(
                run_trial_effort_cells(index, &summary.name, run),
                RUN_TEXT_COLUMNS,
            )
        })
        .collect_view();
    let candidates = section
        .candidates
        .iter()
        .filter_map(|candidate| {
            let name = report.runs.get(candidate.run)?.name.clone();
            let (shown, full) = crate::format::shown_name(&name);
            let lines = [(&candidate.steps, STEPS), (&candidate.duration, DURATION)]
                .into_iter()
                .flat_map(|(delta, measure)| {
                    let apart = (delta.n > 0).then(|| measure_solved_failed(delta, measure));
                    std::iter::once(measure_sentence(delta, measure)).chain(apart)
                })
                .map(|line| view! { <li>{line}</li> })
                .collect_view();
            Some(view! {
                <h5 class="effort-trials-candidate" title=full data-run=candidate.run.to_string()>
                    {shown}
                </h5>
                <ul class="effort-lines effort-trial-lines">{lines}</ul>
            })
        })
        .collect_view();
    Some(view! {
        <div class="table-scroll">
            <table class="data-table compact effort-trial-runs">
                <thead>
                    <tr>{head(&RUN_TRIAL_EFFORT_COLUMNS, RUN_TEXT_COLUMNS)}</tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
        {candidates}
    })
}

/// Reading the details of `targets` ([`ReadControl`]).
#[component]
fn TrialReadControl(
    /// The trials to read.
    targets: Arc<Vec<TrialRef>>,
    /// Where to read them.
    #[prop(into)]
    client: Signal<Option<ClientConfig>>,
) -> impl IntoView {
    let loader = use_loader();
    let keys = trial_read_keys(&targets);
    let progress = Memo::new(move |_| loader.trial_detail_progress(&keys));
    let loading = Signal::derive(move || loader.trial_details_loading());
    let text = Signal::derive(move || trial_read_status(&progress.get(), loading.get()));
    let on_read = Callback::new(move |()| loader.load_trial_details(Arc::clone(&targets)));
    let on_cancel = Callback::new(move |()| loader.cancel_trial_details());
    view! { <ReadControl progress loading text on_read on_cancel client words=TRIAL_READ/> }
}

/// The trials' read control's words and classes.
const TRIAL_READ: ReadControlWords = ReadControlWords {
    start: "Read steps and durations",
    item: "Trial",
    progress: "Trial details read",
    class: Some("trial-details"),
    shown_id: trial_of_key,
};

/// The trial id of a read's key (its job and agent come before it).
fn trial_of_key(key: &str) -> &str {
    key.rsplit('\u{1f}').next().unwrap_or(key)
}

/// What the read of trial details says: its cost before it starts, its progress, what the
/// tables cover after it, or why it gave up (the core's words).
pub fn trial_read_status(standing: &ComponentProgress, loading: bool) -> String {
    let words = ReadWords {
        reading: "trial details",
        read: "Steps and durations",
        unit: ("trial", "trials"),
        shown_in: "tables",
    };
    read_status(standing, loading, words, || {
        format!(
            "{} They are read {COMPONENT_CONCURRENCY} at a time.",
            trial_details_offer(standing.wanted)
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn standing(wanted: usize, read: usize, failed: usize) -> ComponentProgress {
        ComponentProgress {
            wanted,
            read,
            failed,
            ..ComponentProgress::default()
        }
    }

    #[test]
    fn the_read_says_its_cost_first_then_its_progress_and_what_it_covers() {
        assert_eq!(
            trial_read_status(&standing(84, 0, 0), false),
            format!(
                "Steps and durations are in each trial's detail, not in the trials list: reading \
                 them takes 84 requests (one per counted trial). They are read {COMPONENT_CONCURRENCY} at a \
                 time."
            )
        );
        assert_eq!(
            trial_read_status(&standing(84, 40, 0), true),
            "Reading trial details: 40 of 84 trials read…"
        );
        assert_eq!(
            trial_read_status(&standing(84, 40, 2), false),
            "Steps and durations read for 40 of 84 counted trials; the tables cover those only. \
             2 reads failed."
        );
        assert_eq!(
            trial_read_status(&standing(84, 84, 0), false),
            "Steps and durations read for all 84 counted trials of these runs."
        );
    }
}
