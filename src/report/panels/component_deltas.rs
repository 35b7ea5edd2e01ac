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
    component_target_count, component_targets, ComponentProgress, COMPONENT_CONCURRENCY,
};
use eval_compare_core::model::{RunSet, SourceKind};
use eval_compare_core::report::{
    component_cells, ComponentDelta, Report, COMPONENTS_HEADING, COMPONENTS_INTRO,
    COMPONENT_COLUMNS,
};
use eval_compare_core::text::{count, noun, shorten, visible, SHOWN_NAME_CHARS};
use leptos::prelude::*;

use crate::failure::explain;
use crate::report::panels::read_status::{read_status as read_status_of, ReadWords};
use crate::report::task_panel::on_demand::shown_base;
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
        // Counted first (a pass over the columns): the list of ids, and the hash set that
        // keeps each once, are built only for a read the page would make.
        match run_set.with(|set| component_target_count(set)) {
            0 => None,
            wanted if wanted > COMPONENT_READ_LIMIT => Some(ReadOffer::TooMany(wanted)),
            _ => Some(ReadOffer::Read(Arc::new(
                run_set.with(|set| component_targets(set)),
            ))),
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
            let reads = offer.map(|offer| match offer {
                ReadOffer::Read(targets) => {
                    view! { <ComponentReadControl targets client/> }.into_any()
                }
                ReadOffer::TooMany(wanted) => view! {
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

/// What the panel offers for runs whose lists carry no components.
#[derive(Debug, Clone, PartialEq)]
enum ReadOffer {
    /// To read the components of these trajectories.
    Read(Arc<Vec<String>>),
    /// Nothing: that many trajectories are more than [`COMPONENT_READ_LIMIT`].
    TooMany(usize),
}

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

/// Reading the components of `targets`: the offer with its cost, then progress with Cancel,
/// then what was covered, with Resume after a Cancel, failed reads or a read that gave up.
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
    let read = {
        let targets = Arc::clone(&targets);
        move |_| loader.load_components(targets.to_vec())
    };
    let loading = move || loader.components_loading();
    move || {
        let standing = progress.get();
        let text = read_status(&standing, loading());
        let error = standing.first_error.as_ref().map(|(id, error)| {
            let base = client.with(|config| config.as_ref().map(shown_base).unwrap_or_default());
            let explanation = explain(error, &base);
            view! {
                <p class="details-error" role="alert">
                    <strong>{format!("Trajectory {}: {}", visible(id), explanation.title)}</strong>
                    <span>{explanation.message}</span>
                    <span class="muted">{explanation.hint}</span>
                </p>
            }
        });
        let action = if loading() {
            view! {
                <button type="button" class="button button-quiet" on:click=move |_| loader.cancel_components()>
                    "Cancel"
                </button>
            }
            .into_any()
        } else if standing.is_complete() {
            ().into_any()
        } else {
            let label = if standing.read + standing.failed == 0 && standing.stopped.is_none() {
                "Read components"
            } else {
                "Resume"
            };
            view! {
                <button type="button" class="button" on:click=read.clone()>{label}</button>
            }
            .into_any()
        };
        let bar = loading().then(|| {
            view! {
                <progress
                    max=standing.wanted.to_string()
                    value=standing.read.to_string()
                    aria-label="Components read"
                ></progress>
            }
        });
        view! {
            <div class="component-reads" role="status">
                <p class="component-reads-text">{text}</p>
                {bar}
                {action}
            </div>
            {error}
        }
    }
}

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
