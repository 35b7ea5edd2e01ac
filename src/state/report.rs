//! The comparison report as a function of the loaded run set and the view's runs and settings.
//!
//! The report is keyed on (run set, baseline, candidates, [`ReportSettings`]): a filter, the
//! sort, the search, the focus or the selected task are not part of the key, so changing them
//! never recomputes it (they only feed the table). To show the page fast, each new key is first
//! computed without the bootstrap (B = 0, which skips only the bootstrap fields), shown, and
//! after the browser had a chance to paint, computed again with B from the view: the final
//! numbers are those of `eval-compare report` with the same inputs.

use eval_compare_core::model::{RunIdx, RunSet};
use eval_compare_core::report::{build_report, Report, ReportError, ReportSettings};
use eval_compare_core::view_state::ViewState;
use futures::channel::oneshot;
use futures::future::select;
use gloo_timers::future::TimeoutFuture;
use leptos::prelude::*;
use leptos::task::spawn_local;

use super::shared::Shared;

/// What a report is computed from.
#[derive(Debug, Clone, PartialEq)]
pub struct ReportKey {
    /// The loaded runs.
    pub set: Shared<RunSet>,
    /// The baseline's run id.
    pub baseline: String,
    /// The candidates' run ids, in order.
    pub candidates: Vec<String>,
    /// Seed, B, level, headline analysis, target Δ and K′, from the view.
    pub settings: ReportSettings,
    /// Show the runs as of this time (the link's `seen`, with `asof=1`): trajectories created
    /// later are left out (`RunSet::as_of`).
    pub as_of: Option<i64>,
}

impl ReportKey {
    /// The key of `view`'s comparison over `set`; `None` without a baseline and a candidate.
    pub fn of(set: Shared<RunSet>, view: &ViewState) -> Option<Self> {
        Some(Self {
            set,
            baseline: view.baseline.clone()?,
            candidates: view.candidates.clone(),
            settings: ReportSettings::from_view(view),
            as_of: view
                .as_of
                .then(|| view.snapshot.as_ref().and_then(|s| s.seen))
                .flatten(),
        })
        .filter(|key| !key.candidates.is_empty())
    }
}

impl ReportKey {
    /// The key over the run set as of its `as_of` time (`RunSet::as_of`), with no `as_of`
    /// left; the key itself when it has none.
    pub fn as_of_applied(&self) -> ReportKey {
        match self.as_of {
            Some(at) => ReportKey {
                set: Shared::new(self.set.as_of(at).0),
                as_of: None,
                ..self.clone()
            },
            None => self.clone(),
        }
    }
}

/// Why the report of a [`ReportKey`] could not be computed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ComputeError {
    /// The key names a run the set does not hold.
    #[error("run `{0}` is not among the loaded runs")]
    RunNotLoaded(String),
    /// The core refused the comparison.
    #[error(transparent)]
    Report(#[from] ReportError),
}

/// Builds the report of `key` with `resamples` bootstrap resamples (0 skips the bootstrap).
pub fn compute(key: &ReportKey, resamples: usize) -> Result<Report, ComputeError> {
    let index = |id: &str| -> Result<RunIdx, ComputeError> {
        key.set
            .find_run(id)
            .ok_or_else(|| ComputeError::RunNotLoaded(id.to_owned()))
    };
    if key.as_of.is_some() {
        return compute(&key.as_of_applied(), resamples);
    }
    let baseline = index(&key.baseline)?;
    let candidates = key
        .candidates
        .iter()
        .map(|id| index(id))
        .collect::<Result<Vec<_>, _>>()?;
    let settings = ReportSettings {
        resamples,
        ..key.settings.clone()
    };
    Ok(build_report(&key.set, baseline, &candidates, &settings)?)
}

/// How long the last report took, in milliseconds since the page started (`performance.now()`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ReportTimings {
    /// When the report without the bootstrap was ready.
    pub first_at_ms: f64,
    /// Time spent computing it.
    pub first_ms: f64,
    /// Time spent computing the report with the bootstrap, once done.
    pub full_ms: Option<f64>,
    /// When the report with the bootstrap was ready.
    pub full_at_ms: Option<f64>,
}

/// The report of the current key, and where its computation stands.
#[derive(Debug, Clone, Copy)]
pub struct ReportState {
    /// The latest report (first without the bootstrap, then with it).
    pub report: RwSignal<Option<Shared<Report>>>,
    /// The run set that report was computed from.
    pub run_set: RwSignal<Option<Shared<RunSet>>>,
    /// Why the report cannot be built.
    pub error: RwSignal<Option<ComputeError>>,
    /// True while the report shown lacks the bootstrap that is being computed.
    pub bootstrap_pending: RwSignal<bool>,
    /// Timings of the last computation.
    pub timings: RwSignal<Option<ReportTimings>>,
}

/// `performance.now()`, or 0 where there is no clock.
pub fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|window| window.performance())
        .map_or(0.0, |performance| performance.now())
}

/// Resolves after the browser painted the current DOM (an animation frame, then a task), or
/// after 250 ms when frames do not come (a hidden tab).
pub async fn after_paint() {
    let (sender, receiver) = oneshot::channel::<()>();
    request_animation_frame(move || {
        let _ = sender.send(());
    });
    let frame = async {
        let _ = receiver.await;
        TimeoutFuture::new(0).await;
    };
    let frame = std::pin::pin!(frame);
    // Whichever comes first; without frames (a hidden tab) the timeout goes on.
    let _ = select(frame, TimeoutFuture::new(250)).await;
}

/// Computes the report of `key` whenever it changes: first without the bootstrap, then, after
/// a paint, with it. A newer key supersedes a computation not yet started.
pub fn use_report(key: Memo<Option<ReportKey>>) -> ReportState {
    let state = ReportState {
        report: RwSignal::new(None),
        run_set: RwSignal::new(None),
        error: RwSignal::new(None),
        bootstrap_pending: RwSignal::new(false),
        timings: RwSignal::new(None),
    };
    let latest = StoredValue::new(0u64);
    Effect::new(move |_| {
        let Some(key) = key.get() else {
            state.report.set(None);
            state.run_set.set(None);
            state.error.set(None);
            state.bootstrap_pending.set(false);
            return;
        };
        // Shown as of a link: the report and the task panel both read the runs as of then.
        let key = key.as_of_applied();
        latest.update_value(|count| *count += 1);
        let this = latest.get_value();
        let started = now_ms();
        let first = compute(&key, 0);
        let first_at_ms = now_ms();
        let first = match first {
            Ok(report) => report,
            Err(error) => {
                state.report.set(None);
                state.error.set(Some(error));
                state.bootstrap_pending.set(false);
                return;
            }
        };
        let resamples = key.settings.resamples;
        state.error.set(None);
        state.run_set.set(Some(key.set.clone()));
        state.report.set(Some(Shared::new(first)));
        state.bootstrap_pending.set(resamples > 0);
        let timings = ReportTimings {
            first_at_ms,
            first_ms: first_at_ms - started,
            full_ms: None,
            full_at_ms: None,
        };
        state.timings.set(Some(timings));
        #[cfg(debug_assertions)]
        leptos::logging::log!(
            "eval-compare: report without the bootstrap ready at performance.now() = {:.0} ms (computed in {:.0} ms)",
            timings.first_at_ms,
            timings.first_ms
        );
        if resamples == 0 {
            return;
        }
        spawn_local(async move {
            after_paint().await;
            if latest.try_get_value() != Some(this) {
                return;
            }
            let started = now_ms();
            let full = compute(&key, resamples);
            let done = now_ms();
            if latest.try_get_value() != Some(this) {
                return;
            }
            match full {
                Ok(report) => {
                    state.report.try_set(Some(Shared::new(report)));
                }
                Err(error) => {
                    state.error.try_set(Some(error));
                }
            }
            state.bootstrap_pending.try_set(false);
            let timings = ReportTimings {
                full_ms: Some(done - started),
                full_at_ms: Some(done),
                ..timings
            };
            state.timings.try_set(Some(timings));
            #[cfg(debug_assertions)]
            leptos::logging::log!(
                "eval-compare: report with the bootstrap (B = {}) ready at performance.now() = {:.0} ms (computed in {:.0} ms)",
                resamples,
                done,
                done - started
            );
        });
    });
    state
}
