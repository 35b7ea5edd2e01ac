//! A trajectory's per-step rewards and errors, read on request by paging through every step
//! with the core client ([`TrajectoryClient::step_summaries`]; only each step's reward, error
//! and message count are kept). Cached per API and trajectory for the session; a failed page
//! keeps what was read, and Retry continues at that page. Cancelled when the transcript closes.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;

use eval_compare_core::client::{ClientConfig, TrajectoryClient};
use eval_compare_core::text::count;
use eval_compare_core::transcript::{StepSummaries, Transcript};
use leptos::prelude::*;

use super::lines::{step_heading, step_offer_text, steps_summary_text};
use crate::failure::{explain, Explanation};
use crate::report::task_panel::on_demand::{shown_base, Fetch, OnDemand};
use crate::report::task_panel::rows::ErrorNotice;
use crate::transport::FetchTransport;

/// Steps listed in the table of every step; beyond, the turns still carry them.
pub const STEP_TABLE_ROWS: usize = 200;

/// Why reading the steps stopped, and how far it got.
#[derive(Debug, Clone, PartialEq)]
pub struct StepFailure {
    /// What failed.
    pub explanation: Explanation,
    /// Steps read before the failed page (kept for Retry).
    pub steps_read: usize,
}

/// Where one trajectory's steps stand.
pub type StepState = Fetch<StepSummaries, StepFailure>;

thread_local! {
    /// Steps read completely this session, by (API base URL, trajectory id).
    static CACHE: RefCell<HashMap<(String, String), Arc<StepSummaries>>> =
        RefCell::new(HashMap::new());
    /// Reads that stopped at a failed page, to continue there.
    static PARTIAL: RefCell<HashMap<(String, String), StepSummaries>> =
        RefCell::new(HashMap::new());
}

/// Reads every step of `trajectory_id` (`num_steps` of them), continuing a read that failed.
pub async fn fetch_steps(
    config: &ClientConfig,
    trajectory_id: &str,
    num_steps: u64,
    on_page: impl FnMut(usize),
) -> Result<StepSummaries, StepFailure> {
    let key = (config.base_url.clone(), trajectory_id.to_owned());
    let previous = PARTIAL
        .with(|partial| partial.borrow_mut().remove(&key))
        .unwrap_or_default();
    let client = TrajectoryClient::new(config.clone(), FetchTransport::default());
    let mut on_page = on_page;
    let read = client
        .step_summaries(trajectory_id, num_steps, previous, |page| {
            on_page(page.items_read)
        })
        .await;
    match &read.error {
        None => Ok(read),
        Some(error) => {
            let failure = StepFailure {
                explanation: explain(error, &shown_base(config)),
                steps_read: read.steps.len(),
            };
            PARTIAL.with(|partial| partial.borrow_mut().insert(key, read));
            Err(failure)
        }
    }
}

/// The step reads of one open transcript.
#[derive(Clone, Copy)]
pub struct StepLoader {
    reads: OnDemand<String, StepSummaries, StepFailure>,
    /// Steps read so far by the read in flight.
    progress: RwSignal<usize>,
}

impl StepLoader {
    /// A loader whose reads are cancelled when the calling component is cleaned up.
    pub fn with_cleanup() -> Self {
        Self {
            reads: OnDemand::with_cleanup(&CACHE),
            progress: RwSignal::new(0),
        }
    }

    /// The state of one trajectory's steps, cached ones included (reactive).
    pub fn state(&self, config: &ClientConfig, trajectory_id: &str) -> Option<StepState> {
        self.reads.state(Some(config), &trajectory_id.to_owned())
    }

    /// Steps read so far by the read in flight (reactive).
    pub fn steps_read(&self) -> usize {
        self.progress.get()
    }

    /// Reads the steps of `trajectory_id` unless read or being read (again after a failure,
    /// from the failed page).
    pub fn load(&self, config: ClientConfig, trajectory_id: &str, num_steps: u64) {
        let progress = self.progress;
        self.reads.load(
            config,
            vec![trajectory_id.to_owned()],
            1,
            move |config, id| async move {
                fetch_steps(&config, &id, num_steps, |steps| {
                    progress.try_set(steps);
                })
                .await
            },
        );
    }
}

/// The per-step rewards and errors of a transcript: the offer with its cost, the read's
/// progress, its failure with Retry, or what the steps say with a table of every step.
#[component]
pub fn StepRewards(
    /// The transcript (its trajectory and `num_steps`).
    transcript: Arc<Transcript>,
    /// Where to read the steps.
    config: ClientConfig,
    /// The transcript's step reads.
    loader: StepLoader,
) -> impl IntoView {
    let id = transcript.trajectory_id.clone();
    let num_steps = transcript.num_steps;
    let state = {
        let (config, id) = (config.clone(), id.clone());
        Memo::new(move |_| loader.state(&config, &id))
    };
    let read = Callback::new(move |()| loader.load(config.clone(), &id, num_steps));
    move || {
        match state.get() {
        None => {
            view! {
                <p class="transcript-steps muted">
                    {step_offer_text(num_steps)}" "
                    <button type="button" class="link-button transcript-steps-read" on:click=move |_| read.run(())>
                        "Read steps"
                    </button>
                </p>
            }
            .into_any()
        }
        Some(Fetch::Loading) => view! {
            <p class="transcript-steps muted" role="status">
                {move || format!(
                    "Reading steps: {} of {} read…",
                    count(loader.steps_read() as u64),
                    count(num_steps)
                )}
            </p>
        }
        .into_any(),
        Some(Fetch::Failed(failure)) => {
            let note = format!(
                "{} of {} steps read; Retry continues at the failed page.",
                count(failure.steps_read as u64),
                count(num_steps)
            );
            view! {
                <ErrorNotice explanation=failure.explanation class="transcript-steps" note on_retry=read/>
            }
            .into_any()
        }
        Some(Fetch::Loaded(steps)) => view! { <StepTable steps/> }.into_any(),
    }
    }
}

/// What the steps say, then every step (up to [`STEP_TABLE_ROWS`]) behind a disclosure.
#[component]
fn StepTable(
    /// The steps read.
    steps: Arc<StepSummaries>,
) -> impl IntoView {
    let rows = steps
        .steps
        .iter()
        .take(STEP_TABLE_ROWS)
        .map(|step| {
            let class = if step.has_error {
                "transcript-step transcript-step-error"
            } else {
                "transcript-step"
            };
            view! {
                <li class=class>
                    {step_heading(step)}
                    <span class="muted">{format!(" · {} messages", count(step.messages as u64))}</span>
                </li>
            }
        })
        .collect_view();
    let more = steps.steps.len().saturating_sub(STEP_TABLE_ROWS);
    let more = (more > 0).then(|| {
        view! {
            <p class="muted">
                {format!("{} more steps are named at their turns.", count(more as u64))}
            </p>
        }
    });
    view! {
        <details class="transcript-steps">
            <summary>{steps_summary_text(&steps)}</summary>
            <ol class="transcript-step-list">{rows}</ol>
            {more}
        </details>
    }
}
