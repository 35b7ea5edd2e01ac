//! Each reward component's (for Chronicle: each scorer's) own paired Δ for the focused
//! candidate, in the component's own units, over the tasks both runs have a value for it — the
//! headline's paired machinery per component. A scorer without a threshold only measures; one
//! with a threshold also decides the pass/fail outcome; a component of weight 0 is informative
//! and does not enter the reward.
//!
//! Trajectory runs' lists carry no components: for runs read from the Trajectory API the panel
//! offers to read them, one request per counted trajectory of every run of the comparison
//! ([`ComponentReads`]), with progress, Cancel and Resume; the table then covers what was read.
//! Past [`COMPONENT_READ_LIMIT`] trajectories (a comparison of 100,000 tasks × 8 samples has
//! 1.6 million) it says so and points to the CLI instead.

use std::sync::Arc;

use eval_compare_core::client::ClientConfig;
use eval_compare_core::load::{
    component_offer, ComponentProgress, ReadOffer, COMPONENT_CONCURRENCY,
};
use eval_compare_core::model::{RunSet, SourceKind};
use eval_compare_core::report::{
    component_cells, ComponentDelta, Report, COMPONENTS_HEADING, COMPONENTS_INTRO,
    COMPONENT_COLUMNS,
};
use eval_compare_core::text::{count, noun, shorten, visible, SHOWN_NAME_CHARS};
use leptos::prelude::*;

use crate::report::panels::read_control::{whole_key, ReadControl, ReadControlWords};
use crate::report::panels::read_status::{read_status as read_status_of, ReadWords};
use crate::state::loader::use_loader;

/// The focused candidate's component deltas, and for Trajectory-API runs the offer to read
/// their components; nothing when neither applies.
#[component]
pub fn ComponentDeltas(
    /// The report.
    #[prop(into)]
    report: Signal<Arc<Report>>,
    /// Index of the focused candidate.
    #[prop(into)]
    focus: Signal<usize>,
    /// The run set the report was computed from (which trajectories to read).
    #[prop(into)]
    run_set: Signal<Arc<RunSet>>,
    /// Where the runs were read (`None` for files: nothing to read).
    #[prop(into)]
    client: Signal<Option<ClientConfig>>,
) -> impl IntoView {
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
        match run_set.with(|set| component_offer(set, COMPONENT_READ_LIMIT)) {
            ReadOffer::Nothing => None,
            ReadOffer::TooMany(wanted) => Some(Err(wanted)),
            ReadOffer::Targets(targets) => Some(Ok(Arc::new(targets))),
        }
    });
    move || {
        let offer = offer.get();
        report.with(|report| {
            let candidate = report.candidates.get(focus.get())?;
            if candidate.components.is_empty() && offer.is_none() {
                return None;
            }
            let name = report
                .runs
                .get(candidate.run)
                .map(|run| visible(&shorten(&run.name, SHOWN_NAME_CHARS)).into_owned())
                .unwrap_or_default();
            let table = (!candidate.components.is_empty()).then(|| {
                let rows = candidate
                    .components
                    .iter()
                    .map(component_row)
                    .collect_view();
                view! {
                    <table class="data-table compact components-table">
                        <thead>
                            <tr>
                                {COMPONENT_COLUMNS
                                    .iter()
                                    .enumerate()
                                    .map(|(index, heading)| {
                                        let class = if index >= 3 { "num" } else { "" };
                                        view! { <th scope="col" class=class>{*heading}</th> }
                                    })
                                    .collect_view()}
                            </tr>
                        </thead>
                        <tbody>{rows}</tbody>
                    </table>
                }
            });
            // The targets to read, or how many are too many to read.
            let reads = offer.map(|offer| match offer {
                Ok(targets) => view! { <ComponentReadControl targets client/> }.into_any(),
                Err(wanted) => view! {
                    <div class="component-reads" role="status">
                        <p class="component-reads-text">
                            {too_many_to_read(wanted)}" "<code>"eval-compare report --components"</code>
                            " reads them from the command line."
                        </p>
                    </div>
                }
                .into_any(),
            });
            Some(view! {
                <section class="panel components" aria-labelledby="components-title">
                    <h3 id="components-title" class="panel-title">
                        {COMPONENTS_HEADING}": "{name}" against the baseline"
                    </h3>
                    <p class="panel-intro">{COMPONENTS_INTRO}</p>
                    {reads}
                    {table}
                </section>
            })
        })
    }
}

/// The most trajectories whose components the page offers to read (one request each, six at
/// a time: about ten minutes over a good connection); beyond, it points to the CLI.
pub const COMPONENT_READ_LIMIT: usize = 20_000;

/// Why the page does not offer to read the components of `wanted` trajectories (the panel
/// then names the CLI's command that does).
pub fn too_many_to_read(wanted: usize) -> String {
    format!(
        "These runs' lists carry no reward components. Reading them takes one request per \
         counted trajectory: {} requests for this comparison, more than this page reads (at \
         most {}).",
        count(wanted as u64),
        count(COMPONENT_READ_LIMIT as u64)
    )
}

/// Reading the components of `targets` ([`ReadControl`]).
#[component]
fn ComponentReadControl(
    /// The trajectories to read.
    targets: Arc<Vec<String>>,
    /// Where to read them.
    #[prop(into)]
    client: Signal<Option<ClientConfig>>,
) -> impl IntoView {
    let loader = use_loader();
    let progress = {
        let targets = Arc::clone(&targets);
        Memo::new(move |_| loader.component_progress(&targets))
    };
    let loading = Signal::derive(move || loader.components_loading());
    let text = Signal::derive(move || read_status(&progress.get(), loading.get()));
    let on_read = Callback::new(move |()| loader.load_components(targets.to_vec()));
    let on_cancel = Callback::new(move |()| loader.cancel_components());
    view! { <ReadControl progress loading text on_read on_cancel client words=COMPONENT_READ/> }
}

/// The components' read control's words and classes.
const COMPONENT_READ: ReadControlWords = ReadControlWords {
    start: "Read components",
    item: "Trajectory",
    progress: "Components read",
    class: None,
    shown_id: whole_key,
};

/// What the read of components says: its cost before it starts, its progress, what the table
/// covers after it, or why it gave up (the core's words, as the CLI's).
pub fn read_status(standing: &ComponentProgress, loading: bool) -> String {
    let words = ReadWords {
        reading: "components",
        read: "Components",
        unit: ("trajectory", "trajectories"),
        shown_in: "table",
    };
    read_status_of(standing, loading, words, || {
        let wanted = standing.wanted as u64;
        format!(
            "These runs' lists carry no reward components. Reading them takes one request per \
             counted trajectory: {} {} for every run of this comparison, {COMPONENT_CONCURRENCY} \
             at a time.",
            count(wanted),
            noun(wanted, "request", "requests")
        )
    })
}

fn component_row(component: &ComponentDelta) -> impl IntoView {
    let [name, weight, threshold, tasks, base, cand, delta, interval] = component_cells(component);
    let class = if component.is_informative() {
        "component-informative"
    } else {
        ""
    };
    view! {
        <tr class=class>
            <th scope="row" class="component-name">{name}</th>
            <td>{weight}</td>
            <td>{threshold}</td>
            <td class="num">{tasks}</td>
            <td class="num">{base}</td>
            <td class="num">{cand}</td>
            <td class="num">{delta}</td>
            <td class="num">{interval}</td>
        </tr>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use eval_compare_core::client::{ApiError, TransportError};
    use eval_compare_core::load::{ComponentStop, ComponentStopCause};

    fn standing(wanted: usize, read: usize, failed: usize) -> ComponentProgress {
        ComponentProgress {
            wanted,
            read,
            failed,
            pending: 0,
            first_error: (failed > 0)
                .then(|| ("t1".to_owned(), ApiError::InvalidArgument("x".to_owned()))),
            stopped: None,
        }
    }

    #[test]
    fn a_read_that_gave_up_says_why_and_that_resume_continues() {
        let stop = ComponentStop {
            cause: ComponentStopCause::FailuresInARow(
                10,
                ApiError::Transport(TransportError::Timeout),
            ),
            read: 20,
            wanted: 400,
        };
        let standing = ComponentProgress {
            stopped: Some(stop),
            ..standing(400, 20, 10)
        };
        assert_eq!(
            read_status(&standing, false),
            "The read stopped after 10 reads in a row failed (no answer in time); 20 of 400 \
             read; Resume continues. The table covers those read."
        );
        assert_eq!(
            read_status(&standing, true),
            "Reading components: 20 of 400 trajectories read…",
            "a new read shows its progress"
        );
    }

    #[test]
    fn the_read_says_its_cost_its_progress_and_what_it_covers() {
        assert_eq!(
            read_status(&standing(2418, 0, 0), false),
            format!(
                "These runs' lists carry no reward components. Reading them takes one request per \
                 counted trajectory: 2,418 requests for every run of this comparison, \
                 {COMPONENT_CONCURRENCY} at a time."
            )
        );
        assert_eq!(
            read_status(&standing(2418, 1204, 0), true),
            "Reading components: 1,204 of 2,418 trajectories read…"
        );
        assert_eq!(
            read_status(&standing(2418, 1204, 3), false),
            "Components read for 1,204 of 2,418 counted trajectories; the table covers those \
             only. 3 reads failed."
        );
        assert_eq!(
            read_status(&standing(1, 1, 0), false),
            "Components read for all 1 counted trajectory of these runs."
        );
    }

    #[test]
    fn past_the_limit_the_page_points_to_the_cli() {
        assert_eq!(
            too_many_to_read(1_600_000),
            "These runs' lists carry no reward components. Reading them takes one request per \
             counted trajectory: 1,600,000 requests for this comparison, more than this page \
             reads (at most 20,000)."
        );
    }
}
