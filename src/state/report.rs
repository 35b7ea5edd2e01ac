//! The comparison report as a function of the loaded run set and the view's runs and settings.
//!
//! The report is keyed on (run set, baseline, candidates, [`ReportSettings`]): a filter, the
//! sort, the search, the focus or the selected task are not part of the key, so changing them
//! never recomputes it (they only feed the table). To show the page fast, each new key's report
//! is built with its bootstraps left to draw ([`ReportBuild`], a step at a time for about
//! [`SLICE_MS`] at a time, so a 100,000-task comparison does not freeze the page) and shown;
//! after the browser had a chance to paint, the bootstraps are drawn a slice at a time (about
//! [`SLICE_MS`] each, the page handling input and painting between slices) and put in the
//! report: the final numbers are those of `eval-compare report` with the same inputs.
//!
//! With a reviewer's ledger in the view, the report is built the CLI's way
//! (`build_report_with_ledger`), a step at a time too: the ledger applied to the runs
//! ([`ledger::apply`]), the report built on them, the report without the ledger built for its
//! verdicts and Δ, and the two joined with [`attach_ledger`]; so the page's JSON export equals
//! `eval-compare report --exclusions FILE --format json`.

use eval_compare_core::ledger::{self, Ledger, LedgerEffects};
use eval_compare_core::model::{ModelError, RunIdx, RunSet};
use eval_compare_core::report::{
    apply_pass_threshold, attach_ledger, check_pass_threshold, DeferredReport, PendingBootstrap,
    Report, ReportBuild, ReportError, ReportSettings,
};
use eval_compare_core::view_state::ViewState;
use futures::channel::oneshot;
use futures::future::select;
use gloo_timers::future::TimeoutFuture;
use leptos::prelude::*;
use leptos::task::spawn_local;

use super::ledger::view_ledger;
use super::shared::Shared;
use crate::yield_to_page::yield_to_page;

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
    /// The reviewer's ledger of the view (empty without one).
    pub ledger: Ledger,
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
            ledger: view_ledger(view),
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
    /// The ledger could not be applied to the runs.
    #[error(transparent)]
    Ledger(#[from] ModelError),
}

/// The baseline's and the candidates' places in `key`'s run set.
fn run_indices(key: &ReportKey) -> Result<(RunIdx, Vec<RunIdx>), ComputeError> {
    let index = |id: &str| -> Result<RunIdx, ComputeError> {
        key.set
            .find_run(id)
            .ok_or_else(|| ComputeError::RunNotLoaded(id.to_owned()))
    };
    let baseline = index(&key.baseline)?;
    let candidates = key
        .candidates
        .iter()
        .map(|id| index(id))
        .collect::<Result<Vec<_>, _>>()?;
    Ok((baseline, candidates))
}

/// The key over its runs with each valid reward scored pass or fail at the view's pass
/// threshold ([`apply_pass_threshold`]); the key itself without one.
fn pass_thresholded(key: ReportKey) -> Result<ReportKey, ComputeError> {
    let Some(threshold) = key.settings.pass_threshold else {
        return Ok(key);
    };
    check_pass_threshold(threshold)?;
    let set = apply_pass_threshold(&key.set, threshold)?;
    Ok(ReportKey {
        set: Shared::new(set),
        ..key
    })
}

/// The run set of `report_key` (the report's, thresholded and with the ledger applied) with
/// the rewards as published: `unthresholded` (the same key before the pass threshold) with the
/// ledger applied; the report's own set when no threshold is set.
fn published_set(
    report_key: &ReportKey,
    unthresholded: ReportKey,
) -> Result<Shared<RunSet>, ComputeError> {
    if report_key.settings.pass_threshold.is_none() {
        return Ok(report_key.set.clone());
    }
    Ok(apply_ledger(unthresholded)?.0.set)
}

/// What a report with a ledger needs beside the report built on the runs with it applied.
struct LedgerPass {
    /// The key over the runs as loaded: its report gives the verdicts and Δ without the ledger.
    without: ReportKey,
    /// What the ledger changed.
    effects: LedgerEffects,
}

/// With a non-empty ledger, the key over the runs with the ledger applied and what the
/// report needs to join both ([`attach_ledger`]); else the key itself.
fn apply_ledger(key: ReportKey) -> Result<(ReportKey, Option<LedgerPass>), ComputeError> {
    if key.ledger.is_empty() {
        return Ok((key, None));
    }
    let (baseline, candidates) = run_indices(&key)?;
    let compared: Vec<RunIdx> = std::iter::once(baseline).chain(candidates).collect();
    let applied = ledger::apply(&key.set, &compared, &key.ledger)?;
    let with = ReportKey {
        set: Shared::new(applied.set),
        ..key.clone()
    };
    let pass = LedgerPass {
        without: key,
        effects: applied.effects,
    };
    Ok((with, Some(pass)))
}

/// Starts the report of `key` (built with [`ReportBuild::advance`], its bootstraps left to
/// draw); `key` must have no `as_of` left ([`ReportKey::as_of_applied`]).
pub fn start(key: &ReportKey) -> Result<ReportBuild<'_>, ComputeError> {
    let (baseline, candidates) = run_indices(key)?;
    Ok(ReportBuild::start(
        &key.set,
        baseline,
        &candidates,
        &key.settings,
    )?)
}

/// Steps `build` for up to about [`SLICE_MS`]; true once it is built.
fn build_slice(build: &mut ReportBuild<'_>) -> Result<bool, ComputeError> {
    let started = now_ms();
    while !build.is_built() {
        if now_ms() - started >= SLICE_MS {
            return Ok(false);
        }
        build.advance()?;
    }
    Ok(true)
}

/// Builds the report of `key` a step at a time (its bootstraps left to draw), about
/// [`SLICE_MS`] at a time, the page painting between slices; `progress` is told the share done
/// after each slice. With the time spent; `None` once `current` says a newer key came.
async fn build_stepwise(
    key: &ReportKey,
    current: impl Fn() -> bool,
    progress: impl Fn(f64),
) -> Result<Option<(DeferredReport, f64)>, ComputeError> {
    let mut build = start(key)?;
    let mut busy_ms = 0.0;
    loop {
        let slice = now_ms();
        let built = build_slice(&mut build);
        busy_ms += now_ms() - slice;
        if built? {
            return Ok(Some((build.finish()?, busy_ms)));
        }
        progress(build.progress());
        // Let the page paint and handle input before the next slice.
        yield_to_page().await;
        if !current() {
            return Ok(None);
        }
    }
}

/// The report page mounts what lies below the headline in this many stages, one after each
/// paint; the bootstrap starts after the last.
pub const BELOW_FOLD_STAGES: u8 = 2;

/// About how long one slice of bootstrap draws keeps the page busy, in milliseconds.
pub const SLICE_MS: f64 = 40.0;

/// Draws in one call between clock readings: a few milliseconds' worth.
const DRAWS_PER_STEP: usize = 1 << 18;

/// The share of `bootstraps`' resamples drawn so far.
fn share_drawn(bootstraps: &[PendingBootstrap]) -> f64 {
    let (drawn, total) = bootstraps
        .iter()
        .filter_map(|pending| pending.run.as_ref().ok())
        .fold((0, 0), |(drawn, total), run| {
            (drawn + run.drawn(), total + run.total())
        });
    if total == 0 {
        1.0
    } else {
        drawn as f64 / total as f64
    }
}

/// Draws `bootstraps` for up to about [`SLICE_MS`]; true once every one is drawn.
fn draw_slice(bootstraps: &mut [PendingBootstrap]) -> bool {
    let started = now_ms();
    for run in bootstraps.iter_mut().filter_map(|p| p.run.as_mut().ok()) {
        let per_step = (DRAWS_PER_STEP / run.draws_per_resample().max(1)).max(1);
        while !run.advance(per_step) {
            if now_ms() - started >= SLICE_MS {
                return false;
            }
        }
    }
    true
}

/// How long the last report took, in milliseconds since the page started (`performance.now()`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ReportTimings {
    /// When the report without the bootstrap was ready.
    pub first_at_ms: f64,
    /// Time spent computing it.
    pub first_ms: f64,
    /// Time spent drawing the bootstrap (the page busy, not the pauses between slices), once
    /// done.
    pub full_ms: Option<f64>,
    /// When the report with the bootstrap was ready.
    pub full_at_ms: Option<f64>,
}

/// The report of the current key, and where its computation stands.
#[derive(Debug, Clone, Copy)]
pub struct ReportState {
    /// The latest report (first with its bootstraps absent, then with them).
    pub report: RwSignal<Option<Shared<Report>>>,
    /// The latest report as first shown, its bootstraps absent: the parts of the page that do
    /// not show a bootstrap follow it, so filling the bootstrap in does not render them again.
    pub without_bootstrap: RwSignal<Option<Shared<Report>>>,
    /// The run set that report was computed from.
    pub run_set: RwSignal<Option<Shared<RunSet>>>,
    /// The same runs with their rewards as the API published them: the report's run set
    /// without the pass threshold (as of the link's time, the reviewer's ledger applied); the
    /// same set without a threshold. What the task panel lists, so a reviewer reads the
    /// published reward, never its 0/1.
    pub published: RwSignal<Option<Shared<RunSet>>>,
    /// That run set before the reviewer's ledger was applied (the same without a ledger): what
    /// the ledger's candidates and their previews read.
    pub before_ledger: RwSignal<Option<Shared<RunSet>>>,
    /// Why the report cannot be built.
    pub error: RwSignal<Option<ComputeError>>,
    /// The share of the report's steps done, while a report is being built in slices.
    pub build_progress: RwSignal<Option<f64>>,
    /// The share of the bootstrap's resamples drawn, while it is being computed.
    pub bootstrap_progress: RwSignal<Option<f64>>,
    /// Timings of the last computation.
    pub timings: RwSignal<Option<ReportTimings>>,
}

impl ReportState {
    /// True while the report shown lacks the bootstrap that is being computed.
    pub fn bootstrap_pending(&self) -> Signal<bool> {
        let progress = self.bootstrap_progress;
        Signal::derive(move || progress.with(Option::is_some))
    }
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
        yield_to_page().await;
    };
    let frame = std::pin::pin!(frame);
    // Whichever comes first; without frames (a hidden tab) the timeout goes on.
    let _ = select(frame, TimeoutFuture::new(250)).await;
}

/// Computes the report of `key` whenever it changes: first without the bootstrap, built a
/// step at a time (about [`SLICE_MS`] at a time, the page painting between; a small report
/// within its first slice, before the page paints), then, after a paint and a slice at a time,
/// with the bootstrap. Until a new key's report is ready the previous one stays; a newer key
/// stops the work of the older one.
pub fn use_report(key: Memo<Option<ReportKey>>) -> ReportState {
    let state = ReportState {
        report: RwSignal::new(None),
        without_bootstrap: RwSignal::new(None),
        run_set: RwSignal::new(None),
        published: RwSignal::new(None),
        before_ledger: RwSignal::new(None),
        error: RwSignal::new(None),
        build_progress: RwSignal::new(None),
        bootstrap_progress: RwSignal::new(None),
        timings: RwSignal::new(None),
    };
    let latest = StoredValue::new(0u64);
    Effect::new(move |_| {
        latest.update_value(|count| *count += 1);
        let this = latest.get_value();
        let Some(key) = key.get() else {
            state.report.set(None);
            state.without_bootstrap.set(None);
            state.run_set.set(None);
            state.published.set(None);
            state.before_ledger.set(None);
            state.error.set(None);
            state.build_progress.set(None);
            state.bootstrap_progress.set(None);
            return;
        };
        spawn_local(compute(key, this, latest, state));
    });
    state
}

/// Computes the report of `key` into `state` while `latest` holds `this`.
async fn compute(key: ReportKey, this: u64, latest: StoredValue<u64>, state: ReportState) {
    let current = move || latest.try_get_value() == Some(this);
    // A newer key came before this task ran: its report replaces this one.
    if !current() {
        return;
    }
    let fail = move |error: ComputeError| {
        state.report.try_set(None);
        state.without_bootstrap.try_set(None);
        state.error.try_set(Some(error));
        state.build_progress.try_set(None);
        state.bootstrap_progress.try_set(None);
    };
    // Shown as of a link: the report and the task panel both read the runs as of then; with a
    // pass threshold, both read the rewards scored pass/fail (the CLI's `build_report` does the
    // same, so the numbers agree).
    // The task panel reads the rewards as published.
    let as_of = key.as_of_applied();
    let unthresholded = as_of.clone();
    let key = match pass_thresholded(as_of) {
        Ok(key) => key,
        Err(error) => return fail(error),
    };
    let before_ledger = key.set.clone();
    let (key, ledger_pass) = match apply_ledger(key) {
        Ok(applied) => applied,
        Err(error) => return fail(error),
    };
    let published = match published_set(&key, unthresholded) {
        Ok(set) => set,
        Err(error) => return fail(error),
    };
    let passes = if ledger_pass.is_some() { 2.0 } else { 1.0 };
    let progress = move |share: f64| {
        state.build_progress.try_set(Some(share / passes));
    };
    let (deferred, mut busy_ms) = match build_stepwise(&key, current, progress).await {
        Ok(Some(built)) => built,
        Ok(None) => return,
        Err(error) => return fail(error),
    };
    let DeferredReport {
        report: mut first,
        mut bootstraps,
    } = deferred;
    if let Some(pass) = ledger_pass {
        let later = move |share: f64| progress(1.0 + share);
        let (without, without_ms) = match build_stepwise(&pass.without, current, later).await {
            Ok(Some(built)) => built,
            Ok(None) => return,
            Err(error) => return fail(error),
        };
        busy_ms += without_ms;
        attach_ledger(&mut first, &without.report, &key.ledger, &pass.effects);
    }
    let first_at_ms = now_ms();
    #[cfg(debug_assertions)]
    let resamples = key.settings.resamples;
    let pending = !bootstraps.is_empty();
    let first = Shared::new(first);
    state.error.try_set(None);
    // Before the run set, which the page waits for to mount the report.
    state.published.try_set(Some(published));
    state.run_set.try_set(Some(key.set.clone()));
    state.before_ledger.try_set(Some(before_ledger));
    state.without_bootstrap.try_set(Some(first.clone()));
    state.report.try_set(Some(first.clone()));
    state.build_progress.try_set(None);
    state.bootstrap_progress.try_set(pending.then_some(0.0));
    let timings = ReportTimings {
        first_at_ms,
        first_ms: busy_ms,
        full_ms: None,
        full_at_ms: None,
    };
    state.timings.try_set(Some(timings));
    #[cfg(debug_assertions)]
    leptos::logging::log!(
        "eval-compare: report without the bootstrap ready at performance.now() = {:.0} ms (computed in {:.0} ms)",
        timings.first_at_ms,
        timings.first_ms
    );
    if !pending {
        return;
    }
    // The headline is painted, then the rest of the page (mounted in stages, one after each
    // paint), and only then does the bootstrap take its first slice.
    for _ in 0..=BELOW_FOLD_STAGES {
        after_paint().await;
    }
    let mut busy_ms = 0.0;
    loop {
        if !current() {
            return;
        }
        let slice = now_ms();
        let done = draw_slice(&mut bootstraps);
        busy_ms += now_ms() - slice;
        if done {
            break;
        }
        state
            .bootstrap_progress
            .try_set(Some(share_drawn(&bootstraps)));
        // Let the page paint and handle input before the next slice.
        yield_to_page().await;
    }
    let slice = now_ms();
    let mut full = Report::clone(&first);
    for pending in bootstraps {
        let (slot, result) = pending.complete();
        full.fill_bootstrap(slot, result);
    }
    let done = now_ms();
    busy_ms += done - slice;
    state.report.try_set(Some(Shared::new(full)));
    state.bootstrap_progress.try_set(None);
    let timings = ReportTimings {
        full_ms: Some(busy_ms),
        full_at_ms: Some(done),
        ..timings
    };
    state.timings.try_set(Some(timings));
    #[cfg(debug_assertions)]
    leptos::logging::log!(
        "eval-compare: report with the bootstrap (B = {}) ready at performance.now() = {:.0} ms (computed in {:.0} ms)",
        resamples,
        done,
        busy_ms
    );
}

/// The whole report of `key` (bootstraps drawn) computed in slices of about [`SLICE_MS`], the
/// page painting between them: what `eval-compare report` computes for the same runs and
/// settings (a scorecard's cell, see [`crate::state::scorecard`]). `None` once `current` says
/// it is no longer wanted.
pub async fn full_report_in_slices(
    key: ReportKey,
    current: impl Fn() -> bool + Copy,
) -> Result<Option<Report>, ComputeError> {
    let key = pass_thresholded(key.as_of_applied())?;
    let Some((deferred, _)) = build_stepwise(&key, current, |_| {}).await? else {
        return Ok(None);
    };
    let DeferredReport {
        report: mut full,
        mut bootstraps,
    } = deferred;
    while !draw_slice(&mut bootstraps) {
        yield_to_page().await;
        if !current() {
            return Ok(None);
        }
    }
    for pending in bootstraps {
        let (slot, result) = pending.complete();
        full.fill_bootstrap(slot, result);
    }
    Ok(Some(full))
}
