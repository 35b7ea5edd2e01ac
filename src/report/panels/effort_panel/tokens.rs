//! Tokens in the effort panel, shown only where tokens can be read or were (never on Chronicle
//! jobs or run folders): for runs read from the Trajectory API, the offer to read them
//! (one request per counted trajectory, its last step: the cost said before any is made), then
//! progress with Cancel, then what was covered with Resume; once some were read, each run's
//! mean tokens per task and each candidate's paired Δ (the core's cells and sentences, as in
//! the markdown and HTML reports).

use std::sync::Arc;

use eval_compare_core::client::ClientConfig;
use eval_compare_core::load::{
    token_offer, ComponentProgress, TokenOffer, TokenTargets, COMPONENT_CONCURRENCY,
};
use eval_compare_core::model::{RunSet, SourceKind};
use eval_compare_core::report::{
    run_token_cells, tokens_sentence, Report, RUN_TOKEN_COLUMNS, TOKENS_HEADING, TOKENS_INTRO,
};
use eval_compare_core::text::{count, noun};
use leptos::prelude::*;

use super::{cells_row, head, RUN_TEXT_COLUMNS};
use crate::report::panels::component_deltas::COMPONENT_READ_LIMIT;
use crate::report::panels::read_control::{whole_key, ReadControl, ReadControlWords};
use crate::report::panels::read_status::{read_status, ReadWords};
use crate::state::loader::use_loader;

/// The tokens part of the effort panel: the offer to read them, and what was read.
#[component]
pub fn TokensPart(
    /// The report.
    #[prop(into)]
    report: Signal<Arc<Report>>,
    /// The run set the report was computed from (which trajectories to read).
    #[prop(into)]
    run_set: Signal<Arc<RunSet>>,
    /// Where the runs were read (`None` for files: nothing to read).
    #[prop(into)]
    client: Signal<Option<ClientConfig>>,
) -> impl IntoView {
    // The offer, counted before any target is gathered: at scale only "too many" is said.
    let offer = Memo::new(move |_| {
        let from_api = client.with(Option::is_some)
            && run_set.with(|set| {
                !set.runs().is_empty()
                    && set
                        .runs()
                        .iter()
                        .all(|run| run.info().source == SourceKind::Api)
            });
        if !from_api {
            return None;
        }
        match run_set.with(|set| token_offer(set, COMPONENT_READ_LIMIT)) {
            TokenOffer::Nothing => None,
            TokenOffer::TooMany(wanted) => Some(Err(wanted)),
            TokenOffer::Targets(targets) => Some(Ok(Arc::new(targets))),
        }
    });
    let read = move || {
        offer.get().map(|offer| match offer {
            Err(wanted) => {
                view! { <p class="component-reads-text">{too_many(wanted)}</p> }.into_any()
            }
            Ok(targets) => view! { <TokenReadControl targets client/> }.into_any(),
        })
    };
    let tables = move || {
        report.with(|report| {
            let tokens = report.effort.as_ref()?.tokens.as_ref()?;
            let rows = tokens
                .runs
                .iter()
                .zip(&report.runs)
                .enumerate()
                .map(|(index, (run, summary))| {
                    cells_row(run_token_cells(index, &summary.name, run), RUN_TEXT_COLUMNS)
                })
                .collect_view();
            let lines = tokens
                .candidates
                .iter()
                .filter_map(|candidate| {
                    let name = report.runs.get(candidate.run)?.name.clone();
                    let (shown, full) = crate::format::shown_name(&name);
                    Some(view! {
                        <li class="effort-tokens" data-run=candidate.run.to_string()>
                            <strong title=full>{shown}</strong>": "{tokens_sentence(candidate)}
                        </li>
                    })
                })
                .collect_view();
            Some(view! {
                <div class="table-scroll">
                    <table class="data-table compact effort-token-runs">
                        <thead>
                            <tr>{head(&RUN_TOKEN_COLUMNS, RUN_TEXT_COLUMNS)}</tr>
                        </thead>
                        <tbody>{rows}</tbody>
                    </table>
                </div>
                <ul class="effort-lines">{lines}</ul>
            })
        })
    };
    // Only where tokens can be read (runs of the Trajectory API) or were: never on Chronicle
    // jobs or run folders, whose reports have no tokens.
    // A memo, so the part is made again only when it appears or goes, not on every report.
    let shown = Memo::new(move |_| {
        offer.with(Option::is_some)
            || report.with(|report| report.effort.as_ref().is_some_and(|e| e.tokens.is_some()))
    });
    move || {
        shown.get().then(|| {
            view! {
                <h4 class="effort-tokens-title">{TOKENS_HEADING}</h4>
                <p class="muted">{TOKENS_INTRO}</p>
                {read}
                {tables}
            }
        })
    }
}

/// Reading the tokens of `targets` ([`ReadControl`]).
#[component]
fn TokenReadControl(
    /// The trajectories to read.
    targets: Arc<TokenTargets>,
    /// Where to read them.
    #[prop(into)]
    client: Signal<Option<ClientConfig>>,
) -> impl IntoView {
    let loader = use_loader();
    let progress = {
        let targets = Arc::clone(&targets);
        Memo::new(move |_| loader.token_progress(&targets.ids))
    };
    let requests = targets.requests();
    let loading = Signal::derive(move || loader.tokens_loading());
    let text = Signal::derive(move || token_read_status(&progress.get(), requests, loading.get()));
    let on_read = Callback::new(move |()| loader.load_tokens(Arc::clone(&targets)));
    let on_cancel = Callback::new(move |()| loader.cancel_tokens());
    view! { <ReadControl progress loading text on_read on_cancel client words=TOKEN_READ/> }
}

/// The tokens' read control's words and classes.
const TOKEN_READ: ReadControlWords = ReadControlWords {
    start: "Read tokens",
    item: "Trajectory",
    progress: "Tokens read",
    class: Some("token"),
    shown_id: whole_key,
};

/// Why the page does not offer to read the tokens of `wanted` trajectories.
pub fn too_many(wanted: usize) -> String {
    format!(
        "Reading tokens takes one request per counted trajectory: {} for this comparison, more \
         than this page reads (at most {}). eval-compare report --tokens reads them from the \
         command line.",
        count(wanted as u64),
        count(COMPONENT_READ_LIMIT as u64)
    )
}

/// What the read of tokens says: its cost before it starts (`requests` requests), its
/// progress, what the tables cover after it, or why it gave up (the core's words).
pub fn token_read_status(standing: &ComponentProgress, requests: usize, loading: bool) -> String {
    let words = ReadWords {
        reading: "tokens",
        read: "Tokens",
        unit: ("trajectory", "trajectories"),
        shown_in: "tables",
    };
    read_status(standing, loading, words, || {
        let wanted = standing.wanted as u64;
        format!(
            "These runs' lists carry no token counts. Reading them takes one request per counted \
             trajectory (its last step holds the whole conversation): {} {} for {} {} \
             of this comparison, {COMPONENT_CONCURRENCY} at a time.",
            count(requests as u64),
            noun(requests as u64, "request", "requests"),
            count(wanted),
            noun(wanted, "trajectory", "trajectories")
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
            token_read_status(&standing(2941, 0, 0), 2940, false),
            format!(
                "These runs' lists carry no token counts. Reading them takes one request per \
                 counted trajectory (its last step holds the whole conversation): 2,940 requests \
                 for 2,941 trajectories of this comparison, {COMPONENT_CONCURRENCY} at a time."
            )
        );
        assert_eq!(
            token_read_status(&standing(2941, 1204, 0), 2940, true),
            "Reading tokens: 1,204 of 2,941 trajectories read…"
        );
        assert_eq!(
            token_read_status(&standing(2941, 1204, 3), 2940, false),
            "Tokens read for 1,204 of 2,941 counted trajectories; the tables cover those only. \
             3 reads failed."
        );
        assert_eq!(
            token_read_status(&standing(1, 1, 0), 1, false),
            "Tokens read for all 1 counted trajectory of these runs."
        );
    }
}
